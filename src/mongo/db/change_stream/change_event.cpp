#include "mongo/db/change_stream/change_event.h"

#include <cstdio>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/oplog_entry.h"

namespace mongo {
namespace change_stream {
namespace {

// "82" (a version byte, as MongoDB's KeyString tokens begin), 16 hex digits of the timestamp,
// then the kind: "00" an event, "01" an invalidate, "02" a high-water mark.
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
void appendHeader(BSONObjBuilder& b, const repl::OplogEntry& e, const char* type, bool invalidate = false) {
    ResumeToken t;
    t.ts = e.opTime.getTimestamp();
    t.kind = invalidate ? ResumeToken::Kind::kInvalidate : ResumeToken::Kind::kEvent;
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
    char buf[40];
    std::snprintf(buf, sizeof buf, "%s%016llX%02d", kVersion, static_cast<unsigned long long>(ts.asULL()),
                  static_cast<int>(kind));
    BSONObjBuilder b;
    b.append("_data", std::string(buf));
    return b.obj();
}

StatusWith<ResumeToken> ResumeToken::parse(const BSONObj& token) {
    const Status bad(ErrorCodes::InvalidResumeToken, "Invalid resume token: " + token.jsonString());
    BSONElement d = token["_data"];
    if (d.type() != String || token.nFields() != 1) return bad;
    const std::string s = d.str();
    if (s.size() != 20 || s.compare(0, 2, kVersion) != 0) return bad;
    unsigned long long v = 0;
    for (size_t i = 2; i < 18; ++i) {
        const char c = s[i];
        int x = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (x < 0) return bad;
        v = (v << 4) | unsigned(x);
    }
    const std::string flag = s.substr(18);
    if (flag != "00" && flag != "01" && flag != "02") return bad;
    ResumeToken t;
    t.ts = Timestamp::fromULL(v);
    t.kind = static_cast<ResumeToken::Kind>(flag[1] - '0');
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

std::vector<BSONObj> eventsFor(const BSONObj& entry, const Scope& scope, const EventOptions& options,
                               const std::function<std::optional<BSONObj>(const std::string& ns,
                                                                          const BSONObj& documentKey)>& lookup) {
    auto parsed = repl::OplogEntry::parse(entry);
    uassertStatusOK(parsed.getStatus());
    const repl::OplogEntry& e = parsed.getValue();
    std::vector<BSONObj> out;
    using repl::OpTypeEnum;
    if (e.op == OpTypeEnum::kInsert || e.op == OpTypeEnum::kUpdate || e.op == OpTypeEnum::kDelete) {
        if (!scope.watches(e.ns)) return out;
        auto [db, coll] = splitNs(e.ns);
        BSONObjBuilder b;
        if (e.op == OpTypeEnum::kInsert) {
            appendHeader(b, e, "insert");
            b.append("fullDocument", e.o);
            b.append("ns", nsDoc(db, coll));
            BSONObjBuilder key;
            key.appendAs(e.o["_id"], "_id");
            b.append("documentKey", key.obj());
        } else if (e.op == OpTypeEnum::kDelete) {
            appendHeader(b, e, "delete");
            b.append("ns", nsDoc(db, coll));
            BSONObjBuilder key;
            key.appendAs(e.o["_id"], "_id");
            b.append("documentKey", key.obj());
        } else {
            const BSONObj documentKey = e.o2 ? *e.o2 : BSONObj();
            const bool isDiff = e.o["$v"].isNumber() && e.o["diff"].type() == Object;
            if (!isDiff) {
                appendHeader(b, e, "replace");
                b.append("fullDocument", e.o);
                b.append("ns", nsDoc(db, coll));
                b.append("documentKey", documentKey);
            } else {
                appendHeader(b, e, "update");
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
        out.push_back(b.obj());
        return out;
    }
    if (e.op != OpTypeEnum::kCommand) return out;
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
