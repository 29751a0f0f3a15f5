#include "mongo/db/update/element_format.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include <bson/bson.h>

namespace mongo {
namespace {

void appendQuoted(std::string& out, std::string_view s) {
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    out += '"';
}

std::string formatDouble(double d) {
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
    std::ostringstream os;
    os.precision(16);
    os << d;
    std::string s = os.str();
    // mongod makes doubles recognisable as such: 2 prints as 2.0.
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

std::string decimalString(const BSONElement& e) {
    bson_decimal128_t d;
    std::memcpy(&d.low, e.value(), 8);
    std::memcpy(&d.high, e.value() + 8, 8);
    char buf[BSON_DECIMAL128_STRING];
    bson_decimal128_to_string(&d, buf);
    return buf;
}

void appendValue(std::string& out, const BSONElement& e);

void appendObjectBody(std::string& out, const BSONObj& o, bool isArray) {
    if (o.isEmpty()) {
        out += isArray ? "[]" : "{}";
        return;
    }
    out += isArray ? "[ " : "{ ";
    bool first = true;
    for (BSONElement c : o) {
        if (!first) out += ", ";
        first = false;
        if (!isArray) {
            out += c.fieldNameStringData();
            out += ": ";
        }
        appendValue(out, c);
    }
    out += isArray ? " ]" : " }";
}

void appendValue(std::string& out, const BSONElement& e) {
    switch (e.type()) {
        case EOO: out += "EOO"; break;
        case NumberDouble: out += formatDouble(e.numberDouble()); break;
        case NumberInt:
        case NumberLong: out += std::to_string(e.numberLong()); break;
        case NumberDecimal: out += "NumberDecimal(\"" + decimalString(e) + "\")"; break;
        case String: appendQuoted(out, e.valueStringData()); break;
        case Symbol: appendQuoted(out, e.valueStringData()); break;
        case Code: out += e.valueStringData(); break;
        case CodeWScope:
            out += "CodeWScope( ";
            out += e.codeWScopeCode();
            out += ", ";
            appendObjectBody(out, e.codeWScopeScope(), false);
            out += ")";
            break;
        case Object: appendObjectBody(out, e.Obj(), false); break;
        case Array: appendObjectBody(out, e.Obj(), true); break;
        case Bool: out += e.boolean() ? "true" : "false"; break;
        case jstNULL: out += "null"; break;
        case Undefined: out += "undefined"; break;
        case MinKey: out += "MinKey"; break;
        case MaxKey: out += "MaxKey"; break;
        case jstOID: out += "ObjectId('" + e.oid().toString() + "')"; break;
        case Date: out += "new Date(" + std::to_string(e.date().millis) + ")"; break;
        case bsonTimestamp: {
            Timestamp t = e.timestamp();
            out += "Timestamp(" + std::to_string(t.secs) + ", " + std::to_string(t.inc) + ")";
            break;
        }
        case RegEx:
            out += "/";
            out += e.regex();
            out += "/";
            out += e.regexFlags();
            break;
        case BinData: {
            int len = 0, subtype = 0;
            const char* p = e.binData(&len, &subtype);
            static const char* hex = "0123456789ABCDEF";
            out += "BinData(" + std::to_string(subtype) + ", ";
            for (int i = 0; i < len; i++) {
                unsigned char c = static_cast<unsigned char>(p[i]);
                out += hex[c >> 4];
                out += hex[c & 15];
            }
            out += ")";
            break;
        }
        case DBRef: out += "DBRef(...)"; break;
    }
}

}  // namespace

std::string formatElementForError(const BSONElement& e, bool withName) {
    std::string out;
    if (withName && !e.eoo()) {
        out += e.fieldNameStringData();
        out += ": ";
    }
    appendValue(out, e);
    return out;
}

std::string formatObjectForError(const BSONObj& obj) {
    std::string out;
    appendObjectBody(out, obj, false);
    return out;
}

}  // namespace mongo
