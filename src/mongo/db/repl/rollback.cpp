#include "mongo/db/repl/rollback.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
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
#include "mongo/db/repl/session_txn_storage.h"
#include "mongo/db/repl/transaction_oplog.h"
#include "mongo/util/log.h"

namespace mongo {
namespace repl {
namespace {

constexpr size_t kChunk = 1000;  // entries read per step, on either side

struct Entry {
    OpTime opTime;
    BSONObj doc;
    RecordId id;
};

// Up to n of our entries, newest first: from the newest one, or after `from` (the last of the
// previous chunk: the scan goes on from there, without holding the lock between chunks).
// Empty at the end (or if `from` is gone meanwhile: the oplog rolled over it).
std::vector<Entry> ourEntries(OperationContext* opCtx, const std::optional<RecordId>& from, size_t n) {
    std::vector<Entry> out;
    CatalogReadLock lock;
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, LocalOplog::nss());
    if (!oplog) return out;
    auto cursor = oplog->getCursor(opCtx, false);
    if (from && !cursor->seekExact(*from)) return out;
    while (out.size() < n) {
        auto r = cursor->next();
        if (!r) break;
        auto parsed = OplogEntry::parse(r->doc);
        uassertStatusOK(parsed.getStatus());
        out.push_back({parsed.getValue().opTime, r->doc.getOwned(), r->id});
    }
    opCtx->recoveryUnit()->abandonSnapshot();
    return out;
}

std::string fileTime() {
    std::time_t now = std::time(nullptr);
    std::tm tm;
    gmtime_r(&now, &tm);
    char buf[40];
    std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H-%M-%S.0", &tm);
    return buf;
}

// The _id of the document an insert, update or delete entry wrote, as {_id: value}; empty
// for others.
BSONObj touchedId(const OplogEntry& e) {
    BSONElement id;
    if (e.op == OpTypeEnum::kInsert || e.op == OpTypeEnum::kDelete)
        id = e.o["_id"];
    else if (e.op == OpTypeEnum::kUpdate && e.o2)
        id = (*e.o2)["_id"];
    if (id.eoo()) return BSONObj();
    BSONObjBuilder b;
    b.appendAs(id, "_id");
    return b.obj();
}

std::string bytesOf(const BSONObj& o) { return std::string(o.objdata(), size_t(o.objsize())); }

}  // namespace

StatusWith<RollbackPlan> findCommonPoint(OperationContext* opCtx, RemoteClient* source) {
    try {
        RollbackPlan plan;
        size_t kept = 0;
        std::vector<Entry> ours = ourEntries(opCtx, std::nullopt, kChunk);
        if (ours.empty()) return plan;
        // The source's oplog from our newest entry's timestamp down, newest first.
        BSONObjBuilder q;
        q.append("find", "oplog.rs");
        BSONObjBuilder filter;
        BSONObjBuilder lte;
        lte.append("$lte", ours.front().opTime.getTimestamp());
        filter.append("ts", lte.obj());
        q.append("filter", filter.obj());
        BSONObjBuilder sort;
        sort.append("$natural", -1);
        q.append("sort", sort.obj());
        q.append("batchSize", static_cast<long long>(kChunk));
        RemoteCursor theirs(source, "local", q.obj());
        // The optime of the source's next entry; nullopt at the end of its oplog.
        auto theirNext = [&]() -> std::optional<OpTime> {
            const BSONObj* d = theirs.next();
            if (!d) return std::nullopt;
            auto parsed = OplogEntry::parse(*d);
            uassertStatusOK(parsed.getStatus());
            return parsed.getValue().opTime;
        };
        std::optional<OpTime> t = theirNext();
        size_t i = 0;
        while (true) {
            if (i == ours.size()) {
                ours = ourEntries(opCtx, ours.back().id, kChunk);
                i = 0;
                if (ours.empty()) return plan;  // our oplog ended first: no common point
            }
            if (!t) return plan;  // theirs ended first (rolled over): no common point
            const Entry& o = ours[i];
            if (o.opTime == *t) {
                plan.commonPoint = o.opTime;
                plan.commonPointWall = o.doc["wall"].type() == Date ? o.doc["wall"].date() : Date_t();
                return plan;
            }
            if (!(o.opTime.getTimestamp() < t->getTimestamp())) {
                // Ours is newer than anything left of theirs, or the same time in another term.
                if (kept + size_t(o.doc.objsize()) <= kMaxDivergentBytes) {
                    kept += size_t(o.doc.objsize());
                    plan.divergent.push_back(o.doc);
                } else {
                    plan.truncated = true;
                }
                if (o.opTime.getTimestamp() == t->getTimestamp()) t = theirNext();
                ++i;
            } else {
                t = theirNext();
            }
        }
    } catch (const DBException& e) {
        return e.toStatus();
    }
}

TouchedDocuments touchedDocuments(OperationContext* opCtx, const std::vector<BSONObj>& divergent) {
    TouchedDocuments out;
    std::map<std::string, std::set<std::string>> seenIds;
    std::set<std::string> seenSessions;
    auto note = [&](const OplogEntry& e) {
        if (e.ns.rfind("local.", 0) == 0) return;
        BSONObj id = touchedId(e);
        if (id.isEmpty()) return;
        if (seenIds[e.ns].insert(bytesOf(id)).second) out.ids[e.ns].push_back(id);
    };
    for (const BSONObj& doc : divergent) {
        auto parsed = OplogEntry::parse(doc);
        if (!parsed.isOK()) {
            out.commands.push_back(doc);  // not understood: nothing may be assumed of it
            continue;
        }
        const OplogEntry& e = parsed.getValue();
        if (e.isRetryableWrite() && seenSessions.insert(bytesOf(e.lsid)).second) out.sessions.push_back(e.lsid.getOwned());
        if (e.op != OpTypeEnum::kCommand) {
            note(e);
            continue;
        }
        if (!e.isApplyOps()) {
            out.commands.push_back(doc);
            continue;
        }
        if (isPartialTransactionEntry(e)) continue;  // its operations are the commit entry's
        // A transaction's commit: the operations of its whole chain, read back while our oplog
        // holds them; if an earlier entry is gone, those of the commit entry alone, and the
        // transaction counts as a command (what it did is not known in full).
        std::vector<BSONObj> ops;
        try {
            ops = transactionOperations(e, [&](const OpTime& t) { return readOplogEntry(opCtx, t); });
        } catch (const DBException&) {
            out.commands.push_back(doc);
            BSONElement own = e.o["applyOps"];
            if (own.type() == Array)
                for (BSONElement op : own.embeddedObject())
                    if (op.type() == Object) ops.push_back(op.embeddedObject());
        }
        for (const BSONObj& op : ops) {
            auto inner = OplogEntry::parseApplyOpsElement(op);
            if (!inner.isOK() || inner.getValue().op == OpTypeEnum::kCommand) {
                out.commands.push_back(op.getOwned());  // a collection or index made in the transaction
                continue;
            }
            note(inner.getValue());
        }
    }
    return out;
}

long long writeRollbackFiles(OperationContext* opCtx, const std::string& dbpath, const TouchedDocuments& touched) {
    long long written = 0;
    const std::string when = fileTime();
    for (const auto& [ns, list] : touched.ids) {
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
        // On disk (fsync) before the caller discards the documents.
        bool ok = !ec;
        if (ok) {
            const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            ok = fd >= 0;
            for (size_t off = 0; ok && off < docs.size();) {
                const ssize_t w = ::write(fd, docs.data() + off, docs.size() - off);
                if (w < 0 && errno == EINTR) continue;
                ok = w > 0;
                off += ok ? size_t(w) : 0;
            }
            if (fd >= 0) {
                ok = ok && ::fsync(fd) == 0;
                ok = ::close(fd) == 0 && ok;
            }
            // The new file's (and directories') names too.
            for (const std::filesystem::path& d : {dir, dir.parent_path()}) {
                const int dfd = ::open(d.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                ok = ok && dfd >= 0 && ::fsync(dfd) == 0;
                if (dfd >= 0) ::close(dfd);
            }
        }
        uassert(ErrorCodes::FileStreamFailed,
                "could not write the rollback file " + file.string() + " for " + ns +
                    (ec ? ": " + ec.message() : std::string(": ") + std::strerror(errno)),
                ok);
        LOGV2(21609, Replication, "Rollback: wrote the rolled-back documents of a collection",
              logv2::attrs("namespace", ns, "uuid", dirName, "file", file.string(), "documents", n));
        written += n;
    }
    return written;
}

}  // namespace repl
}  // namespace mongo
