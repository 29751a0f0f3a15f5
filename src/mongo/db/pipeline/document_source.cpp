#include "mongo/db/pipeline/document_source.h"

#include "mongo/db/namespace_string.h"

#include <limits>

namespace mongo {

void checkForeignNamespace(const StageParseContext& ctx, const std::string& coll, const char* stage) {
    const std::string& db = ctx.expCtx->ctx.db;
    Status s = db.empty() ? NamespaceString::validateCollectionName(coll) : NamespaceString::validateNamespace(db, coll);
    if (!s.isOK()) uasserted(ErrorCodes::InvalidNamespace, std::string("invalid ") + stage + " namespace: " + db + "." + coll);
}

namespace {
std::map<std::string, StageParser, std::less<>>& stageRegistry() {
    static std::map<std::string, StageParser, std::less<>> r;
    return r;
}
}  // namespace

void registerStage(const std::string& name, StageParser parser) { stageRegistry()[name] = std::move(parser); }

bool isRegisteredStage(std::string_view name) { return stageRegistry().find(name) != stageRegistry().end(); }

std::vector<StagePtr> parseStages(const std::vector<BSONObj>& specs, ExpressionContext* expCtx,
                                  const VariablesParseState& vps, bool inFacet, bool inLookup) {
    std::vector<StagePtr> out;
    for (size_t i = 0; i < specs.size(); i++) {
        const BSONObj& spec = specs[i];
        uassert(40323, "A pipeline stage specification object must contain exactly one field.", spec.nFields() == 1);
        BSONElement e = spec.firstElement();
        std::string name(e.fieldNameStringData());
        auto it = stageRegistry().find(name);
        uassert(40324, "Unrecognized pipeline stage name: '" + name + "'", it != stageRegistry().end());
        StageParseContext ctx{expCtx, vps, inFacet, inLookup, i == 0, i + 1 == specs.size()};
        for (auto& s : it->second(e, ctx)) out.push_back(std::move(s));
    }
    return out;
}

void linkStages(std::vector<StagePtr>& stages) {
    for (size_t i = 1; i < stages.size(); i++) stages[i]->setSource(stages[i - 1].get());
    // $sort followed by $skip/$limit stages: the sort only needs the first (skips + limit).
    for (size_t i = 0; i < stages.size(); i++) {
        auto* sort = dynamic_cast<BoundedSortable*>(stages[i].get());
        if (!sort) continue;
        long long skipped = 0;
        long long bound = std::numeric_limits<long long>::max();
        for (size_t j = i + 1; j < stages.size(); j++) {
            if (auto* l = dynamic_cast<LimitStage*>(stages[j].get())) {
                long long b;
                if (__builtin_add_overflow(skipped, l->limit(), &b)) b = std::numeric_limits<long long>::max();
                bound = std::min(bound, b);
            } else if (auto* s = dynamic_cast<SkipStage*>(stages[j].get())) {
                if (__builtin_add_overflow(skipped, s->skip(), &skipped)) skipped = std::numeric_limits<long long>::max();
            } else {
                break;
            }
        }
        if (bound != std::numeric_limits<long long>::max()) sort->setLimit(bound);
    }
}

void rethrowWithContext(const DBException& e, const std::string& context) {
    throw DBException(Status(e.code(), context + " :: caused by :: " + e.reason()));
}

BSONObj stageSpec(const char* name, const BSONElement& spec) { return spec.wrap(name); }

std::vector<StagePtr> singleStage(StagePtr s) {
    std::vector<StagePtr> v;
    v.push_back(std::move(s));
    return v;
}

std::vector<std::string> parsePartitionByFields(const BSONElement& e) {
    uassert(ErrorCodes::TypeMismatch, "'partitionByFields' must be an array of strings", e.type() == Array);
    std::vector<std::string> out;
    for (BSONElement p : e.Obj()) {
        uassert(ErrorCodes::TypeMismatch, "'partitionByFields' must be an array of strings", p.type() == String);
        out.push_back(p.str());
    }
    return out;
}

}  // namespace mongo
