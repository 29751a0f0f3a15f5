#include "mongo/db/repl/rollback.h"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/remote_client.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {
namespace {

constexpr size_t kChunk = 1000;  // entries read per step, on either side

struct Entry {
    OpTime opTime;
    BSONObj doc;
};

// Up to n of our entries older than `below` (all when below is null), newest first. Each call
// scans from the newest entry: divergences are short (what one primary wrote unreplicated).
std::vector<Entry> ourEntriesBelow(OperationContext* opCtx, const OpTime& below, size_t n) {
    std::vector<Entry> out;
    CatalogReadLock lock;
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, LocalOplog::nss());
    if (!oplog) return out;
    auto cursor = oplog->getCursor(opCtx, false);
    while (out.size() < n) {
        auto r = cursor->next();
        if (!r) break;
        auto parsed = OplogEntry::parse(r->doc);
        uassertStatusOK(parsed.getStatus());
        const OpTime t = parsed.getValue().opTime;
        if (!below.isNull() && !(t.getTimestamp() < below.getTimestamp())) continue;
        out.push_back({t, r->doc.getOwned()});
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    return out;
}

// The source's oplog from a timestamp down, newest first, a batch at a time.
class RemoteOplogBackwards {
public:
    RemoteOplogBackwards(RemoteClient* source, Timestamp from) : _source(source) {
        BSONObjBuilder q;
        q.append("find", "oplog.rs");
        BSONObjBuilder filter;
        BSONObjBuilder lte;
        lte.append("$lte", from);
        filter.append("ts", lte.obj());
        q.append("filter", filter.obj());
        BSONObjBuilder sort;
        sort.append("$natural", -1);
        q.append("sort", sort.obj());
        q.append("batchSize", static_cast<long long>(kChunk));
        take(source->runCommand("local", q.obj()), "firstBatch");
    }
    ~RemoteOplogBackwards() {
        if (_cursorId == 0) return;
        BSONObjBuilder kill;
        kill.append("killCursors", "oplog.rs");
        BSONArrayBuilder ids;
        ids.append(_cursorId);
        kill.appendArray("cursors", ids.arr());
        _source->runCommand("local", kill.obj());
    }
    // The current entry, or nullptr at the end of the source's oplog.
    const Entry* current() {
        while (_pos >= _batch.size() && _cursorId != 0) {
            BSONObjBuilder more;
            more.append("getMore", _cursorId);
            more.append("collection", "oplog.rs");
            take(_source->runCommand("local", more.obj()), "nextBatch");
        }
        return _pos < _batch.size() ? &_batch[_pos] : nullptr;
    }
    void advance() { ++_pos; }

private:
    void take(const StatusWith<BSONObj>& reply, const char* field) {
        uassertStatusOK(reply.getStatus());
        BSONObj cursor = reply.getValue()["cursor"].embeddedObject();
        _cursorId = cursor["id"].numberLong();
        _batch.clear();
        _pos = 0;
        for (BSONElement e : cursor[field].embeddedObject()) {
            auto parsed = OplogEntry::parse(e.embeddedObject());
            uassertStatusOK(parsed.getStatus());
            _batch.push_back({parsed.getValue().opTime, e.embeddedObject().getOwned()});
        }
    }
    RemoteClient* _source;
    long long _cursorId = 0;
    std::vector<Entry> _batch;
    size_t _pos = 0;
};

std::string fileTime() {
    std::time_t now = std::time(nullptr);
    std::tm tm;
    gmtime_r(&now, &tm);
    char buf[40];
    std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H-%M-%S.0", &tm);
    return buf;
}

// The _id of the document an insert or update entry wrote, as {_id: value}; empty for others.
BSONObj touchedId(const OplogEntry& e) {
    BSONElement id;
    if (e.op == OpTypeEnum::kInsert)
        id = e.o["_id"];
    else if (e.op == OpTypeEnum::kUpdate && e.o2)
        id = (*e.o2)["_id"];
    if (id.eoo()) return BSONObj();
    BSONObjBuilder b;
    b.appendAs(id, "_id");
    return b.obj();
}

}  // namespace

StatusWith<RollbackPlan> findCommonPoint(OperationContext* opCtx, RemoteClient* source) {
    try {
        RollbackPlan plan;
        size_t kept = 0;
        std::vector<Entry> ours = ourEntriesBelow(opCtx, OpTime(), kChunk);
        if (ours.empty()) return plan;
        RemoteOplogBackwards theirs(source, ours.front().opTime.getTimestamp());
        size_t i = 0;
        while (true) {
            if (i == ours.size()) {
                ours = ourEntriesBelow(opCtx, ours.back().opTime, kChunk);
                i = 0;
                if (ours.empty()) return plan;  // our oplog ended first: no common point
            }
            const Entry* t = theirs.current();
            if (!t) return plan;  // theirs ended first (rolled over): no common point
            const Entry& o = ours[i];
            if (o.opTime == t->opTime) {
                plan.commonPoint = o.opTime;
                return plan;
            }
            if (t->opTime.getTimestamp() < o.opTime.getTimestamp() || o.opTime.getTimestamp() == t->opTime.getTimestamp()) {
                // Ours is newer than anything left of theirs, or the same time in another term.
                if (kept + size_t(o.doc.objsize()) <= kMaxDivergentBytes) {
                    kept += size_t(o.doc.objsize());
                    plan.divergent.push_back(o.doc);
                } else {
                    plan.truncated = true;
                }
                if (o.opTime.getTimestamp() == t->opTime.getTimestamp()) theirs.advance();
                ++i;
            } else {
                theirs.advance();
            }
        }
    } catch (const DBException& e) {
        return e.toStatus();
    }
}

long long writeRollbackFiles(OperationContext* opCtx, const std::string& dbpath, const std::vector<BSONObj>& divergent) {
    // Per namespace, the documents touched (once each, however many entries touched them).
    std::map<std::string, std::vector<BSONObj>> ids;
    std::map<std::string, std::set<std::string>> seen;
    for (const BSONObj& doc : divergent) {
        auto parsed = OplogEntry::parse(doc);
        if (!parsed.isOK()) continue;
        const OplogEntry& e = parsed.getValue();
        if (e.ns.rfind("local.", 0) == 0) continue;
        BSONObj id = touchedId(e);
        if (id.isEmpty()) continue;
        if (seen[e.ns].insert(std::string(id.objdata(), size_t(id.objsize()))).second) ids[e.ns].push_back(id);
    }
    long long written = 0;
    const std::string when = fileTime();
    for (const auto& [ns, list] : ids) {
        CatalogReadLock lock;
        Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, NamespaceString::parse(ns));
        if (!coll) continue;  // dropped since: nothing of it is left to save
        std::string docs;
        long long n = 0;
        for (const BSONObj& id : list) {
            std::optional<Record> r = findDocumentById(opCtx, coll, id.firstElement());
            if (!r) continue;
            docs.append(r->doc.objdata(), size_t(r->doc.objsize()));
            ++n;
        }
        opCtx->recoveryUnit()->abandonSnapshot();
        if (n == 0) continue;
        const std::string dirName = coll->uuid().size() == 32 ? uuidHexDashed(coll->uuid()) : ns;
        std::error_code ec;
        const std::filesystem::path dir = std::filesystem::path(dbpath) / "rollback" / dirName;
        std::filesystem::create_directories(dir, ec);
        const std::filesystem::path file = dir / ("removed." + when + ".bson");
        std::ofstream out(file, std::ios::binary | std::ios::app);
        out.write(docs.data(), std::streamsize(docs.size()));
        out.close();
        uassert(ErrorCodes::FileStreamFailed,
                "could not write the rollback file " + file.string() + " for " + ns + (ec ? ": " + ec.message() : ""),
                !ec && out);
        LOGV2(21609, Replication, "Rollback: wrote the rolled-back documents of a collection",
              logv2::attrs("namespace", ns, "uuid", dirName, "file", file.string(), "documents", n));
        written += n;
    }
    return written;
}

}  // namespace repl
}  // namespace mongo
