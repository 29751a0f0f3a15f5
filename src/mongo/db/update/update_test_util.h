#pragma once
// Helpers for the update language's unit tests (test-only).
#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/update/update_driver.h"

namespace mongo {
namespace update_test {

// Mongo-shell style JSON ({a: 1, 'b.c': 'x'}) to the strict JSON fromjson() parses: unquoted
// keys get quotes and single-quoted strings become double-quoted.
inline std::string relaxedJson(const std::string& in) {
    std::string out;
    size_t i = 0;
    auto isKeyChar = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == '[' ||
            c == ']';
    };
    while (i < in.size()) {
        char c = in[i];
        if (c == '"' || c == '\'') {
            char q = c;
            out += '"';
            i++;
            while (i < in.size() && in[i] != q) {
                if (in[i] == '\\' && i + 1 < in.size()) {
                    out += in[i];
                    out += in[i + 1];
                    i += 2;
                    continue;
                }
                if (in[i] == '"') out += '\\';
                out += in[i++];
            }
            out += '"';
            i++;
            continue;
        }
        if ((std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') ) {
            size_t j = i;
            while (j < in.size() && isKeyChar(in[j])) j++;
            size_t k = j;
            while (k < in.size() && std::isspace(static_cast<unsigned char>(in[k]))) k++;
            std::string token = in.substr(i, j - i);
            if (k < in.size() && in[k] == ':')
                out += '"' + token + '"';
            else
                out += token;
            i = j;
            continue;
        }
        out += c;
        i++;
    }
    return out;
}

// fromjson() of mongo-shell style JSON.
inline BSONObj J(const std::string& relaxed) { return fromjson(relaxedJson(relaxed)); }

// Applies 'update' (JSON) to 'doc' (JSON) and returns the result.
inline BSONObj applyJson(const std::string& update,
                         const std::string& doc,
                         bool* changed = nullptr,
                         const std::string& positionalIndex = "",
                         bool isInsert = false,
                         const std::vector<std::string>& arrayFilters = {}) {
    std::vector<BSONObj> filters;
    for (const auto& f : arrayFilters) filters.push_back(J(f));
    UpdateDriver driver(J(update), filters);
    bool ignored;
    return driver.apply(J(doc), positionalIndex, isInsert, changed ? changed : &ignored);
}

// Exact comparison: same field names, order, types and values.
inline ::testing::AssertionResult bsonIdentical(const BSONObj& actual, const std::string& expectedJson) {
    BSONObj expected = J(expectedJson);
    if (actual.binaryEqual(expected)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << actual.jsonString(true) << "\n  expected "
                                         << expected.jsonString(true);
}

// Runs fn and checks it throws a DBException with 'code' whose message contains 'text'.
inline ::testing::AssertionResult throwsCode(const std::function<void()>& fn, int code, const std::string& text = "") {
    try {
        fn();
    } catch (const DBException& ex) {
        if (ex.code() != code)
            return ::testing::AssertionFailure() << "code " << ex.code() << " (" << ex.reason() << "), expected " << code;
        if (ex.reason().find(text) == std::string::npos)
            return ::testing::AssertionFailure() << "message '" << ex.reason() << "' lacks '" << text << "'";
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "no exception";
}

// Checks the exact error message too.
inline ::testing::AssertionResult throwsExactly(const std::function<void()>& fn, int code, const std::string& message) {
    try {
        fn();
    } catch (const DBException& ex) {
        if (ex.code() != code || ex.reason() != message)
            return ::testing::AssertionFailure() << "got " << ex.code() << " '" << ex.reason() << "', expected " << code
                                                 << " '" << message << "'";
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "no exception";
}

}  // namespace update_test
}  // namespace mongo
