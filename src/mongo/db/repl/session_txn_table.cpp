#include "mongo/db/repl/session_txn_table.h"

#include "mongo/base/status.h"
#include "mongo/bson/uuid.h"
#include "mongo/db/repl/session_txn_storage.h"

namespace mongo {
namespace repl {

namespace {
std::string keyOf(const BSONObj& sessionId) {
    auto hex = uuidHexFromElement(sessionId["id"]);
    return hex ? *hex : sessionId.toString();
}

std::string describe(const BSONObj& sessionId) {
    BSONElement id = sessionId["id"];
    auto hex = uuidHexFromElement(id);
    if (!hex || hex->size() != 32) return sessionId.toString();
    return uuidHexDashed(*hex);
}
}  // namespace

SessionTxnTable* SessionTxnTable::get() {
    static StorageSessionTxnStore store;
    static SessionTxnTable* t = new SessionTxnTable(&store);  // never destroyed: used at exit
    return t;
}

size_t SessionTxnTable::sizeForTest() const {
    std::lock_guard<std::mutex> lk(_mutex);
    return _sessions.size();
}

void SessionTxnTable::expireIdle(Clock::time_point now) {
    // Oldest use first; a session in use stays (it moves to the back when checked in).
    auto it = _byUse.begin();
    while (it != _byUse.end() && now - it->second > kSessionIdleTimeout) {
        auto s = _sessions.find(it->first);
        if (s != _sessions.end() && (s->second->checkedOut || s->second->phase == TxnPhase::kInProgress)) {
            ++it;
            continue;
        }
        if (s != _sessions.end()) _sessions.erase(s);
        it = _byUse.erase(it);
    }
}

std::unique_ptr<SessionTxnTable::CheckedOut> SessionTxnTable::checkOut(OperationContext* opCtx,
                                                                       const BSONObj& sessionId, long long term,
                                                                       Clock::time_point now) {
    const std::string key = keyOf(sessionId);
    std::shared_ptr<Session> s;
    {
        std::unique_lock<std::mutex> lk(_mutex);
        expireIdle(now);
        while (true) {
            auto it = _sessions.find(key);
            if (it == _sessions.end()) {
                s = std::make_shared<Session>();
                s->sessionId = sessionId.getOwned();
                s->key = key;
                _byUse.emplace_back(key, now);
                s->use = std::prev(_byUse.end());
                _sessions.emplace(key, s);
            } else {
                s = it->second;
            }
            if (!s->checkedOut) break;
            // Another operation of this session runs (the original of a retry): wait for it.
            _released.wait_for(lk, std::chrono::milliseconds(50));
            if (opCtx) {
                lk.unlock();
                opCtx->checkForInterrupt();
                lk.lock();
            }
        }
        s->checkedOut = true;
        s->use->second = now;
        _byUse.splice(_byUse.end(), _byUse, s->use);  // now the newest use
    }
    std::unique_ptr<CheckedOut> out(new CheckedOut(this, s, opCtx));
    if (s->txn) {
        // A transaction in progress (of an older term, if the term changed): the transaction
        // layer aborts it, with its cursors, before the session is used for anything else.
        s->loadedTerm = term;
    } else if (!s->loaded || s->loadedTerm != term) {
        // First use in this term: what storage says (a write of another primary, or of
        // this node before a restart, reached it through the oplog).
        std::optional<SessionTxnRecord> rec = _store->readRecord(opCtx, sessionId);
        std::lock_guard<std::mutex> lk(_mutex);  // txnNum and phase are read by $currentOp
        s->txnNum = -1;
        s->phase = TxnPhase::kNone;
        s->lastWrite = OpTime();
        s->statements.clear();
        s->complete = true;
        s->historyLoaded = false;
        if (rec) {
            s->txnNum = rec->txnNum;
            s->lastWrite = rec->lastWriteOpTime;
            if (rec->state == "committed") s->phase = TxnPhase::kCommitted;
            if (rec->state == "aborted") s->phase = TxnPhase::kAborted;
        } else {
            s->historyLoaded = true;  // nothing to load
        }
        s->loaded = true;
        s->loadedTerm = term;
    }
    return out;
}

void SessionTxnTable::checkIn(const std::shared_ptr<Session>& s) {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        s->checkedOut = false;
        if (s->txn) s->txn->lastActive = Clock::now();  // under the lock: $currentOp reads it
    }
    _released.notify_all();
}

void SessionTxnTable::forget(const BSONObj& sessionId) {
    std::lock_guard<std::mutex> lk(_mutex);
    auto it = _sessions.find(keyOf(sessionId));
    if (it == _sessions.end() || it->second->checkedOut || it->second->txn) return;
    _byUse.erase(it->second->use);
    _sessions.erase(it);
}

SessionTxnTable::CheckedOut::~CheckedOut() { _table->checkIn(_s); }

const BSONObj& SessionTxnTable::CheckedOut::sessionId() const { return _s->sessionId; }

long long SessionTxnTable::CheckedOut::txnNumber() const { return _s->txnNum; }

OpTime SessionTxnTable::CheckedOut::lastWriteOpTime() const { return _s->lastWrite; }

void SessionTxnTable::CheckedOut::beginOrContinue(long long n) {
    Session& s = *_s;
    uassert(ErrorCodes::TransactionTooOld,
            "Cannot start transaction " + std::to_string(n) + " on session " + describe(s.sessionId) +
                " because a newer transaction " + std::to_string(s.txnNum) + " has already started.",
            n >= s.txnNum);
    if (n > s.txnNum) {
        std::lock_guard<std::mutex> lk(_table->_mutex);  // txnNum and phase are read by $currentOp
        s.txnNum = n;
        s.phase = TxnPhase::kNone;
        s.lastWrite = OpTime();
        s.statements.clear();
        s.complete = true;
        s.historyLoaded = true;
        return;
    }
    if (!s.historyLoaded) {
        // A retry (or a later statement) of the txnNumber storage holds: its statements are
        // the entries along the chain from lastWriteOpTime.
        TxnHistory h = _table->_store->readHistory(_opCtx, s.lastWrite);
        s.statements = std::move(h.statements);
        s.complete = h.complete;
        s.historyLoaded = true;
    }
}

std::optional<StatementOutcome> SessionTxnTable::CheckedOut::checkStatementExecuted(int stmtId) const {
    const Session& s = *_s;
    auto it = s.statements.find(stmtId);
    if (it != s.statements.end()) return it->second;
    uassert(ErrorCodes::IncompleteTransactionHistory,
            "Incomplete history detected for transaction " + std::to_string(s.txnNum) + " on session " +
                describe(s.sessionId),
            s.complete);
    return std::nullopt;
}

void SessionTxnTable::CheckedOut::onStatementsCommitted(const std::vector<std::pair<int, StatementOutcome>>& stmts,
                                                        const OpTime& last) {
    for (const auto& [id, outcome] : stmts) _s->statements[id] = outcome;
    if (!last.isNull()) _s->lastWrite = last;
}

TxnPhase SessionTxnTable::CheckedOut::phase() const { return _s->phase; }

MultiDocumentTransaction* SessionTxnTable::CheckedOut::transaction() const { return _s->txn.get(); }

bool SessionTxnTable::CheckedOut::noStatementsExecuted() const {
    return _s->statements.empty() && _s->lastWrite.isNull();
}

void SessionTxnTable::CheckedOut::startTransaction(long long n, std::unique_ptr<MultiDocumentTransaction> txn) {
    std::lock_guard<std::mutex> lk(_table->_mutex);  // phase and txn are read by $currentOp
    Session& s = *_s;
    invariant(n > s.txnNum || (n == s.txnNum && s.phase == TxnPhase::kNone));
    s.txnNum = n;
    s.lastWrite = OpTime();
    s.statements.clear();
    s.complete = true;
    s.historyLoaded = true;
    s.phase = TxnPhase::kInProgress;
    s.txn = std::move(txn);
}

std::unique_ptr<MultiDocumentTransaction> SessionTxnTable::CheckedOut::endTransaction(TxnPhase how) {
    std::lock_guard<std::mutex> lk(_table->_mutex);
    Session& s = *_s;
    invariant(s.phase == TxnPhase::kInProgress);
    s.phase = how;
    return std::move(s.txn);
}

std::vector<std::unique_ptr<MultiDocumentTransaction>> SessionTxnTable::abortIdleTransactionsIf(
    const std::function<bool(const BSONObj&, long long, const MultiDocumentTransaction&)>& shouldAbort,
    bool markActive) {
    std::vector<std::unique_ptr<MultiDocumentTransaction>> out;
    std::lock_guard<std::mutex> lk(_mutex);
    for (auto& [key, s] : _sessions) {
        if (s->phase != TxnPhase::kInProgress || !s->txn) continue;
        if (s->checkedOut && !markActive) continue;
        if (!shouldAbort(s->sessionId, s->txnNum, *s->txn)) continue;
        if (s->checkedOut) {
            s->txn->abortRequested = true;
            continue;
        }
        s->phase = TxnPhase::kAborted;
        out.push_back(std::move(s->txn));
    }
    return out;
}

std::vector<SessionTxnTable::TransactionInfo> SessionTxnTable::transactionsInProgress() const {
    std::vector<TransactionInfo> out;
    std::lock_guard<std::mutex> lk(_mutex);
    for (const auto& [key, s] : _sessions) {
        if (s->phase != TxnPhase::kInProgress || !s->txn) continue;
        out.push_back({s->sessionId, s->txnNum, s->txn->started, s->txn->lastActive, s->txn->startWallClock,
                       s->checkedOut, s->txn->readConcernLevel});
    }
    return out;
}

}  // namespace repl
}  // namespace mongo
