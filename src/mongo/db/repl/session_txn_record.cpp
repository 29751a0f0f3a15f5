#include "mongo/db/repl/session_txn_record.h"

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {

const NamespaceString& transactionsNss() {
    static const NamespaceString n("config", "transactions");
    return n;
}

const NamespaceString& imageCollectionNss() {
    static const NamespaceString n("config", "image_collection");
    return n;
}

BSONObj sessionIdQuery(const BSONObj& sessionId) {
    BSONObjBuilder b;
    b.append("_id", sessionId);
    return b.obj();
}

BSONObj SessionTxnRecord::toBSON() const {
    BSONObjBuilder b;
    b.append("_id", sessionId);
    b.append("txnNum", txnNum);
    lastWriteOpTime.append(&b, "lastWriteOpTime");
    b.append("lastWriteDate", lastWriteDate);
    if (!state.empty()) b.append("state", state);
    return b.obj();
}

StatusWith<SessionTxnRecord> SessionTxnRecord::parse(const BSONObj& doc) {
    SessionTxnRecord r;
    if (doc["_id"].type() != Object)
        return Status(ErrorCodes::TypeMismatch, "config.transactions record: '_id' must be a session id object");
    r.sessionId = doc["_id"].embeddedObject().getOwned();
    BSONElement txn = doc["txnNum"];
    if (!txn.isNumber()) return Status(ErrorCodes::TypeMismatch, "config.transactions record: 'txnNum' must be a number");
    r.txnNum = txn.numberLong();
    if (doc["lastWriteOpTime"].type() != Object)
        return Status(ErrorCodes::TypeMismatch, "config.transactions record: 'lastWriteOpTime' must be an object");
    auto op = OpTime::parse(doc["lastWriteOpTime"].embeddedObject());
    if (!op.isOK()) return op.getStatus();
    r.lastWriteOpTime = op.getValue();
    if (doc["lastWriteDate"].type() == Date) r.lastWriteDate = doc["lastWriteDate"].date();
    if (doc["state"].type() == String) r.state = doc["state"].str();
    return r;
}

BSONObj RetryImage::toBSON() const {
    BSONObjBuilder b;
    b.append("_id", sessionId);
    b.append("txnNum", txnNum);
    b.append("ts", ts);
    b.append("imageKind", imageKind);
    b.append("image", image);
    b.append("invalidated", invalidated);
    return b.obj();
}

StatusWith<RetryImage> RetryImage::parse(const BSONObj& doc) {
    RetryImage r;
    if (doc["_id"].type() != Object)
        return Status(ErrorCodes::TypeMismatch, "config.image_collection entry: '_id' must be a session id object");
    r.sessionId = doc["_id"].embeddedObject().getOwned();
    if (!doc["txnNum"].isNumber())
        return Status(ErrorCodes::TypeMismatch, "config.image_collection entry: 'txnNum' must be a number");
    r.txnNum = doc["txnNum"].numberLong();
    if (doc["ts"].type() != bsonTimestamp)
        return Status(ErrorCodes::TypeMismatch, "config.image_collection entry: 'ts' must be a timestamp");
    r.ts = doc["ts"].timestamp();
    if (doc["imageKind"].type() == String) r.imageKind = doc["imageKind"].str();
    if (doc["image"].type() == Object) r.image = doc["image"].embeddedObject().getOwned();
    r.invalidated = doc["invalidated"].trueValue();
    return r;
}

}  // namespace repl
}  // namespace mongo
