#pragma once
// The aggregation pipeline: parses stages and pulls documents through them.
// Stages: $match $project $addFields $set $unset $sort $limit $skip $group $unwind $count
// $lookup $replaceRoot $replaceWith $sortByCount $facet (optional) ..., with the expression
// language they need ($add, $concat, $cond, $eq, field paths "$a.b", $$ROOT, ...) and
// accumulators ($sum $avg $min $max $first $last $push $addToSet $count).
// Not thread safe: one pipeline per operation.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

// What the pipeline needs from the server. Supplied by the aggregate command.
struct PipelineContext {
    std::string db;
    // Returns a generator of the documents of another collection of db (for $lookup);
    // an empty collection if it does not exist.
    std::function<std::function<std::optional<BSONObj>()>(const std::string& coll)> openCollection;
    // Called periodically in long loops (interrupts with maxTimeMS etc.).
    std::function<void()> checkForInterrupt;
    // allowDiskUse has no effect; memory limits are not enforced in this version.
    bool allowDiskUse = false;
};

class DocumentSource;  // one stage (pipeline.cpp and stage files)

class Pipeline {
public:
    // Throws DBException with MongoDB's codes for unknown stages (40324 "Unrecognized pipeline
    // stage name: '$foo'"), bad stage specs, and bad expressions (168 InvalidPipelineOperator
    // "Unrecognized expression '$foo'", ...).
    Pipeline(const std::vector<BSONObj>& stages, PipelineContext ctx);
    ~Pipeline();

    // A leading $match filter (empty if none) and $sort: the command layer may use them to
    // choose an index, but the pipeline still applies them itself, so using them is optional.
    BSONObj leadingMatchFilter() const;

    // The input documents (the collection scan). Must be set before getNext().
    void setSource(std::function<std::optional<BSONObj>()> source);
    std::optional<BSONObj> getNext();
    // Stage descriptions for explain: [{$match: ...}, {$sort: ...}, ...].
    std::vector<BSONObj> serialize() const;

private:
    PipelineContext _ctx;
    std::vector<std::unique_ptr<DocumentSource>> _stages;
    std::function<std::optional<BSONObj>()> _source;
};

}  // namespace mongo
