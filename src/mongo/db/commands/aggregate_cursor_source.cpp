#include "mongo/db/commands/aggregate_cursor_source.h"

#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/commands/explain_common.h"
#include "mongo/db/commands/server_source_stages.h"
#include "mongo/db/query/collation_spec.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/server_options.h"
#include "mongo/db/server_parameters.h"
#include "mongo/db/service_context.h"
#include "mongo/db/views/view_catalog.h"

#include <chrono>
#include <unistd.h>

namespace mongo {

AggregateRequest parseAggregateRequest(const OpMsgRequest& req) {
    AggregateRequest ar;
    BSONElement first = req.body.firstElement();
    if (first.isNumber() && first.numberDouble() == 1) {
        ar.collectionless = true;
        ar.nss = NamespaceString(req.db(), "$cmd.aggregate");
    } else if (first.type() == String) {
        ar.nss = commandTargetNamespace(req);
    } else {
        uasserted(ErrorCodes::FailedToParse,
                  "Invalid command format: the 'aggregate' field must specify a collection name or 1");
    }
    BSONElement p = req.body["pipeline"];
    if (p.eoo()) uasserted(ErrorCodes::Location40414, "BSON field 'aggregate.pipeline' is missing but a required field");
    if (p.type() != Array)
        uasserted(ErrorCodes::TypeMismatch, "BSON field 'aggregate.pipeline' is the wrong type '" + typeName(p.type()) +
                                                "', expected type 'array'");
    for (BSONElement s : p.Obj()) {
        if (s.type() != Object)
            uasserted(ErrorCodes::TypeMismatch, "Each element of the 'pipeline' array must be an object");
        ar.stages.push_back(s.Obj().getOwned());
    }
    ar.explain = !req.body["explain"].eoo() && parseBoolArg(req.body["explain"], "aggregate");
    BSONElement cursor = req.body["cursor"];
    if (cursor.eoo() && !ar.explain)
        uasserted(ErrorCodes::FailedToParse, "The 'cursor' option is required, except for aggregate with the explain argument");
    if (!cursor.eoo()) {
        BSONObj c = parseObjectArg(cursor, "aggregate");
        checkStrictFields(c, "aggregate.cursor", {"batchSize"});
        if (!c["batchSize"].eoo()) {
            ar.batchSize = parseIntegerArg(c["batchSize"], "aggregate.cursor");
            if (ar.batchSize < 0)
                uasserted(51024, "BSON field 'batchSize' value must be >= 0, actual value '" + std::to_string(ar.batchSize) + "'");
        }
    }
    ar.hint = parseHint(req.body["hint"]);
    ar.collation = parseCollationOption(req.body["collation"], "aggregate.collation");
    ar.let = CommandLetVariables::parse(parseObjectArg(req.body["let"], "aggregate"));
    // Absent: allowDiskUseByDefault (true since MongoDB 6.0).
    ar.allowDiskUse = req.body["allowDiskUse"].eoo() ? allowDiskUseByDefault() : req.body["allowDiskUse"].trueValue();
    return ar;
}

namespace {
// The one document $collStats produces: {ns, host, localTime, storageStats?, count?}.
BSONObj collStatsDocument(OperationContext* opCtx, const NamespaceString& nss, const BSONElement& spec) {
    if (spec.type() != Object)
        uasserted(5447000, "$collStats must take a nested object but found: " + spec.toString());
    BSONObjBuilder b;
    b.append("ns", nss.ns());
    b.append("host", hostAndPort());
    b.append("localTime", Date_t::now());
    for (BSONElement opt : spec.Obj()) {
        std::string_view name = opt.fieldNameStringData();
        if (name == "storageStats") {
            long long scale = 1;
            if (opt.type() == Object && opt.Obj()["scale"].isNumber()) scale = std::max(1LL, opt.Obj()["scale"].numberLong());
            BSONObjBuilder& ss = b.subobjStart("storageStats");
            appendCollectionStorageStats(opCtx, nss, scale, ss);
            ss.doneFast();
        } else if (name == "count") {
            Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
            if (!coll) ViewCatalog::uassertNotView(opCtx, nss);
            if (!coll) uasserted(ErrorCodes::NamespaceNotFound, "Collection [" + nss.ns() + "] not found.");
            b.append("count", coll->numRecords(opCtx));
        } else if (name == "latencyStats" || name == "queryExecStats") {
            BSONObjBuilder empty;
            b.append(name, empty.obj());
        } else {
            uasserted(40415, "BSON field '$collStats." + std::string(name) + "' is an unknown field.");
        }
    }
    return b.obj();
}

// Does the pipeline need nothing of the documents its leading $match selects but their number?
// ($skip/$limit, then $count or a $group by a constant whose accumulators are all {$sum: n}:
// what drivers' countDocuments sends.) Then the plan may count keys (COUNT_SCAN) instead of
// fetching documents, as MongoDB does.
bool onlyCountsDocuments(const std::vector<BSONObj>& stages) {
    if (stages.size() < 2 || stages[0].firstElementFieldName() != "$match" || stages[0].firstElement().type() != Object)
        return false;
    for (size_t i = 1; i < stages.size(); i++) {
        std::string_view name = stages[i].firstElementFieldName();
        if (name == "$skip" || name == "$limit") continue;
        if (name == "$count") return true;
        if (name != "$group" || stages[i].firstElement().type() != Object) return false;
        for (BSONElement f : stages[i].firstElement().Obj()) {
            if (f.fieldNameStringData() == "_id") {
                bool fieldPath = f.type() == String && f.valueStringData().substr(0, 1) == "$";
                if (fieldPath || f.type() == Object || f.type() == Array) return false;
                continue;
            }
            if (f.type() != Object || f.Obj().nFields() != 1) return false;
            BSONElement acc = f.Obj().firstElement();
            if (acc.fieldNameStringData() != "$sum" || !acc.isNumber()) return false;
        }
        return true;
    }
    return false;
}
}  // namespace

AggregateCursorSource::AggregateCursorSource(OperationContext* opCtx, const AggregateRequest& ar)
    : _client(opCtx->getClient()), _nss(ar.nss) {
    PipelineContext ctx;
    ctx.db = ar.nss.db();
    ctx.allowDiskUse = ar.allowDiskUse;
    ctx.letVars = ar.let.asExpressions();
    // The pipeline's collation: the command's, else the collection's default. Every stage
    // follows it, including reads of other collections ($lookup, $unionWith ...).
    const Collection* sourceColl =
        ar.collectionless ? nullptr : CollectionCatalog::get()->lookupCollection(opCtx, ar.nss);
    CollatorPtr collator = resolveCollation(ar.collation, sourceColl);
    ctx.collator = collator;
    Client* client = _client;
    std::string db = ar.nss.db();
    ctx.openCollection = [client, db, collator, this](const std::string& coll) -> std::function<std::optional<BSONObj>()> {
        NamespaceString fnss(db, coll);
        auto tmp = makeOperationContext(client);
        const Collection* c = CollectionCatalog::get()->lookupCollection(tmp.get(), fnss);
        if (!c) {
            // $lookup/$graphLookup/$unionWith from a view read the view's pipeline over its
            // collection (views/view_catalog.h).
            if (auto view = ViewCatalog::resolve(tmp.get(), fnss)) {
                AggregateRequest inner;
                inner.nss = view->collection;
                inner.stages = view->pipeline;
                inner.allowDiskUse = true;
                // A view is read under its own collation, which must be the pipeline's.
                uassert(ErrorCodes::OptionNotSupportedOnView,
                        "Cannot override a view's default collation: the view " + fnss.ns() +
                            " has a collation different from the pipeline's",
                        sameCollation(collator, view->collator));
                inner.collation.given = true;  // the view's collation, not its collection's
                inner.collation.collator = view->collator;
                auto src = std::make_shared<AggregateCursorSource>(tmp.get(), inner);
                return [src, this]() { return src->next(_interruptCtx); };
            }
        }
        auto exec = std::make_shared<PlanExecutor>(client, c, fnss, QueryRequest{});
        return [exec, this]() { return exec->getNext(_interruptCtx); };
    };
    ctx.writeOutput = [this, collator](const BSONObj& stage, const std::vector<BSONObj>& docs) {
        _pendingOutput = PendingOutput{stage.getOwned(), docs, collator};
    };
    ctx.checkForInterrupt = [this]() {
        if (_interruptCtx) _interruptCtx->checkForInterrupt();
    };
    std::vector<BSONObj> stages = ar.stages;
    // Stages the server answers ($currentOp, $listLocalSessions; $listSessions, a $match over
    // config.system.sessions), checked against the namespace now, as MongoDB parses them.
    if (!stages.empty() && !stages.front().isEmpty()) {
        if (stages.front().firstElementFieldName() == "$listSessions") {
            BSONObj match = listSessionsAsMatch(ar.nss, ar.collectionless, stages.front());
            if (match.isEmpty()) stages.erase(stages.begin());
            else stages.front() = match;
        } else if (auto gen = prepareServerSourceStage(ar.nss, ar.collectionless, stages.front())) {
            ctx.serverSourceStage = [g = *gen](const BSONObj&) { return g; };
        }
    }
    std::optional<BSONObj> collStats;
    if (!stages.empty() && stages.front().firstElementFieldName() == "$collStats") {
        collStats = collStatsDocument(opCtx, ar.nss, stages.front().firstElement());
        stages.erase(stages.begin());
    }
    // countDocuments: the $match goes to the plan alone, which counts without fetching.
    std::optional<BSONObj> countFilter;
    if (!collStats && !ar.collectionless && onlyCountsDocuments(stages)) {
        countFilter = stages.front().firstElement().Obj().getOwned();
        stages.erase(stages.begin());
    }
    _pipeline = std::make_unique<Pipeline>(stages, std::move(ctx));
    if (collStats) {
        auto doc = std::make_shared<std::optional<BSONObj>>(*collStats);
        _pipeline->setSource([doc]() {
            auto d = *doc;
            doc->reset();
            return d;
        });
    } else if (!ar.collectionless) {
        QueryRequest qr;
        // The leading $match also selects the index; its $expr must see the command's 'let'.
        qr.filter = ar.let.bindInFilter(countFilter ? *countFilter : _pipeline->leadingMatchFilter()).getOwned();
        qr.hint = ar.hint;
        qr.allowDiskUse = ar.allowDiskUse;
        const Collection* coll = sourceColl;
        qr.collation = ar.collation;  // the plan matches and sorts under the pipeline's collation
        _exec = std::make_unique<PlanExecutor>(_client, coll, ar.nss, qr,
                                               countFilter ? PlanPurpose::kCount : PlanPurpose::kFind, "", opCtx);
        _matchPushedDown = true;
        PlanExecutor* exec = _exec.get();
        _pipeline->setSource([exec, this]() { return exec->getNext(_interruptCtx); });
    } else {
        _pipeline->setSource([]() -> std::optional<BSONObj> { return std::nullopt; });
    }
}

std::optional<BSONObj> AggregateCursorSource::next(const OperationContext* interruptCtx) {
    _interruptCtx = interruptCtx;
    return _pipeline->getNext();
}

void AggregateCursorSource::save() {
    if (_exec) _exec->saveState();
}

void AggregateCursorSource::restore() {
    if (_exec) _exec->restoreState(CollectionCatalog::get()->lookupCollection(_exec->storageContext(), _nss));
}

void AggregateCursorSource::appendExplain(OperationContext* opCtx, const std::string& verbosity, const BSONObj& command,
                                          BSONObjBuilder& result) {
    result.append("explainVersion", "1");
    bool execute = verbosity != "queryPlanner";
    long long ms = 0;
    if (execute) {
        auto start = std::chrono::steady_clock::now();
        while (next(opCtx)) {
        }
        ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    }
    // The stages the query layer does not answer: all but a $match the plan absorbed.
    std::vector<BSONObj> rest = _pipeline->serialize();
    if (_matchPushedDown && !rest.empty() && rest.front().firstElementFieldName() == "$match") rest.erase(rest.begin());
    auto appendExecutionStats = [&](BSONObjBuilder& out) {
        PlanStats st = _exec->stats();
        BSONObjBuilder& es = out.subobjStart("executionStats");
        es.append("executionSuccess", true);
        es.appendNumber("nReturned", st.nReturned);
        es.appendNumber("executionTimeMillis", ms);
        es.appendNumber("totalKeysExamined", st.keysExamined);
        es.appendNumber("totalDocsExamined", st.docsExamined);
        es.append("executionStages", _exec->executionStages());
        if (verbosity == "allPlansExecution") es.append("allPlansExecution", _exec->allPlansExecution());
        _exec->storageContext()->dedupReads.appendExplain(es);
        es.doneFast();
    };
    if (_exec && rest.empty()) {
        // The whole pipeline is the query: MongoDB 7.0 explains it as a find, with
        // optimizedPipeline, instead of as stages.
        BSONObjBuilder extra;
        extra.append("optimizedPipeline", true);
        appendQueryPlanner(result, _nss, *_exec, extra.obj());
        if (execute) appendExecutionStats(result);
        result.append("command", command);
        appendServerInfo(result);
        appendServerParameters(result);
        return;
    }
    BSONArrayBuilder stages;
    if (_exec) {
        BSONObjBuilder cursorStage;
        BSONObjBuilder& inner = cursorStage.subobjStart("$cursor");
        appendQueryPlanner(inner, _nss, *_exec);
        if (execute) appendExecutionStats(inner);
        inner.doneFast();
        stages.append(cursorStage.obj());
    }
    for (const BSONObj& s : rest) stages.append(s);
    result.append("stages", stages.arr());
    appendServerInfo(result);
    appendServerParameters(result);
    result.append("command", command);
}

}  // namespace mongo
