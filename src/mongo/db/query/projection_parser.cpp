// Parses find projections into the ProjectionNode tree, deciding inclusion vs exclusion and
// raising MongoDB 7.0's errors (codes 312xx, 31308, 31310, 51270, FieldPath codes).
#include <optional>

#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/matcher_parse_util.h"
#include "mongo/db/query/projection_ast.h"

namespace mongo {
namespace {

enum class ProjectType { kInclusion, kExclusion };

std::vector<std::string> splitPath(std::string_view path) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        size_t dot = path.find('.', start);
        parts.emplace_back(path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos) return parts;
        start = dot + 1;
    }
}

std::string joinPath(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : ".") + p;
    return out;
}

// Where the first positional operator ".$" is in a projection path: ".$." in the middle, or
// ".$" at the end, or the whole path "$". Returns [begin, end) of the operator.
std::optional<std::pair<size_t, size_t>> findFirstPositional(std::string_view path) {
    size_t first = path.find(".$.");
    if (first != std::string_view::npos) return std::make_pair(first, first + 3);
    if (path.size() >= 2 && path.substr(path.size() - 2) == ".$") return std::make_pair(path.size() - 2, path.size());
    if (path == "$") return std::make_pair(size_t(0), path.size());
    return std::nullopt;
}

class ProjectionParser {
public:
    explicit ProjectionParser(ProjectionData* impl) : _impl(impl) {}
    void parse();

private:
    void parseElement(const BSONElement& elem, const std::vector<std::string>& parentPath, ProjectionNode* parent);
    void parseSubObject(const BSONElement& elem, const std::vector<std::string>& parentPath, ProjectionNode* parent);
    bool parseSubObjectAsExpression(std::string_view name, const BSONObj& obj, ProjectionNode* parent);
    void parseFindSlice(std::string_view name, const BSONObj& obj, ProjectionNode* parent);
    bool parseGenericExpression(std::string_view name, const BSONObj& obj, ProjectionNode* parent);
    void parseInclusion(const BSONElement& elem, const std::vector<std::string>& parentPath, ProjectionNode* parent);
    void parseExclusion(const BSONElement& elem, ProjectionNode* parent);
    void parseLiteral(const BSONElement& elem, ProjectionNode* parent);
    ProjectionNode* addNodeAtPath(ProjectionNode* parent, std::string_view path, std::unique_ptr<ProjectionNode> node);
    ExpressionContext* expCtx();
    bool isRoot(const ProjectionNode* n) const { return n == &_impl->root; }

    ProjectionData* _impl;
    std::optional<VariablesParseState> _vps;
    std::optional<ProjectType> _type;
    bool _idSpecified = false;
    bool _idIncludedEntirely = false;
    bool _idExcludedEntirely = false;
    bool _hasPositional = false;
    bool _hasElemMatch = false;
    bool _hasFindSlice = false;
};

ExpressionContext* ProjectionParser::expCtx() {
    if (!_impl->expCtx) {
        _impl->expCtx = std::make_unique<ExpressionContext>(PipelineContext{});
        _vps.emplace(_impl->expCtx.get());
    }
    return _impl->expCtx.get();
}

ProjectionNode* ProjectionParser::addNodeAtPath(ProjectionNode* parent, std::string_view path,
                                                std::unique_ptr<ProjectionNode> node) {
    validateFieldPath(path);
    std::vector<std::string> parts = splitPath(path);
    ProjectionNode* cur = parent;
    for (size_t i = 0; i < parts.size(); i++) {
        ProjectionNode* existing = cur->child(parts[i]);
        if (i + 1 == parts.size()) {
            uassert(31250, "Path collision at " + std::string(path), !existing);
            ProjectionNode* raw = node.get();
            cur->children.emplace_back(parts[i], std::move(node));
            return raw;
        }
        if (!existing) {
            cur->children.emplace_back(parts[i], std::make_unique<ProjectionNode>());
            existing = cur->children.back().second.get();
        }
        if (existing->kind != ProjectionNode::Kind::kPath) {
            std::vector<std::string> rest(parts.begin() + i + 1, parts.end());
            uasserted(31249, "Path collision at " + std::string(path) + " remaining portion " + joinPath(rest));
        }
        cur = existing;
    }
    return nullptr;  // not reached: a path has at least one part
}

void ProjectionParser::parse() {
    for (BSONElement elem : _impl->spec) {
        auto name = elem.fieldNameStringData();
        _idSpecified |= name == "_id" || name.substr(0, 4) == "_id.";
        parseElement(elem, {}, &_impl->root);
    }
    if (!_type) {
        // Only _id, $slice, $elemMatch: MongoDB's compatibility rules decide.
        if (_hasFindSlice) _type = _idIncludedEntirely ? ProjectType::kInclusion : ProjectType::kExclusion;
        else if (_hasElemMatch) _type = ProjectType::kInclusion;
        else if (_idIncludedEntirely) _type = ProjectType::kInclusion;
        else _type = ProjectType::kExclusion;
    }
    _impl->inclusion = *_type == ProjectType::kInclusion;
    auto& root = _impl->root;
    if (!_idSpecified && _impl->inclusion)
        root.children.emplace_back("_id", std::make_unique<ProjectionNode>(ProjectionNode::Kind::kInclude));
    if (!_impl->inclusion && _idIncludedEntirely) {
        // {_id: 1} is legal in an exclusion projection and means nothing there.
        int i = root.childIndex("_id");
        if (i >= 0) root.children.erase(root.children.begin() + i);
    }
}

void ProjectionParser::parseElement(const BSONElement& elem, const std::vector<std::string>& parentPath,
                                    ProjectionNode* parent) {
    auto positional = findFirstPositional(elem.fieldNameStringData());
    if (elem.type() == Object) {
        uassert(31271, "positional projection cannot be used with an expression or sub object", !positional);
        parseSubObject(elem, parentPath, parent);
    } else if (elem.type() == Bool || elem.isNumber()) {
        if (elem.trueValue()) parseInclusion(elem, parentPath, parent);
        else parseExclusion(elem, parent);
    } else {
        uassert(31308, "positional projection cannot be used with a literal", !positional);
        parseLiteral(elem, parent);
    }
}

void ProjectionParser::parseSubObject(const BSONElement& elem, const std::vector<std::string>& parentPath,
                                      ProjectionNode* parent) {
    auto name = elem.fieldNameStringData();
    BSONObj obj = elem.Obj();
    validateFieldPath(name);
    if (obj.nFields() == 1 && obj.firstElementFieldName()[0] == '$') {
        if (parseSubObjectAsExpression(name, obj, parent)) return;
        // Not an expression we know: an operator-looking name is an unknown expression.
        try {
            validateFieldPath(obj.firstElementFieldName());
        } catch (const DBException&) {
            uasserted(31325, "Unknown expression " + std::string(obj.firstElementFieldName()));
        }
    }
    uassert(51270, "An empty sub-projection is not a valid value. Found empty object at path", !obj.isEmpty());
    // A sub-projection: {a: {b: 1}} is {"a.b": 1}. Merge with a node "a" made by "a.c".
    std::vector<std::string> parts = splitPath(name);
    ProjectionNode* node = parent;
    for (const auto& part : parts) {
        ProjectionNode* next = node->child(part);
        if (!next) {
            node->children.emplace_back(part, std::make_unique<ProjectionNode>());
            next = node->children.back().second.get();
        }
        uassert(31250, "Path collision at " + std::string(name), next->kind == ProjectionNode::Kind::kPath);
        node = next;
    }
    std::vector<std::string> fullPath = parentPath;
    fullPath.insert(fullPath.end(), parts.begin(), parts.end());
    for (BSONElement sub : obj) parseElement(sub, fullPath, node);
}

bool ProjectionParser::parseSubObjectAsExpression(std::string_view name, const BSONObj& obj, ProjectionNode* parent) {
    BSONElement first = obj.firstElement();
    auto op = first.fieldNameStringData();
    if (op == "$slice") {
        Status findSyntax = Status::OK();
        try {
            parseFindSlice(name, obj, parent);
            return true;
        } catch (const DBException& e) {
            findSyntax = e.toStatus();
        }
        // Not the find form: perhaps the aggregation $slice ({$slice: ["$a", 2]}).
        try {
            if (parseGenericExpression(name, obj, parent)) return true;
        } catch (const DBException& e) {
            uasserted(e.code(), "Invalid $slice syntax. The given syntax " + obj.toString() +
                                    " did not match the find() syntax because :: " + findSyntax.toString() +
                                    " :: The given syntax did not match the expression $slice syntax. :: caused by :: " +
                                    e.reason());
        }
        uassertStatusOK(findSyntax);
    }
    if (op == "$elemMatch") {
        uassert(31274, "elemMatch: Invalid argument, object required, but got " + typeName(first.type()),
                first.type() == Object);
        uassert(31255, "Cannot specify positional operator and $elemMatch.", !_hasPositional);
        uassert(31275, "Cannot use $elemMatch projection on a nested field.",
                name.find('.') == std::string_view::npos && isRoot(parent));
        BSONObjBuilder b;
        b.append(name, obj);
        auto node = std::make_unique<ProjectionNode>(ProjectionNode::Kind::kElemMatch);
        node->elemMatch = std::make_unique<Matcher>(b.obj());
        addNodeAtPath(parent, name, std::move(node));
        _hasElemMatch = true;
        _impl->hasElemMatch = true;
        return true;
    }
    return parseGenericExpression(name, obj, parent);
}

void ProjectionParser::parseFindSlice(std::string_view name, const BSONObj& obj, ProjectionNode* parent) {
    BSONElement arg = obj.firstElement();
    auto node = std::make_unique<ProjectionNode>(ProjectionNode::Kind::kSlice);
    if (arg.isNumber()) {
        node->sliceLimit = arg.numberInt();
    } else if (arg.type() == Array) {
        BSONObj arr = arg.Obj();
        uassert(31272, "$slice array argument should be of form [skip, limit]", arr.nFields() == 2);
        BSONObjIterator it(arr);
        BSONElement skip = it.next();
        BSONElement limit = it.next();
        uassert(31257, "$slice expects the skip argument to be a number, got " + typeName(skip.type()), skip.isNumber());
        uassert(31258, "$slice expects the limit argument to be a number, got " + typeName(limit.type()),
                limit.isNumber());
        uassert(31259, "$slice limit must be positive, got " + std::to_string(limit.numberInt()), limit.numberInt() > 0);
        node->sliceSkip = skip.numberInt();
        node->sliceLimit = limit.numberInt();
    } else {
        uasserted(31273, "$slice only supports numbers and [skip, limit] arrays");
    }
    addNodeAtPath(parent, name, std::move(node));
    _hasFindSlice = true;
}

bool ProjectionParser::parseGenericExpression(std::string_view name, const BSONObj& obj, ProjectionNode* parent) {
    auto op = obj.firstElementFieldName();
    bool isMeta = op == "$meta";
    if (!isMeta && !Expression::isRegistered(op)) return false;
    uassert(31252, "Cannot use expression other than $meta in exclusion projection",
            !_type || *_type == ProjectType::kInclusion || isMeta);
    uassert(ErrorCodes::BadValue,
            "$meta projections are not supported by this server (no text search, search or geoNear metadata)",
            !isMeta);
    _type = ProjectType::kInclusion;
    expCtx();
    auto node = std::make_unique<ProjectionNode>(ProjectionNode::Kind::kExpression);
    node->expr = Expression::parseObject(obj, *_vps);
    addNodeAtPath(parent, name, std::move(node));
    _impl->hasExpressions = true;
    return true;
}

void ProjectionParser::parseInclusion(const BSONElement& elem, const std::vector<std::string>& parentPath,
                                      ProjectionNode* parent) {
    auto name = elem.fieldNameStringData();
    bool isTopLevelId = name == "_id" && isRoot(parent);
    auto positional = findFirstPositional(name);
    if (!positional) {
        addNodeAtPath(parent, name, std::make_unique<ProjectionNode>(ProjectionNode::Kind::kInclude));
        if (isTopLevelId) _idIncludedEntirely = true;
    } else {
        uassert(31276, "Cannot specify more than one positional projection per query.", !_hasPositional);
        uassert(31256, "Cannot specify positional operator and $elemMatch.", !_hasElemMatch);
        uassert(31270, "Path cannot end with '.$.'", name.size() < 3 || name.substr(name.size() - 3) != ".$.");
        auto [begin, end] = *positional;
        std::string_view rest = name.substr(end);
        uassert(31287, "Cannot use positional operator twice: " + std::string(name),
                !findFirstPositional(rest) && rest != "$");
        uassert(31394,
                "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional "
                "projection may only be used at the end, for example: a.b.$. If the query previously used a "
                "form like a.b.$.d, remove the parts following the '$' and the results will be equivalent.",
                rest.empty());
        std::string_view path = name.substr(0, begin);
        addNodeAtPath(parent, path, std::make_unique<ProjectionNode>(ProjectionNode::Kind::kPositional));
        _hasPositional = true;
        _impl->positionalPath = parentPath;
        for (auto& p : splitPath(path)) _impl->positionalPath.push_back(p);
    }
    if (!isTopLevelId) {
        uassert(31253, "Cannot do inclusion on field " + std::string(name) + " in exclusion projection",
                !_type || *_type == ProjectType::kInclusion);
        _type = ProjectType::kInclusion;
    }
}

void ProjectionParser::parseExclusion(const BSONElement& elem, ProjectionNode* parent) {
    auto name = elem.fieldNameStringData();
    addNodeAtPath(parent, name, std::make_unique<ProjectionNode>(ProjectionNode::Kind::kExclude));
    if (name == "_id" && isRoot(parent)) {
        _idExcludedEntirely = true;
        return;
    }
    uassert(31254, "Cannot do exclusion on field " + std::string(name) + " in inclusion projection",
            !_type || *_type == ProjectType::kExclusion);
    _type = ProjectType::kExclusion;
}

void ProjectionParser::parseLiteral(const BSONElement& elem, ProjectionNode* parent) {
    expCtx();
    auto node = std::make_unique<ProjectionNode>(ProjectionNode::Kind::kExpression);
    node->expr = Expression::parseOperand(elem, *_vps);
    addNodeAtPath(parent, elem.fieldNameStringData(), std::move(node));
    uassert(31310, "Cannot use an expression " + elem.toString() + " in an exclusion projection",
            !_type || *_type == ProjectType::kInclusion);
    _type = ProjectType::kInclusion;
    _impl->hasExpressions = true;
}

// Marks the inner nodes whose subtree computes fields (they may create sub-documents).
bool markExpressions(ProjectionNode* node) {
    bool any = false;
    for (auto& c : node->children) {
        if (c.second->kind == ProjectionNode::Kind::kExpression) any = true;
        else if (c.second->kind == ProjectionNode::Kind::kPath && markExpressions(c.second.get())) any = true;
    }
    node->subtreeHasExpressions = any;
    return any;
}

}  // namespace

Projection::Projection(const BSONObj& spec) : _impl(std::make_unique<Impl>()) {
    _impl->spec = spec.getOwned();
    _impl->empty = _impl->spec.isEmpty();
    if (_impl->empty) return;
    ProjectionParser(_impl.get()).parse();
    markExpressions(&_impl->root);
}

Projection::~Projection() = default;
Projection::Projection(Projection&&) noexcept = default;

bool Projection::requiresMatchDetails() const { return !_impl->positionalPath.empty(); }
bool Projection::isEmpty() const { return _impl->empty; }

}  // namespace mongo
