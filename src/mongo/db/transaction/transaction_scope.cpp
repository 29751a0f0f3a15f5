#include "mongo/db/transaction/transaction_scope.h"

#include <set>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/session_txn_storage.h"
#include "mongo/db/repl/transaction_oplog.h"
#include "mongo/db/server_parameters.h"
#include "mongo/db/service_context.h"
#include "mongo/db/session/logical_session_id.h"
#include "mongo/db/transaction/transaction_stats.h"
#include "mongo/util/log.h"

namespace mongo {
namespace txn {

bool isAllowedInTransaction(const std::string& name) {
    // MongoDB 7.0's list for a replica set (prepareTransaction and the coordinator's commands
    // belong to sharded clusters).
    static const std::set<std::string> kAllowed = {
        "abortTransaction", "aggregate", "commitTransaction", "create", "createIndexes", "delete", "distinct",
        "find", "findandmodify", "findAndModify", "getMore", "insert", "killCursors", "update"};
    if (kAllowed.count(name) > 0) return true;
    // dbHash only where test commands are enabled, as MongoDB (its consistency checks).
    return (name == "dbHash" || name == "dbhash") && testCommandsEnabled();
}

bool isCommitOrAbort(const std::string& name) { return name == "commitTransaction" || name == "abortTransaction"; }

namespace {

// Operations per applyOps entry: an entry stays within the 16 MB of a BSON document (a lone
// larger operation, a document near 16 MB, gets an entry of its own, within the 16 KB of
// headroom internal documents have).
constexpr size_t kApplyOpsEntryBytes = BSONObjMaxUserSize - 64 * 1024;

std::string describeSession(const BSONObj& lsid) {
    auto hex = lsidIdHex(lsid);
    return hex && hex->size() == 32 ? uuidHexDashed(*hex) : lsid.toString();
}

// The request's checks that need no session (MongoDB's initializeOperationSessionInfo and the
// transaction participant's argument checks).
struct Request {
    long long txnNumber = 0;
    bool start = false;
    BSONObj lsid;
};

Request checkRequest(const std::string& name, const std::string& db, const BSONObj& body) {
    Request r;
    BSONElement ac = body["autocommit"];
    uassert(ErrorCodes::TypeMismatch,
            "BSON field 'OperationSessionInfoFromClient.autocommit' is the wrong type '" + typeName(ac.type()) +
                "', expected type 'bool'",
            ac.type() == Bool);
    uassert(ErrorCodes::InvalidOptions, "Specifying autocommit=true is not allowed.", !ac.boolean());
    if (BSONElement st = body["startTransaction"]; !st.eoo()) {
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'OperationSessionInfoFromClient.startTransaction' is the wrong type '" +
                    typeName(st.type()) + "', expected type 'bool'",
                st.type() == Bool);
        uassert(ErrorCodes::InvalidOptions, "Specifying startTransaction=false is not allowed.", st.boolean());
        r.start = true;
    }
    BSONElement lsid = body["lsid"];
    uassert(ErrorCodes::InvalidOptions, "Transaction requires a session ID to also be specified", lsid.type() == Object);
    uassert(ErrorCodes::TypeMismatch, "BSON field 'OperationSessionInfo.lsid.id' must be a UUID",
            lsidIdHex(lsid.embeddedObject()).has_value());
    r.lsid = lsid.embeddedObject();
    BSONElement txn = body["txnNumber"];
    uassert(ErrorCodes::InvalidOptions, "'autocommit' field requires a transaction number to also be specified",
            !txn.eoo());
    uassert(ErrorCodes::TypeMismatch,
            "BSON field 'OperationSessionInfo.txnNumber' is the wrong type '" + typeName(txn.type()) +
                "', expected type 'long'",
            txn.type() == NumberLong);
    r.txnNumber = txn.numberLong();
    uassert(ErrorCodes::BadValue, "Transaction number cannot be negative", r.txnNumber >= 0);
    uassert(ErrorCodes::OperationNotSupportedInTransaction,
            "Cannot run '" + name + "' in a multi-document transaction.", isAllowedInTransaction(name));
    if (name == "aggregate" && body["pipeline"].type() == Array) {
        // Stages that write, or read something other than the transaction's snapshot.
        static const std::set<std::string> kRefused = {"$out",         "$merge",          "$changeStream",
                                                       "$collStats",   "$indexStats",     "$currentOp",
                                                       "$listSessions", "$listLocalSessions", "$planCacheStats"};
        for (BSONElement st : body["pipeline"].embeddedObject()) {
            if (st.type() != Object || st.embeddedObject().isEmpty()) continue;
            const std::string stage(st.embeddedObject().firstElementFieldName());
            uassert(ErrorCodes::OperationNotSupportedInTransaction, stage + " cannot be used in a transaction",
                    !kRefused.count(stage));
        }
    }
    if (!isCommitOrAbort(name)) {
        uassert(ErrorCodes::OperationNotSupportedInTransaction,
                "Cannot run command against the '" + db + "' database in a transaction.",
                db != "admin" && db != "config" && db != "local");
        uassert(ErrorCodes::InvalidOptions, "writeConcern is not allowed within a multi-statement transaction",
                body["writeConcern"].eoo());
    }
    BSONElement rc = body["readConcern"];
    if (rc.type() == Object && !rc.embeddedObject().isEmpty()) {
        uassert(ErrorCodes::InvalidOptions, "Only the first command in a transaction may specify a readConcern",
                r.start);
        BSONElement level = rc.embeddedObject()["level"];
        if (level.type() == String) {
            const std::string l = level.str();
            uassert(ErrorCodes::InvalidOptions,
                    "The readConcern level must be either 'local' (default), 'majority' or 'snapshot' in order to "
                    "run in a transaction",
                    l == "local" || l == "majority" || l == "snapshot");
        }
        uassert(ErrorCodes::InvalidOptions,
                "readConcern atClusterTime is not supported in a transaction by this server: its tables keep no "
                "history to read at a point in time",
                rc.embeddedObject()["atClusterTime"].eoo());
    }
    return r;
}

std::string cursorKeyOf(const BSONObj& lsid, long long txnNumber) {
    return lsidIdHex(lsid).value_or("") + ":" + std::to_string(txnNumber);
}

}  // namespace

void abortInProgress(repl::SessionTxnTable::CheckedOut& session) {
    if (session.phase() != repl::TxnPhase::kInProgress) return;
    auto old = session.endTransaction(repl::TxnPhase::kAborted);
    CursorManager::get().killTransactionCursors(cursorKeyOf(session.sessionId(), session.txnNumber()));
    TransactionStats::get().totalAborted.fetch_add(1);
    // Rolled back under the write lock: the rollback handlers of its writes expect it.
    CollectionWriteLock lock;
    old.reset();
}

TransactionScope::TransactionScope(OperationContext* opCtx, std::unique_ptr<repl::SessionTxnTable::CheckedOut> session,
                                   long long txnNumber)
    : _opCtx(opCtx), _session(std::move(session)), _txnNumber(txnNumber) {}

std::unique_ptr<TransactionScope> TransactionScope::begin(OperationContext* opCtx, const std::string& commandName,
                                                          const BSONObj& body) {
    const std::string db = body["$db"].type() == String ? body["$db"].str() : std::string();
    Request req = checkRequest(commandName, db, body);
    const bool commitOrAbort = isCommitOrAbort(commandName);
    uassert(ErrorCodes::OperationNotSupportedInTransaction,
            "Cannot start a transaction with a " + commandName + " command", !(req.start && commitOrAbort));
    if (req.start) {
        // The commit writes the session's record: its collection exists before any lock.
        repl::ensureSessionCollections(opCtx);
        // The first command's afterClusterTime: the transaction's snapshot must see it.
        BSONElement rc = body["readConcern"];
        if (rc.type() == Object && !rc.embeddedObject()["afterClusterTime"].eoo()) {
            BSONObjBuilder rcb;
            rcb.append(rc.embeddedObject()["afterClusterTime"]);
            BSONObjBuilder b;
            b.append("readConcern", rcb.obj());
            repl::ReplicationCoordinator::get()->waitForReadConcern(opCtx, b.obj());
        }
    }
    auto* coord = repl::ReplicationCoordinator::get();
    auto session = repl::SessionTxnTable::get()->checkOut(opCtx, sessionIdWithUid(req.lsid), repl::LocalOplog::get()->term());
    const long long active = session->txnNumber();
    const std::string sessionDesc = describeSession(req.lsid);
    uassert(ErrorCodes::TransactionTooOld,
            "Cannot start transaction " + std::to_string(req.txnNumber) + " on session " + sessionDesc +
                " because a newer transaction " + std::to_string(active) + " has already started.",
            req.txnNumber >= active);
    std::unique_ptr<TransactionScope> scope(new TransactionScope(opCtx, std::move(session), req.txnNumber));
    repl::SessionTxnTable::CheckedOut& s = *scope->_session;
    // A transaction of an older term can never commit (its node stepped down meanwhile).
    if (s.transaction() && s.transaction()->term != repl::LocalOplog::get()->term()) abortInProgress(s);
    // killSessions met it while a command ran: it ends now, before this command (or commit) runs.
    if (s.transaction() && s.transaction()->abortRequested.load()) abortInProgress(s);
    if (req.start && req.txnNumber > active) abortInProgress(s);
    if (req.start) {
        if (req.txnNumber == active)
            uassert(ErrorCodes::ConflictingOperationInProgress,
                    "Cannot start transaction " + std::to_string(req.txnNumber) + " on session " + sessionDesc +
                        " because a transaction or retryable write with the same number has already started.",
                    s.phase() == repl::TxnPhase::kNone && s.noStatementsExecuted());
        // Writes happen on the primary only; a transaction that only reads may run elsewhere
        // in MongoDB only with a read preference, which drivers never send for transactions.
        coord->checkCanAcceptWrites(db);
        auto t = std::make_unique<repl::MultiDocumentTransaction>();
        t->ru = makeRecoveryUnit();
        t->ru->setMultiStatement(true);
        t->ru->beginUnitOfWork();  // the outer unit: begins the WiredTiger transaction (snapshot)
        t->started = t->lastActive = std::chrono::steady_clock::now();
        t->startWallClock = Date_t::now();
        t->term = repl::LocalOplog::get()->term();
        BSONElement rc = body["readConcern"];
        if (rc.type() == Object && rc.embeddedObject()["level"].type() == String)
            t->readConcernLevel = rc.embeddedObject()["level"].str();
        s.startTransaction(req.txnNumber, std::move(t));
        TransactionStats::get().totalStarted.fetch_add(1);
    } else {
        uassert(ErrorCodes::NoSuchTransaction,
                "Given transaction number " + std::to_string(req.txnNumber) +
                    " does not match any in-progress transactions. The active transaction number is " +
                    std::to_string(active),
                req.txnNumber == active && s.phase() != repl::TxnPhase::kNone);
        switch (s.phase()) {
            case repl::TxnPhase::kAborted:
                uasserted(ErrorCodes::NoSuchTransaction,
                          "Transaction with { txnNumber: " + std::to_string(req.txnNumber) + " } has been aborted.");
            case repl::TxnPhase::kCommitted:
                // A retried commit is answered from the outcome; anything else is refused.
                uassert(ErrorCodes::TransactionCommitted,
                        "Transaction with { txnNumber: " + std::to_string(req.txnNumber) + " } has been committed.",
                        commandName == "commitTransaction");
                opCtx->transaction = scope.get();  // nothing to lend: commit() answers
                return scope;
            default:
                break;
        }
    }
    scope->_txn = s.transaction();
    scope->lend();
    return scope;
}

void TransactionScope::lend() {
    _cursorKey = cursorKeyOf(_session->sessionId(), _txnNumber);
    _opCtx->lendRecoveryUnit(_txn->ru.get());
    _opCtx->getClient()->transactionRecoveryUnit = _txn->ru.get();
    _opCtx->transaction = this;
    _opCtx->transactionCursorKey = &_cursorKey;
}

void TransactionScope::unlend() {
    if (_opCtx->transaction != this) return;
    // (lendRecoveryUnit(nullptr) also when nothing was lent: it returns the operation's own.)
    _opCtx->lendRecoveryUnit(nullptr);
    _opCtx->getClient()->transactionRecoveryUnit = nullptr;
    _opCtx->transaction = nullptr;
    _opCtx->transactionCursorKey = nullptr;
}

TransactionScope::~TransactionScope() {
    if (_txn && _txn->abortRequested.load()) {
        try {
            abort();
        } catch (const DBException& e) {
            LOGV2_WARNING(7800202, Transaction, "Could not abort a killed session's transaction",
                          logv2::attrs("error", e.toStatus().toString()));
        } catch (...) {  // a destructor: nothing may escape (the reaper aborts it later)
            LOGV2_WARNING(7800202, Transaction, "Could not abort a killed session's transaction",
                          logv2::attrs("error", std::string("unknown exception")));
        }
    }
    unlend();
    _ended.reset();  // rolls back whatever an ended transaction did not commit
}

void TransactionScope::addOperation(const BSONObj& op) {
    invariant(_txn);
    _txn->ops.push_back(op.getOwned());
}

void TransactionScope::end(repl::TxnPhase how) {
    _ended = _session->endTransaction(how);
    _txn = nullptr;
    CursorManager::get().killTransactionCursors(_cursorKey);
    auto& stats = TransactionStats::get();
    (how == repl::TxnPhase::kCommitted ? stats.totalCommitted : stats.totalAborted).fetch_add(1);
    // The recovery unit goes back to the command before the transaction's is destroyed.
    unlend();
    _ended.reset();
}

void TransactionScope::commit(OperationContext* opCtx) {
    if (!_txn) {  // a retry of a committed transaction
        _answeredFromHistory = true;
        return;
    }
    CollectionWriteLock lock;
    if (_txn->abortRequested.load()) {  // killSessions came while this command ran
        end(repl::TxnPhase::kAborted);
        uasserted(ErrorCodes::NoSuchTransaction,
                  "Transaction with { txnNumber: " + std::to_string(_txnNumber) + " } has been aborted.");
    }
    try {
        RecoveryUnit* ru = _txn->ru.get();
        // What waited for the commit goes to storage now, under the write lock, in the
        // transaction (a deduplicated collection's updates and deletes: transaction_changes.h).
        ru->runPreCommitHooks(opCtx);
        if (_txn->ops.empty()) {
            _committedReadOnly = true;
        } else {
            // One applyOps entry, or a chain of them when the operations do not fit in one (each
            // at its own timestamp, all in this WiredTiger transaction: they appear together).
            repl::OplogEntry e;
            e.prevOpTime = repl::OpTime();  // {ts: Timestamp(0, 0), t: -1}: the first entry
            for (BSONObj& o : repl::applyOpsObjects(_txn->ops, kApplyOpsEntryBytes)) {
                e.op = repl::OpTypeEnum::kCommand;
                e.ns = "admin.$cmd";
                e.o = std::move(o);
                e.lsid = _session->sessionId();
                e.txnNumber = _txnNumber;
                repl::LocalOplog::get()->append(opCtx, &e);
                e.prevOpTime = e.opTime;
            }
            repl::SessionTxnRecord rec;
            rec.sessionId = _session->sessionId();
            rec.txnNum = _txnNumber;
            rec.lastWriteOpTime = e.opTime;
            rec.lastWriteDate = e.wall;
            rec.state = "committed";
            uassert(ErrorCodes::NamespaceNotFound, "cannot record a transaction: config.transactions does not exist",
                    repl::writeSessionRecord(opCtx, rec));
        }
        ru->commitUnitOfWork();  // the outer unit: the writes and their entry, together
    } catch (const DBException&) {
        // Rolled back before the write lock is released: what the pre-commit work told shared
        // state (the dedup engine) is undone by the unit's rollback handlers before any other
        // writer can plan on it.
        end(repl::TxnPhase::kAborted);
        throw;
    }
    end(repl::TxnPhase::kCommitted);
}

void TransactionScope::abort() {
    if (!_txn) return;
    // Rolled back under the write lock, as every other unit of work: the rollback handlers of
    // its writes expect it.
    CollectionWriteLock lock;
    end(repl::TxnPhase::kAborted);
}

namespace {
size_t abortTransactionsIf(
    const std::function<bool(const BSONObj&, long long, const repl::MultiDocumentTransaction&)>& shouldAbort,
    bool markActive) {
    auto victims = repl::SessionTxnTable::get()->abortIdleTransactionsIf(
        [&](const BSONObj& sessionId, long long txnNumber, const repl::MultiDocumentTransaction& t) {
            if (!shouldAbort(sessionId, txnNumber, t)) return false;
            CursorManager::get().killTransactionCursors(cursorKeyOf(sessionId, txnNumber));
            return true;
        },
        markActive);
    TransactionStats::get().totalAborted.fetch_add(victims.size());
    const size_t n = victims.size();
    if (n) {
        // Rolled back outside the table's lock, under the write lock (as abort()).
        CollectionWriteLock lock;
        victims.clear();
    }
    return n;
}
}  // namespace

size_t abortIdleTransactions(
    const std::function<bool(const BSONObj&, long long, const repl::MultiDocumentTransaction&)>& shouldAbort) {
    return abortTransactionsIf(shouldAbort, false);
}

size_t abortIdleTransactionsOfSessions(const std::function<bool(const BSONObj& sessionId)>& pred) {
    // A transaction whose command runs now is marked in the same pass: that command ends it
    // (its interruption may come too late to fail it), or else its next command or its commit
    // finds the mark. killSessions ends the transaction all the same.
    return abortTransactionsIf(
        [&](const BSONObj& sessionId, long long, const repl::MultiDocumentTransaction&) { return pred(sessionId); },
        true);
}

}  // namespace txn
}  // namespace mongo
