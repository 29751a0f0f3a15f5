#include "mongo/db/repl/update_diff.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {
namespace {

BSONObj diffArrays(const BSONObj& pre, const BSONObj& post);
BSONObj diffDocs(const BSONObj& pre, const BSONObj& post);

// The sub-diff of two values of the same kind if it is smaller than the new value; else none.
std::optional<BSONObj> subDiff(const BSONElement& a, const BSONElement& b) {
    BSONObj d;
    if (a.type() == Object && b.type() == Object)
        d = diffDocs(a.embeddedObject(), b.embeddedObject());
    else if (a.type() == Array && b.type() == Array)
        d = diffArrays(a.embeddedObject(), b.embeddedObject());
    else
        return std::nullopt;
    if (d.objsize() >= b.valuesize()) return std::nullopt;
    return d;
}

BSONObj diffDocs(const BSONObj& pre, const BSONObj& post) {
    std::vector<BSONElement> preFields;
    std::unordered_map<std::string, size_t> prePos;
    for (BSONElement e : pre) {
        prePos.emplace(std::string(e.fieldNameStringData()), preFields.size());
        preFields.push_back(e);
    }
    std::vector<bool> kept(preFields.size(), false), inPost(preFields.size(), false);
    BSONObjBuilder u, i;
    std::vector<std::pair<std::string, BSONObj>> subs;
    bool inserting = false;
    long long lastPos = -1;
    for (BSONElement q : post) {
        std::string name(q.fieldNameStringData());
        auto it = prePos.find(name);
        if (it != prePos.end()) inPost[it->second] = true;
        if (!inserting && it != prePos.end() && (long long)it->second > lastPos) {
            size_t p = it->second;
            kept[p] = true;
            lastPos = (long long)p;
            const BSONElement& old = preFields[p];
            if (old.binaryEqual(q)) continue;
            if (auto d = subDiff(old, q))
                subs.emplace_back("s" + name, *d);
            else
                u.append(q);
            continue;
        }
        // Out of order or new: from here on every field is appended (moved if it existed).
        inserting = true;
        i.append(q);
    }
    BSONObjBuilder d;
    for (size_t p = 0; p < preFields.size(); ++p)
        if (!kept[p] && !inPost[p]) d.append(preFields[p].fieldNameStringData(), false);
    BSONObjBuilder out;
    if (!d.isEmpty()) out.append("d", d.obj());
    if (!u.isEmpty()) out.append("u", u.obj());
    if (!i.isEmpty()) out.append("i", i.obj());
    for (auto& [k, v] : subs) out.append(k, v);
    return out.obj();
}

BSONObj diffArrays(const BSONObj& pre, const BSONObj& post) {
    std::vector<BSONElement> a, b;
    for (BSONElement e : pre) a.push_back(e);
    for (BSONElement e : post) b.push_back(e);
    BSONObjBuilder out;
    out.append("a", true);
    if (b.size() < a.size()) out.append("l", static_cast<int>(b.size()));
    for (size_t k = 0; k < b.size(); ++k) {
        std::string idx = std::to_string(k);
        if (k < a.size()) {
            if (a[k].binaryEqual(b[k])) continue;
            if (auto d = subDiff(a[k], b[k])) {
                out.append("s" + idx, *d);
                continue;
            }
        }
        out.appendAs(b[k], "u" + idx);
    }
    return out.obj();
}

[[noreturn]] void malformed(const std::string& why) {
    uasserted(ErrorCodes::FailedToParse, "malformed $v: 2 update diff: " + why);
}

BSONObj applyArray(const BSONObj& pre, const BSONObj& diff);

BSONObj applyDoc(const BSONObj& pre, const BSONObj& diff) {
    std::map<std::string, bool> del;
    std::map<std::string, BSONElement> upd, subs;
    std::vector<BSONElement> ins;
    std::map<std::string, bool> insNames;
    for (BSONElement e : diff) {
        std::string_view k = e.fieldNameStringData();
        if (k == "d" || k == "u" || k == "i") {
            if (e.type() != Object) malformed(std::string(k) + " must be an object");
            for (BSONElement f : e.embeddedObject()) {
                std::string name(f.fieldNameStringData());
                if (k == "d") del[name] = true;
                if (k == "u") upd.emplace(name, f);
                if (k == "i") {
                    ins.push_back(f);
                    insNames[name] = true;
                }
            }
        } else if (!k.empty() && k[0] == 's') {
            if (e.type() != Object) malformed("sub-diff " + std::string(k) + " must be an object");
            subs.emplace(std::string(k.substr(1)), e);
        } else {
            malformed("unknown field '" + std::string(k) + "'");
        }
    }
    BSONObjBuilder out;
    std::map<std::string, bool> updated;
    for (BSONElement f : pre) {
        std::string name(f.fieldNameStringData());
        if (del.count(name) || insNames.count(name)) continue;
        if (auto it = upd.find(name); it != upd.end()) {
            out.appendAs(it->second, name);
            updated[name] = true;
            continue;
        }
        if (auto it = subs.find(name); it != subs.end()) {
            BSONObj sd = it->second.embeddedObject();
            bool arrayDiff = sd["a"].type() == Bool && sd["a"].boolean();
            if (f.type() == Object && !arrayDiff) {
                out.append(name, applyDoc(f.embeddedObject(), sd));
                continue;
            }
            if (f.type() == Array && arrayDiff) {
                out.appendArray(name, applyArray(f.embeddedObject(), sd));
                continue;
            }
        }
        out.append(f);
    }
    for (auto& [name, e] : upd)
        if (!updated.count(name)) out.appendAs(e, name);
    for (const BSONElement& e : ins) out.append(e);
    return out.obj();
}

size_t parseIndex(std::string_view s) {
    if (s.empty() || s.size() > 9) malformed("bad array index '" + std::string(s) + "'");
    size_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') malformed("bad array index '" + std::string(s) + "'");
        v = v * 10 + size_t(c - '0');
    }
    return v;
}

BSONObj applyArray(const BSONObj& pre, const BSONObj& diff) {
    // Each slot holds its value as a one-field object (an element needs storage).
    std::vector<BSONObj> slots;
    for (BSONElement e : pre) slots.push_back(e.wrap(""));
    auto nullSlot = [] {
        BSONObjBuilder b;
        b.appendNull("");
        return b.obj();
    };
    for (BSONElement e : diff) {
        std::string_view k = e.fieldNameStringData();
        if (k == "a") continue;
        if (k == "l") {
            if (!e.isNumber()) malformed("l must be a number");
            long long n = e.numberLong();
            if (n < 0) malformed("l must not be negative");
            slots.resize(size_t(n), BSONObj());
            for (auto& s : slots)
                if (s.isEmpty()) s = nullSlot();
            continue;
        }
        if (k.size() < 2 || (k[0] != 'u' && k[0] != 's')) malformed("unknown array diff field '" + std::string(k) + "'");
        size_t idx = parseIndex(k.substr(1));
        if (k[0] == 'u') {
            while (slots.size() <= idx) slots.push_back(nullSlot());
            slots[idx] = e.wrap("");
            continue;
        }
        if (e.type() != Object) malformed("sub-diff " + std::string(k) + " must be an object");
        if (idx >= slots.size()) continue;
        BSONElement cur = slots[idx].firstElement();
        BSONObj sd = e.embeddedObject();
        bool arrayDiff = sd["a"].type() == Bool && sd["a"].boolean();
        BSONObjBuilder b;
        if (cur.type() == Object && !arrayDiff)
            b.append("", applyDoc(cur.embeddedObject(), sd));
        else if (cur.type() == Array && arrayDiff)
            b.appendArray("", applyArray(cur.embeddedObject(), sd));
        else
            continue;
        slots[idx] = b.obj();
    }
    BSONObjBuilder out;
    for (size_t k = 0; k < slots.size(); ++k) out.appendAs(slots[k].firstElement(), std::to_string(k));
    return out.obj();
}

}  // namespace

BSONObj computeUpdateDiffAlways(const BSONObj& pre, const BSONObj& post) { return diffDocs(pre, post); }

std::optional<BSONObj> computeUpdateDiff(const BSONObj& pre, const BSONObj& post) {
    BSONObj d = diffDocs(pre, post);
    if (d.objsize() >= post.objsize()) return std::nullopt;
    return d;
}

BSONObj applyUpdateDiff(const BSONObj& pre, const BSONObj& diff) { return applyDoc(pre, diff); }

}  // namespace repl
}  // namespace mongo
