#include "mongo/db/repl/oplog_entry.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"

namespace mongo {
namespace repl {

BSONObj OplogEntry::makeUpdateDiffObject(const BSONObj& diff) {
    BSONObjBuilder b;
    b.append("$v", 2);
    b.append("diff", diff);
    return b.obj();
}

bool OplogEntry::isDiffUpdate() const {
    BSONElement v = o["$v"];
    return op == OpTypeEnum::kUpdate && v.isNumber() && v.numberLong() == 2 && o["diff"].type() == Object;
}

BSONObj OplogEntry::toBSON() const {
    BSONObjBuilder b;
    if (isRetryableWrite()) {  // 7.0's order: the session first, prevOpTime last
        b.append("lsid", lsid);
        b.append("txnNumber", txnNumber);
    }
    b.append("op", std::string(1, static_cast<char>(op)));
    b.append("ns", ns);
    appendUuidHex(b, "ui", uuidHex);
    b.append("o", o);
    if (o2) b.append("o2", *o2);
    if (isRetryableWrite()) {
        if (!needsRetryImage.empty()) b.append("needsRetryImage", needsRetryImage);
        if (stmtId >= 0) b.append("stmtId", stmtId);  // a transaction's applyOps has none
    }
    b.append("ts", opTime.getTimestamp());
    b.append("t", opTime.getTerm());
    b.append("v", version);
    b.append("wall", wall);
    if (isRetryableWrite()) prevOpTime.append(&b, "prevOpTime");
    return b.obj();
}

BSONObj OplogEntry::toApplyOpsElement() const {
    BSONObjBuilder b;
    b.append("op", std::string(1, static_cast<char>(op)));
    b.append("ns", ns);
    appendUuidHex(b, "ui", uuidHex);
    b.append("o", o);
    if (o2) b.append("o2", *o2);
    return b.obj();
}

bool OplogEntry::isTransactionCommand(const OplogEntry& e) {
    if (e.op != OpTypeEnum::kCommand || e.o.isEmpty() || e.ns.size() < 5 ||
        e.ns.compare(e.ns.size() - 5, 5, ".$cmd") != 0)
        return false;
    const std::string name(e.o.firstElementFieldName());
    return (name == "create" || name == "createIndexes") && e.o.firstElement().type() == String;
}

bool OplogEntry::isApplyOps() const {
    return op == OpTypeEnum::kCommand && o.firstElementFieldName() == "applyOps";
}

StatusWith<OplogEntry> OplogEntry::parseApplyOpsElement(const BSONObj& obj) {
    BSONObjBuilder b;
    b.appendElements(obj);
    // The fields an applyOps element leaves to its entry, so that one parser checks the rest.
    b.append("ts", Timestamp());
    b.append("t", 0LL);
    b.append("v", kOplogVersion);
    b.append("wall", Date_t());
    auto e = parse(b.obj());
    if (!e.isOK()) return e;
    const OpTypeEnum op = e.getValue().op;
    if (op == OpTypeEnum::kInsert || op == OpTypeEnum::kUpdate || op == OpTypeEnum::kDelete) return e;
    // The DDL a transaction may do (MongoDB 7.0): create a collection, an index on it.
    if (op == OpTypeEnum::kCommand && isTransactionCommand(e.getValue())) return e;
    return Status(ErrorCodes::BadValue, "unsupported operation in applyOps: " + obj.toString());
}

StatusWith<OplogEntry> OplogEntry::parse(const BSONObj& obj) {
    OplogEntry e;
    BSONElement op = obj["op"];
    if (op.eoo()) return Status(ErrorCodes::NoSuchKey, "oplog entry is missing field 'op'");
    if (op.type() != String) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'op' must be a string");
    std::string ops = op.str();
    if (ops.size() != 1 || std::string("iudcn").find(ops[0]) == std::string::npos)
        return Status(ErrorCodes::BadValue, "unknown oplog operation type '" + ops + "'");
    e.op = static_cast<OpTypeEnum>(ops[0]);
    BSONElement ns = obj["ns"];
    if (ns.type() != String) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'ns' must be a string");
    e.ns = ns.str();
    BSONElement ui = obj["ui"];
    if (!ui.eoo()) {
        auto hex = uuidHexFromElement(ui);
        if (!hex) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'ui' must be a UUID");
        e.uuidHex = *hex;
    }
    BSONElement o = obj["o"];
    if (o.type() != Object) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'o' must be an object");
    e.o = o.embeddedObject().getOwned();
    BSONElement o2 = obj["o2"];
    if (!o2.eoo()) {
        if (o2.type() != Object) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'o2' must be an object");
        e.o2 = o2.embeddedObject().getOwned();
    }
    auto opTime = OpTime::parse(obj);
    if (!opTime.isOK()) return opTime.getStatus();
    e.opTime = opTime.getValue();
    BSONElement v = obj["v"];
    if (!v.isNumber()) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'v' must be a number");
    e.version = v.numberLong();
    if (e.version != kOplogVersion)
        return Status(ErrorCodes::BadValue, "unsupported oplog version " + std::to_string(e.version));
    BSONElement wall = obj["wall"];
    if (wall.type() != Date) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'wall' must be a date");
    e.wall = wall.date();
    BSONElement lsid = obj["lsid"];
    if (!lsid.eoo()) {
        if (lsid.type() != Object) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'lsid' must be an object");
        e.lsid = lsid.embeddedObject().getOwned();
        BSONElement txn = obj["txnNumber"];
        if (!txn.isNumber()) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'txnNumber' must be a number");
        e.txnNumber = txn.numberLong();
        BSONElement stmt = obj["stmtId"];
        if (!stmt.eoo()) {
            if (!stmt.isNumber()) return Status(ErrorCodes::TypeMismatch, "oplog entry field 'stmtId' must be a number");
            e.stmtId = stmt.numberInt();
        }
        BSONElement prev = obj["prevOpTime"];
        if (prev.type() == Object) {
            auto p = OpTime::parse(prev.embeddedObject());
            if (!p.isOK()) return p.getStatus();
            e.prevOpTime = p.getValue();
        }
        BSONElement image = obj["needsRetryImage"];
        if (!image.eoo()) {
            if (image.type() != String || (image.str() != "preImage" && image.str() != "postImage"))
                return Status(ErrorCodes::BadValue, "oplog entry field 'needsRetryImage' must be 'preImage' or 'postImage'");
            e.needsRetryImage = image.str();
        }
    }
    if ((e.op == OpTypeEnum::kUpdate) && !e.o2)
        return Status(ErrorCodes::NoSuchKey, "update oplog entry is missing field 'o2'");
    return e;
}

}  // namespace repl
}  // namespace mongo
