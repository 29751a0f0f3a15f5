#pragma once
// Test helpers for the query-language tests (header only, tests include it).
//
// q() reads the shell-like JSON tests are easier to write in: unquoted keys ({a: 1}),
// single-quoted strings ('x') and regex literals (/^a/i), by rewriting it to the strict
// extended JSON that fromjson() (libbson) accepts.
// libbson also treats {"$regex": ..}, {"$type": ..} (and a few others) as extended-JSON type
// wrappers, so tests write such operators with '%' instead of '$' ({a: {%regex: 'x'}}) and
// q() renames every key that starts with '%'.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace query_test {

inline void renameInto(BSONObjBuilder& b, const BSONObj& o);

inline void appendRenamed(BSONObjBuilder& b, const BSONElement& e, std::string name) {
    if (!name.empty() && name[0] == '%') name[0] = '$';
    if (e.type() == Object) {
        BSONObjBuilder& sub = b.subobjStart(name);
        renameInto(sub, e.Obj());
        sub.doneFast();
    } else if (e.type() == Array) {
        BSONArrayBuilder& sub = b.subarrayStart(name);
        renameInto(sub.bb(), e.Obj());
        sub.doneFast();
    } else {
        b.appendAs(e, name);
    }
}

inline void renameInto(BSONObjBuilder& b, const BSONObj& o) {
    for (BSONElement e : o) appendRenamed(b, e, std::string(e.fieldNameStringData()));
}

inline void appendJsonStringChar(std::string& out, char c) {
    switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default: out += c;
    }
}

inline std::string relaxedToStrictJson(const std::string& in) {
    std::string out;
    char lastSignificant = 0;
    auto isWordChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.' ||
            c == '-' || c == '+';
    };
    size_t i = 0;
    while (i < in.size()) {
        char c = in[i];
        if (c == '"' || c == '\'') {
            // A string: copy its characters, escaping for JSON.
            char quote = c;
            out += '"';
            for (++i; i < in.size() && in[i] != quote; ++i) {
                if (in[i] == '\\' && i + 1 < in.size()) {
                    char n = in[++i];
                    if (n == '\'') out += '\'';
                    else {
                        out += '\\';
                        out += n;
                    }
                } else {
                    appendJsonStringChar(out, in[i]);
                }
            }
            out += '"';
            ++i;
            lastSignificant = '"';
        } else if (c == '/' && (lastSignificant == ':' || lastSignificant == ',' || lastSignificant == '[')) {
            // A regex literal /pattern/flags.
            std::string pattern, flags;
            for (++i; i < in.size() && in[i] != '/'; ++i) {
                if (in[i] == '\\' && i + 1 < in.size()) pattern += in[i++];
                pattern += in[i];
            }
            for (++i; i < in.size() && std::isalpha(static_cast<unsigned char>(in[i])); ++i) flags += in[i];
            out += "{\"$regularExpression\": {\"pattern\": \"";
            for (char p : pattern) appendJsonStringChar(out, p);
            out += "\", \"options\": \"" + flags + "\"}}";
            lastSignificant = '}';
        } else if (isWordChar(c)) {
            size_t start = i;
            while (i < in.size() && isWordChar(in[i])) ++i;
            std::string word = in.substr(start, i - start);
            size_t j = i;
            while (j < in.size() && std::isspace(static_cast<unsigned char>(in[j]))) ++j;
            if (j < in.size() && in[j] == ':') out += "\"" + word + "\"";  // an unquoted key
            else out += word;
            lastSignificant = 'w';
        } else {
            out += c;
            if (!std::isspace(static_cast<unsigned char>(c))) lastSignificant = c;
            ++i;
        }
    }
    return out;
}

inline BSONObj q(const std::string& json) {
    BSONObjBuilder b;
    renameInto(b, fromjson(relaxedToStrictJson(json)));
    return b.obj();
}

// Runs f and returns the DBException's status (OK if nothing was thrown).
template <typename F>
Status statusOf(F&& f) {
    try {
        f();
    } catch (const DBException& e) {
        return e.toStatus();
    }
    return Status::OK();
}

}  // namespace query_test
}  // namespace mongo
