// UpdateDriver::seedUpsertDocument: the document an upsert starts from, built from the query's
// equality predicates as mongod extracts them from the canonicalized query.
#include <map>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/mutable_document.h"
#include "mongo/db/update/update_driver.h"
#include "mongo/db/update/update_path.h"

namespace mongo {
namespace {

bool isPathPrefix(const std::string& prefix, const std::string& path) {
    return path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 && path[prefix.size()] == '.';
}

// Paths in mongod's (sorted) order of insertion into the new document.
using Equalities = std::map<std::string, BSONElement>;

void addEquality(Equalities* eq, const std::string& path, const BSONElement& value) {
    for (const auto& [existing, v] : *eq) {
        if (existing == path)
            uasserted(ErrorCodes::NotSingleValueField,
                      "cannot infer query fields to set, path '" + path + "' is matched twice");
        if (isPathPrefix(existing, path))
            uasserted(ErrorCodes::NotSingleValueField,
                      "cannot infer query fields to set, both paths '" + path + "' and '" + existing + "' are matched");
        if (isPathPrefix(path, existing))
            uasserted(ErrorCodes::NotSingleValueField,
                      "cannot infer query fields to set, both paths '" + existing + "' and '" + path + "' are matched");
    }
    eq->emplace(path, value);
}

bool isOperatorObject(const BSONObj& o) {
    std::string_view first = o.firstElementFieldName();
    // {$ref: ..., $id: ...} is a DBRef value, not operators.
    return !first.empty() && first[0] == '$' && first != "$ref" && first != "$id" && first != "$db";
}

void extractEqualities(const BSONObj& query, Equalities* eq) {
    for (BSONElement e : query) {
        std::string name(e.fieldNameStringData());
        if (!name.empty() && name[0] == '$') {
            // $and is flattened; a single-clause $or is reduced to its clause by canonicalization.
            if ((name == "$and" || (name == "$or" && e.Obj().nFields() == 1)) && e.type() == Array)
                for (BSONElement clause : e.Obj())
                    if (clause.type() == Object) extractEqualities(clause.Obj(), eq);
            continue;
        }
        if (e.type() == Object && isOperatorObject(e.Obj())) {
            for (BSONElement op : e.Obj()) {
                std::string_view opName = op.fieldNameStringData();
                if (opName == "$eq") {
                    addEquality(eq, name, op);
                } else if (opName == "$in" && op.type() == Array && op.Obj().nFields() == 1) {
                    // A one-element $in is optimized into an equality (unless it is a regex).
                    BSONElement only = op.Obj().firstElement();
                    if (only.type() != RegEx) addEquality(eq, name, only);
                } else if (opName == "$all" && op.type() == Array) {
                    // $all is an $and of equalities (regexes and $elemMatch aside).
                    for (BSONElement v : op.Obj()) {
                        if (v.type() == RegEx) continue;
                        if (v.type() == Object && v.Obj().firstElementFieldName() == "$elemMatch") continue;
                        addEquality(eq, name, v);
                    }
                }
            }
            continue;
        }
        if (e.type() == RegEx) continue;  // a regex is a pattern match, not a value
        addEquality(eq, name, e);
    }
}

}  // namespace

BSONObj UpdateDriver::seedUpsertDocument(const BSONObj& query) {
    Equalities eq;
    extractEqualities(query, &eq);
    if (eq.empty()) return BSONObj();

    MutableDocument doc{BSONObj()};
    for (const auto& [path, value] : eq) {
        PathCursor cursor{&doc.root(), {}};
        for (const std::string& part : splitDottedPath(path)) cursor = descendCursor(cursor, part);
        if (cursor.missing.empty())
            cursor.existing->setValue(value);
        else
            createPathAt(cursor.existing, cursor.missing, value);
    }
    BSONObj out = doc.toBSON();
    BSONElement id = out.getField("_id");
    if (id.eoo() || out.firstElementFieldName() == "_id") return out;
    BSONObjBuilder b;
    b.append(id);
    for (BSONElement e : out)
        if (e.fieldNameStringData() != "_id") b.append(e);
    return b.obj();
}

}  // namespace mongo
