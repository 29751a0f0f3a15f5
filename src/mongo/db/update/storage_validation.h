#pragma once
// Rules for documents about to be stored, as mongod 7.0 applies them:
//  - _id may not be an array, a regex or undefined (InvalidIdField), and an _id document may
//    not contain '$'-prefixed fields (DollarPrefixedFieldName);
//  - replacement documents may not have '$'-prefixed top-level fields other than the DBRef
//    fields $ref/$id/$db in DBRef order (DollarPrefixedFieldName / InvalidDBRef); inserts may;
//  - nesting depth is limited to 100 (Overflow).
// Stateless; thread safe.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

constexpr int kMaxUserStorageDepth = 100;

// The _id rules above.
Status validateIdField(const BSONElement& id);

// Validates a whole document for storage: _id, depth, and (unless allowTopLevelDollarPrefixes,
// as for inserts and documents created by upserts) '$'-prefixed top-level fields, which
// replacement documents may not have. UpdateDriver::apply already validates what it returns.
Status validateStorageDocument(const BSONObj& doc, bool allowTopLevelDollarPrefixes = true);

// For inserts, as mongod's fixDocumentForInsert: checks size (BadValue), depth (Overflow) and
// _id (see validateIdField; BadValue for several _id fields), then returns the document with
// _id first (an ObjectId is generated when absent) and top-level Timestamp(0, 0) values
// replaced by a fresh write timestamp.
StatusWith<BSONObj> fixDocumentForInsert(const BSONObj& doc);

// The '$'-prefixed field 'siblings[index]' (name, type) among its siblings: OK only for the
// DBRef fields in order ($ref, $id[, $db]). 'fullPath' names the field in messages.
Status validateDollarPrefixedField(const std::vector<std::pair<std::string_view, BSONType>>& siblings,
                                   size_t index,
                                   const std::string& fullPath);

}  // namespace mongo
