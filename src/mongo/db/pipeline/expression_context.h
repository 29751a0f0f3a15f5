#pragma once
// State shared by one pipeline (and its sub-pipelines) while it parses and runs: variable
// storage, the id generator for user variables, $$NOW / $$CLUSTER_TIME, and the server hooks
// of PipelineContext. Not thread safe: one per operation.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/pipeline/value.h"

namespace mongo {

// Runtime values of variables, indexed by the ids VariablesParseState hands out.
class Variables {
public:
    using Id = int;
    // Builtins are negative; user variables (including a rebound CURRENT) count up from 0.
    static constexpr Id kRootId = -1;
    static constexpr Id kRemoveId = -2;
    static constexpr Id kNowId = -3;
    static constexpr Id kClusterTimeId = -4;
    static constexpr Id kUserRolesId = -5;

    Value get(Id id, const Document& root) const;
    void set(Id id, Value v);
    // Throws 16866/16867/16868 for names a user may not define ($let, $map 'as', ...).
    static void validateNameForUserWrite(std::string_view name);
    // Throws 16869/16870/16871 for names that cannot be read.
    static void validateNameForUserRead(std::string_view name);

    Date_t now;  // $$NOW ($$CLUSTER_TIME: 51144, a standalone server has no cluster time)

private:
    std::vector<Value> _values;
};

struct ExpressionContext {
    explicit ExpressionContext(PipelineContext c) : ctx(std::move(c)) {
        vars.now = Date_t::now();
    }
    void checkForInterrupt() {
        if (ctx.checkForInterrupt && (++_interruptCounter & 127) == 0) ctx.checkForInterrupt();
    }

    PipelineContext ctx;
    Variables vars;
    int nextVariableId = 0;
    // Sub-pipelines nest ($lookup inside $facet inside $lookup ...); MongoDB caps the depth.
    int subPipelineDepth = 0;

private:
    unsigned _interruptCounter = 0;
};

// Names in scope while parsing: user variables map to ids; builtins are resolved by name.
// Copied when entering a nested scope ($let, $map ...), so inner definitions don't leak out.
class VariablesParseState {
public:
    explicit VariablesParseState(ExpressionContext* expCtx) : _expCtx(expCtx) {}
    Variables::Id defineVariable(std::string_view name);
    // Throws 17276 "Use of undefined variable: x".
    Variables::Id getVariable(std::string_view name) const;
    ExpressionContext* expCtx() const { return _expCtx; }

private:
    ExpressionContext* _expCtx;
    std::map<std::string, Variables::Id, std::less<>> _vars;
};

}  // namespace mongo
