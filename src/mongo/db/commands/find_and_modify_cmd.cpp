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

namespace mongo {


namespace {

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
