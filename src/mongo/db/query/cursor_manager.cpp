#include "mongo/db/query/cursor_manager.h"

#include "mongo/db/auth/authorization_session.h"

#include <algorithm>
#include <random>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/session/logical_session_id.h"

namespace mongo {

namespace {
// What the operation on this thread has left of its maxTimeMS, if it has one.
std::optional<std::chrono::microseconds> remainingMaxTimeOfThisThread() {
    const OperationContext* op = currentOperationOnThisThread();
    if (!op || !op->hasDeadline()) return std::nullopt;
    auto left = std::chrono::duration_cast<std::chrono::microseconds>(op->deadline() - std::chrono::steady_clock::now());
    return std::max(left, std::chrono::microseconds(0));
}
}  // namespace

CursorManager& CursorManager::get() {
    static CursorManager m;
    return m;
}

long long CursorManager::registerCursor(std::unique_ptr<ClientCursor> c) {
    static std::mt19937_64 rng{std::random_device{}()};
    std::lock_guard<std::mutex> lk(_mutex);
    long long id;
    do {
        id = static_cast<long long>(rng() & 0x3fffffffffffffffULL);
    } while (id == 0 || _cursors.count(id) || _inUse.count(id));
    c->id = id;
    c->lastUsed = std::chrono::steady_clock::now();
    c->createdDate = Date_t::now();
    if (!c->awaitData) c->leftoverMaxTime = remainingMaxTimeOfThisThread();
    if (const OperationContext* op = currentOperationOnThisThread()) {
        c->majorityRead = op->readsMajorityCommitted;
        if (op->transactionCursorKey) c->transaction = *op->transactionCursorKey;
        c->originatingCommand = op->command;
        c->planSummary = op->planSummary();
    }
    _cursors[id] = std::move(c);
    return id;
}

std::unique_ptr<ClientCursor> CursorManager::checkOut(long long id, OperationContext* user) {
    std::lock_guard<std::mutex> lk(_mutex);
    auto it = _cursors.find(id);
    if (it == _cursors.end()) return nullptr;
    auto c = std::move(it->second);
    _cursors.erase(it);
    _inUse[id] = InUse{true, user, c->lsid, c->owner};
    if (user && c->majorityRead) user->readsMajorityCommitted = true;
    return c;
}

void CursorManager::checkIn(std::unique_ptr<ClientCursor> c) {
    std::unique_ptr<ClientCursor> victim;  // destroyed outside the lock
    std::lock_guard<std::mutex> lk(_mutex);
    long long id = c->id;
    auto it = _inUse.find(id);
    bool killed = it != _inUse.end() && !it->second.live;
    if (it != _inUse.end()) _inUse.erase(it);
    if (killed) {  // killCursors arrived while it was in use
        victim = std::move(c);
        return;
    }
    c->lastUsed = std::chrono::steady_clock::now();
    if (!c->awaitData && c->leftoverMaxTime) c->leftoverMaxTime = remainingMaxTimeOfThisThread();
    _cursors[id] = std::move(c);
}

bool CursorManager::isChangeStream(long long id) {
    std::lock_guard<std::mutex> lk(_mutex);
    auto it = _cursors.find(id);
    return it != _cursors.end() && it->second->changeStream;
}

std::optional<std::string> CursorManager::ownerOf(long long id) {
    std::lock_guard<std::mutex> lk(_mutex);
    if (auto it = _cursors.find(id); it != _cursors.end()) return it->second->owner;
    if (auto it = _inUse.find(id); it != _inUse.end()) return it->second.owner;
    return std::nullopt;
}

void CursorManager::forget(long long id) {
    std::lock_guard<std::mutex> lk(_mutex);
    _inUse.erase(id);
}

bool CursorManager::kill(long long id) {
    std::unique_ptr<ClientCursor> victim;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        auto it = _cursors.find(id);
        if (it != _cursors.end()) {
            victim = std::move(it->second);
            _cursors.erase(it);
        } else if (auto u = _inUse.find(id); u != _inUse.end()) {
            u->second.live = false;  // destroyed when checked in
            if (u->second.user) u->second.user->markKilled(ErrorCodes::CursorKilled);
            return true;
        } else {
            return false;
        }
    }
    return true;  // victim destroyed outside the lock
}

bool CursorManager::exists(long long id) {
    std::lock_guard<std::mutex> lk(_mutex);
    return _cursors.count(id) || _inUse.count(id);
}

size_t CursorManager::killTransactionCursors(const std::string& key) {
    std::vector<std::unique_ptr<ClientCursor>> victims;  // destroyed after the lock is released
    {
        std::lock_guard<std::mutex> lk(_mutex);
        for (auto it = _cursors.begin(); it != _cursors.end();) {
            if (it->second->transaction == key) {
                victims.push_back(std::move(it->second));
                it = _cursors.erase(it);
            } else {
                ++it;
            }
        }
    }
    // None is in use: a transaction's commands (its getMores included) run one at a time, and
    // this runs from one of them or with the session idle.
    return victims.size();
}

size_t CursorManager::killIf(const std::function<bool(const BSONObj& lsid)>& pred) {
    std::vector<std::unique_ptr<ClientCursor>> victims;  // destroyed outside the lock
    std::lock_guard<std::mutex> lk(_mutex);
    for (auto it = _cursors.begin(); it != _cursors.end();) {
        if (pred(it->second->lsid)) {
            victims.push_back(std::move(it->second));
            it = _cursors.erase(it);
        } else {
            ++it;
        }
    }
    size_t n = victims.size();
    for (auto& [id, use] : _inUse) {
        if (!use.live || !pred(use.lsid)) continue;
        use.live = false;  // destroyed when checked in
        if (use.user) use.user->markKilled(ErrorCodes::CursorKilled);
        n++;
    }
    return n;
}

std::vector<BSONObj> CursorManager::reportIdle(const std::string& host) {
    std::lock_guard<std::mutex> lk(_mutex);
    std::vector<BSONObj> out;
    auto steadyNow = std::chrono::steady_clock::now();
    long long nowMs = Date_t::now().millis;
    for (auto& [id, c] : _cursors) {
        BSONObjBuilder b;
        b.append("type", "idleCursor");
        b.append("host", host);
        b.append("ns", c->nss.ns());
        // The session with its owner's digest, as currentOp shows an operation's.
        if (lsidIdHex(c->lsid)) b.append("lsid", sessionIdWithUid(c->lsid));
        if (!c->planSummary.empty()) b.append("planSummary", c->planSummary);
        BSONObjBuilder& cur = b.subobjStart("cursor");
        cur.appendLong("cursorId", id);
        cur.append("createdDate", c->createdDate);
        long long idleMs = std::chrono::duration_cast<std::chrono::milliseconds>(steadyNow - c->lastUsed).count();
        cur.append("lastAccessDate", Date_t::fromMillis(nowMs - idleMs));
        cur.appendLong("nDocsReturned", c->nReturned);
        cur.appendLong("nBatchesReturned", c->nBatchesReturned);
        cur.append("noCursorTimeout", c->noTimeout);
        cur.append("tailable", c->tailable);
        cur.append("awaitData", c->awaitData);
        if (!c->originatingCommand.isEmpty()) cur.append("originatingCommand", c->originatingCommand);
        cur.doneFast();
        out.push_back(b.obj());
    }
    return out;
}

void CursorManager::killAll() {
    std::map<long long, std::unique_ptr<ClientCursor>> victims;
    std::lock_guard<std::mutex> lk(_mutex);
    victims.swap(_cursors);
    for (auto& [id, use] : _inUse) use.live = false;
}

int CursorManager::reapIdle(std::chrono::milliseconds timeout) {
    std::vector<std::unique_ptr<ClientCursor>> victims;
    {
        std::lock_guard<std::mutex> lk(_mutex);
        auto now = std::chrono::steady_clock::now();
        for (auto it = _cursors.begin(); it != _cursors.end();) {
            if (!it->second->noTimeout && now - it->second->lastUsed > timeout) {
                victims.push_back(std::move(it->second));
                it = _cursors.erase(it);
            } else {
                ++it;
            }
        }
        _timedOut += victims.size();
    }
    return static_cast<int>(victims.size());
}

long long CursorManager::openCount() {
    std::lock_guard<std::mutex> lk(_mutex);
    return _cursors.size() + _inUse.size();
}

bool fillBatch(const OperationContext* opCtx, ClientCursor& cursor, long long batchSize, BSONArrayBuilder& docs) {
    constexpr int kMaxBatchBytes = 16 * 1024 * 1024;
    long long n = 0;
    bool exhausted = false;
    while (batchSize < 0 || n < batchSize) {
        std::optional<BSONObj> d;
        if (cursor.stash) {
            d = std::move(cursor.stash);
            cursor.stash.reset();
        } else {
            d = cursor.source->next(opCtx);
        }
        if (!d) {
            exhausted = true;
            break;
        }
        if (n > 0 && docs.len() + d->objsize() > kMaxBatchBytes) {
            cursor.stash = std::move(d);
            break;
        }
        docs.append(*d);
        cursor.source->returned(*d);
        n++;
    }
    if (!exhausted && !cursor.stash && batchSize != 0 && !cursor.tailable) {  // (a tailable one never ends by running dry)
        // Peek, so that a cursor whose last document filled the batch reports id 0 now
        // rather than after one more empty getMore.
        cursor.stash = cursor.source->next(opCtx);
        exhausted = !cursor.stash;
    }
    cursor.nReturned += n;
    cursor.nBatchesReturned++;
    return exhausted;
}

void replyWithCursor(OperationContext* opCtx, const NamespaceString& cursorNss, std::unique_ptr<CursorSource> source,
                     const BSONObj& cmd, BSONObjBuilder& result) {
    long long batchSize = -1;
    BSONElement c = cmd["cursor"];
    if (c.type() == Object && c.Obj()["batchSize"].isNumber()) {
        batchSize = c.Obj()["batchSize"].numberLong();
        if (batchSize < 0)
            uasserted(51024, "BSON field 'batchSize' value must be >= 0, actual value '" + std::to_string(batchSize) + "'");
    }
    auto cursor = std::make_unique<ClientCursor>();
    cursor->nss = cursorNss;
    cursor->lsid = opCtx->lsid;
    cursor->owner = auth::cursorOwner(opCtx);
    cursor->source = std::move(source);
    BSONArrayBuilder docs;
    bool exhausted = fillBatch(opCtx, *cursor, batchSize, docs);
    long long id = 0;
    if (!exhausted) {
        cursor->source->save();
        id = CursorManager::get().registerCursor(std::move(cursor));
    }
    appendCursorReply(result, "firstBatch", docs.arr(), id, cursorNss.ns());
}

void appendCursorReply(BSONObjBuilder& reply, const char* batchName, BSONArray docs, long long id,
                       const std::string& ns, const std::optional<BSONObj>& postBatchResumeToken) {
    BSONObjBuilder& c = reply.subobjStart("cursor");
    c.append(batchName, docs);
    if (postBatchResumeToken) c.append("postBatchResumeToken", *postBatchResumeToken);
    c.append("id", id);
    c.append("ns", ns);
    c.doneFast();
}

}  // namespace mongo
