#include "mongo/db/repl/retryable_write.h"

#include <set>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"
#include "mongo/db/commands/serverstatus_section.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/retryable_write_stats.h"
#include "mongo/db/repl/session_txn_storage.h"
#include "mongo/db/session/logical_session_id.h"
#include "mongo/db/transaction/transaction_scope.h"
#include "mongo/db/transaction/transaction_stats.h"

namespace mongo {
namespace repl {

RetryableWriteStats& RetryableWriteStats::get() {
    static RetryableWriteStats stats;
    return stats;
}

namespace {

bool isRetryableWriteCommand(const std::string& name) {
    return name == "insert" || name == "update" || name == "delete" || name == "findAndModify" ||
           name == "findandmodify";
}

// serverStatus().transactions: the retryable-write counters and the multi-document
// transactions' (transaction/transaction_stats.h; none is ever prepared on a replica set).
BSONObj transactionsSection(OperationContext*) {
    auto& s = RetryableWriteStats::get();
    BSONObjBuilder b;
    b.append("retriedCommandsCount", s.retriedCommandsCount.load());
    b.append("retriedStatementsCount", s.retriedStatementsCount.load());
    b.append("transactionsCollectionWriteCount", s.transactionsCollectionWriteCount.load());
    long long active = 0, open = 0;
    for (const auto& t : SessionTxnTable::get()->transactionsInProgress()) {
        open++;
        if (t.active) active++;
    }
    auto& t = txn::TransactionStats::get();
    b.append("currentActive", active);
    b.append("currentInactive", open - active);
    b.append("currentOpen", open);
    b.append("totalAborted", t.totalAborted.load());
    b.append("totalCommitted", t.totalCommitted.load());
    b.append("totalStarted", t.totalStarted.load());
    for (const char* f : {"totalPrepared", "totalPreparedThenCommitted", "totalPreparedThenAborted", "currentPrepared"})
        b.append(f, 0LL);
    return b.obj();
}

const bool kSectionRegistered = [] {
    registerServerStatusSection("transactions", transactionsSection);
    return true;
}();

}  // namespace

std::unique_ptr<RetryableWrite> RetryableWrite::begin(OperationContext* opCtx, const std::string& commandName,
                                                      const BSONObj& body) {
    BSONElement txn = body["txnNumber"];
    if (txn.type() != NumberLong)
        uasserted(ErrorCodes::TypeMismatch, "BSON field 'OperationSessionInfo.txnNumber' is the wrong type '" +
                                                typeName(txn.type()) + "', expected type 'long'");
    BSONElement lsid = body["lsid"];
    uassert(ErrorCodes::InvalidOptions, "Transaction number requires a session ID to also be specified",
            lsid.type() == Object);
    uassert(ErrorCodes::NotARetryableWriteCommand,
            "txnNumber may only be provided for multi-document transactions and retryable write commands. "
            "autocommit:false was not provided, and " + commandName + " is not a retryable write command.",
            isRetryableWriteCommand(commandName));
    const long long n = txn.numberLong();
    uassert(ErrorCodes::BadValue, "Transaction number cannot be negative", n >= 0);
    uassert(ErrorCodes::TypeMismatch, "BSON field 'OperationSessionInfo.lsid.id' must be a UUID",
            lsidIdHex(lsid.embeddedObject()).has_value());
    // Read once into a vector: stmtIdAt(i) is asked for every statement of the batch.
    std::vector<int> stmtIds;
    if (BSONElement ids = body["stmtIds"]; !ids.eoo()) {
        uassert(ErrorCodes::TypeMismatch, "BSON field 'stmtIds' is the wrong type '" + typeName(ids.type()) +
                                              "', expected type 'array'",
                ids.type() == Array);
        for (BSONElement e : ids.embeddedObject()) {
            uassert(ErrorCodes::TypeMismatch, "BSON field 'stmtIds' must hold integers", e.isNumber());
            stmtIds.push_back(e.numberInt());
        }
    }
    int first = 0;
    if (BSONElement id = body["stmtId"]; !id.eoo()) {
        uassert(ErrorCodes::TypeMismatch, "BSON field 'OperationSessionInfo.stmtId' is the wrong type '" +
                                              typeName(id.type()) + "', expected type 'int'",
                id.isNumber());
        first = id.numberInt();
    }
    // The session's collections exist before the write takes its locks (the op observer
    // writes them inside the write's unit of work, where no collection can be created).
    ensureSessionCollections(opCtx);
    auto session = SessionTxnTable::get()->checkOut(opCtx, sessionIdWithUid(lsid.embeddedObject()),
                                                    LocalOplog::get()->term());
    if (n > session->txnNumber() ||
        (session->transaction() && session->transaction()->term != LocalOplog::get()->term()))
        txn::abortInProgress(*session);
    uassert(ErrorCodes::ConflictingOperationInProgress,
            "Cannot run a retryable write with transaction number " + std::to_string(n) +
                ": it has already been used by a multi-document transaction",
            n != session->txnNumber() || session->phase() == TxnPhase::kNone);
    session->beginOrContinue(n);
    std::unique_ptr<RetryableWrite> rw(new RetryableWrite(opCtx, std::move(session), n, std::move(stmtIds), first));
    opCtx->retryableWrite = rw.get();
    return rw;
}

namespace {
void writeRecord(OperationContext* opCtx, const SessionTxnRecord& rec) {
    // Without its record the write could be applied twice: it must not commit.
    uassert(ErrorCodes::NamespaceNotFound, "cannot record a retryable write: config.transactions does not exist",
            writeSessionRecord(opCtx, rec));
}
}  // namespace

RetryableWrite::RetryableWrite(OperationContext* opCtx, std::unique_ptr<SessionTxnTable::CheckedOut> session,
                               long long txnNumber, std::vector<int> stmtIds, int firstStmtId)
    : _opCtx(opCtx),
      _session(std::move(session)),
      _txnNumber(txnNumber),
      _stmtIds(std::move(stmtIds)),
      _firstStmtId(firstStmtId) {}

RetryableWrite::~RetryableWrite() {
    if (!_retriedStmtIds.empty()) RetryableWriteStats::get().retriedCommandsCount.fetch_add(1);
    if (_opCtx && _opCtx->retryableWrite == this) _opCtx->retryableWrite = nullptr;
}

int RetryableWrite::stmtIdAt(size_t i) const {
    if (!_stmtIds.empty()) {
        uassert(ErrorCodes::InvalidLength, "the stmtIds array has fewer elements than the command has statements",
                i < _stmtIds.size());
        return _stmtIds[i];
    }
    return _firstStmtId + static_cast<int>(i);
}

std::optional<StatementOutcome> RetryableWrite::checkStatementExecuted(int stmtId) {
    auto outcome = _session->checkStatementExecuted(stmtId);
    if (outcome) {
        _retriedStmtIds.push_back(stmtId);
        RetryableWriteStats::get().retriedStatementsCount.fetch_add(1);
    }
    return outcome;
}

void RetryableWrite::appendRetriedStmtIds(BSONObjBuilder* reply) const {
    if (_retriedStmtIds.empty()) return;
    BSONArrayBuilder ids;
    for (int id : _retriedStmtIds) ids.append(id);
    reply->append("retriedStmtIds", ids.arr());
}

void RetryableWrite::appendRetriedStmtId(BSONObjBuilder* reply) const {
    if (!_retriedStmtIds.empty()) reply->append("retriedStmtId", _retriedStmtIds.front());
}

void RetryableWrite::setCurrentStatement(int stmtId, std::string imageKind) {
    _currentStmtId = stmtId;
    _imageKind = std::move(imageKind);
}

void RetryableWrite::setCurrentBatchIndex(size_t j) {
    if (j < _batchStmtIds.size()) setCurrentStatement(_batchStmtIds[j]);
}

void RetryableWrite::decorate(OplogEntry* e) const {
    if (_currentStmtId < 0) return;
    e->lsid = sessionId();
    e->txnNumber = _txnNumber;
    e->stmtId = _currentStmtId;
    e->prevOpTime = _pendingLast.isNull() ? _session->lastWriteOpTime() : _pendingLast;
    if (!_imageKind.empty() && (e->op == OpTypeEnum::kUpdate || e->op == OpTypeEnum::kDelete))
        e->needsRetryImage = _imageKind;
}

void RetryableWrite::onEntryAppended(OperationContext* opCtx, const OplogEntry& e, const BSONObj& image) {
    if (!e.isRetryableWrite()) return;
    SessionTxnRecord rec;
    rec.sessionId = sessionId();
    rec.txnNum = _txnNumber;
    rec.lastWriteOpTime = e.opTime;
    rec.lastWriteDate = e.wall;
    if (_deferRecord)
        _unwrittenRecord = rec;
    else
        writeRecord(opCtx, rec);
    if (!e.needsRetryImage.empty()) {
        RetryImage img;
        img.sessionId = sessionId();
        img.txnNum = _txnNumber;
        img.ts = e.opTime.getTimestamp();
        img.imageKind = e.needsRetryImage;
        img.image = image.getOwned();
        uassert(ErrorCodes::NamespaceNotFound,
                "cannot record a retryable findAndModify: config.image_collection does not exist",
                writeRetryImage(opCtx, img));
    }
    _pending.emplace_back(e.stmtId, outcomeOf(e));
    _pendingLast = e.opTime;
    RecoveryUnit* ru = opCtx->recoveryUnit();
    if (_handlersOn == ru) return;  // this unit's handlers are in place
    _handlersOn = ru;
    ru->onCommit([this] {
        _session->onStatementsCommitted(_pending, _pendingLast);
        _pending.clear();
        _pendingLast = OpTime();
        _handlersOn = nullptr;
    });
    ru->onRollback([this] {
        _unwrittenRecord.reset();
        _pending.clear();
        _pendingLast = OpTime();
        _handlersOn = nullptr;
    });
}

void RetryableWrite::writeDeferredRecord(OperationContext* opCtx) {
    if (!_unwrittenRecord) return;
    writeRecord(opCtx, *_unwrittenRecord);
    _unwrittenRecord.reset();
}

void recordRetryImageWhileApplying(OperationContext* opCtx, const BSONObj& pre, const BSONObj& post) {
    ApplyingEntryScope* a = ApplyingEntryScope::current();
    if (!a) return;
    const BSONObj& entry = a->entry();
    BSONElement kind = entry["needsRetryImage"];
    if (kind.type() != String || entry["lsid"].type() != Object || !entry["txnNumber"].isNumber()) return;
    RetryImage img;
    img.sessionId = entry["lsid"].embeddedObject().getOwned();
    img.txnNum = entry["txnNumber"].numberLong();
    img.ts = a->opTime().getTimestamp();
    img.imageKind = kind.str();
    img.image = (img.imageKind == "postImage" ? post : pre).getOwned();
    // Over data that may be past the entry the document is not the statement's image: a retry
    // then fails (IncompleteTransactionHistory) rather than answer wrongly, as MongoDB's.
    if (a->dataMayBeAhead) {
        img.image = BSONObj();
        img.invalidated = true;
    }
    writeRetryImage(opCtx, img);
}

bool isRetryableWriteErrorCode(int code) {
    // The retryable-writes specification's retryable error codes.
    static const std::set<int> kRetryable = {6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436};
    return kRetryable.count(code) > 0;
}

BSONObj withRetryableWriteErrorLabel(const std::string& commandName, const BSONObj& body, const BSONObj& reply) {
    if (body["txnNumber"].eoo() || !body["autocommit"].eoo() || !isRetryableWriteCommand(commandName)) return reply;
    if (reply.hasField("errorLabels")) return reply;
    bool label = false;
    if (!reply["ok"].trueValue() && reply["code"].isNumber()) label = isRetryableWriteErrorCode(reply["code"].numberInt());
    if (BSONElement wce = reply["writeConcernError"]; wce.type() == Object && wce.embeddedObject()["code"].isNumber())
        label = label || isRetryableWriteErrorCode(wce.embeddedObject()["code"].numberInt());
    if (!label) return reply;
    BSONObjBuilder b;
    b.appendElements(reply);
    BSONArrayBuilder labels;
    labels.append("RetryableWriteError");
    b.append("errorLabels", labels.arr());
    return b.obj();
}

}  // namespace repl
}  // namespace mongo
