#include "mongo/db/query/canonical_query_string.h"

#include <cmath>
#include <cstdio>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/decimal128.h"
#include "mongo/db/query/match_expression.h"

namespace mongo {
namespace {

std::string doubleString(double d) {
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
    char buf[40];
    if (d == std::floor(d) && std::fabs(d) < 1e15) {
        std::snprintf(buf, sizeof(buf), "%.1f", d);
        return buf;
    }
    // The shortest form that reads back as the same double.
    for (int precision = 1; precision <= 17; precision++) {
        std::snprintf(buf, sizeof(buf), "%.*g", precision, d);
        if (std::strtod(buf, nullptr) == d) break;
    }
    return buf;
}

void indent(std::string* out, int level) {
    for (int i = 0; i < level; i++) out->append("    ");
}

void describe(const MatchExpression* e, int level, std::string* out);

void describeChildren(const MatchExpression* e, int level, std::string* out) {
    for (size_t i = 0; i < e->numChildren(); i++) describe(e->getChild(i), level, out);
}

const char* comparisonName(ComparisonMatchExpression::Op op) {
    switch (op) {
        case ComparisonMatchExpression::EQ: return "$eq";
        case ComparisonMatchExpression::LT: return "$lt";
        case ComparisonMatchExpression::LTE: return "$lte";
        case ComparisonMatchExpression::GT: return "$gt";
        case ComparisonMatchExpression::GTE: return "$gte";
    }
    return "$eq";
}

void describe(const MatchExpression* e, int level, std::string* out) {
    indent(out, level);
    const DottedPath* path = e->path();
    const std::string p = path ? path->dotted() : std::string();
    switch (e->matchType()) {
        case MatchType::kAnd:
            out->append("$and\n");
            return describeChildren(e, level + 1, out);
        case MatchType::kOr:
            out->append("$or\n");
            return describeChildren(e, level + 1, out);
        case MatchType::kNor:
            out->append("$nor\n");
            return describeChildren(e, level + 1, out);
        case MatchType::kNot:
            out->append("$not\n");
            return describeChildren(e, level + 1, out);
        case MatchType::kEq:
        case MatchType::kLt:
        case MatchType::kLte:
        case MatchType::kGt:
        case MatchType::kGte: {
            auto* c = static_cast<const ComparisonMatchExpression*>(e);
            out->append(p + " " + comparisonName(c->op()) + " " + shellValueString(c->rhs()) + "\n");
            return;
        }
        case MatchType::kIn: {
            auto* in = static_cast<const InMatchExpression*>(e);
            out->append(p + " $in [ ");
            for (const BSONElement& v : in->equalities()) out->append(shellValueString(v) + " ");
            for (const auto& r : in->regexes()) out->append("/" + r->pattern() + "/" + r->flags() + " ");
            out->append("]\n");
            return;
        }
        case MatchType::kExists:
            out->append(p + " exists\n");
            return;
        case MatchType::kAlwaysTrue:
            out->append("$alwaysTrue\n");
            return;
        case MatchType::kAlwaysFalse:
            out->append("$alwaysFalse\n");
            return;
        default: {
            // Operators without a line form here: their parsed form, as explain shows it.
            BSONObjBuilder b;
            e->serialize(&b);
            out->append(shellObjectString(b.obj()) + "\n");
            return;
        }
    }
}

}  // namespace

std::string shellValueString(const BSONElement& e) {
    switch (e.type()) {
        case NumberDouble: return doubleString(e.numberDouble());
        case NumberInt:
        case NumberLong: return std::to_string(e.numberLong());
        case NumberDecimal: return "NumberDecimal(\"" + Decimal128::fromBytes(e.decimal128Bytes()).toString() + "\")";
        case String:
        case Symbol: return "\"" + e.str() + "\"";
        case Object: return shellObjectString(e.Obj());
        case Array: {
            std::vector<BSONElement> items = e.arrayElements();
            if (items.empty()) return "[]";
            std::string s = "[ ";
            for (size_t i = 0; i < items.size(); i++) s += (i ? ", " : "") + shellValueString(items[i]);
            return s + " ]";
        }
        case Bool: return e.boolean() ? "true" : "false";
        case jstNULL: return "null";
        case Undefined: return "undefined";
        case jstOID: return "ObjectId('" + e.oid().toString() + "')";
        case Date: return "new Date(" + std::to_string(e.date().millis) + ")";
        case bsonTimestamp: {
            Timestamp t = e.timestamp();
            return "Timestamp(" + std::to_string(t.secs) + ", " + std::to_string(t.inc) + ")";
        }
        case RegEx: return std::string("/") + e.regex() + "/" + e.regexFlags();
        case MinKey: return "MinKey";
        case MaxKey: return "MaxKey";
        default: return e.toString(false);
    }
}

std::string shellObjectString(const BSONObj& o) {
    if (o.isEmpty()) return "{}";
    std::string s = "{ ";
    bool first = true;
    for (BSONElement e : o) {
        if (!first) s += ", ";
        first = false;
        s += std::string(e.fieldNameStringData()) + ": " + shellValueString(e);
    }
    return s + " }";
}

std::string canonicalQueryString(const std::string& ns, const CanonicalQuery& cq) {
    const QueryRequest& qr = cq.request();
    std::string s = "ns=" + ns;
    if (qr.batchSize) s += " batchSize=" + std::to_string(*qr.batchSize);
    if (qr.limit) s += " limit=" + std::to_string(qr.limit);
    if (qr.skip) s += " skip=" + std::to_string(qr.skip);
    s += "Tree: ";
    // A single clause stands for itself; no clause is an empty $and.
    const MatchExpression* root = cq.matcher().root();
    std::string tree;
    if (!root) tree = "$and\n";
    else if (root->matchType() == MatchType::kAnd && root->numChildren() == 1) describe(root->getChild(0), 0, &tree);
    else describe(root, 0, &tree);
    s += tree;
    s += "Sort: " + shellObjectString(qr.sort) + "\n";
    s += "Proj: " + shellObjectString(qr.projection) + "\n";
    return s;
}

}  // namespace mongo
