#include "mongo/db/pipeline/aggregation_expression.h"

#include "mongo/db/pipeline/expression.h"

namespace mongo {

struct AggregationExpression::Impl {
    ExpressionContext expCtx{PipelineContext{}};
    ExprPtr expr;
};

AggregationExpression::AggregationExpression(const BSONElement& expr, const BSONObj& letVars)
    : _impl(std::make_unique<Impl>()) {
    VariablesParseState vps(&_impl->expCtx);
    for (BSONElement v : letVars) {
        Variables::validateNameForUserWrite(v.fieldNameStringData());
        Value val = Expression::parseOperand(v, vps)->evaluate(Document(), &_impl->expCtx.vars);
        _impl->expCtx.vars.set(vps.defineVariable(v.fieldNameStringData()), std::move(val));
    }
    _impl->expr = Expression::parseOperand(expr, vps);
}

AggregationExpression::~AggregationExpression() = default;
AggregationExpression::AggregationExpression(AggregationExpression&&) noexcept = default;

BSONObj AggregationExpression::evaluate(const BSONObj& doc) const {
    Variables vars = _impl->expCtx.vars;
    return _impl->expr->evaluate(Document::fromBson(doc), &vars).wrap("");
}

bool AggregationExpression::evaluateTruthy(const BSONObj& doc) const {
    Variables vars = _impl->expCtx.vars;
    return _impl->expr->evaluate(Document::fromBson(doc), &vars).coerceToBool();
}

}  // namespace mongo
