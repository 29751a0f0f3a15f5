#include "mongo/db/repl/dedup/oplog_delta_encoding.h"

#include <cstring>

#include <murmurhash.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection_impl.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/dedup/delta_encoder.h"
#include "mongo/db/dedup/delta_format.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/dedup/dedup_repl_stats.h"
#include "mongo/db/storage/dedup/dedup_record_store.h"
#include "mongo/db/storage/dedup/dedup_storage.h"
#include "mongo/util/fail_point.h"

namespace mongo {

// dedupMissingSource: a member rebuilding an encoded entry acts as if it did not hold the
// source (tests of the supplemental fetch).
MONGO_FAIL_POINT_DEFINE(dedupMissingSource);

namespace {
// An update entry's o smaller than this goes as it is: a delta would not be smaller, and
// building one indexes the whole pre-image on the writer's path.
constexpr int kMinEncodedUpdateBytes = 256;
}  // namespace

namespace repl {
namespace {

Collection* collectionOf(OperationContext* opCtx, const BSONObj& entry) {
    BSONElement ns = entry["ns"];
    if (ns.type() != String) return nullptr;
    try {
        return CollectionCatalog::get()->lookupCollection(opCtx, NamespaceString::parse(ns.str()));
    } catch (const DBException&) {
        return nullptr;
    }
}

// The collection's dedup record store, or null (not deduplicated on this member).
DedupRecordStore* dedupStoreOf(const Collection* c) {
    auto* impl = dynamic_cast<const CollectionImpl*>(c);
    return impl ? dynamic_cast<DedupRecordStore*>(impl->recordStore()) : nullptr;
}

// Updates' deltas are kept beside the inserts' in the forward delta cache, under the
// collection's engine namespace with this suffix and the entry's timestamp as the id.
std::string updatesNs(const DedupRecordStore* rs) { return rs->engineNs() + "\x01updates"; }

bool isOp(const BSONObj& entry, const char* op) {
    BSONElement e = entry["op"];
    return e.type() == String && e.valueStringData() == op;
}

// The rebuilt document's 64-bit digest, sent with the delta: the delta's own CRC32C tells a
// wrong source from the right one by accident, not against a client who controls the source,
// its update and the new document (CRC32C is linear); this does.
long long documentDigest(const char* data, size_t len) {
    uint64_t h[2];
    lmmh_x64_128(data, static_cast<unsigned>(len), 0x6464'7570u, h);
    return static_cast<long long>(h[0]);
}

// What an entry may carry as a delta: an insert's document, or an update's o (the new document
// or the $v: 2 diff). Empty otherwise.
BSONObj encodableObject(const BSONObj& entry, bool* update) {
    BSONElement o = entry["o"];
    if (o.type() != Object) return BSONObj();
    *update = isOp(entry, "u");
    if (isOp(entry, "i")) return o.embeddedObject();
    if (*update && entry["o2"].type() == Object && !entry["o2"].embeddedObject()["_id"].eoo() &&
        entry["ts"].type() == bsonTimestamp)
        return o.embeddedObject();
    return BSONObj();
}

// entry with o replaced (by {_id} or by the whole document) and $dedup dropped or appended.
BSONObj withDocument(const BSONObj& entry, const BSONObj& o, const BSONObj* encoding) {
    BSONObjBuilder b;
    for (BSONElement e : entry) {
        std::string_view name = e.fieldNameStringData();
        if (name == "o")
            b.append("o", o);
        else if (name != kEncodedEntryField)
            b.append(e);
    }
    if (encoding) b.append(kEncodedEntryField, *encoding);
    return b.obj();
}

// entry as sent encoded: o replaced by newO, and $dedup naming the source by sourceId (an _id
// element) with the delta and the digest of doc (the bytes the member rebuilds).
BSONObj encodedEntry(const BSONObj& entry, const BSONObj& newO, const BSONElement& sourceId, const std::string& delta,
                     const BSONObj& doc) {
    BSONObjBuilder enc;
    enc.appendAs(sourceId, "b");
    enc.appendBinData("d", int(delta.size()), 0, delta.data());
    enc.append("h", documentDigest(doc.objdata(), size_t(doc.objsize())));
    const BSONObj encoding = enc.obj();
    return withDocument(entry, newO, &encoding);
}

// Why an eligible entry goes whole (a counter), or null with *out the encoded entry.
std::atomic<long long>* tryEncode(OperationContext* opCtx, Collection* c, DedupRecordStore* rs,
                                  const BSONObj& entry, const BSONObj& doc, bool update,
                                  const AwaitEncoder& awaitEncoder, BSONObj* out) {
    DedupReplStats& stats = DedupReplStats::get();
    DedupStorage* svc = DedupStorage::get();
    if (!svc) return &stats.wholeNotEncoded;
    if (update) {
        // Its source is the document's previous version, which a member holds under o2's _id;
        // o (its own bytes: the new document or the diff) is rebuilt, so o goes as {}.
        auto fd = svc->forwardDeltas().get(updatesNs(rs), static_cast<int64_t>(entry["ts"].timestamp().asULL()));
        if (!fd || !fd->encoded()) return &stats.wholeNotEncoded;
        *out = encodedEntry(entry, BSONObj(), entry["o2"].embeddedObject()["_id"], fd->delta, doc);
        return nullptr;
    }
    const BSONElement id = doc["_id"];
    if (id.eoo()) return &stats.wholeNotEncoded;
    auto rid = findRecordIdById(opCtx, c, id);
    if (!rid) return &stats.wholeRecordGone;  // deleted since: its source may be gone too
    auto fd = svc->forwardDeltas().get(rs->engineNs(), rid->repr());
    if (!fd && awaitEncoder) fd = awaitEncoder(rs->engineNs(), rid->repr());
    if (!fd || !fd->encoded()) return &stats.wholeNotEncoded;
    // The source is still there under the same record id (a member finds it by _id). Whether it
    // still holds the bytes the delta was made against is for the member to find out (the
    // delta's CRC32C and the document digest): reading and decoding it here for every member
    // that fetches would cost more than the rare supplemental fetch.
    if (fd->sourceKey.size() < 5) return &stats.wholeSourceGone;
    BSONObj sourceKey(fd->sourceKey.data());
    auto srcRid = findRecordIdById(opCtx, c, sourceKey.firstElement());
    if (!srcRid || srcRid->repr() != fd->sourceId) return &stats.wholeSourceGone;
    BSONObjBuilder idOnly;
    idOnly.append(id);
    *out = encodedEntry(entry, idOnly.obj(), sourceKey.firstElement(), fd->delta, doc);
    return nullptr;
}

}  // namespace

BSONObj encodeForMember(OperationContext* opCtx, const BSONObj& entry, const AwaitEncoder& awaitEncoder) {
    bool update = false;
    const BSONObj doc = encodableObject(entry, &update);
    if (doc.isEmpty()) return entry;
    Collection* c = collectionOf(opCtx, entry);
    DedupRecordStore* rs = c ? dedupStoreOf(c) : nullptr;
    if (!rs) return entry;
    DedupReplStats& stats = DedupReplStats::get();
    BSONObj out = entry;
    std::atomic<long long>* whole;
    try {
        whole = tryEncode(opCtx, c, rs, entry, doc, update, awaitEncoder, &out);
    } catch (const DBException&) {
        // A source that cannot be read (DataCorruptionDetected...): validate reports it; the
        // member gets the entry as stored.
        whole = &stats.wholeError;
    }
    if (whole) {
        whole->fetch_add(1, std::memory_order_relaxed);
        stats.entriesWhole.fetch_add(1, std::memory_order_relaxed);
        out = entry;
    } else {
        stats.entriesEncoded.fetch_add(1, std::memory_order_relaxed);
    }
    stats.logicalBytes.fetch_add(entry.objsize(), std::memory_order_relaxed);
    stats.sentBytes.fetch_add(out.objsize(), std::memory_order_relaxed);
    return out;
}

void noteUpdate(OperationContext* opCtx, const Collection& coll, const BSONObj& pre, const BSONObj& o,
                const Timestamp& ts) {
    DedupStorage* svc = DedupStorage::get();
    DedupRecordStore* rs = dedupStoreOf(&coll);
    if (!svc || !rs || o.objsize() < kMinEncodedUpdateBytes || !ReplicationCoordinator::get()->isReplSet() ||
        pre.isEmpty())
        return;
    const dedup::Options& opts = svc->engine().options();
    thread_local dedup::DeltaEncoder encoder(opts.anchorInterval, opts.minAnchors, opts.deltaGapSearch);
    std::string delta = encoder.encode(reinterpret_cast<const uint8_t*>(pre.objdata()), size_t(pre.objsize()),
                                       reinterpret_cast<const uint8_t*>(o.objdata()), size_t(o.objsize()),
                                       opts.compressDeltas);
    if (delta.size() >= size_t(o.objsize()) * opts.maxDeltaFraction) return;  // not worth a delta
    // Kept now, not at commit: the entry is visible to fetchers the moment it commits, before
    // any commit handler has run. An aborted write leaves a delta under a timestamp no entry
    // has; should another entry ever take it, the digest (of that entry's o, computed when it
    // is sent) tells the member, which then fetches it whole.
    // The source id only says "encoded" here: the member finds the source by the entry's o2._id.
    svc->forwardDeltas().put(updatesNs(rs), static_cast<int64_t>(ts.asULL()), {1, std::move(delta), std::string()});
}

bool isEncodedEntry(const BSONObj& fetched) { return fetched.hasField(kEncodedEntryField); }

namespace {

StatusWith<DecodedEntry> decodeOrThrow(OperationContext* opCtx, const BSONObj& fetched) {
    auto missing = [](const std::string& why) {
        return StatusWith<DecodedEntry>(ErrorCodes::NoSuchKey, "cannot rebuild a forward-encoded oplog entry: " + why);
    };
    BSONElement enc = fetched[kEncodedEntryField];
    BSONElement o = fetched["o"];
    const bool insert = isOp(fetched, "i");
    if (enc.type() != Object || o.type() != Object || (insert && o.embeddedObject()["_id"].eoo()) ||
        (!insert && !isOp(fetched, "u")))
        return Status(ErrorCodes::FailedToParse, "malformed forward-encoded oplog entry");
    const BSONObj encoding = enc.embeddedObject();
    int deltaLen = 0, subtype = 0;
    const char* delta = encoding["d"].type() == BinData ? encoding["d"].binData(&deltaLen, &subtype) : nullptr;
    if (!delta || encoding["b"].eoo() || encoding["h"].type() != NumberLong)
        return Status(ErrorCodes::FailedToParse, "malformed $dedup in an oplog entry");
    if (dedupMissingSource.shouldFail()) return missing("fail point dedupMissingSource");

    CatalogReadLock lock;
    Collection* c = collectionOf(opCtx, fetched);
    if (!c) return missing("no collection " + fetched["ns"].str());
    auto src = findDocumentById(opCtx, c, encoding["b"]);
    if (!src) return missing("the source document is not here");
    std::string rebuilt;
    Status st = dedup::applyDelta(reinterpret_cast<const uint8_t*>(src->doc.objdata()), size_t(src->doc.objsize()),
                                  reinterpret_cast<const uint8_t*>(delta), size_t(deltaLen), &rebuilt);
    if (!st.isOK()) return missing("the source document is not as the delta expects (" + st.reason() + ")");
    // The delta's CRC32C matched; the digest says these are the bytes the source sent. Still,
    // never apply something that is not one valid BSON document (with the entry's _id, for an
    // insert).
    if (documentDigest(rebuilt.data(), rebuilt.size()) != encoding["h"].numberLong())
        return missing("the rebuilt document is not the one the source sent");
    auto parsed = BSONObj::fromUntrusted(rebuilt.data(), rebuilt.size());
    if (!parsed.isOK()) return missing("the rebuilt document is not BSON: " + parsed.getStatus().reason());
    BSONObj doc = parsed.getValue().getOwned();
    if (insert && doc["_id"].woCompare(o.embeddedObject()["_id"]) != 0)
        return missing("the rebuilt document has another _id");

    DedupReplStats& stats = DedupReplStats::get();
    stats.entriesDecoded.fetch_add(1, std::memory_order_relaxed);
    stats.decodedReceivedBytes.fetch_add(fetched.objsize(), std::memory_order_relaxed);
    DecodedEntry out;
    out.entry = withDocument(fetched, doc, nullptr);
    stats.decodedLogicalBytes.fetch_add(out.entry.objsize(), std::memory_order_relaxed);
    if (dedupStoreOf(c) && insert) {
        // (An update is applied as one: the storage layer re-encodes it by itself.)
        auto r = std::make_shared<ReplicatedDelta>();
        r->sourceId = src->id.repr();
        r->delta.assign(delta, size_t(deltaLen));
        r->recordSize = rebuilt.size();
        r->engineNs = dedupStoreOf(c)->engineNs();
        BSONObjBuilder key;
        key.appendAs(src->doc["_id"], "");
        BSONObj k = key.obj();
        r->sourceKey.assign(k.objdata(), size_t(k.objsize()));
        out.replicated = std::move(r);
    }
    return out;
}

}  // namespace

StatusWith<DecodedEntry> decodeFromLocalSource(OperationContext* opCtx, const BSONObj& fetched) {
    try {
        return decodeOrThrow(opCtx, fetched);
    } catch (const DBException& e) {
        // This member's copy of the source cannot be read: the entry is fetched whole.
        return Status(ErrorCodes::NoSuchKey, "cannot rebuild a forward-encoded oplog entry: " + e.toStatus().toString());
    }
}

}  // namespace repl
}  // namespace mongo
