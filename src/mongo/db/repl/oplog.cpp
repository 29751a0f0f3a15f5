#include "mongo/db/repl/oplog.h"

#include <sys/statvfs.h>

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/repl/logical_clock.h"

namespace mongo {
namespace repl {

const NamespaceString& LocalOplog::nss() {
    static const NamespaceString n = NamespaceString::parse("local.oplog.rs");
    return n;
}

namespace {
thread_local ApplyingEntryScope* tlApplying = nullptr;
thread_local OpTime tlLastAppended;
}  // namespace

ApplyingEntryScope::ApplyingEntryScope(const BSONObj& entry, const OpTime& opTime, Date_t wall)
    : _entry(entry), _opTime(opTime), _wall(wall), _prev(tlApplying) {
    tlApplying = this;
}
ApplyingEntryScope::~ApplyingEntryScope() { tlApplying = _prev; }
ApplyingEntryScope* ApplyingEntryScope::current() { return tlApplying; }

OpTime LocalOplog::lastAppendedOnThisThread() { return tlLastAppended; }
void LocalOplog::resetLastAppendedOnThisThread() { tlLastAppended = OpTime(); }

LocalOplog* LocalOplog::get() {
    static LocalOplog oplog;
    return &oplog;
}

long long LocalOplog::defaultSizeBytes(const std::string& dbpath) {
    constexpr long long kMB = 1024 * 1024;
    constexpr long long kMin = 990 * kMB, kMax = 50 * 1024 * kMB;
    struct statvfs st;
    long long freeBytes = 0;
    if (::statvfs(dbpath.c_str(), &st) == 0) freeBytes = (long long)st.f_bavail * (long long)st.f_frsize;
    return std::clamp(freeBytes / 20, kMin, kMax);
}

bool LocalOplog::exists(OperationContext* opCtx) const {
    return CollectionCatalog::get()->lookupCollection(opCtx, nss()) != nullptr;
}

void LocalOplog::create(OperationContext* opCtx, long long sizeBytes) {
    if (exists(opCtx)) return;
    BSONObjBuilder b;
    b.append("create", "oplog.rs");
    b.append("capped", true);
    b.append("size", sizeBytes);
    auto options = CollectionOptions::parse(b.obj());
    uassertStatusOK(options.getStatus());
    CollectionCatalog::get()->createCollection(opCtx, nss(), options.getValue());
}

OpTime LocalOplog::append(OperationContext* opCtx, OplogEntry* entry) {
    if (ApplyingEntryScope* a = ApplyingEntryScope::current()) {
        if (!a->written) appendVerbatim(opCtx, a->entry(), a->opTime(), a->wall());
        return a->opTime();
    }
    RecoveryUnit* ru = opCtx->recoveryUnit();
    invariant(ru->inUnitOfWork());
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, nss());
    uassert(ErrorCodes::NamespaceNotFound, "the oplog (local.oplog.rs) does not exist", oplog);
    // A write that got past the entry check while this node stepped down must not commit an
    // entry of the old term: the unit of work aborts (the check itself is the coordinator's).
    if (_writeGate) _writeGate();
    Timestamp ts = LogicalClock::get()->reserveTicks();
    // Each entry's writes commit at its timestamp; later entries of the same unit move the
    // commit timestamp forward (WiredTiger allows increasing ones within a transaction).
    ru->setCommitTimestamp(ts.asULL());
    entry->opTime = OpTime(ts, _term.load());
    entry->wall = Date_t::now();
    oplog->insertDocument(opCtx, entry->toBSON());
    tlLastAppended = entry->opTime;
    notifyOnCommit(ru, entry->opTime, entry->wall);
    return entry->opTime;
}

void LocalOplog::appendVerbatim(OperationContext* opCtx, const BSONObj& entry, const OpTime& opTime, Date_t wall) {
    RecoveryUnit* ru = opCtx->recoveryUnit();
    invariant(ru->inUnitOfWork());
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, nss());
    uassert(ErrorCodes::NamespaceNotFound, "the oplog (local.oplog.rs) does not exist", oplog);
    if (ApplyingEntryScope* a = ApplyingEntryScope::current()) a->written = true;
    // The clock never hands out a timestamp at or below an entry this node holds.
    LogicalClock::get()->advanceClusterTime(opTime.getTimestamp());
    ru->setCommitTimestamp(opTime.getTimestamp().asULL());
    oplog->insertDocument(opCtx, entry);
    notifyOnCommit(ru, opTime, wall);
}

void LocalOplog::notifyOnCommit(RecoveryUnit* ru, const OpTime& opTime, Date_t wall) {
    // One commit handler per unit of work, however many entries it holds (a multi-document
    // insert writes one entry per document): the listener moves the engine's stable
    // timestamp, which costs a WiredTiger call, so it runs once with the unit's newest entry.
    std::shared_ptr<Pending> pending;
    {
        std::lock_guard<std::mutex> lk(_pendingMutex);
        auto& slot = _pending[ru];
        if (slot) {
            slot->opTime = opTime;
            slot->wall = wall;
            return;
        }
        slot = pending = std::make_shared<Pending>(Pending{opTime, wall});
    }
    ru->onCommit([this, ru, pending] {
        forgetPending(ru);
        if (_listener) _listener(pending->opTime, pending->wall);
        notifyReaders();
    });
    ru->onRollback([this, ru] { forgetPending(ru); });
}

void LocalOplog::forgetPending(RecoveryUnit* ru) {
    std::lock_guard<std::mutex> lk(_pendingMutex);
    _pending.erase(ru);
}

std::pair<OpTime, BSONObj> LocalOplog::readFirst(OperationContext* opCtx) const {
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, nss());
    if (!oplog) return {OpTime(), BSONObj()};
    auto cursor = oplog->getCursor(opCtx, true);
    auto first = cursor->next();
    if (!first) return {OpTime(), BSONObj()};
    auto parsed = OplogEntry::parse(first->doc);
    uassertStatusOK(parsed.getStatus());
    return {parsed.getValue().opTime, first->doc.getOwned()};
}

std::pair<OpTime, Date_t> LocalOplog::readLast(OperationContext* opCtx) const {
    Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, nss());
    if (!oplog) return {OpTime(), Date_t()};
    auto cursor = oplog->getCursor(opCtx, false);
    auto last = cursor->next();
    if (!last) return {OpTime(), Date_t()};
    auto parsed = OplogEntry::parse(last->doc);
    uassertStatusOK(parsed.getStatus());
    return {parsed.getValue().opTime, parsed.getValue().wall};
}

// --- isync: replSetResizeOplog
void LocalOplog::resize(OperationContext* opCtx, long long sizeBytes, double minRetentionHours) {
    if (sizeBytes > 0) {
        CatalogDDLLock lock;
        Collection* oplog = CollectionCatalog::get()->lookupCollection(opCtx, nss());
        uassert(ErrorCodes::NamespaceNotFound, "oplog does not exist", oplog);
        uassert(ErrorCodes::IllegalOperation, "oplog isn't capped", oplog->options().capped);
        CollectionOptions options = oplog->options();
        options.cappedSize = sizeBytes;
        BSONObjBuilder raw;
        for (BSONElement e : options.raw)
            if (e.fieldNameStringData() != "size") raw.append(e);
        raw.append("size", sizeBytes);
        options.raw = raw.obj();
        WriteUnitOfWork wuow(opCtx);
        oplog->updateOptions(opCtx, options);
        wuow.commit();
    }
    if (minRetentionHours >= 0) _minRetentionHours.store(minRetentionHours);
}

bool LocalOplog::mayTruncate(const BSONObj& entry) const {
    // Never the majority commit point or an entry after it: members that lack them, or fetch
    // on from the commit point, would have to resync (MongoDB lets the oplog grow past its
    // size rather than delete the commit point).
    BSONElement ts = entry["ts"];
    if (ts.type() == bsonTimestamp && ts.timestamp().asULL() >= _majorityCommitted.load()) return false;
    const double hours = _minRetentionHours.load();
    if (hours <= 0) return true;
    BSONElement wall = entry["wall"];
    if (wall.type() != Date) return true;
    return wall.date().millis + static_cast<long long>(hours * 3600.0 * 1000.0) < Date_t::now().millis;
}
// --- end isync

}  // namespace repl
}  // namespace mongo
