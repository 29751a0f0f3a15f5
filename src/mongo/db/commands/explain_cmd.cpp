// explain: the plan (and with executionStats, the counters) of find, aggregate, count,
// distinct, update, delete and findAndModify.
#include <chrono>
#include <unistd.h>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/commands/aggregate_cursor_source.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/build_info.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/server_options.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/query/plan_executor.h"

namespace mongo {


namespace {

void appendServerInfo(BSONObjBuilder& result) {
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    BSONObjBuilder& si = result.subobjStart("serverInfo");
    si.append("host", host);
    si.append("port", serverGlobalParams().port);
    si.append("version", kServerVersion);
    si.append("gitVersion", "0000000000000000000000000000000000000000");
    si.doneFast();
}

// The query (filter/sort/hint...) an explained command runs, as a find would.
QueryRequest queryOf(const std::string& name, const BSONObj& cmd) {
    QueryRequest qr;
    if (name == "find") return parseFindRequest(cmd).qr;
    if (name == "count" || name == "distinct") {
        qr.filter = parseObjectArg(cmd["query"], name.c_str());
        qr.hint = parseHint(cmd["hint"]);
    } else if (name == "findAndModify" || name == "findandmodify") {
        qr.filter = parseObjectArg(cmd["query"], name.c_str());
        qr.sort = parseObjectArg(cmd["sort"], name.c_str());
        qr.hint = parseHint(cmd["hint"]);
    } else if (name == "update" || name == "delete") {
        BSONElement stmts = cmd[name == "update" ? "updates" : "deletes"];
        if (stmts.type() != Array || stmts.Obj().isEmpty())
            uasserted(ErrorCodes::FailedToParse, "explain of " + name + " requires one statement");
        BSONObj s = stmts.Obj().firstElement().Obj();
        qr.filter = parseObjectArg(s["q"], name.c_str());
        qr.hint = parseHint(s["hint"]);
    } else {
        uasserted(ErrorCodes::CommandNotFound, "Explain failed due to unknown command: " + name);
    }
    return qr;
}

class ExplainCmd : public Command {
public:
    ExplainCmd() : Command("explain") {}
    std::string help() const override { return "explain how a command would run"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONElement inner = req.body.firstElement();
        if (inner.type() != Object)
            uasserted(ErrorCodes::FailedToParse, "explain command requires a nested object");
        std::string verbosity = "allPlansExecution";
        BSONElement v = req.body["verbosity"];
        if (!v.eoo()) {
            if (v.type() != String) uasserted(ErrorCodes::FailedToParse, "verbosity must be a string");
            verbosity = v.str();
            if (verbosity != "queryPlanner" && verbosity != "executionStats" && verbosity != "allPlansExecution")
                uasserted(ErrorCodes::FailedToParse, "verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}");
        }
        // The explained command, with the outer $db.
        BSONObjBuilder cb;
        cb.appendElements(inner.Obj());
        if (!inner.Obj().hasField("$db")) cb.append("$db", req.db());
        OpMsgRequest innerReq;
        innerReq.body = cb.obj();
        std::string name = innerReq.commandName();
        if (name == "aggregate") {
            AggregateRequest ar = parseAggregateRequest(innerReq);
            CatalogReadLock lock;
            AggregateCursorSource src(opCtx, ar);
            src.appendExplain(result);
            result.append("command", inner.Obj());
            appendServerInfo(result);
            return;
        }
        NamespaceString nss = commandTargetNamespace(innerReq);
        QueryRequest qr = queryOf(name, innerReq.body);
        CatalogReadLock lock;
        const Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        PlanExecutor exec(opCtx->getClient(), coll, nss, qr);
        result.append("explainVersion", "1");
        BSONObjBuilder& qp = result.subobjStart("queryPlanner");
        qp.append("namespace", nss.ns());
        qp.append("indexFilterSet", false);
        qp.append("parsedQuery", qr.filter);
        qp.append("maxIndexedOrSolutionsReached", false);
        qp.append("maxIndexedAndSolutionsReached", false);
        qp.append("maxScansToExplodeReached", false);
        qp.append("winningPlan", exec.winningPlan());
        BSONArrayBuilder rejected;
        qp.append("rejectedPlans", rejected.arr());
        qp.doneFast();
        if (verbosity != "queryPlanner") {
            // Run the query (reads only: writes are never performed by explain).
            auto start = std::chrono::steady_clock::now();
            while (exec.getNext(opCtx)) {
            }
            long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
            BSONObjBuilder& es = result.subobjStart("executionStats");
            es.append("executionSuccess", true);
            es.append("nReturned", exec.stats().nReturned);
            es.append("executionTimeMillis", ms);
            es.append("totalKeysExamined", exec.stats().keysExamined);
            es.append("totalDocsExamined", exec.stats().docsExamined);
            BSONObjBuilder stages;
            stages.appendElements(exec.winningPlan());
            stages.append("nReturned", exec.stats().nReturned);
            stages.append("executionTimeMillisEstimate", ms);
            stages.append("docsExamined", exec.stats().docsExamined);
            es.append("executionStages", stages.obj());
            if (verbosity == "allPlansExecution") {
                BSONArrayBuilder all;
                es.append("allPlansExecution", all.arr());
            }
            es.doneFast();
        }
        result.append("command", inner.Obj());
        appendServerInfo(result);
    }
};
ExplainCmd explainCmd;

}  // namespace
}  // namespace mongo
