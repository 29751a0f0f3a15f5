#include "mongo/db/pipeline/command_let.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/expression_context.h"

namespace mongo {

namespace {

// System variables' names: MongoDB lets only internal clients set them through 'let'.
bool isSystemVariableName(std::string_view name) {
    return name == "NOW" || name == "CLUSTER_TIME" || name == "JS_SCOPE" || name == "IS_MR" || name == "USER_ROLES" ||
           name == "ROOT" || name == "REMOVE";
}

void validateLetName(std::string_view name) {
    if (isSystemVariableName(name)) uasserted(4738901, "Attempt to set internal constant: " + std::string(name));
    try {
        Variables::validateNameForUserWrite(name);
    } catch (const DBException& e) {
        uasserted(e.code(), "Invalid 'let' parameter :: caused by :: " + e.reason());
    }
}

// Whether an expression reads the document it would be evaluated against: a field path, or
// $$ROOT / $$CURRENT. Literals ({$literal: ...}) read nothing.
bool readsDocument(const BSONElement& e) {
    if (e.type() == String) {
        std::string_view s = e.valueStringData();
        if (s.empty() || s[0] != '$') return false;
        if (s.size() < 2 || s[1] != '$') return true;  // "$a.b"
        std::string_view var = s.substr(2, s.find('.') == std::string_view::npos ? std::string_view::npos : s.find('.') - 2);
        return var == "ROOT" || var == "CURRENT";
    }
    if (e.type() == Object) {
        BSONObj o = e.Obj();
        if (!o.isEmpty() && o.firstElementFieldName() == std::string_view("$literal")) return false;
        for (BSONElement sub : o)
            if (readsDocument(sub)) return true;
        return false;
    }
    if (e.type() == Array) {
        for (BSONElement sub : e.Obj())
            if (readsDocument(sub)) return true;
    }
    return false;
}

void appendValueAsExpression(BSONObjBuilder& b, std::string_view name, const Value& v) {
    if (v.missing()) {
        b.append(name, "$$REMOVE");
        return;
    }
    BSONObjBuilder lit;
    v.appendTo(&lit, "$literal", 2);
    b.append(name, lit.obj());
}

bool isExpressionValue(const BSONElement& e) {
    if (e.type() == String) return !e.valueStringData().empty() && e.valueStringData()[0] == '$';
    return false;
}

}  // namespace

CommandLetVariables CommandLetVariables::parse(const BSONObj& let) {
    CommandLetVariables out;
    if (let.isEmpty()) return out;
    ExpressionContext expCtx{PipelineContext{}};
    VariablesParseState vps(&expCtx);
    BSONObjBuilder b;
    for (BSONElement v : let) {
        std::string_view name = v.fieldNameStringData();
        validateLetName(name);
        uassert(4890500,
                "Command let Expression tried to access a field, but this is not allowed because Command let "
                "Expressions run before the query examines any documents.",
                !readsDocument(v));
        ExprPtr expr = Expression::parseOperand(v, vps);
        Value value = expr->evaluate(Document(), &expCtx.vars);
        Variables::Id id = vps.defineVariable(name);
        expCtx.vars.set(id, value);
        appendValueAsExpression(b, name, value);
    }
    out._vars = b.obj();
    return out;
}

CommandLetVariables CommandLetVariables::withConstants(const BSONObj& constants) const {
    CommandLetVariables out;
    BSONObjBuilder b;
    for (BSONElement v : _vars)
        if (!constants.hasField(v.fieldNameStringData())) b.append(v);
    for (BSONElement c : constants) {
        validateLetName(c.fieldNameStringData());
        BSONObjBuilder lit;
        lit.appendAs(c, "$literal");
        b.append(c.fieldNameStringData(), lit.obj());
    }
    out._vars = b.obj();
    return out;
}

void CommandLetVariables::appendWrapped(const BSONElement& expr, BSONObjBuilder* out) const {
    BSONObjBuilder let;
    let.append("vars", _vars);
    let.appendAs(expr, "in");
    BSONObjBuilder w;
    w.append("$let", let.obj());
    out->append(expr.fieldNameStringData(), w.obj());
}

BSONObj CommandLetVariables::bindInFilter(const BSONObj& filter) const {
    if (empty()) return filter;
    BSONObjBuilder b;
    for (BSONElement e : filter) {
        std::string_view n = e.fieldNameStringData();
        if (n == "$expr") {
            appendWrapped(e, &b);
        } else if ((n == "$and" || n == "$or" || n == "$nor") && e.type() == Array) {
            BSONArrayBuilder arr;
            for (BSONElement sub : e.Obj()) {
                if (sub.type() == Object) arr.append(bindInFilter(sub.Obj()));
                else arr.append(sub);
            }
            b.append(n, arr.arr());
        } else {
            b.append(e);
        }
    }
    return b.obj();
}

BSONObj CommandLetVariables::bindInProjection(const BSONObj& projection) const {
    if (empty()) return projection;
    BSONObjBuilder b;
    for (BSONElement e : projection) {
        if (isExpressionValue(e)) {
            appendWrapped(e, &b);
        } else if (e.type() == Object && !e.Obj().isEmpty()) {
            std::string_view op = e.Obj().firstElementFieldName();
            if (op.empty() || op[0] != '$') b.append(e.fieldNameStringData(), bindInProjection(e.Obj()));
            else if (op == "$slice" || op == "$elemMatch" || op == "$meta") b.append(e);
            else appendWrapped(e, &b);
        } else {
            b.append(e);
        }
    }
    return b.obj();
}

}  // namespace mongo
