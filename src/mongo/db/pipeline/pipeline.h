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

class Collator;  // db/query/collator.h

// What the pipeline needs from the server. Supplied by the aggregate command.
struct PipelineContext {
    std::string db;
    // Returns a generator of the documents of another collection of db (for $lookup);
    // an empty collection if it does not exist.
    std::function<std::function<std::optional<BSONObj>()>(const std::string& coll)> openCollection;
    // Called periodically in long loops (interrupts with maxTimeMS etc.).
    std::function<void()> checkForInterrupt;
    // Blocking stages ($sort, $group, $bucketAuto) past their 100 MB limit: false fails with
    // QueryExceededMemoryLimitNoDiskUseAllowed (292); true keeps going in memory (this server
    // cannot spill) up to a hard cap (query/blocking_memory_tracker.h).
    bool allowDiskUse = false;
    // The aggregate command's 'let': top-level variables ({name: <expression>}), evaluated once
    // when the pipeline is built.
    BSONObj letVars;
    // $out / $merge (which must be the last stage): called once with the stage ({$out: ...} or
    // {$merge: ...}) and every document that reached it; the command layer writes them. When
    // unset, $out/$merge fail with NotImplemented.
    std::function<void(const BSONObj& stage, const std::vector<BSONObj>& docs)> writeOutput;
    // Stages whose documents come from the server rather than the collection ($collStats,
    // $indexStats, $currentOp, $listLocalSessions, $listSessions, $planCacheStats,
    // $changeStream): must be first; called once with the stage spec, returns a generator of the
    // stage's output. Throw DBException for bad specs. When unset these stages fail
    // (NotImplemented; $changeStream: 40573 as on a standalone server).
    std::function<std::function<std::optional<BSONObj>()>(const BSONObj& stage)> serverSourceStage;
    // The pipeline's collation (null: simple): every comparison of strings in every stage,
    // sub-pipeline ($lookup, $graphLookup, $unionWith, $facet) and expression follows it.
    std::shared_ptr<const Collator> collator;
};

class DocumentSource;  // one stage (pipeline.cpp and stage files)
struct ExpressionContext;  // variables and hooks shared by the stages (expression_context.h)

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
    std::unique_ptr<ExpressionContext> _expCtx;
    std::unique_ptr<DocumentSource> _input;  // reads _source
    BSONObj _leadingMatch;
};

}  // namespace mongo
