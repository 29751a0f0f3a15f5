#include "mongo/db/catalog/durable_catalog.h"

#include <random>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace {
uint64_t randomU64() {
    static std::mutex m;
    static std::mt19937_64 rng(std::random_device{}());
    std::lock_guard<std::mutex> lk(m);
    return rng();
}
}  // namespace

BSONObj CollectionMetaData::toBSON() const {
    BSONObjBuilder b;
    b.append("ns", ns);
    b.append("uuid", uuid);
    b.append("ident", ident);
    b.append("options", options);
    if (dedup) b.append("dedup", true);
    BSONArrayBuilder& arr = b.subarrayStart("indexes");
    for (const auto& idx : indexes) {
        BSONObjBuilder& e = arr.subobjStart();
        e.append("spec", idx.spec);
        e.append("ident", idx.ident);
        e.append("multikey", idx.multikey);
        e.appendArray("multikeyPaths", multikeyPathsToBSON(idx.multikeyPaths));
        e.doneFast();
    }
    arr.doneFast();
    return b.obj();
}

CollectionMetaData CollectionMetaData::parse(const BSONObj& doc) {
    CollectionMetaData md;
    uassert(ErrorCodes::InternalError, "bad catalog entry: " + doc.toString(),
            doc["ns"].type() == String && doc["ident"].type() == String && doc["indexes"].type() == Array);
    md.ns = doc["ns"].str();
    md.uuid = doc["uuid"].str();
    md.ident = doc["ident"].str();
    md.options = doc["options"].Obj().getOwned();
    md.dedup = doc["dedup"].trueValue();
    for (auto e : doc["indexes"].Obj()) {
        BSONObj o = e.Obj();
        IndexMetaData idx;
        idx.spec = o["spec"].Obj().getOwned();
        idx.ident = o["ident"].str();
        idx.multikey = o["multikey"].trueValue();
        idx.multikeyPaths = multikeyPathsFromBSON(o["multikeyPaths"], idx.spec["key"].Obj(), idx.multikey);
        md.indexes.push_back(std::move(idx));
    }
    return md;
}

IndexMetaData* CollectionMetaData::findIndex(const std::string& name) {
    for (auto& idx : indexes)
        if (idx.spec["name"].str() == name) return &idx;
    return nullptr;
}

DurableCatalog::DurableCatalog(KVEngine* engine) {
    if (!engine->hasIdent(kIdent)) engine->createRecordStore(kIdent, RecordStoreOptions());
    _rs = engine->getRecordStore(kIdent);
    _identSuffix = std::to_string(randomU64() % 10000000000000000000ULL);
}

std::vector<std::pair<RecordId, CollectionMetaData>> DurableCatalog::getAll(OperationContext* opCtx) const {
    std::vector<std::pair<RecordId, CollectionMetaData>> out;
    auto cursor = _rs->getCursor(opCtx, true);
    while (auto r = cursor->next()) out.emplace_back(r->id, CollectionMetaData::parse(r->data.toBson()));
    return out;
}

RecordId DurableCatalog::add(OperationContext* opCtx, const CollectionMetaData& md) {
    BSONObj doc = md.toBSON();
    return _rs->insertRecord(opCtx, doc.objdata(), doc.objsize());
}

void DurableCatalog::update(OperationContext* opCtx, RecordId id, const CollectionMetaData& md) {
    BSONObj doc = md.toBSON();
    _rs->updateRecord(opCtx, id, doc.objdata(), doc.objsize());
}

void DurableCatalog::remove(OperationContext* opCtx, RecordId id) { _rs->deleteRecord(opCtx, id); }

std::string DurableCatalog::newCollectionIdent() {
    return "collection-" + std::to_string(_next++) + "-" + _identSuffix;
}

std::string DurableCatalog::newIndexIdent() { return "index-" + std::to_string(_next++) + "-" + _identSuffix; }

bool DurableCatalog::isCollectionOrIndexIdent(const std::string& ident) {
    return ident.rfind("collection-", 0) == 0 || ident.rfind("index-", 0) == 0;
}

}  // namespace mongo
