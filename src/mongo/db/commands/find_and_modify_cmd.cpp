// findAndModify: atomically update or remove one document and return it.
#include "mongo/db/auth/command_privileges.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/server_status_counters.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/pipeline/command_let.h"
#include "mongo/db/pipeline/value.h"
#include "mongo/db/query/collation_spec.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/query/projection.h"
#include "mongo/db/repl/retryable_write.h"
#include "mongo/db/repl/session_txn_storage.h"

namespace mongo {


namespace {

// A retried findAndModify (its statement executed under this txnNumber): the reply rebuilt from
// its oplog entry and, for an update or a remove, the image config.image_collection holds, as
// MongoDB 7.0 does (no projection is applied to it, as there). The request must be the same
// kind of write as the original (40606 / 40608 / 40609 / 40607 / 40611 / 40612).
void answerFromHistory(OperationContext* opCtx, repl::RetryableWrite* rw, const repl::StatementOutcome& done,
                       bool remove, bool upsert, bool returnNew, BSONObjBuilder& result) {
    const std::string where = std::string(" is not compatible with previous write in the transaction of type: ") +
                              done.op + ", oplogTs: " + done.opTime.toString();
    BSONObjBuilder lastError;
    lastError.append("n", 1);
    std::optional<BSONObj> value;
    auto image = [&]() -> BSONObj {
        auto img = repl::readRetryImage(opCtx, rw->sessionId());
        uassert(5637601,
                "image collection no longer contains the complete write history of this transaction, record with "
                "sessionId: " + rw->sessionId().toString() + " cannot be found",
                img.has_value());
        uassert(ErrorCodes::IncompleteTransactionHistory,
                "Incomplete transaction history for sessionId: " + rw->sessionId().toString() +
                    " txnNumber: " + std::to_string(rw->txnNumber()),
                !img->invalidated);
        uassert(5637602,
                "image collection no longer contains the complete write history of this transaction, record with "
                "sessionId: " + rw->sessionId().toString() + " cannot be found",
                img->ts == done.opTime.getTimestamp() && img->txnNum == rw->txnNumber());
        return img->image;
    };
    if (done.op == 'd') {
        uassert(40606, "findAndModify retry request" + where, remove);
        uassert(40607, "No pre-image available for findAndModify retry request", !done.imageKind.empty());
        value = image();
    } else if (done.op == 'i') {
        uassert(40608, "findAndModify retry request" + where, upsert);
        lastError.append("updatedExisting", false);
        lastError.appendAs(done.upsertedId.firstElement(), "upserted");
        if (returnNew) {
            auto entry = repl::readOplogEntry(opCtx, done.opTime);
            uassert(ErrorCodes::IncompleteTransactionHistory,
                    "oplog no longer contains the complete write history of this transaction, log with opTime " +
                        done.opTime.toString() + " cannot be found",
                    entry && (*entry)["o"].type() == Object);
            value = (*entry)["o"].embeddedObject().getOwned();
        }
    } else {
        uassert(40609, "findAndModify retry request" + where, done.op == 'u');
        if (returnNew)
            uassert(40611, "findAndModify retry request wants the document after update returned, but only before "
                           "update document is stored, oplogTs: " + done.opTime.toString(),
                    done.imageKind == "postImage");
        else
            uassert(40612, "findAndModify retry request wants the document before update returned, but only after "
                           "update document is stored, oplogTs: " + done.opTime.toString(),
                    done.imageKind == "preImage");
        lastError.append("updatedExisting", true);
        value = image();
    }
    result.append("lastErrorObject", lastError.obj());
    if (value) result.append("value", *value);
    else result.appendNull("value");
    rw->appendRetriedStmtId(&result);
}

class FindAndModifyCmd : public Command {
public:
    FindAndModifyCmd() : Command("findAndModify", {"findandmodify"}) {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return auth::findAndModifyPrivileges(req); }
    std::string help() const override { return "update or remove one document and return it"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        uassertStatusOK(NamespaceString::validateUserWritable(nss.db(), nss.coll()));
        const BSONObj& cmd = req.body;
        BSONObj query = parseObjectArg(cmd["query"], "findAndModify");
        BSONObj sort = parseObjectArg(cmd["sort"], "findAndModify");
        BSONObj fields = parseObjectArg(cmd["fields"], "findAndModify");
        bool remove = !cmd["remove"].eoo() && parseBoolArg(cmd["remove"], "findAndModify");
        bool returnNew = !cmd["new"].eoo() && parseBoolArg(cmd["new"], "findAndModify");
        bool upsert = !cmd["upsert"].eoo() && parseBoolArg(cmd["upsert"], "findAndModify");
        if (!cmd["bypassDocumentValidation"].eoo())
            opCtx->bypassDocumentValidation = parseBoolArg(cmd["bypassDocumentValidation"], "findAndModify");
        BSONElement update = cmd["update"];
        if (remove && !update.eoo()) uasserted(ErrorCodes::FailedToParse, "Cannot specify both an update and remove=true");
        if (!remove && update.eoo()) uasserted(ErrorCodes::FailedToParse, "Either an update or remove=true must be specified");
        if (remove && upsert) uasserted(ErrorCodes::FailedToParse, "Cannot specify both upsert=true and remove=true ");
        if (remove && returnNew)
            uasserted(ErrorCodes::FailedToParse,
                      "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document");
        CollationOption collation = parseCollationOption(cmd["collation"], "findAndModify.collation");
        CommandLetVariables let = CommandLetVariables::parse(parseObjectArg(cmd["let"], "findAndModify"));
        query = let.bindInFilter(query);
        bool bypassEmptyTs = !cmd["bypassEmptyTsReplacement"].eoo() &&
                             parseBoolArg(cmd["bypassEmptyTsReplacement"], "findAndModify");
        std::unique_ptr<Projection> proj;
        if (!fields.isEmpty()) proj = std::make_unique<Projection>(fields);
        // The projection's expressions compare under the command's collation, else the
        // collection's default (looked up when the result is projected).
        auto project = [&](const BSONObj& d) {
            if (!proj) return d;
            CollatorPtr c = collation.collator;
            if (!collation.given) {
                CatalogReadLock lock;
                c = resolveCollation(collation, CollectionCatalog::get()->lookupCollection(opCtx, nss));
            }
            ValueComparisonScope scope(c.get());
            return proj->apply(d);
        };

        if (repl::RetryableWrite* rw = repl::RetryableWrite::get(opCtx)) {
            const int stmtId = rw->stmtIdAt(0);
            if (auto done = rw->checkStatementExecuted(stmtId)) {
                answerFromHistory(opCtx, rw, *done, remove, upsert, returnNew, result);
                return;
            }
            // The image a retry must be able to return: the removed document, or the one
            // this request returns.
            rw->setCurrentStatement(stmtId, remove || !returnNew ? "preImage" : "postImage");
        }
        BSONObjBuilder lastError;
        std::optional<BSONObj> value;
        if (remove) {
            globalOpCounters().gotDelete(1);
            BSONObj deleted;
            long long n = performDelete(opCtx, nss, query, true, parseHint(cmd["hint"]), sort, &deleted, collation);
            lastError.append("n", static_cast<int>(n));
            if (n) value = project(deleted);
        } else {
            globalOpCounters().gotUpdate(1);
            UpdateStatement s;
            s.q = query;
            s.u = update;
            s.upsert = upsert;
            s.sort = sort;
            s.hint = parseHint(cmd["hint"]);
            s.letVars = let.asExpressions();
            s.bypassEmptyTsReplacement = bypassEmptyTs;
            s.collation = collation;
            if (BSONElement af = cmd["arrayFilters"]; !af.eoo()) {
                if (af.type() != Array)
                    uasserted(ErrorCodes::TypeMismatch, "BSON field 'findAndModify.arrayFilters' is the wrong type '" +
                                                            typeName(af.type()) + "', expected type 'array'");
                for (BSONElement f : af.Obj()) {
                    if (f.type() != Object)
                        uasserted(ErrorCodes::TypeMismatch, "arrayFilters entries must be objects");
                    s.arrayFilters.push_back(f.Obj());
                }
            }
            UpdateResult r = performUpdate(opCtx, nss, s, true);
            lastError.append("n", static_cast<int>(r.nMatched + (r.upsertedId ? 1 : 0)));
            lastError.append("updatedExisting", r.nMatched > 0);
            if (r.upsertedId) lastError.appendAs(r.upsertedId->firstElement(), "upserted");
            if (r.nMatched) value = project(returnNew ? r.postImage : r.preImage);
            else if (r.upsertedId && returnNew) value = project(r.postImage);
        }
        result.append("lastErrorObject", lastError.obj());
        if (value) result.append("value", *value);
        else result.appendNull("value");
    }
};
FindAndModifyCmd findAndModifyCmd;

}  // namespace
}  // namespace mongo
