// Document-transforming stages: $project, $addFields, $set, $unset, $replaceRoot, $replaceWith,
// $redact.
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/projection_executor.h"

namespace mongo {
namespace {

class DocumentSourceProjection : public DocumentSource {
public:
    DocumentSourceProjection(ExpressionContext* expCtx, const char* name, BSONObj spec,
                             std::unique_ptr<ProjectionExecutor> ex)
        : DocumentSource(expCtx), _name(name), _spec(std::move(spec)), _ex(std::move(ex)) {}
    const char* name() const override { return _name; }
    std::optional<Document> getNext() override {
        auto in = pullInput();
        if (!in) return std::nullopt;
        return _ex->apply(*in, vars());
    }
    BSONObj serialize() const override { return _spec; }

private:
    const char* _name;
    BSONObj _spec;
    std::unique_ptr<ProjectionExecutor> _ex;
};

std::vector<StagePtr> parseProject(const BSONElement& e, const StageParseContext& ctx) {
    uassert(15969, "$project specification must be an object", e.type() == Object);
    try {
        auto ex = ProjectionExecutor::parseProject(e.Obj(), ctx.vps);
        return singleStage(std::make_unique<DocumentSourceProjection>(ctx.expCtx, "$project", stageSpec("$project", e),
                                                                 std::move(ex)));
    } catch (const DBException& ex) {
        rethrowWithContext(ex, "Invalid $project");
    }
}

std::vector<StagePtr> parseAddFields(const BSONElement& e, const StageParseContext& ctx, const char* name) {
    uassert(40272, std::string(name) + " specification stage must be an object, got " + typeName(e.type()),
            e.type() == Object);
    try {
        auto ex = ProjectionExecutor::parseAddFields(e.Obj(), ctx.vps);
        return singleStage(std::make_unique<DocumentSourceProjection>(ctx.expCtx, name, stageSpec(name, e), std::move(ex)));
    } catch (const DBException& ex) {
        rethrowWithContext(ex, std::string("Invalid ") + name);
    }
}

std::vector<StagePtr> parseUnset(const BSONElement& e, const StageParseContext& ctx) {
    std::vector<std::string> paths;
    if (e.type() == String) {
        paths.push_back(e.str());
    } else {
        uassert(31002, "$unset specification must be a string or an array", e.type() == Array);
        for (BSONElement p : e.Obj()) {
            uassert(31120, "$unset specification must be a string or an array containing only string values",
                    p.type() == String);
            paths.push_back(p.str());
        }
        uassert(31119, "$unset specification must be a string or an array with at least one field", !paths.empty());
    }
    try {
        auto ex = ProjectionExecutor::makeExclusion(paths);
        return singleStage(std::make_unique<DocumentSourceProjection>(ctx.expCtx, "$unset", stageSpec("$unset", e),
                                                                 std::move(ex)));
    } catch (const DBException& ex) {
        rethrowWithContext(ex, "Invalid $unset");
    }
}

class DocumentSourceReplaceRoot : public DocumentSource {
public:
    DocumentSourceReplaceRoot(ExpressionContext* expCtx, const char* name, BSONObj spec, ExprPtr newRoot)
        : DocumentSource(expCtx), _name(name), _spec(std::move(spec)), _newRoot(std::move(newRoot)) {}
    const char* name() const override { return _name; }
    std::optional<Document> getNext() override {
        auto in = pullInput();
        if (!in) return std::nullopt;
        Value v = _newRoot->evaluate(*in, vars());
        if (!v.isObject()) {
            uasserted(40228, "'newRoot' expression must evaluate to an object, but resulting value was: " +
                                 (v.missing() ? std::string("MISSING") : v.toString()) + ". Type of resulting value: '" +
                                 typeNameOf(v) + "'. Input document: " + in->toString());
        }
        return v.getDocument();
    }
    BSONObj serialize() const override { return _spec; }

private:
    const char* _name;
    BSONObj _spec;
    ExprPtr _newRoot;
};

std::vector<StagePtr> parseReplaceRoot(const BSONElement& e, const StageParseContext& ctx) {
    uassert(40229, "expected an object as specification for $replaceRoot stage, got " + typeName(e.type()),
            e.type() == Object);
    BSONElement newRoot;
    for (BSONElement f : e.Obj()) {
        uassert(40230, "unrecognized option to $replaceRoot stage: " + std::string(f.fieldNameStringData()),
                f.fieldNameStringData() == "newRoot");
        newRoot = f;
    }
    uassert(40231, "no newRoot specified for the $replaceRoot stage", !newRoot.eoo());
    return singleStage(std::make_unique<DocumentSourceReplaceRoot>(ctx.expCtx, "$replaceRoot", stageSpec("$replaceRoot", e),
                                                              Expression::parseOperand(newRoot, ctx.vps)));
}

std::vector<StagePtr> parseReplaceWith(const BSONElement& e, const StageParseContext& ctx) {
    return singleStage(std::make_unique<DocumentSourceReplaceRoot>(ctx.expCtx, "$replaceWith", stageSpec("$replaceWith", e),
                                                              Expression::parseOperand(e, ctx.vps)));
}

// $redact: the expression decides per (sub)document: $$DESCEND, $$PRUNE or $$KEEP.
class DocumentSourceRedact : public DocumentSource {
public:
    DocumentSourceRedact(ExpressionContext* expCtx, BSONObj spec, ExprPtr expr, Variables::Id current)
        : DocumentSource(expCtx), _spec(std::move(spec)), _expr(std::move(expr)), _current(current) {}
    const char* name() const override { return "$redact"; }
    std::optional<Document> getNext() override {
        while (auto in = pullInput()) {
            Value out = redactDocument(*in, *in);
            if (!out.missing()) return out.getDocument();
        }
        return std::nullopt;
    }
    BSONObj serialize() const override { return _spec; }

private:
    Value redactValue(const Value& v, const Document& root) {
        if (v.isObject()) return redactDocument(v.getDocument(), root);
        if (v.isArray()) {
            std::vector<Value> out;
            for (const Value& e : v.getArray()) {
                if (e.isObject() || e.isArray()) {
                    Value r = redactValue(e, root);
                    if (!r.missing()) out.push_back(std::move(r));
                } else {
                    out.push_back(e);
                }
            }
            return Value(std::move(out));
        }
        return v;
    }
    Value redactDocument(const Document& doc, const Document& root) {
        vars()->set(_current, Value(doc));
        Value r = _expr->evaluate(root, vars());
        std::string_view s = r.getType() == String ? r.getStringData() : std::string_view();
        if (s == "keep") return Value(doc);
        if (s == "prune") return Value();
        uassert(17053,
                "$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and "
                "$$PRUNE, but returned " + r.toString(),
                s == "descend");
        MutableDoc out;
        for (const auto& [name, value] : doc.fields()) {
            Value nv = redactValue(value, root);
            if (!nv.missing()) out.addField(name, std::move(nv));
        }
        return Value(out.freeze());
    }

    BSONObj _spec;
    ExprPtr _expr;
    Variables::Id _current;
};

std::vector<StagePtr> parseRedact(const BSONElement& e, const StageParseContext& ctx) {
    // $$DESCEND/$$PRUNE/$$KEEP are constants of this stage; $$CURRENT is the document being
    // examined at each level.
    VariablesParseState vps = ctx.vps;
    Variables::Id descend = vps.defineVariable("DESCEND");
    Variables::Id prune = vps.defineVariable("PRUNE");
    Variables::Id keep = vps.defineVariable("KEEP");
    Variables::Id current = vps.defineVariable("CURRENT");
    ctx.expCtx->vars.set(descend, Value("descend"));
    ctx.expCtx->vars.set(prune, Value("prune"));
    ctx.expCtx->vars.set(keep, Value("keep"));
    return singleStage(std::make_unique<DocumentSourceRedact>(ctx.expCtx, stageSpec("$redact", e),
                                                         Expression::parseOperand(e, vps), current));
}

struct Registrar {
    Registrar() {
        registerStage("$project", parseProject);
        registerStage("$addFields", [](const BSONElement& e, const StageParseContext& c) {
            return parseAddFields(e, c, "$addFields");
        });
        registerStage("$set", [](const BSONElement& e, const StageParseContext& c) { return parseAddFields(e, c, "$set"); });
        registerStage("$unset", parseUnset);
        registerStage("$replaceRoot", parseReplaceRoot);
        registerStage("$replaceWith", parseReplaceWith);
        registerStage("$redact", parseRedact);
    }
} registrar;

}  // namespace
}  // namespace mongo
