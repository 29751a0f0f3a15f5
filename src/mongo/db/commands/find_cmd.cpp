// find, getMore, killCursors.
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/server_status_counters.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/query/find_cursor_source.h"

namespace mongo {


namespace {

class FindCmd : public Command {
public:
    FindCmd() : Command("find") {}
    std::string help() const override { return "query for documents"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        FindRequest fr = parseFindRequest(req.body);
        CatalogReadLock lock;
        const Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        auto cursor = std::make_unique<ClientCursor>();
        cursor->nss = nss;
        cursor->lsid = opCtx->lsid;
        cursor->noTimeout = fr.noCursorTimeout;
        cursor->source = std::make_unique<FindCursorSource>(
            std::make_unique<PlanExecutor>(opCtx->getClient(), coll, nss, fr.qr, PlanPurpose::kFind, "", opCtx));
        BSONArrayBuilder docs;
        bool exhausted = fillBatch(opCtx, *cursor, fr.batchSize, docs);
        long long id = 0;
        if (!exhausted && !fr.singleBatch) {
            cursor->source->save();
            id = CursorManager::get().registerCursor(std::move(cursor));
        }
        appendCursorReply(result, "firstBatch", docs.arr(), id, nss.ns());
    }
};
FindCmd findCmd;

class GetMoreCmd : public Command {
public:
    GetMoreCmd() : Command("getMore") {}
    std::string help() const override { return "retrieve more results from an existing cursor"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        BSONElement idElem = req.body.firstElement();
        if (idElem.type() != NumberLong)
            uasserted(ErrorCodes::TypeMismatch, "BSON field 'getMore.getMore' is the wrong type '" +
                                                    typeName(idElem.type()) + "', expected type 'long'");
        BSONElement collElem = req.body["collection"];
        if (collElem.type() != String)
            uasserted(collElem.eoo() ? ErrorCodes::Location40414 : ErrorCodes::TypeMismatch,
                      "BSON field 'getMore.collection' is missing but a required field");
        long long batchSize = -1;  // absent or 0: as many as fit in 16 MB
        if (!req.body["batchSize"].eoo()) {
            batchSize = parseIntegerArg(req.body["batchSize"], "getMore");
            if (batchSize < 0)
                uasserted(51024, "BSON field 'batchSize' value must be >= 0, actual value '" + std::to_string(batchSize) + "'");
            if (batchSize == 0) batchSize = -1;
        }
        long long id = idElem.numberLong();
        NamespaceString nss(req.db(), collElem.valueStringData());
        uassertStatusOK(NamespaceString::validateCursorNamespace(nss.db(), nss.coll()));
        auto cursor = CursorManager::get().checkOut(id);
        if (!cursor) uasserted(ErrorCodes::CursorNotFound, "cursor id " + std::to_string(id) + " not found");
        if (cursor->nss != nss) {
            CursorManager::get().checkIn(std::move(cursor));
            uasserted(ErrorCodes::Unauthorized, "Requested getMore on namespace '" + nss.ns() +
                                                    "', but cursor belongs to a different namespace");
        }
        CatalogReadLock lock;
        BSONArrayBuilder docs;
        bool exhausted;
        try {
            cursor->source->restore();
            exhausted = fillBatch(opCtx, *cursor, batchSize, docs);
            if (!exhausted) cursor->source->save();
        } catch (...) {
            CursorManager::get().forget(id);  // a failed getMore kills the cursor, as in MongoDB
            throw;
        }
        if (exhausted) CursorManager::get().forget(id);
        else CursorManager::get().checkIn(std::move(cursor));
        appendCursorReply(result, "nextBatch", docs.arr(), exhausted ? 0 : id, nss.ns());
    }
};
GetMoreCmd getMoreCmd;

class KillCursorsCmd : public Command {
public:
    KillCursorsCmd() : Command("killCursors") {}
    std::string help() const override { return "kill a list of cursor ids"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        // The namespace of a command cursor ("$cmd.listCollections"...) is a valid target here.
        BSONElement first = req.body.firstElement();
        if (first.type() != String)
            uasserted(ErrorCodes::InvalidNamespace, "collection name has invalid type " + typeName(first.type()));
        uassertStatusOK(NamespaceString::validateCursorNamespace(req.db(), first.valueStringData()));
        BSONElement ids = req.body["cursors"];
        if (ids.type() != Array)
            uasserted(ErrorCodes::Location40414, "BSON field 'killCursors.cursors' is missing but a required field");
        BSONArrayBuilder killed, notFound, alive, unknown;
        for (BSONElement e : ids.Obj()) {
            if (e.type() != NumberLong)
                uasserted(ErrorCodes::TypeMismatch, "BSON field 'killCursors.cursors' is the wrong type");
            long long id = e.numberLong();
            if (CursorManager::get().kill(id)) killed.append(id);
            else notFound.append(id);
        }
        result.append("cursorsKilled", killed.arr());
        result.append("cursorsNotFound", notFound.arr());
        result.append("cursorsAlive", alive.arr());
        result.append("cursorsUnknown", unknown.arr());
    }
};
KillCursorsCmd killCursorsCmd;

}  // namespace
}  // namespace mongo
