#include "mongo/db/change_stream/change_event.h"

#include <cstdio>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/oplog_entry.h"
#include "mongo/db/repl/transaction_oplog.h"

namespace mongo {
namespace change_stream {
namespace {

// "82" (a version byte, as MongoDB's KeyString tokens begin), 16 hex digits of the timestamp,
// then the kind: "00" an event, "01" an invalidate, "02" a high-water mark; an event of a
// transaction's applyOps entry adds 8 hex digits of its operation's index (so that its tokens
// sort after a plain event of the same entry's and before the next kind, as strings).
constexpr const char* kVersion = "82";

bool isSystemCollection(const std::string& coll) { return coll.rfind("system.", 0) == 0; }

std::pair<std::string, std::string> splitNs(const std::string& ns) {
    const size_t dot = ns.find('.');
    if (dot == std::string::npos) return {ns, ""};
    return {ns.substr(0, dot), ns.substr(dot + 1)};
}

BSONObj nsDoc(const std::string& db, const std::string& coll) {
    BSONObjBuilder b;
    b.append("db", db);
    if (!coll.empty()) b.append("coll", coll);
    return b.obj();
}

// _id, operationType, clusterTime, wallTime: what every event begins with.
void appendHeader(BSONObjBuilder& b, const repl::OplogEntry& e, const char* type, bool invalidate = false,
                  std::optional<uint32_t> txnOpIndex = std::nullopt) {
    ResumeToken t;
    t.ts = e.opTime.getTimestamp();
    t.kind = invalidate ? ResumeToken::Kind::kInvalidate : ResumeToken::Kind::kEvent;
    t.txnOpIndex = txnOpIndex;
    b.append("_id", t.toBSON());
    b.append("operationType", type);
    b.append("clusterTime", e.opTime.getTimestamp());
    b.append("wallTime", e.wall);
}

void convertDocDiff(const BSONObj& diff, const std::string& prefix, BSONObjBuilder& updated,
                    BSONArrayBuilder& removed, BSONArrayBuilder& truncated);

void convertArrayDiff(const BSONObj& diff, const std::string& path, BSONObjBuilder& updated, BSONArrayBuilder& removed,
                      BSONArrayBuilder& truncated) {
    for (BSONElement e : diff) {
        const std::string name = e.fieldName();
        if (name == "a") continue;
        if (name == "l") {
            BSONObjBuilder t;
            t.append("field", path);
            t.append("newSize", static_cast<int>(e.numberLong()));
            truncated.append(t.obj());
        } else if (name.size() > 1 && name[0] == 'u') {
            updated.appendAs(e, path + "." + name.substr(1));
        } else if (name.size() > 1 && name[0] == 's' && e.type() == Object) {
            const BSONObj sub = e.embeddedObject();
            const std::string p = path + "." + name.substr(1);
            if (sub["a"].trueValue())
                convertArrayDiff(sub, p, updated, removed, truncated);
            else
                convertDocDiff(sub, p + ".", updated, removed, truncated);
        }
    }
}

void convertDocDiff(const BSONObj& diff, const std::string& prefix, BSONObjBuilder& updated,
                    BSONArrayBuilder& removed, BSONArrayBuilder& truncated) {
    for (BSONElement e : diff) {
        const std::string name = e.fieldName();
        if (name == "d" && e.type() == Object) {
            for (BSONElement f : e.embeddedObject()) removed.append(prefix + f.fieldName());
        } else if ((name == "u" || name == "i") && e.type() == Object) {
            for (BSONElement f : e.embeddedObject()) updated.appendAs(f, prefix + f.fieldName());
        } else if (name.size() > 1 && name[0] == 's' && e.type() == Object) {
            const BSONObj sub = e.embeddedObject();
            const std::string field = name.substr(1);
            if (sub["a"].trueValue())
                convertArrayDiff(sub, prefix + field, updated, removed, truncated);
            else
                convertDocDiff(sub, prefix + field + ".", updated, removed, truncated);
        }
    }
}

}  // namespace

bool Scope::watches(const std::string& ns) const {
    auto [d, c] = splitNs(ns);
    switch (kind) {
        case Kind::kCollection:
            return d == db && c == coll;
        case Kind::kDatabase:
            return d == db && !c.empty() && !isSystemCollection(c);
        case Kind::kCluster:
            return d != "admin" && d != "config" && d != "local" && !c.empty() && !isSystemCollection(c);
    }
    return false;
}

BSONObj ResumeToken::toBSON() const {
    char buf[48];
    int n = std::snprintf(buf, sizeof buf, "%s%016llX%02d", kVersion, static_cast<unsigned long long>(ts.asULL()),
                          static_cast<int>(kind));
    if (txnOpIndex) std::snprintf(buf + n, sizeof buf - n, "%08X", *txnOpIndex);
    BSONObjBuilder b;
    b.append("_data", std::string(buf));
    return b.obj();
}

StatusWith<ResumeToken> ResumeToken::parse(const BSONObj& token) {
    const Status bad(ErrorCodes::InvalidResumeToken, "Invalid resume token: " + token.jsonString());
    BSONElement d = token["_data"];
    if (d.type() != String || token.nFields() != 1) return bad;
    const std::string s = d.str();
    if ((s.size() != 20 && s.size() != 28) || s.compare(0, 2, kVersion) != 0) return bad;
    auto hex = [&](size_t from, size_t to, unsigned long long* v) {
        *v = 0;
        for (size_t i = from; i < to; ++i) {
            const char c = s[i];
            int x = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (x < 0) return false;
            *v = (*v << 4) | unsigned(x);
        }
        return true;
    };
    unsigned long long v = 0;
    if (!hex(2, 18, &v)) return bad;
    const std::string flag = s.substr(18, 2);
    if (flag != "00" && flag != "01" && flag != "02") return bad;
    ResumeToken t;
    t.ts = Timestamp::fromULL(v);
    t.kind = static_cast<ResumeToken::Kind>(flag[1] - '0');
    if (s.size() == 28) {
        unsigned long long index = 0;
        if (t.kind != ResumeToken::Kind::kEvent || !hex(20, 28, &index)) return bad;
        t.txnOpIndex = static_cast<uint32_t>(index);
    }
    return t;
}

BSONObj updateDescriptionOf(const BSONObj& diff) {
    BSONObjBuilder updated;
    BSONArrayBuilder removed, truncated;
    convertDocDiff(diff, "", updated, removed, truncated);
    BSONObjBuilder b;
    b.append("updatedFields", updated.obj());
    b.appendArray("removedFields", removed.arr());
    b.appendArray("truncatedArrays", truncated.arr());
    return b.obj();
}

namespace {
using Lookup = DocumentLookup;

// The event of an insert, update or delete (e: the entry, or an operation of a transaction's
// applyOps entry with the entry's time; txn: that entry, whose lsid and txnNumber the event
// carries).
BSONObj crudEvent(const repl::OplogEntry& e, const EventOptions& options, const Lookup& lookup,
                  const repl::OplogEntry* txn = nullptr, std::optional<uint32_t> txnOpIndex = std::nullopt) {
    using repl::OpTypeEnum;
    auto [db, coll] = splitNs(e.ns);
    BSONObjBuilder b;
    if (e.op == OpTypeEnum::kInsert) {
        appendHeader(b, e, "insert", false, txnOpIndex);
        b.append("fullDocument", e.o);
        b.append("ns", nsDoc(db, coll));
        BSONObjBuilder key;
        key.appendAs(e.o["_id"], "_id");
        b.append("documentKey", key.obj());
    } else if (e.op == OpTypeEnum::kDelete) {
        appendHeader(b, e, "delete", false, txnOpIndex);
        b.append("ns", nsDoc(db, coll));
        BSONObjBuilder key;
        key.appendAs(e.o["_id"], "_id");
        b.append("documentKey", key.obj());
    } else {
        const BSONObj documentKey = e.o2 ? *e.o2 : BSONObj();
        const bool isDiff = e.o["$v"].isNumber() && e.o["diff"].type() == Object;
        if (!isDiff) {
            appendHeader(b, e, "replace", false, txnOpIndex);
            b.append("fullDocument", e.o);
            b.append("ns", nsDoc(db, coll));
            b.append("documentKey", documentKey);
        } else {
            appendHeader(b, e, "update", false, txnOpIndex);
            if (options.updateLookup) {
                auto current = lookup(e.ns, documentKey);
                if (current)
                    b.append("fullDocument", *current);
                else
                    b.appendNull("fullDocument");
            }
            b.append("ns", nsDoc(db, coll));
            b.append("documentKey", documentKey);
            b.append("updateDescription", updateDescriptionOf(e.o["diff"].embeddedObject()));
        }
    }
    if (txn) {
        b.append("lsid", txn->lsid);
        b.append("txnNumber", txn->txnNumber);
    }
    return b.obj();
}
}  // namespace

std::vector<BSONObj> eventsFor(const BSONObj& entry, const Scope& scope, const EventOptions& options,
                               const Lookup& lookup, const EntryReader& readEntry) {
    auto parsed = repl::OplogEntry::parse(entry);
    uassertStatusOK(parsed.getStatus());
    const repl::OplogEntry& e = parsed.getValue();
    std::vector<BSONObj> out;
    using repl::OpTypeEnum;
    if (e.op == OpTypeEnum::kInsert || e.op == OpTypeEnum::kUpdate || e.op == OpTypeEnum::kDelete) {
        if (scope.watches(e.ns)) out.push_back(crudEvent(e, options, lookup));
        return out;
    }
    if (e.op != OpTypeEnum::kCommand) return out;
    if (e.isApplyOps()) {
        // A committed transaction: an event per operation of the scope, in order, each with
        // the (last) entry's time and the transaction's lsid and txnNumber. An entry of a chain
        // that its last entry commits has none of its own.
        if (repl::isPartialTransactionEntry(e)) return out;
        const std::vector<BSONObj> ops = repl::transactionOperations(e, [&](const repl::OpTime& t) {
            uassert(ErrorCodes::InternalError, "a transaction's earlier oplog entries cannot be read here",
                    static_cast<bool>(readEntry));
            return readEntry(t);
        });
        uint32_t index = 0;
        for (const BSONObj& op : ops) {
            const uint32_t i = index++;
            repl::OplogEntry inner = uassertStatusOK(repl::OplogEntry::parseApplyOpsElement(op));
            // A collection or index the transaction created: an expanded event, which MongoDB
            // shows only with showExpandedEvents (refused here).
            if (inner.op == OpTypeEnum::kCommand || !scope.watches(inner.ns)) continue;
            inner.opTime = e.opTime;
            inner.wall = e.wall;
            out.push_back(crudEvent(inner, options, lookup, &e, i));
        }
        return out;
    }
    auto [db, cmdColl] = splitNs(e.ns);
    const std::string name(e.o.firstElementFieldName());
    auto invalidate = [&] {
        BSONObjBuilder b;
        appendHeader(b, e, "invalidate", true);
        out.push_back(b.obj());
    };
    if (name == "drop" && e.o.firstElement().type() == String) {
        const std::string coll = e.o.firstElement().str();
        if (!scope.watches(db + "." + coll)) return out;
        BSONObjBuilder b;
        appendHeader(b, e, "drop");
        b.append("ns", nsDoc(db, coll));
        out.push_back(b.obj());
        if (scope.kind == Scope::Kind::kCollection) invalidate();
    } else if (name == "renameCollection" && e.o.firstElement().type() == String && e.o["to"].type() == String) {
        const std::string from = e.o.firstElement().str();
        const std::string to = e.o["to"].str();
        if (!scope.watches(from)) return out;
        auto [fromDb, fromColl] = splitNs(from);
        auto [toDb, toColl] = splitNs(to);
        BSONObjBuilder b;
        appendHeader(b, e, "rename");
        b.append("ns", nsDoc(fromDb, fromColl));
        b.append("to", nsDoc(toDb, toColl));
        out.push_back(b.obj());
        if (scope.kind == Scope::Kind::kCollection) invalidate();
    } else if (name == "dropDatabase") {
        if (scope.kind == Scope::Kind::kCollection || (scope.kind == Scope::Kind::kDatabase && scope.db != db)) return out;
        if (scope.kind == Scope::Kind::kCluster && (db == "admin" || db == "config" || db == "local")) return out;
        BSONObjBuilder b;
        appendHeader(b, e, "dropDatabase");
        b.append("ns", nsDoc(db, ""));
        out.push_back(b.obj());
        if (scope.kind == Scope::Kind::kDatabase) invalidate();
    }
    return out;
}

}  // namespace change_stream
}  // namespace mongo
