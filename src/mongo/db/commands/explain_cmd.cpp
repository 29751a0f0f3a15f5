// explain: the plan (and with executionStats, the counters) of find, aggregate, count,
// distinct, update, delete and findAndModify, in MongoDB 7.0's shape: queryPlanner.winningPlan
// is the stage tree, with COUNT / DELETE / UPDATE on top for those commands; executionStats
// repeats it with each stage's counters. Writes are never performed.
#include <chrono>
#include <limits>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/commands/aggregate_cursor_source.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/views/view_requests.h"
#include "mongo/db/commands/command_args.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/commands/explain_common.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/query/collation_spec.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/query/plan_executor.h"

namespace mongo {
namespace {

// What an explained command runs: the query, what it does with the results, and for writes
// the statement.
struct ExplainedQuery {
    QueryRequest qr;
    PlanPurpose purpose = PlanPurpose::kFind;
    std::string distinctKey;
    enum class Top { kNone, kCount, kDelete, kUpdate } top = Top::kNone;
    UpdateStatement update;  // kUpdate
    BSONObj updateHolder;    // keeps update.u alive
    bool multi = true;       // delete/update: all matches, or the first
};

ExplainedQuery queryOf(const std::string& name, const BSONObj& cmd) {
    ExplainedQuery x;
    QueryRequest& qr = x.qr;
    if (name == "find") {
        x.qr = parseFindRequest(cmd).qr;
        return x;
    }
    if (name == "count") {
        qr.filter = parseObjectArg(cmd["query"], name.c_str());
        qr.hint = parseHint(cmd["hint"]);
        if (!cmd["skip"].eoo()) qr.skip = parseIntegerArg(cmd["skip"], "count");
        if (!cmd["limit"].eoo()) {
            // As the count command: a negative limit counts like a positive one; -2^63 has no
            // positive counterpart and means no limit.
            long long l = parseIntegerArg(cmd["limit"], "count");
            qr.limit = l >= 0 ? l : l == std::numeric_limits<long long>::min() ? 0 : -l;
        }
        x.purpose = PlanPurpose::kCount;
        x.top = ExplainedQuery::Top::kCount;
    } else if (name == "distinct") {
        qr.filter = parseObjectArg(cmd["query"], name.c_str());
        qr.hint = parseHint(cmd["hint"]);
        x.purpose = PlanPurpose::kDistinct;
        x.distinctKey = cmd["key"].str();
    } else if (name == "findAndModify" || name == "findandmodify") {
        x.updateHolder = cmd.getOwned();
        qr.filter = parseObjectArg(x.updateHolder["query"], name.c_str());
        qr.sort = parseObjectArg(x.updateHolder["sort"], name.c_str());
        qr.hint = parseHint(x.updateHolder["hint"]);
        qr.limit = 1;
        x.purpose = PlanPurpose::kWrite;
        x.multi = false;
        if (cmd["remove"].trueValue()) {
            x.top = ExplainedQuery::Top::kDelete;
        } else {
            x.top = ExplainedQuery::Top::kUpdate;
            x.update.q = qr.filter;
            x.update.u = x.updateHolder["update"];
            x.update.upsert = cmd["upsert"].trueValue();
        }
    } else if (name == "update" || name == "delete") {
        BSONElement stmts = cmd[name == "update" ? "updates" : "deletes"];
        if (stmts.type() != Array || stmts.Obj().isEmpty())
            uasserted(ErrorCodes::FailedToParse, "explain of " + name + " requires one statement");
        BSONObj s = stmts.Obj().firstElement().Obj().getOwned();
        x.updateHolder = s;  // the filter and the update point into it
        qr.filter = parseObjectArg(s["q"], name.c_str());
        qr.hint = parseHint(s["hint"]);
        x.purpose = PlanPurpose::kWrite;
        if (name == "delete") {
            x.top = ExplainedQuery::Top::kDelete;
            x.multi = s["limit"].eoo() || parseIntegerArg(s["limit"], "delete") == 0;
        } else {
            x.top = ExplainedQuery::Top::kUpdate;
            x.multi = s["multi"].trueValue();
            x.update.q = qr.filter;
            x.update.u = x.updateHolder["u"];
            x.update.upsert = s["upsert"].trueValue();
            x.update.multi = x.multi;
            if (s["arrayFilters"].type() == Array)
                for (BSONElement af : s["arrayFilters"].Obj())
                    if (af.type() == Object) x.update.arrayFilters.push_back(af.Obj());
        }
        if (!x.multi) qr.limit = 1;
    } else {
        uasserted(ErrorCodes::CommandNotFound, "Explain failed due to unknown command: " + name);
    }
    return x;
}

BSONObj stageOver(const char* stage, const BSONObj& input, const std::function<void(BSONObjBuilder&)>& fill = nullptr) {
    BSONObjBuilder b;
    b.append("stage", stage);
    if (fill) fill(b);
    if (!input.isEmpty()) b.append("inputStage", input);
    return b.obj();
}

class ExplainCmd : public Command {
public:
    ExplainCmd() : Command("explain") {}
    // Explaining a command needs what running it needs.
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        BSONElement inner = req.body.firstElement();
        if (inner.type() != Object || inner.Obj().isEmpty()) return RequiredPrivileges::onDatabase(req.db(), {ActionType::find});
        OpMsgRequest innerReq;
        BSONObjBuilder cb;
        cb.appendElements(inner.Obj());
        if (!inner.Obj().hasField("$db")) cb.append("$db", req.db());
        innerReq.body = cb.obj();
        const Command* c = findCommand(innerReq.commandName());
        if (!c || c == this) return RequiredPrivileges::onDatabase(req.db(), {ActionType::find});
        return c->requiredPrivileges(innerReq);
    }
    std::string help() const override { return "explain how a command would run"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONElement inner = req.body.firstElement();
        if (inner.type() != Object) uasserted(ErrorCodes::FailedToParse, "explain command requires a nested object");
        std::string verbosity = "allPlansExecution";
        BSONElement v = req.body["verbosity"];
        if (!v.eoo()) {
            if (v.type() != String) uasserted(ErrorCodes::FailedToParse, "verbosity must be a string");
            verbosity = v.str();
            if (verbosity != "queryPlanner" && verbosity != "executionStats" && verbosity != "allPlansExecution")
                uasserted(ErrorCodes::FailedToParse,
                          "verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}");
        }
        // The explained command, with the outer $db.
        BSONObjBuilder cb;
        cb.appendElements(inner.Obj());
        if (!inner.Obj().hasField("$db")) cb.append("$db", req.db());
        OpMsgRequest innerReq;
        innerReq.body = cb.obj();
        std::string name = innerReq.commandName();
        // An aggregate (the command itself, or what a read of a view runs) explains its stages.
        auto explainAggregate = [&](const AggregateRequest& ar) {
            CatalogReadLock lock;
            AggregateCursorSource src(opCtx, ar);
            src.appendExplain(opCtx, verbosity, inner.Obj(), result);
        };
        if (name == "aggregate") {
            AggregateRequest ar = parseAggregateRequest(innerReq);
            resolveAggregate(opCtx, ar);  // a view: its stages first, over its collection
            explainAggregate(ar);
            return;
        }
        NamespaceString nss = commandTargetNamespace(innerReq);
        // The explained command's own fields are checked as if it ran: explain never accepts an
        // option the command would refuse.
        if (const Command* inner = findCommand(name))
            if (const CommandArgs* args = findCommandArgs(inner->name())) args->check(innerReq.body);
        for (const char* stmts : {"updates", "deletes"})
            if (innerReq.body[stmts].type() == Array)
                for (BSONElement st : innerReq.body[stmts].Obj())
                    if (st.type() == Object) parseCollationOption(st.Obj()["collation"], name + "." + stmts + ".collation");
        ExplainedQuery x = queryOf(name, innerReq.body);
        if (name != "find") {
            // The command's or its first statement's collation (find's is parsed with it).
            BSONElement c = innerReq.body["collation"];
            for (const char* stmts : {"updates", "deletes"})
                if (innerReq.body[stmts].type() == Array && !innerReq.body[stmts].Obj().isEmpty() &&
                    innerReq.body[stmts].Obj().firstElement().type() == Object)
                    c = innerReq.body[stmts].Obj().firstElement().Obj()["collation"];
            x.qr.collation = parseCollationOption(c, name + ".collation");
            x.update.collation = x.qr.collation;
        }
        if (auto view = resolveViewForRead(opCtx, nss)) {
            uassertViewCollation(x.qr.collation, view->collator.get());
            // Reads of a view explain the aggregate they run (views/view_requests.h); writes
            // are refused as the command itself refuses them.
            if (name != "find" && name != "count" && name != "distinct")
                uassertStatusOK(ViewCatalog::notCollectionStatus(nss));
            explainAggregate(name == "find" ? findAsAggregate(*view, innerReq, parseFindRequest(innerReq.body))
                             : name == "count" ? countAsAggregate(*view, x.qr)
                                               : distinctAsAggregate(*view, x.qr));
            return;
        }
        CatalogReadLock lock;
        const Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        // count of everything: the record store's count, no plan at all.
        bool fastCount = x.top == ExplainedQuery::Top::kCount && coll && x.qr.filter.isEmpty() && x.qr.hint.isEmpty();
        QueryRequest planned = x.qr;
        long long countSkip = 0, countLimit = 0;
        if (x.top == ExplainedQuery::Top::kCount) {
            countSkip = planned.skip;
            countLimit = planned.limit;
            planned.skip = planned.limit = 0;
        }
        PlanExecutor exec(opCtx->getClient(), coll, nss, planned, x.purpose, x.distinctKey, opCtx);

        auto wrap = [&](const BSONObj& plan, const std::function<void(BSONObjBuilder&)>& stats) -> BSONObj {
            switch (x.top) {
                case ExplainedQuery::Top::kNone: return plan;
                case ExplainedQuery::Top::kCount:
                    if (fastCount) return stageOver("RECORD_STORE_FAST_COUNT", BSONObj(), stats);
                    return stageOver("COUNT", plan, stats);
                case ExplainedQuery::Top::kDelete: return stageOver("DELETE", plan, stats);
                case ExplainedQuery::Top::kUpdate: return stageOver("UPDATE", plan, stats);
            }
            return plan;
        };

        result.append("explainVersion", "1");
        appendQueryPlanner(result, nss, exec, BSONObj(), [&](const BSONObj& plan) { return wrap(plan, nullptr); });

        if (verbosity != "queryPlanner") {
            // Run the plan (reads only: writes are never performed by explain).
            auto start = std::chrono::steady_clock::now();
            long long n = 0, wouldModify = 0;
            RecordId id;
            BSONObj raw;
            long long stopAt = 0;
            // The statement's collation, else the collection's default, which the plan resolved.
            if (!x.update.collation.given) {
                x.update.collation.given = true;
                x.update.collation.collator = exec.query().request().collation.collator;
            }
            if (countLimit > 0 && __builtin_add_overflow(countSkip, countLimit, &stopAt)) stopAt = 0;
            while ((stopAt == 0 || n < stopAt) && exec.getNext(opCtx, &id, &raw)) {
                n++;
                if (x.top == ExplainedQuery::Top::kUpdate && updateWouldModify(x.update, raw)) wouldModify++;
            }
            long long ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
            PlanStats st = exec.stats();
            BSONObjBuilder& es = result.subobjStart("executionStats");
            es.append("executionSuccess", true);
            es.appendNumber("nReturned", x.top == ExplainedQuery::Top::kNone ? st.nReturned : 0LL);
            es.appendNumber("executionTimeMillis", ms);
            es.appendNumber("totalKeysExamined", fastCount ? 0LL : st.keysExamined);
            es.appendNumber("totalDocsExamined", fastCount ? 0LL : st.docsExamined);
            long long counted = std::max(0LL, n - countSkip);
            bool upsert = x.top == ExplainedQuery::Top::kUpdate && n == 0 && x.update.upsert;
            es.append("executionStages", wrap(exec.executionStages(), [&](BSONObjBuilder& b) {
                b.appendNumber("nReturned", 0);
                b.append("executionTimeMillisEstimate", ms);
                b.appendNumber("works", n + 1);
                b.appendNumber("advanced", 0);
                b.append("isEOF", 1);
                switch (x.top) {
                    case ExplainedQuery::Top::kCount:
                        b.appendNumber("nCounted", fastCount && coll ? coll->numRecords(opCtx) : counted);
                        b.appendNumber("nSkipped", std::min(n, countSkip));
                        break;
                    case ExplainedQuery::Top::kDelete: b.appendNumber("nWouldDelete", n); break;
                    case ExplainedQuery::Top::kUpdate:
                        b.appendNumber("nMatched", n);
                        b.appendNumber("nWouldModify", upsert ? 0LL : wouldModify);
                        b.append("nWouldUpsert", upsert ? 1 : 0);
                        break;
                    default: break;
                }
            }));
            if (verbosity == "allPlansExecution") es.append("allPlansExecution", exec.allPlansExecution());
            // The executor reads through its own storage context: its figures are this query's.
            exec.storageContext()->dedupReads.appendExplain(es);
            es.doneFast();
        }
        result.append("command", inner.Obj());
        appendServerInfo(result);
        appendServerParameters(result);
    }
};
ExplainCmd explainCmd;

}  // namespace
}  // namespace mongo
