#include "mongo/db/update/storage_validation.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/write_timestamp.h"

namespace mongo {
namespace {

// mongod's BSONObj::storageValidEmbedded: no '$'-prefixed names at any depth, except a DBRef
// ($ref: <string>, $id, optionally $db: <string>) at the start of a document.
Status storageValidEmbedded(const BSONObj& obj) {
    BSONObjIterator it(obj);
    bool first = true;
    while (it.more()) {
        BSONElement e = it.next();
        std::string_view name = e.fieldNameStringData();
        if (!name.empty() && name[0] == '$') {
            if (first && name == "$ref" && e.type() == String && it.more() &&
                (*it).fieldNameStringData() == "$id") {
                first = false;
                it.next();  // $id
                if (!it.more()) break;
                e = it.next();
                name = e.fieldNameStringData();
                if (name == "$db" && e.type() == String) continue;
                if (!name.empty() && name[0] == '$')
                    return Status(ErrorCodes::DollarPrefixedFieldName, std::string(name) + " is not valid for storage.");
            } else {
                return Status(ErrorCodes::DollarPrefixedFieldName, std::string(name) + " is not valid for storage.");
            }
        }
        if (e.type() == Object || e.type() == Array) {
            Status s = storageValidEmbedded(e.Obj());
            if (!s.isOK()) return s;
        }
        first = false;
    }
    return Status::OK();
}

// Deepest element level below a document whose own fields are at 'level'.
int maxLevel(const BSONObj& obj, int level) {
    int deepest = level - 1;
    for (BSONElement e : obj) {
        deepest = std::max(deepest, level);
        if (e.type() == Object || e.type() == Array) deepest = std::max(deepest, maxLevel(e.Obj(), level + 1));
    }
    return deepest;
}

}  // namespace

Status validateIdField(const BSONElement& id) {
    switch (id.type()) {
        case RegEx:
        case Array:
        case Undefined:
            return Status(ErrorCodes::InvalidIdField, "The '_id' value cannot be of type " + typeName(id.type()));
        case Object: {
            Status s = storageValidEmbedded(id.Obj());
            if (!s.isOK())
                return Status(s.code(), "_id fields may not contain '$'-prefixed fields: " + s.reason());
            return Status::OK();
        }
        default: return Status::OK();
    }
}

Status validateDollarPrefixedField(const std::vector<std::pair<std::string_view, BSONType>>& siblings,
                                   size_t index,
                                   const std::string& fullPath) {
    auto nameAt = [&](long i) -> std::string_view {
        return i >= 0 && i < static_cast<long>(siblings.size()) ? siblings[i].first : std::string_view();
    };
    long cur = static_cast<long>(index);
    std::string_view name = siblings[index].first;
    if (name == "$db") {
        if (siblings[cur].second != String)
            return Status(ErrorCodes::InvalidDBRef,
                          "The DBRef $db field must be a String, not a " + typeName(siblings[cur].second));
        cur--;
        if (nameAt(cur) != "$id")
            return Status(ErrorCodes::InvalidDBRef, "Found $db field without a $id before it, which is invalid.");
        name = "$id";
    }
    if (name == "$id") {
        cur--;
        if (nameAt(cur) != "$ref")
            return Status(ErrorCodes::InvalidDBRef, "Found $id field without a $ref before it, which is invalid.");
        name = "$ref";
    }
    if (name == "$ref") {
        if (siblings[cur].second != String)
            return Status(ErrorCodes::InvalidDBRef,
                          "The DBRef $ref field must be a String, not a " + typeName(siblings[cur].second));
        if (nameAt(cur + 1) != "$id")
            return Status(ErrorCodes::InvalidDBRef, "The DBRef $ref field must be followed by a $id field");
        return Status::OK();
    }
    return Status(ErrorCodes::DollarPrefixedFieldName,
                  "The dollar ($) prefixed field '" + std::string(siblings[index].first) + "' in '" + fullPath +
                      "' is not allowed in the context of an update's replacement document. Consider using an "
                      "aggregation pipeline with $replaceWith.");
}

Status validateStorageDocument(const BSONObj& doc, bool allowTopLevelDollarPrefixes) {
    std::vector<std::pair<std::string_view, BSONType>> fields;
    for (BSONElement e : doc) fields.emplace_back(e.fieldNameStringData(), e.type());
    size_t i = 0;
    for (BSONElement e : doc) {
        std::string_view name = e.fieldNameStringData();
        if (name == "_id") {
            Status s = validateIdField(e);
            if (!s.isOK()) return s;
        }
        if (!allowTopLevelDollarPrefixes && !name.empty() && name[0] == '$') {
            Status s = validateDollarPrefixedField(fields, i, std::string(name));
            if (!s.isOK()) return s;
        }
        i++;
    }
    if (maxLevel(doc, 1) > kMaxUserStorageDepth)
        return Status(ErrorCodes::Overflow,
                      "Document exceeds maximum nesting depth of " + std::to_string(kMaxUserStorageDepth));
    return Status::OK();
}

StatusWith<BSONObj> fixDocumentForInsert(const BSONObj& doc) {
    if (doc.objsize() > BSONObjMaxUserSize)
        return Status(ErrorCodes::BadValue,
                      "object to insert too large. size in bytes: " + std::to_string(doc.objsize()) +
                          ", max size: " + std::to_string(BSONObjMaxUserSize));
    // A document's own fields are one level; mongod refuses a container at the 100th level.
    if (maxLevel(doc, 1) > kMaxUserStorageDepth)
        return Status(ErrorCodes::Overflow,
                      "cannot insert document because it exceeds " + std::to_string(kMaxUserStorageDepth) +
                          " levels of nesting");
    bool hadId = false;
    bool firstIsId = false;
    bool hasZeroTimestamp = false;
    bool isFirst = true;
    for (BSONElement e : doc) {
        if (e.type() == bsonTimestamp && e.timestamp().isNull()) hasZeroTimestamp = true;
        if (e.fieldNameStringData() == "_id") {
            Status s = validateIdField(e);
            if (!s.isOK()) return s;
            if (hadId) return Status(ErrorCodes::BadValue, "can't have multiple _id fields in one document");
            hadId = true;
            firstIsId = isFirst;
        }
        isFirst = false;
    }
    if (firstIsId && !hasZeroTimestamp) return doc.getOwned();

    BSONObjBuilder b;
    if (hadId)
        b.append(doc.getField("_id"));
    else
        b.append("_id", OID::gen());
    for (BSONElement e : doc) {
        if (e.fieldNameStringData() == "_id") continue;
        if (e.type() == bsonTimestamp && e.timestamp().isNull())
            b.append(e.fieldNameStringData(), nextWriteTimestamp());
        else
            b.append(e);
    }
    return b.obj();
}

}  // namespace mongo
