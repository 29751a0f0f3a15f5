// Applies a parsed find projection to a document.
//
// Inclusion copies the included fields in the document's order, recursing into sub-documents
// and arrays of sub-documents (scalars in those arrays are dropped), then appends computed
// fields and $elemMatch results in the projection's order. Exclusion copies everything but the
// excluded fields (scalars in arrays are kept). $slice applies in place; "a.$" is applied last,
// to the projected document, as MongoDB does.
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/projection_ast.h"

namespace mongo {
namespace {

using Kind = ProjectionNode::Kind;

// Per-apply() state: the root document as the expression language sees it (built lazily)
// and a private copy of the variables, so concurrent apply() calls don't share state.
struct ProjectionApplyState {
    const ProjectionData& impl;
    const BSONObj& doc;
    std::optional<Document> rootDoc;
    std::optional<Variables> vars;

    Value evaluate(const Expression& expr) {
        if (!rootDoc) {
            rootDoc = Document::fromBson(doc);
            vars = impl.expCtx->vars;
        }
        return expr.evaluate(*rootDoc, &*vars);
    }
};

void appendSliced(BSONObjBuilder& b, const BSONElement& e, const ProjectionNode& node) {
    if (e.type() != Array) {
        b.append(e);
        return;
    }
    std::vector<BSONElement> elems = e.arrayElements();
    long long n = static_cast<long long>(elems.size());
    long long start, end;
    if (!node.sliceSkip) {
        long long limit = node.sliceLimit;
        if (limit >= 0) {
            start = 0;
            end = std::min(limit, n);
        } else {
            start = std::max(0LL, n + limit);
            end = n;
        }
    } else {
        long long skip = *node.sliceSkip;
        start = skip < 0 ? std::max(0LL, n + skip) : std::min(skip, n);
        end = std::min(n, start + node.sliceLimit);
    }
    BSONArrayBuilder& arr = b.subarrayStart(e.fieldNameStringData());
    for (long long i = start; i < end; i++) arr.append(elems[i]);
    arr.doneFast();
}

// {<field>: [first element matching the $elemMatch]} or nothing.
void appendElemMatch(BSONObjBuilder& b, const std::string& name, const ProjectionNode& node, const BSONObj& doc) {
    MatchDetails details;
    details.requestElemMatchKey = true;
    if (!node.elemMatch->matches(doc, &details) || !details.hasElemMatchKey) return;
    BSONElement arr = doc.getField(name);
    if (arr.type() != Array) return;
    BSONElement elem = arr.Obj().getField(details.elemMatchKey);
    if (elem.eoo()) return;
    BSONArrayBuilder& out = b.subarrayStart(name);
    out.append(elem);
    out.doneFast();
}

void includeObject(const BSONObj& obj, const ProjectionNode& node, BSONObjBuilder& b, ProjectionApplyState& ctx);

void includeArray(const BSONElement& arr, const ProjectionNode& node, BSONArrayBuilder& out, ProjectionApplyState& ctx) {
    for (BSONElement x : arr.Obj()) {
        if (x.type() == Object) {
            BSONObjBuilder& sub = out.subobjStart();
            includeObject(x.Obj(), node, sub, ctx);
            sub.doneFast();
        } else if (x.type() == Array) {
            BSONArrayBuilder& sub = out.subarrayStart();
            includeArray(x, node, sub, ctx);
            sub.doneFast();
        }
    }
}

void includeObject(const BSONObj& obj, const ProjectionNode& node, BSONObjBuilder& b, ProjectionApplyState& ctx) {
    // Which inner nodes produced a value from the document; the others may still create a
    // sub-document for their computed fields.
    std::vector<bool> emitted(node.children.size(), false);
    for (BSONElement e : obj) {
        int i = node.childIndex(e.fieldNameStringData());
        if (i < 0) continue;
        const ProjectionNode& child = *node.children[i].second;
        switch (child.kind) {
            case Kind::kInclude:
            case Kind::kPositional: b.append(e); break;
            case Kind::kSlice: appendSliced(b, e, child); break;
            case Kind::kExclude:  // only {_id: 0} can be here
            case Kind::kExpression:
            case Kind::kElemMatch: continue;
            case Kind::kPath:
                if (e.type() == Object) {
                    BSONObjBuilder& sub = b.subobjStart(e.fieldNameStringData());
                    includeObject(e.Obj(), child, sub, ctx);
                    sub.doneFast();
                } else if (e.type() == Array) {
                    BSONArrayBuilder& sub = b.subarrayStart(e.fieldNameStringData());
                    includeArray(e, child, sub, ctx);
                    sub.doneFast();
                } else {
                    continue;  // a scalar has no sub-fields to include
                }
                break;
        }
        emitted[i] = true;
    }
    for (size_t i = 0; i < node.children.size(); i++) {
        const std::string& name = node.children[i].first;
        const ProjectionNode& child = *node.children[i].second;
        if (child.kind == Kind::kExpression) {
            ctx.evaluate(*child.expr).appendTo(&b, name);
        } else if (child.kind == Kind::kElemMatch) {
            appendElemMatch(b, name, child, ctx.doc);
        } else if (child.kind == Kind::kPath && child.subtreeHasExpressions && !emitted[i]) {
            BSONObjBuilder& sub = b.subobjStart(name);
            includeObject(BSONObj(), child, sub, ctx);
            sub.doneFast();
        }
    }
}

void excludeObject(const BSONObj& obj, const ProjectionNode& node, BSONObjBuilder& b);

void excludeArray(const BSONElement& arr, const ProjectionNode& node, BSONArrayBuilder& out) {
    for (BSONElement x : arr.Obj()) {
        if (x.type() == Object) {
            BSONObjBuilder& sub = out.subobjStart();
            excludeObject(x.Obj(), node, sub);
            sub.doneFast();
        } else if (x.type() == Array) {
            BSONArrayBuilder& sub = out.subarrayStart();
            excludeArray(x, node, sub);
            sub.doneFast();
        } else {
            out.append(x);
        }
    }
}

void excludeObject(const BSONObj& obj, const ProjectionNode& node, BSONObjBuilder& b) {
    for (BSONElement e : obj) {
        const ProjectionNode* child = node.child(e.fieldNameStringData());
        if (!child) {
            b.append(e);
            continue;
        }
        switch (child->kind) {
            case Kind::kExclude:
            case Kind::kElemMatch: break;  // $elemMatch results go last
            case Kind::kSlice: appendSliced(b, e, *child); break;
            case Kind::kPath:
                if (e.type() == Object) {
                    BSONObjBuilder& sub = b.subobjStart(e.fieldNameStringData());
                    excludeObject(e.Obj(), *child, sub);
                    sub.doneFast();
                } else if (e.type() == Array) {
                    BSONArrayBuilder& sub = b.subarrayStart(e.fieldNameStringData());
                    excludeArray(e, *child, sub);
                    sub.doneFast();
                } else {
                    b.append(e);
                }
                break;
            default: b.append(e); break;
        }
    }
}

// Rebuilds obj with the value at parts[0..depth] (the first array on the positional path)
// replaced by [elem].
BSONObj replaceWithElement(const BSONObj& obj, const std::vector<std::string>& parts, size_t level, size_t depth,
                           const BSONElement& elem) {
    BSONObjBuilder b;
    for (BSONElement e : obj) {
        if (e.fieldNameStringData() != parts[level]) {
            b.append(e);
        } else if (level == depth) {
            BSONArrayBuilder& arr = b.subarrayStart(parts[level]);
            arr.append(elem);
            arr.doneFast();
        } else {
            b.append(parts[level], replaceWithElement(e.Obj(), parts, level + 1, depth, elem));
        }
    }
    return b.obj();
}

BSONObj applyPositional(const BSONObj& projected, const std::vector<std::string>& parts, const MatchDetails* details) {
    BSONObj cur = projected;
    for (size_t i = 0; i < parts.size(); i++) {
        BSONElement v = cur.getField(parts[i]);
        if (v.type() == Array) {
            uassert(51246, "positional operator '.$' couldn't find a matching element in the array",
                    details && details->hasElemMatchKey);
            BSONElement elem = v.Obj().getField(details->elemMatchKey);
            uassert(51247, "positional operator '.$' element mismatch", !elem.eoo());
            return replaceWithElement(projected, parts, 0, i, elem);
        }
        if (v.type() != Object) break;
        cur = v.Obj();
    }
    return projected;
}

}  // namespace

BSONObj Projection::apply(const BSONObj& doc, const MatchDetails* details) const {
    if (_impl->empty) return doc.getOwned();
    ProjectionApplyState ctx{*_impl, doc, std::nullopt, std::nullopt};
    BSONObjBuilder b;
    if (_impl->inclusion) {
        includeObject(doc, _impl->root, b, ctx);
    } else {
        excludeObject(doc, _impl->root, b);
        if (_impl->hasElemMatch)
            for (const auto& c : _impl->root.children)
                if (c.second->kind == Kind::kElemMatch) appendElemMatch(b, c.first, *c.second, doc);
    }
    BSONObj out = b.obj();
    if (!_impl->positionalPath.empty()) out = applyPositional(out, _impl->positionalPath, details);
    return out;
}

}  // namespace mongo
