#pragma once
// BSON type tags (bsonspec.org) and MongoDB's canonical cross-type sort order.
#include <cstdint>
#include <string>

namespace mongo {

enum BSONType : int {
    MinKey = -1,
    EOO = 0,
    NumberDouble = 1,
    String = 2,
    Object = 3,
    Array = 4,
    BinData = 5,
    Undefined = 6,
    jstOID = 7,
    Bool = 8,
    Date = 9,
    jstNULL = 10,
    RegEx = 11,
    DBRef = 12,
    Code = 13,
    Symbol = 14,
    CodeWScope = 15,
    NumberInt = 16,
    bsonTimestamp = 17,
    NumberLong = 18,
    NumberDecimal = 19,
    MaxKey = 127,
};

// Rank used when values of different types are compared (MongoDB's canonicalizeBSONType):
// MinKey < Null/Undefined < numbers < strings < objects < arrays < binData < ObjectId < bool
// < date < timestamp < regex < DBRef < code < codeWScope < MaxKey.
int canonicalizeBSONType(BSONType t);

// $type aliases: "double", "string", ... -> type; returns false if the alias is unknown.
bool typeFromAlias(const std::string& alias, BSONType* out);
// The $type alias of a type ("double", "objectId", "missing" for EOO, ...).
std::string typeName(BSONType t);

inline bool isNumericType(BSONType t) {
    return t == NumberDouble || t == NumberInt || t == NumberLong || t == NumberDecimal;
}

}  // namespace mongo
