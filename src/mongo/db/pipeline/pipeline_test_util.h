#pragma once
// Test helpers for the pipeline unit tests: relaxed JSON (unquoted keys, single quotes),
// running a pipeline over in-memory documents, evaluating one expression.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/aggregation_expression.h"
#include "mongo/db/pipeline/pipeline.h"

namespace mongo {
namespace test {

// Quotes bare keys and turns 'single-quoted' strings into JSON strings, so tests can write
// {$match: {a: 'x'}}.
inline std::string relaxedToJson(const std::string& in) {
    std::string out;
    for (size_t i = 0; i < in.size();) {
        char c = in[i];
        if (c == '"' || c == '\'') {
            char q = c;
            std::string s;
            i++;
            while (i < in.size() && in[i] != q) {
                if (in[i] == '\\' && i + 1 < in.size()) {
                    s += in[i];
                    s += in[i + 1];
                    i += 2;
                    continue;
                }
                if (q == '\'' && in[i] == '"') s += '\\';
                s += in[i++];
            }
            i++;
            out += '"' + s + '"';
            continue;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
            size_t j = i;
            while (j < in.size() && (std::isalnum(static_cast<unsigned char>(in[j])) || in[j] == '_' || in[j] == '$' ||
                                     in[j] == '.'))
                j++;
            size_t k = j;
            while (k < in.size() && std::isspace(static_cast<unsigned char>(in[k]))) k++;
            std::string word = in.substr(i, j - i);
            if (k < in.size() && in[k] == ':')
                out += '"' + word + '"';
            else
                out += word;
            i = j;
            continue;
        }
        out += c;
        i++;
    }
    return out;
}

inline BSONObj J(const std::string& relaxed) { return fromjson(relaxedToJson(relaxed)); }

inline std::vector<BSONObj> A(const std::string& relaxedArray) {
    BSONObj wrapped = J("{a: " + relaxedArray + "}");
    std::vector<BSONObj> out;
    for (BSONElement e : wrapped["a"].Obj()) out.push_back(e.Obj().getOwned());
    return out;
}

// Runs the pipeline over docs; foreign collections for $lookup/$unionWith come from 'colls'.
inline std::vector<BSONObj> run(const std::string& pipeline, const std::string& docs,
                                std::map<std::string, std::vector<BSONObj>> colls = {},
                                PipelineContext ctx = PipelineContext()) {
    ctx.db = "test";
    auto shared = std::make_shared<std::map<std::string, std::vector<BSONObj>>>(std::move(colls));
    ctx.openCollection = [shared](const std::string& name) -> std::function<std::optional<BSONObj>()> {
        auto it = shared->find(name);
        auto docs = it == shared->end() ? std::vector<BSONObj>() : it->second;
        auto pos = std::make_shared<size_t>(0);
        return [docs, pos]() -> std::optional<BSONObj> {
            if (*pos >= docs.size()) return std::nullopt;
            return docs[(*pos)++];
        };
    };
    Pipeline p(A(pipeline), ctx);
    auto input = std::make_shared<std::vector<BSONObj>>(A(docs));
    auto pos = std::make_shared<size_t>(0);
    p.setSource([input, pos]() -> std::optional<BSONObj> {
        if (*pos >= input->size()) return std::nullopt;
        return (*input)[(*pos)++];
    });
    std::vector<BSONObj> out;
    while (auto d = p.getNext()) out.push_back(*d);
    return out;
}

// Canonical relaxed JSON of a result list, for readable comparisons.
inline std::string str(const std::vector<BSONObj>& docs) {
    std::string s = "[";
    for (size_t i = 0; i < docs.size(); i++) s += (i ? ", " : "") + docs[i].jsonString(true);
    return s + "]";
}
inline std::string str(const std::string& relaxedArray) { return str(A(relaxedArray)); }

// Evaluates {e: <expr>} against doc; returns {"": value} or {} for missing.
inline BSONObj eval(const std::string& expr, const std::string& doc = "{}") {
    BSONObj e = J("{e: " + expr + "}");
    AggregationExpression ae(e.firstElement());
    return ae.evaluate(J(doc));
}
inline std::string evalStr(const std::string& expr, const std::string& doc = "{}") {
    BSONObj r = eval(expr, doc);
    return r.isEmpty() ? "missing" : r.jsonString(true);
}
// The canonical JSON of {"": value} for an expected value written in relaxed JSON.
inline std::string V(const std::string& relaxedValue) { return J("{'': " + relaxedValue + "}").jsonString(true); }

inline int errorCode(const std::function<void()>& f) {
    try {
        f();
    } catch (const DBException& e) {
        return e.code();
    }
    return 0;
}

}  // namespace test
}  // namespace mongo
