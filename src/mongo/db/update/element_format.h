#pragma once
// Renders BSON values the way mongod prints them inside error messages ({a: 1}, [ 1, 2 ],
// { b: "x" }, 2.0 for doubles, ObjectId('...'), ...), which differs from extended JSON.
// Stateless; thread safe.
#include <string>

#include "mongo/bson/bsonobj.h"

namespace mongo {

// "name: value" (withName) or just "value".
std::string formatElementForError(const BSONElement& e, bool withName = true);
// "{ a: 1, b: [ 1, 2 ] }" ("{}" when empty).
std::string formatObjectForError(const BSONObj& obj);

}  // namespace mongo
