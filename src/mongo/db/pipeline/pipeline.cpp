#include "mongo/db/pipeline/pipeline.h"

#include <cstdio>

#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/collator.h"

namespace mongo {

Pipeline::Pipeline(const std::vector<BSONObj>& stages, PipelineContext ctx) : _ctx(ctx) {
    ValueComparisonScope collation(_ctx.collator.get());  // 'let' and constants compare under it too
    _expCtx = std::make_unique<ExpressionContext>(std::move(ctx));
    VariablesParseState vps(_expCtx.get());
    // Top-level 'let' variables: evaluated once, visible everywhere (sub-pipelines included).
    for (BSONElement v : _ctx.letVars) {
        Variables::validateNameForUserWrite(v.fieldNameStringData());
        ExprPtr e = Expression::parseOperand(v, vps);
        Value val = e->evaluate(Document(), &_expCtx->vars);
        Variables::Id id = vps.defineVariable(v.fieldNameStringData());
        _expCtx->vars.set(id, std::move(val));
    }
    _stages = parseStages(stages, _expCtx.get(), vps, false, false);
    linkStages(_stages);
    if (!stages.empty() && stages[0].firstElementFieldName() == std::string_view("$match") &&
        stages[0].firstElement().type() == Object)
        _leadingMatch = stages[0].firstElement().Obj().getOwned();
}

Pipeline::~Pipeline() = default;

BSONObj Pipeline::leadingMatchFilter() const { return _leadingMatch; }

void Pipeline::setSource(std::function<std::optional<BSONObj>()> source) {
    _source = source;
    _input = std::make_unique<DocumentSourceGenerator>(_expCtx.get(), std::move(source));
    if (!_stages.empty() && !_stages.front()->isSourceStage()) _stages.front()->setSource(_input.get());
}

std::optional<BSONObj> Pipeline::getNext() {
    DocumentSource* last = _stages.empty() ? _input.get() : _stages.back().get();
    if (!last) return std::nullopt;
    ValueComparisonScope collation(_ctx.collator.get());
    auto d = last->getNext();
    if (!d) return std::nullopt;
    BSONObj out = d->toBson();
    if (out.objsize() > BSONObjMaxUserSize) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "%x", out.objsize());
        uasserted(ErrorCodes::BSONObjectTooLarge, "BSONObj size: " + std::to_string(out.objsize()) + " (0x" + hex +
                                                      ") is invalid. Size must be between 0 and 16793600(16MB)");
    }
    return out;
}

std::vector<BSONObj> Pipeline::serialize() const {
    std::vector<BSONObj> out;
    for (const auto& s : _stages) {
        BSONObj o = s->serialize();
        if (!o.isEmpty()) out.push_back(o);
    }
    return out;
}

}  // namespace mongo
