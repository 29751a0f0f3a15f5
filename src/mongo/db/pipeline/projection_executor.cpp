#include "mongo/db/pipeline/projection_executor.h"

#include <algorithm>
#include <optional>

namespace mongo {

namespace {

using Node = ProjectionExecutor::Node;

bool nodeHas(const Node& n, const std::string& name) {
    return n.leaves.count(name) || n.children.count(name) || n.exprs.count(name);
}

void noteOrder(Node* n, const std::string& name) {
    if (std::find(n->order.begin(), n->order.end(), name) == n->order.end()) n->order.push_back(name);
}

// The node for path[0..size-2] below n, created as needed; a leaf or computed field in the
// way is a path collision (31249).
Node* nodeFor(Node* n, const FieldPath& path, size_t upTo, const std::string& fullPath) {
    for (size_t i = 0; i < upTo; i++) {
        const std::string& name = path[i];
        uassert(31249,
                "Path collision at " + fullPath + " remaining portion " +
                    FieldPath(std::vector<std::string>(path.parts().begin() + i, path.parts().end())).full(),
                !n->leaves.count(name) && !n->exprs.count(name));
        auto it = n->children.find(name);
        if (it == n->children.end()) {
            it = n->children.emplace(name, std::make_unique<Node>()).first;
            noteOrder(n, name);
        }
        n = it->second.get();
    }
    return n;
}

void addLeaf(Node* root, const FieldPath& path, bool include, const std::string& fullPath) {
    Node* n = nodeFor(root, path, path.size() - 1, fullPath);
    const std::string& name = path[path.size() - 1];
    uassert(31250, "Path collision at " + fullPath, !nodeHas(*n, name));
    n->leaves[name] = include;
}

void addExpr(Node* root, const FieldPath& path, ExprPtr e, const std::string& fullPath) {
    Node* n = nodeFor(root, path, path.size() - 1, fullPath);
    const std::string& name = path[path.size() - 1];
    uassert(31250, "Path collision at " + fullPath, !nodeHas(*n, name));
    n->exprs[name] = std::move(e);
    noteOrder(n, name);
}

bool markComputed(Node* n) {
    bool any = !n->exprs.empty();
    for (auto& c : n->children) any |= markComputed(c.second.get());
    n->hasComputed = any;
    return any;
}

enum class ProjType { kUnknown, kInclusion, kExclusion };

struct ProjectParse {
    const VariablesParseState& vps;
    ProjType type = ProjType::kUnknown;
    bool idSpecified = false, idIncluded = false, idExcluded = false;

    void parseElement(Node* parent, const BSONElement& e, const std::string& prefix, bool topLevel) {
        std::string name(e.fieldNameStringData());
        FieldPath path(name);
        std::string full = prefix.empty() ? name : prefix + "." + name;
        bool isTopId = topLevel && name == "_id";
        if (e.type() == Object) {
            BSONObj obj = e.Obj();
            if (obj.nFields() == 1 && obj.firstElementFieldName()[0] == '$') {
                std::string op(obj.firstElementFieldName());
                if (Expression::isRegistered(op)) {
                    uassert(31252, "Cannot use expression other than $meta in exclusion projection",
                            type != ProjType::kExclusion);
                    type = ProjType::kInclusion;
                    addExpr(parent, path, Expression::parseObject(obj, vps), full);
                    return;
                }
                try {
                    FieldPath fp(op);
                } catch (const DBException&) {
                    uasserted(31325, "Unknown expression " + op);
                }
            }
            uassert(51270, "An empty sub-projection is not a valid value. Found empty object at path " + full,
                    !obj.isEmpty());
            Node* n = nodeFor(parent, path, path.size(), full);
            for (BSONElement sub : obj) parseElement(n, sub, full, false);
            return;
        }
        if (e.isNumber() || e.type() == Bool) {
            if (e.trueValue()) {
                if (isTopId) {
                    idIncluded = true;
                } else {
                    uassert(31253, "Cannot do inclusion on field " + name + " in exclusion projection",
                            type != ProjType::kExclusion);
                    type = ProjType::kInclusion;
                }
                addLeaf(parent, path, true, full);
            } else {
                if (isTopId) {
                    idExcluded = true;
                } else {
                    uassert(31254, "Cannot do exclusion on field " + name + " in inclusion projection",
                            type != ProjType::kInclusion);
                    type = ProjType::kExclusion;
                }
                addLeaf(parent, path, false, full);
            }
            return;
        }
        ExprPtr expr = Expression::parseOperand(e, vps);
        uassert(31310, "Cannot use an expression " + e.toString() + " in an exclusion projection",
                type != ProjType::kExclusion);
        type = ProjType::kInclusion;
        addExpr(parent, path, std::move(expr), full);
    }
};

// $addFields' validation of conflicting paths ('a' and 'a.b', or the same path twice).
struct AddFieldsValidator {
    const BSONObj& raw;
    std::vector<std::string> paths;

    void parseElement(const BSONElement& e, const std::string& path) {
        if (e.type() == Object)
            parseNested(e.Obj(), path);
        else
            paths.push_back(path);
    }
    void parseNested(const BSONObj& obj, const std::string& prefix) {
        for (BSONElement e : obj) {
            auto name = e.fieldNameStringData();
            if (!name.empty() && name[0] == '$') {
                uassert(40181,
                        "an expression specification must contain exactly one field, the name of the expression. "
                        "Found " + std::to_string(obj.nFields()) + " fields in " + obj.toString() +
                            ", while parsing object " + raw.toString(),
                        obj.nFields() == 1);
                paths.push_back(prefix);
                continue;
            }
            uassert(40183, "cannot use dotted field name '" + std::string(name) + "' in a sub object: " + raw.toString(),
                    name.find('.') == std::string_view::npos);
            parseElement(e, prefix + "." + std::string(name));
        }
        if (obj.isEmpty()) paths.push_back(prefix);
    }
    void check() {
        std::vector<std::string> sorted = paths;
        std::sort(sorted.begin(), sorted.end());
        for (size_t i = 0; i < sorted.size(); i++) {
            for (size_t j = i + 1; j < sorted.size(); j++) {
                const std::string& a = sorted[i];
                const std::string& b = sorted[j];
                bool conflict = a == b || (b.size() > a.size() && b.compare(0, a.size(), a) == 0 && b[a.size()] == '.');
                uassert(40176,
                        "specification contains two conflicting paths. Cannot specify both '" + a + "' and '" + b +
                            "': " + raw.toString(),
                        !conflict);
                if (b.compare(0, a.size(), a) != 0) break;
            }
        }
    }
};

void parseAddFieldsSub(Node* root, const BSONObj& sub, const FieldPath& path, const VariablesParseState& vps);

void parseAddFieldsElement(Node* root, const BSONElement& e, const FieldPath& path, const VariablesParseState& vps) {
    std::string full = path.full();
    if (e.type() == Object) {
        BSONObj obj = e.Obj();
        if (!obj.isEmpty() && obj.firstElementFieldName()[0] == '$') {
            addExpr(root, path, Expression::parseObject(obj, vps), full);
        } else if (obj.isEmpty()) {
            addExpr(root, path, Expression::parseObject(obj, vps), full);
        } else {
            parseAddFieldsSub(root, obj, path, vps);
        }
        return;
    }
    addExpr(root, path, Expression::parseOperand(e, vps), full);
}

void parseAddFieldsSub(Node* root, const BSONObj& sub, const FieldPath& path, const VariablesParseState& vps) {
    for (BSONElement e : sub) {
        std::vector<std::string> parts = path.parts();
        parts.emplace_back(e.fieldNameStringData());
        FieldPath child(parts);
        FieldPath(e.fieldNameStringData());  // validates the name
        parseAddFieldsElement(root, e, child, vps);
    }
}

}  // namespace

std::unique_ptr<ProjectionExecutor> ProjectionExecutor::parseProject(const BSONObj& spec, const VariablesParseState& vps) {
    uassert(51272, "projection specification must have at least one field", !spec.isEmpty());
    ProjectParse p{vps};
    auto root = std::make_unique<Node>();
    for (BSONElement e : spec) {
        auto name = e.fieldNameStringData();
        p.idSpecified |= name == "_id" || name.substr(0, 4) == "_id.";
        p.parseElement(root.get(), e, "", true);
    }
    ProjType type = p.type;
    if (type == ProjType::kUnknown) type = p.idIncluded ? ProjType::kInclusion : ProjType::kExclusion;
    std::unique_ptr<ProjectionExecutor> ex(
        new ProjectionExecutor(type == ProjType::kInclusion ? Mode::kInclusion : Mode::kExclusion));
    if (type == ProjType::kInclusion && !p.idSpecified) root->leaves["_id"] = true;
    markComputed(root.get());
    ex->_root = std::move(root);
    return ex;
}

std::unique_ptr<ProjectionExecutor> ProjectionExecutor::parseAddFields(const BSONObj& spec, const VariablesParseState& vps) {
    uassert(40177, "specification must have at least one field", !spec.isEmpty());
    AddFieldsValidator v{spec, {}};
    for (BSONElement e : spec) v.parseElement(e, std::string(e.fieldNameStringData()));
    v.check();
    std::unique_ptr<ProjectionExecutor> ex(new ProjectionExecutor(Mode::kAddFields));
    for (BSONElement e : spec) parseAddFieldsElement(ex->_root.get(), e, FieldPath(e.fieldNameStringData()), vps);
    markComputed(ex->_root.get());
    return ex;
}

std::unique_ptr<ProjectionExecutor> ProjectionExecutor::makeExclusion(const std::vector<std::string>& paths) {
    std::unique_ptr<ProjectionExecutor> ex(new ProjectionExecutor(Mode::kExclusion));
    for (const auto& p : paths) addLeaf(ex->_root.get(), FieldPath(p), false, p);
    return ex;
}

Document ProjectionExecutor::apply(const Document& doc, Variables* vars) const {
    if (_mode == Mode::kAddFields) {
        MutableDoc out(doc);
        applyExpressions(*_root, doc, &out, vars);
        return out.freeze();
    }
    MutableDoc out;
    applyProjections(*_root, doc, &out, true);
    if (_mode == Mode::kInclusion) applyExpressions(*_root, doc, &out, vars);
    return out.freeze();
}

void ProjectionExecutor::applyProjections(const Node& n, const Document& in, MutableDoc* out, bool) const {
    bool inclusion = _mode == Mode::kInclusion;
    for (const auto& [name, value] : in.fields()) {
        auto leaf = n.leaves.find(name);
        if (leaf != n.leaves.end()) {
            if (inclusion && leaf->second) out->addField(name, value);
            if (!inclusion && leaf->second) out->addField(name, value);  // {_id: 1} in an exclusion
            continue;
        }
        auto child = n.children.find(name);
        if (child != n.children.end()) {
            Value v = projectValue(*child->second, value);
            if (!v.missing()) out->addField(name, std::move(v));
            continue;
        }
        if (!inclusion) out->addField(name, value);
    }
}

Value ProjectionExecutor::projectValue(const Node& n, const Value& v) const {
    bool inclusion = _mode == Mode::kInclusion;
    if (v.isObject()) {
        MutableDoc sub;
        applyProjections(n, v.getDocument(), &sub, false);
        return Value(sub.freeze());
    }
    if (v.isArray()) {
        std::vector<Value> out;
        for (const Value& e : v.getArray()) {
            if (e.isObject() || e.isArray())
                out.push_back(projectValue(n, e));
            else if (!inclusion)
                out.push_back(e);
        }
        return Value(std::move(out));
    }
    return inclusion ? Value() : v;
}

void ProjectionExecutor::applyExpressions(const Node& n, const Document& root, MutableDoc* out,
                                          Variables* vars) const {
    for (const auto& name : n.order) {
        auto e = n.exprs.find(name);
        if (e != n.exprs.end()) {
            out->setField(name, e->second->evaluate(root, vars));
            continue;
        }
        auto c = n.children.find(name);
        if (c != n.children.end() && c->second->hasComputed)
            out->setField(name, expressionsToValue(*c->second, root, out->getField(name), vars));
    }
}

Value ProjectionExecutor::expressionsToValue(const Node& n, const Document& root, const Value& v, Variables* vars) const {
    if (v.isObject()) {
        MutableDoc sub(v.getDocument());
        applyExpressions(n, root, &sub, vars);
        return Value(sub.freeze());
    }
    if (v.isArray()) {
        std::vector<Value> out;
        for (const Value& e : v.getArray()) out.push_back(expressionsToValue(n, root, e, vars));
        return Value(std::move(out));
    }
    if (n.hasComputed) {
        MutableDoc sub;
        applyExpressions(n, root, &sub, vars);
        return Value(sub.freeze());
    }
    return v;
}

}  // namespace mongo
