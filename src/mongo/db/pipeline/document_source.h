#pragma once
// One pipeline stage (DocumentSource) and the stage registry. Stages pull documents from the
// stage before them (pull model): getNext() returns the next output document or nothing at the
// end. Stages self-register by name from their files (document_source_<stage>.cpp); one spec may
// expand to several stages ($sortByCount -> $group + $sort, $bucket -> $group + $sort).
// Not thread safe: a stage chain belongs to one pipeline run.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/db/pipeline/expression.h"
#include "mongo/db/pipeline/value.h"

namespace mongo {

class DocumentSource;
using StagePtr = std::unique_ptr<DocumentSource>;

class DocumentSource {
public:
    explicit DocumentSource(ExpressionContext* expCtx) : _expCtx(expCtx) {}
    virtual ~DocumentSource() = default;
    virtual const char* name() const = 0;
    virtual std::optional<Document> getNext() = 0;
    // The stage as explain shows it: {$stage: <spec>}.
    virtual BSONObj serialize() const = 0;
    // True for stages that produce documents without an input ($documents, $collStats...).
    virtual bool isSourceStage() const { return false; }
    void setSource(DocumentSource* s) { _source = s; }

protected:
    std::optional<Document> pullInput() {
        if (!_source) return std::nullopt;
        _expCtx->checkForInterrupt();
        return _source->getNext();
    }
    Variables* vars() { return &_expCtx->vars; }

    ExpressionContext* _expCtx;
    DocumentSource* _source = nullptr;
};

// Where a stage is being parsed (some stages are only allowed in some places).
struct StageParseContext {
    ExpressionContext* expCtx;
    VariablesParseState vps;
    bool inFacet = false;
    bool inLookup = false;   // inside a $lookup / $unionWith sub-pipeline
    bool isFirst = false;    // first stage of its pipeline
    bool isLast = false;     // last stage of its pipeline
};

// For the collections $lookup, $graphLookup and $unionWith read: throws InvalidNamespace (73,
// "invalid <stage> namespace: db.coll") unless coll in the pipeline's database is a valid
// namespace (NamespaceString::validateNamespace; only the collection name when the context has
// no database, as in unit tests).
void checkForeignNamespace(const StageParseContext& ctx, const std::string& coll, const char* stage);

using StageParser = std::function<std::vector<StagePtr>(const BSONElement& spec, const StageParseContext& ctx)>;
void registerStage(const std::string& name, StageParser parser);
// Whether an aggregation stage of this name exists (for parsers that check names first).
bool isRegisteredStage(std::string_view name);

// Parses stage specs ({$name: spec} each) into a chain. Throws 40323 / 40324 and the stages' own
// errors. The returned stages are linked (each reads from the previous); the first one has no
// source until the caller gives it one.
std::vector<StagePtr> parseStages(const std::vector<BSONObj>& specs, ExpressionContext* expCtx,
                                  const VariablesParseState& vps, bool inFacet, bool inLookup);
// Links stages[i] to stages[i-1] and applies the chain optimisations (a $sort followed by
// $limit keeps only the top k).
void linkStages(std::vector<StagePtr>& stages);

// A stage reading from a generator of BSON documents (the collection scan).
class DocumentSourceGenerator : public DocumentSource {
public:
    DocumentSourceGenerator(ExpressionContext* expCtx, std::function<std::optional<BSONObj>()> gen)
        : DocumentSource(expCtx), _gen(std::move(gen)) {}
    const char* name() const override { return "$cursor"; }
    std::optional<Document> getNext() override {
        if (!_gen) return std::nullopt;
        _expCtx->checkForInterrupt();
        auto o = _gen();
        if (!o) return std::nullopt;
        return Document::fromBson(*o);
    }
    BSONObj serialize() const override { return BSONObj(); }

private:
    std::function<std::optional<BSONObj>()> _gen;
};

// A stage reading from documents already in memory ($facet inputs, tests).
class DocumentSourceVector : public DocumentSource {
public:
    DocumentSourceVector(ExpressionContext* expCtx, std::shared_ptr<const std::vector<Document>> docs)
        : DocumentSource(expCtx), _docs(std::move(docs)) {}
    const char* name() const override { return "$queue"; }
    std::optional<Document> getNext() override {
        if (_pos >= _docs->size()) return std::nullopt;
        return (*_docs)[_pos++];
    }
    BSONObj serialize() const override { return BSONObj(); }

private:
    std::shared_ptr<const std::vector<Document>> _docs;
    size_t _pos = 0;
};

// Stage hooks the chain optimiser uses: a $sort that can keep only its top k documents.
class BoundedSortable {
public:
    virtual ~BoundedSortable() = default;
    virtual void setLimit(long long k) = 0;
};
class LimitStage {
public:
    virtual ~LimitStage() = default;
    virtual long long limit() const = 0;
};
class SkipStage {
public:
    virtual ~SkipStage() = default;
    virtual long long skip() const = 0;
};

// Wraps a failure while parsing stage `stage` as MongoDB does ("Invalid $project :: caused by
// :: <reason>"), keeping the code.
[[noreturn]] void rethrowWithContext(const DBException& e, const std::string& context);

// Helpers shared by stage parsers.
BSONObj stageSpec(const char* name, const BSONElement& spec);  // {name: spec}
std::vector<StagePtr> singleStage(StagePtr s);
// $densify / $fill "partitionByFields": an array of field names (TypeMismatch otherwise).
std::vector<std::string> parsePartitionByFields(const BSONElement& e);

}  // namespace mongo
