// validate: reads every record and checks the indexes against the documents.
#include "mongo/bson/uuid.h"
#include "mongo/db/views/view_catalog.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_helpers.h"

namespace mongo {
namespace {

class ValidateCmd : public Command {
public:
    ValidateCmd() : Command("validate") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::validate}); }
    std::string help() const override { return "check a collection's records and indexes"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        NamespaceString nss = commandTargetNamespace(req);
        bool full = !req.body["full"].eoo() && req.body["full"].trueValue();
        for (const char* f : {"repair", "metadata"})
            if (BSONElement e = req.body[f]; !e.eoo() && parseBoolArg(e, "validate"))
                uasserted(ErrorCodes::InvalidOptions,
                          std::string("BSON field 'validate.") + f + "' is not supported by this server");
        CollectionWriteLock lock;  // a consistent view: no writes during validation
        Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        if (!coll && ViewCatalog::isView(opCtx, nss)) uasserted(ErrorCodes::CommandNotSupportedOnView, "Cannot validate a view");
        if (!coll) uasserted(ErrorCodes::NamespaceNotFound, "Collection '" + nss.ns() + "' does not exist to validate.");
        std::vector<std::string> errors, warnings;
        long long nrecords = 0, invalid = 0, bytes = 0;
        auto cursor = coll->getCursor(opCtx);
        while (true) {
            std::optional<Record> r;
            try {
                r = cursor->next();
            } catch (const DBException& e) {
                errors.push_back("record could not be read: " + e.toStatus().toString());
                invalid++;
                break;
            }
            if (!r) break;
            nrecords++;
            bytes += r->doc.objsize();
            auto checked = BSONObj::fromUntrusted(r->doc.objdata(), r->doc.objsize());
            if (!checked.isOK()) {
                invalid++;
                errors.push_back("record " + r->id.toString() + " is not valid BSON: " + checked.getStatus().reason());
            }
            if ((nrecords & 1023) == 0) opCtx->checkForInterrupt();
        }
        // The storage layer's own checks (dedup: every stored form decodes when full, and
        // reference counts match what the stored forms say).
        coll->validateStorageLayer(opCtx, full, &errors, &warnings, &result);
        if (nrecords != coll->numRecords(opCtx))
            warnings.push_back("the collection's record count (" + std::to_string(coll->numRecords(opCtx)) +
                               ") differs from the records found (" + std::to_string(nrecords) + ")");
        IndexCatalog* ic = coll->getIndexCatalog();
        BSONObjBuilder keysPerIndex, indexDetails;
        for (const IndexDescriptor* d : ic->getAllIndexes()) {
            long long keys = ic->numKeys(opCtx, d);
            keysPerIndex.append(d->name, keys);
            bool valid = true;
            // Every document has exactly one key in a full (not sparse, not partial), non-multikey
            // index; a partial index holds keys only for the documents its filter matches.
            if (!d->sparse && !d->partial && !ic->isMultikey(opCtx, d) && keys != nrecords) {
                valid = false;
                errors.push_back("index " + d->name + " has " + std::to_string(keys) + " keys but the collection has " +
                                 std::to_string(nrecords) + " records");
            }
            BSONObjBuilder det;
            det.append("valid", valid);
            indexDetails.append(d->name, det.obj());
        }
        auto arr = [](const std::vector<std::string>& v) {
            BSONArrayBuilder a;
            for (auto& s : v) a.append(s);
            return a.arr();
        };
        result.append("ns", nss.ns());
        appendUuidHex(result, "uuid", coll->uuid());  // a UUID, as MongoDB reports it
        result.append("nInvalidDocuments", invalid);
        result.append("nNonCompliantDocuments", 0);
        result.append("nrecords", nrecords);
        result.append("nIndexes", static_cast<int>(ic->getAllIndexes().size()));
        result.append("keysPerIndex", keysPerIndex.obj());
        result.append("indexDetails", indexDetails.obj());
        result.append("valid", errors.empty());
        result.append("repaired", false);
        result.append("warnings", arr(warnings));
        result.append("errors", arr(errors));
        BSONArrayBuilder none1, none2, none3;
        result.append("extraIndexEntries", none1.arr());
        result.append("missingIndexEntries", none2.arr());
        result.append("corruptRecords", none3.arr());
        if (full) result.append("dataSize", bytes);
    }
};
ValidateCmd validateCmd;

}  // namespace
}  // namespace mongo
