#pragma once
// The documents of retryable writes, as MongoDB 7.0 stores them:
//   config.transactions (one per session, the session transaction table):
//     {_id: {id: UUID, uid: BinData(0, 32 bytes)}, txnNum: long, lastWriteOpTime: {ts, t},
//      lastWriteDate: Date, state?: "committed"}
//     lastWriteOpTime is the session's newest oplog entry of txnNum; that entry's prevOpTime
//     links to the one before, back to a null optime: the chain the statements executed under
//     txnNum are read from (session_txn_storage.h).
//   config.image_collection (one per session, the image of its newest findAndModify):
//     {_id: {id, uid}, txnNum: long, ts: Timestamp, imageKind: "preImage" | "postImage",
//      image: <document>, invalidated: bool}
//     the oplog entry of that findAndModify carries needsRetryImage: <imageKind> and its ts.
// Values only; thread safe as any value.
#include <optional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

const NamespaceString& transactionsNss();     // config.transactions
const NamespaceString& imageCollectionNss();  // config.image_collection

struct SessionTxnRecord {
    BSONObj sessionId;  // {id, uid}
    long long txnNum = -1;
    OpTime lastWriteOpTime;
    Date_t lastWriteDate;
    // A multi-document transaction's outcome ("committed"; "" for a retryable write), so that
    // a retried commitTransaction is answered from it, on a new primary too.
    std::string state;

    BSONObj toBSON() const;
    // FailedToParse / TypeMismatch for a document that is not a record.
    static StatusWith<SessionTxnRecord> parse(const BSONObj& doc);
};

struct RetryImage {
    BSONObj sessionId;  // {id, uid}
    long long txnNum = -1;
    Timestamp ts;
    std::string imageKind;  // "preImage" | "postImage"
    BSONObj image;
    bool invalidated = false;

    BSONObj toBSON() const;
    static StatusWith<RetryImage> parse(const BSONObj& doc);
};

// {_id: sessionId}: the point query of both collections.
BSONObj sessionIdQuery(const BSONObj& sessionId);

}  // namespace repl
}  // namespace mongo
