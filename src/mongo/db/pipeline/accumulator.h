#pragma once
// $group accumulators ($sum $avg $min $max $first $last $push $addToSet $count $stdDevPop
// $stdDevSamp $mergeObjects $firstN $lastN $maxN $minN $top $bottom $topN $bottomN) and the
// parsing of "field: {$acc: <expr>}" statements shared by $group, $bucket and $bucketAuto.
// Not thread safe: one accumulator per group, fed in input order.
#include <functional>
#include <memory>
#include <string>

#include "mongo/db/pipeline/expression.h"

namespace mongo {

class Accumulator {
public:
    virtual ~Accumulator() = default;
    // v is the evaluated argument for one input document (may be missing).
    virtual void process(const Value& v) = 0;
    virtual Value getValue() const = 0;
    // Approximate bytes of the values the accumulator holds (for $group's memory limit);
    // cheap: kept up to date by process().
    virtual size_t memUsageBytes() const { return 0; }
};

// "field: {$op: <argument>}" of a $group.
struct AccumulationStatement {
    std::string fieldName;
    std::string opName;
    ExprPtr argument;  // evaluated per input document, then fed to process()
    std::function<std::unique_ptr<Accumulator>()> makeAccumulator;

    // Throws MongoDB's codes: 40234 (not an object), 40238 (not exactly one accumulator),
    // 15952 (unknown operator), 40237 (array argument to a unary accumulator),
    // 40235/40236 (bad field names).
    static AccumulationStatement parse(const BSONElement& e, const VariablesParseState& vps);
};

}  // namespace mongo
