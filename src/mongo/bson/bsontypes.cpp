#include "mongo/bson/bsontypes.h"

#include <utility>

namespace mongo {

int canonicalizeBSONType(BSONType t) {
    switch (t) {
        case MinKey: return -1;
        case MaxKey: return 127;
        case EOO:
        case Undefined: return 0;
        case jstNULL: return 5;
        case NumberDecimal:
        case NumberDouble:
        case NumberInt:
        case NumberLong: return 10;
        case String:
        case Symbol: return 15;
        case Object: return 20;
        case Array: return 25;
        case BinData: return 30;
        case jstOID: return 35;
        case Bool: return 40;
        case Date: return 45;
        case bsonTimestamp: return 47;
        case RegEx: return 50;
        case DBRef: return 55;
        case Code: return 60;
        case CodeWScope: return 65;
    }
    return 0;
}

static const std::pair<const char*, BSONType> kAliases[] = {
    {"double", NumberDouble}, {"string", String},   {"object", Object},     {"array", Array},
    {"binData", BinData},     {"undefined", Undefined}, {"objectId", jstOID}, {"bool", Bool},
    {"date", Date},           {"null", jstNULL},    {"regex", RegEx},       {"dbPointer", DBRef},
    {"javascript", Code},     {"symbol", Symbol},   {"javascriptWithScope", CodeWScope},
    {"int", NumberInt},       {"timestamp", bsonTimestamp}, {"long", NumberLong},
    {"decimal", NumberDecimal}, {"minKey", MinKey}, {"maxKey", MaxKey},
};

bool typeFromAlias(const std::string& alias, BSONType* out) {
    for (auto& a : kAliases)
        if (alias == a.first) {
            *out = a.second;
            return true;
        }
    return false;
}

std::string typeName(BSONType t) {
    if (t == EOO) return "missing";
    for (auto& a : kAliases)
        if (a.second == t) return a.first;
    return "unknown";
}

}  // namespace mongo
