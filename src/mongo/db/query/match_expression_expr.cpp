// $expr: a filter predicate written in the aggregation expression language.
#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/match_expression.h"

namespace mongo {

ExprMatchExpression::ExprMatchExpression(const BSONElement& e, const Collator* collator)
    : _spec(e.wrap().getOwned()), _expCtx(std::make_unique<ExpressionContext>(PipelineContext{})), _collator(collator) {
    ValueComparisonScope collation(_collator);  // constant folding, if any, compares under it
    VariablesParseState vps(_expCtx.get());
    _expr = Expression::parseOperand(e, vps);
}

ExprMatchExpression::~ExprMatchExpression() = default;

bool ExprMatchExpression::matches(const BSONObj& doc, MatchDetails*) const {
    // Evaluation may bind variables ($let, $map): work on a copy so that matching stays
    // thread safe.
    Variables vars = _expCtx->vars;
    ValueComparisonScope collation(_collator);
    return _expr->evaluate(Document::fromBson(doc), &vars).coerceToBool();
}

}  // namespace mongo
