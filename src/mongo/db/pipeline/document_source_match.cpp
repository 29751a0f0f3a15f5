// $match: the query language's Matcher, plus $expr (aggregation expressions, which see the
// pipeline's variables, e.g. $lookup's 'let') evaluated here: the filter is split into plain
// query parts for the Matcher and $expr parts, joined under the same $and/$or/$nor structure.
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/collator.h"
#include "mongo/db/query/matcher.h"

namespace mongo {
namespace {

bool containsExpr(const BSONObj& filter) {
    for (BSONElement e : filter) {
        auto n = e.fieldNameStringData();
        if (n == "$expr") return true;
        if ((n == "$and" || n == "$or" || n == "$nor") && e.type() == Array)
            for (BSONElement sub : e.Obj())
                if (sub.type() == Object && containsExpr(sub.Obj())) return true;
    }
    return false;
}

class MatchNode {
public:
    virtual ~MatchNode() = default;
    virtual bool matches(const Document& doc, const BSONObj& bson, Variables* vars) const = 0;
};

class QueryNode : public MatchNode {
public:
    QueryNode(const BSONObj& filter, const CollatorPtr& collator) : _m(filter.getOwned(), collator) {}
    bool matches(const Document&, const BSONObj& bson, Variables*) const override { return _m.matches(bson); }

private:
    Matcher _m;
};

class ExprNode : public MatchNode {
public:
    explicit ExprNode(ExprPtr e) : _e(std::move(e)) {}
    bool matches(const Document& doc, const BSONObj&, Variables* vars) const override {
        return _e->evaluate(doc, vars).coerceToBool();
    }

private:
    ExprPtr _e;
};

class LogicalNode : public MatchNode {
public:
    enum Kind { kAnd, kOr, kNor };
    explicit LogicalNode(Kind k) : _kind(k) {}
    void add(std::unique_ptr<MatchNode> n) { _children.push_back(std::move(n)); }
    bool matches(const Document& doc, const BSONObj& bson, Variables* vars) const override {
        for (const auto& c : _children) {
            bool m = c->matches(doc, bson, vars);
            if (_kind == kAnd && !m) return false;
            if (_kind == kOr && m) return true;
            if (_kind == kNor && m) return false;
        }
        return _kind != kOr;
    }

private:
    Kind _kind;
    std::vector<std::unique_ptr<MatchNode>> _children;
};

std::unique_ptr<MatchNode> buildMatch(const BSONObj& filter, const VariablesParseState& vps) {
    const CollatorPtr& collator = vps.expCtx()->ctx.collator;
    if (!containsExpr(filter)) return std::make_unique<QueryNode>(filter, collator);
    auto root = std::make_unique<LogicalNode>(LogicalNode::kAnd);
    BSONObjBuilder plain;
    for (BSONElement e : filter) {
        auto n = e.fieldNameStringData();
        if (n == "$expr") {
            root->add(std::make_unique<ExprNode>(Expression::parseOperand(e, vps)));
        } else if ((n == "$and" || n == "$or" || n == "$nor") && e.type() == Array &&
                   containsExpr(BSONObjBuilder().append(e).obj())) {
            uassert(ErrorCodes::BadValue, "$and/$or/$nor must be a nonempty array", !e.Obj().isEmpty());
            auto node = std::make_unique<LogicalNode>(n == "$and" ? LogicalNode::kAnd
                                                                  : (n == "$or" ? LogicalNode::kOr : LogicalNode::kNor));
            for (BSONElement sub : e.Obj()) {
                uassert(ErrorCodes::BadValue, "$or/$and/$nor entries need to be full objects", sub.type() == Object);
                node->add(buildMatch(sub.Obj(), vps));
            }
            root->add(std::move(node));
        } else {
            plain.append(e);
        }
    }
    BSONObj rest = plain.obj();
    if (!rest.isEmpty()) root->add(std::make_unique<QueryNode>(rest, collator));
    return root;
}

class DocumentSourceMatch : public DocumentSource {
public:
    DocumentSourceMatch(ExpressionContext* expCtx, BSONObj spec, std::unique_ptr<MatchNode> m)
        : DocumentSource(expCtx), _spec(std::move(spec)), _m(std::move(m)) {}
    const char* name() const override { return "$match"; }
    std::optional<Document> getNext() override {
        while (auto in = pullInput()) {
            if (_m->matches(*in, in->toBson(), vars())) return in;
        }
        return std::nullopt;
    }
    BSONObj serialize() const override { return _spec; }

private:
    BSONObj _spec;
    std::unique_ptr<MatchNode> _m;
};

std::vector<StagePtr> parseMatch(const BSONElement& e, const StageParseContext& ctx) {
    uassert(15959, "the match filter must be an expression in an object", e.type() == Object);
    BSONObj filter = e.Obj().getOwned();
    // $where/$text/$near are not allowed inside $match here either; the Matcher reports them.
    return singleStage(std::make_unique<DocumentSourceMatch>(ctx.expCtx, stageSpec("$match", e), buildMatch(filter, ctx.vps)));
}

struct Registrar {
    Registrar() { registerStage("$match", parseMatch); }
} registrar;

}  // namespace
}  // namespace mongo
