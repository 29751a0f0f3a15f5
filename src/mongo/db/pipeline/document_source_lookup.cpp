// Stages that read other collections or sub-pipelines: $lookup, $unionWith, $facet, and the
// source stage $documents. Sub-pipelines share the ExpressionContext (and so the variables) of
// the pipeline they belong to.
#include "mongo/db/pipeline/document_source.h"

namespace mongo {
namespace {

constexpr int kMaxSubPipelineDepth = 20;

std::vector<BSONObj> pipelineSpecs(const BSONElement& e, const std::string& what) {
    std::vector<BSONObj> out;
    for (BSONElement s : e.Obj()) {
        uassert(ErrorCodes::TypeMismatch, what + " must be an array of objects, found " + typeName(s.type()),
                s.type() == Object);
        out.push_back(s.Obj().getOwned());
    }
    return out;
}

// A parsed sub-pipeline that can be run again from scratch (once per input document for a
// correlated $lookup): re-parsing resets every stage's state; variable ids come out the same
// because the id counter is rewound to where the first parse started.
class SubPipeline {
public:
    SubPipeline(ExpressionContext* expCtx, std::vector<BSONObj> specs, VariablesParseState vps, bool inLookup)
        : _expCtx(expCtx), _specs(std::move(specs)), _vps(std::move(vps)), _inLookup(inLookup) {
        uassert(ErrorCodes::MaxSubPipelineDepthExceeded,
                "Maximum number of nested sub-pipelines exceeded. Limit is " + std::to_string(kMaxSubPipelineDepth),
                ++_expCtx->subPipelineDepth <= kMaxSubPipelineDepth);
        _firstVarId = _expCtx->nextVariableId;
        build();  // validates the specs now
        _endVarId = _expCtx->nextVariableId;
        _expCtx->subPipelineDepth--;
    }

    // Runs the sub-pipeline over input, returning all its results.
    std::vector<Document> run(std::unique_ptr<DocumentSource> input) {
        if (_used) {
            int saved = _expCtx->nextVariableId;
            _expCtx->nextVariableId = _firstVarId;
            build();
            _expCtx->nextVariableId = std::max(saved, _endVarId);
        }
        _used = true;
        _stages.insert(_stages.begin(), std::move(input));
        linkStages(_stages);
        std::vector<Document> out;
        while (auto d = _stages.back()->getNext()) out.push_back(std::move(*d));
        _stages.clear();
        _used = true;
        return out;
    }

    // Streams the results (for $unionWith); call once.
    DocumentSource* attach(std::unique_ptr<DocumentSource> input) {
        _stages.insert(_stages.begin(), std::move(input));
        linkStages(_stages);
        return _stages.back().get();
    }

private:
    void build() { _stages = parseStages(_specs, _expCtx, _vps, false, _inLookup); }

    ExpressionContext* _expCtx;
    std::vector<BSONObj> _specs;
    VariablesParseState _vps;
    bool _inLookup;
    int _firstVarId = 0, _endVarId = 0;
    bool _used = false;
    std::vector<StagePtr> _stages;
};

std::unique_ptr<DocumentSource> collectionSource(ExpressionContext* expCtx, const std::string& coll) {
    std::function<std::optional<BSONObj>()> gen;
    if (expCtx->ctx.openCollection) gen = expCtx->ctx.openCollection(coll);
    return std::make_unique<DocumentSourceGenerator>(expCtx, std::move(gen));
}

// Collects the values along a path for $lookup's localField: arrays along the way and at the
// end contribute their elements.
void collectValues(const Value& v, const std::vector<std::string>& path, size_t i, std::vector<Value>* out) {
    if (i == path.size()) {
        if (v.isArray()) {
            for (const Value& e : v.getArray()) out->push_back(e);
        } else if (!v.missing()) {
            out->push_back(v);
        }
        return;
    }
    if (v.isObject()) {
        collectValues(v.getDocument().getField(path[i]), path, i + 1, out);
    } else if (v.isArray()) {
        for (const Value& e : v.getArray())
            if (e.isObject()) collectValues(e, path, i, out);
    }
}

class DocumentSourceLookup : public DocumentSource {
public:
    struct Let {
        Variables::Id id;
        ExprPtr expr;
    };
    DocumentSourceLookup(ExpressionContext* expCtx, BSONObj spec, std::string from, FieldPath as,
                         std::optional<FieldPath> localField, std::string foreignField, std::vector<Let> lets,
                         std::unique_ptr<SubPipeline> sub)
        : DocumentSource(expCtx), _spec(std::move(spec)), _from(std::move(from)), _as(std::move(as)),
          _localField(std::move(localField)), _foreignField(std::move(foreignField)), _lets(std::move(lets)),
          _sub(std::move(sub)) {}
    const char* name() const override { return "$lookup"; }
    BSONObj serialize() const override { return _spec; }

    std::optional<Document> getNext() override {
        auto in = pullInput();
        if (!in) return std::nullopt;
        std::vector<Value> matches;
        if (_sub && _lets.empty() && !_localField) {
            // Uncorrelated: the sub-pipeline's result is the same for every document.
            if (!_cached) {
                _cache = _sub->run(collectionSource(_expCtx, _from));
                _cached = true;
            }
            for (const auto& d : _cache) matches.emplace_back(d);
        } else {
            for (const auto& l : _lets) vars()->set(l.id, l.expr->evaluate(*in, vars()));
            std::unique_ptr<DocumentSource> source = collectionSource(_expCtx, _from);
            if (_localField) source = equalityFilter(*in, std::move(source));
            if (_sub) {
                for (auto& d : _sub->run(std::move(source))) matches.emplace_back(std::move(d));
            } else {
                while (auto d = source->getNext()) matches.emplace_back(std::move(*d));
            }
        }
        MutableDoc out(*in);
        out.setNestedField(_as, Value(std::move(matches)));
        return out.freeze();
    }

private:
    // The foreign documents whose foreignField equals one of the local values (null when none).
    std::unique_ptr<DocumentSource> equalityFilter(const Document& in, std::unique_ptr<DocumentSource> source) {
        std::vector<Value> vals;
        collectValues(Value(in), _localField->parts(), 0, &vals);
        if (vals.empty()) vals.push_back(Value::null());
        BSONObjBuilder b;
        BSONArrayBuilder& ors = b.subarrayStart("$or");
        BSONArrayBuilder inVals;
        bool anyIn = false;
        for (const Value& v : vals) {
            if (v.getType() == RegEx) {
                // A regex value matches itself, not the strings it would match.
                BSONObjBuilder& o = ors.subobjStart();
                BSONObjBuilder& eq = o.subobjStart(_foreignField);
                v.appendTo(&eq, "$eq");
                eq.doneFast();
                o.doneFast();
            } else {
                inVals.append(v.wrap("x").firstElement());
                anyIn = true;
            }
        }
        if (anyIn) {
            BSONObjBuilder& o = ors.subobjStart();
            BSONObjBuilder& in = o.subobjStart(_foreignField);
            in.appendArray("$in", inVals.arr());
            in.doneFast();
            o.doneFast();
        }
        ors.doneFast();
        BSONObj filter = b.obj();
        BSONObj matchSpec = BSONObjBuilder().append("$match", filter).obj();
        auto stages = parseStages({matchSpec}, _expCtx, VariablesParseState(_expCtx), false, true);
        _filterStages.clear();
        _filterStages.push_back(std::move(source));
        for (auto& s : stages) _filterStages.push_back(std::move(s));
        linkStages(_filterStages);
        return std::make_unique<Forward>(_expCtx, _filterStages.back().get());
    }

    // Reads from a stage owned elsewhere.
    class Forward : public DocumentSource {
    public:
        Forward(ExpressionContext* expCtx, DocumentSource* src) : DocumentSource(expCtx), _src(src) {}
        const char* name() const override { return "$forward"; }
        std::optional<Document> getNext() override { return _src->getNext(); }
        BSONObj serialize() const override { return BSONObj(); }

    private:
        DocumentSource* _src;
    };

    BSONObj _spec;
    std::string _from;
    FieldPath _as;
    std::optional<FieldPath> _localField;
    std::string _foreignField;
    std::vector<Let> _lets;
    std::unique_ptr<SubPipeline> _sub;
    std::vector<StagePtr> _filterStages;
    bool _cached = false;
    std::vector<Document> _cache;
};

std::vector<StagePtr> parseLookup(const BSONElement& e, const StageParseContext& ctx) {
    uassert(ErrorCodes::FailedToParse, "the $lookup specification must be an Object, but found " + typeName(e.type()),
            e.type() == Object);
    std::optional<std::string> from, as, localField, foreignField;
    BSONElement pipeline, let;
    for (BSONElement f : e.Obj()) {
        std::string n(f.fieldNameStringData());
        if (n == "pipeline") {
            uassert(ErrorCodes::FailedToParse, "'pipeline' option must be specified as an array", f.type() == Array);
            pipeline = f;
            continue;
        }
        if (n == "let") {
            uassert(ErrorCodes::FailedToParse, "$lookup argument 'let' must be an object, is type " + typeName(f.type()),
                    f.type() == Object);
            let = f;
            continue;
        }
        if (n == "from" && f.type() == Object) {
            // {db, coll}: only the current database is supported here.
            BSONElement db = f.Obj()["db"], coll = f.Obj()["coll"];
            uassert(ErrorCodes::FailedToParse, "$lookup 'from' must have a 'coll' string", coll.type() == String);
            uassert(ErrorCodes::FailedToParse, "$lookup with 'from' on another database is not supported",
                    db.eoo() || (db.type() == String && db.str() == ctx.expCtx->ctx.db));
            from = coll.str();
            continue;
        }
        bool known = n == "from" || n == "as" || n == "localField" || n == "foreignField";
        uassert(ErrorCodes::FailedToParse, "unknown argument to $lookup: " + n, known);
        uassert(ErrorCodes::FailedToParse,
                "$lookup argument '" + n + ": " + f.toString(false) + "' must be a string, found " + typeName(f.type()),
                f.type() == String);
        if (n == "from") from = f.str();
        if (n == "as") as = f.str();
        if (n == "localField") localField = f.str();
        if (n == "foreignField") foreignField = f.str();
    }
    uassert(ErrorCodes::FailedToParse, "missing 'from' option to $lookup stage specification: " + e.Obj().toString(),
            from.has_value() || !pipeline.eoo());
    if (from) checkForeignNamespace(ctx, *from, "$lookup");
    uassert(ErrorCodes::FailedToParse, "must specify 'as' field for a $lookup", as.has_value());
    uassert(ErrorCodes::FailedToParse,
            "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified",
            !pipeline.eoo() || (localField && foreignField));
    uassert(ErrorCodes::FailedToParse, "$lookup with 'localField' requires 'foreignField' too and vice versa",
            localField.has_value() == foreignField.has_value());
    uassert(ErrorCodes::FailedToParse, "$lookup with 'let' requires a 'pipeline'", let.eoo() || !pipeline.eoo());
    FieldPath asPath(*as);
    std::optional<FieldPath> local;
    if (localField) local = FieldPath(*localField);
    if (foreignField) FieldPath check(*foreignField);

    std::vector<DocumentSourceLookup::Let> lets;
    std::unique_ptr<SubPipeline> sub;
    if (!pipeline.eoo()) {
        VariablesParseState inner = ctx.vps;
        if (!let.eoo()) {
            for (BSONElement v : let.Obj()) {
                Variables::validateNameForUserWrite(v.fieldNameStringData());
                ExprPtr expr = Expression::parseOperand(v, ctx.vps);
                lets.push_back({inner.defineVariable(v.fieldNameStringData()), std::move(expr)});
            }
        }
        auto specs = pipelineSpecs(pipeline, "$lookup 'pipeline'");
        for (const auto& s : specs) {
            auto n = s.firstElementFieldName();
            uassert(51047, std::string(n) + " is not allowed within a $lookup's sub-pipeline",
                    std::string_view(n) != "$out" && std::string_view(n) != "$merge");
        }
        sub = std::make_unique<SubPipeline>(ctx.expCtx, std::move(specs), inner, true);
    }
    return singleStage(std::make_unique<DocumentSourceLookup>(ctx.expCtx, stageSpec("$lookup", e), from.value_or(""),
                                                         std::move(asPath), std::move(local), foreignField.value_or(""),
                                                         std::move(lets), std::move(sub)));
}

// ---------------------------------------------------------------- $unionWith

class DocumentSourceUnionWith : public DocumentSource {
public:
    DocumentSourceUnionWith(ExpressionContext* expCtx, BSONObj spec, std::string coll, std::unique_ptr<SubPipeline> sub)
        : DocumentSource(expCtx), _spec(std::move(spec)), _coll(std::move(coll)), _sub(std::move(sub)) {}
    const char* name() const override { return "$unionWith"; }
    BSONObj serialize() const override { return _spec; }
    std::optional<Document> getNext() override {
        if (!_inputDone) {
            if (auto in = pullInput()) return in;
            _inputDone = true;
            auto source = collectionSource(_expCtx, _coll);
            _unionOut = _sub ? _sub->attach(std::move(source)) : (_plain = std::move(source)).get();
        }
        return _unionOut->getNext();
    }

private:
    BSONObj _spec;
    std::string _coll;
    std::unique_ptr<SubPipeline> _sub;
    std::unique_ptr<DocumentSource> _plain;
    bool _inputDone = false;
    DocumentSource* _unionOut = nullptr;
};

std::vector<StagePtr> parseUnionWith(const BSONElement& e, const StageParseContext& ctx) {
    std::string coll;
    std::unique_ptr<SubPipeline> sub;
    if (e.type() == String) {
        coll = e.str();
    } else {
        uassert(ErrorCodes::FailedToParse,
                "the $unionWith stage specification must be an object or string, but found " + typeName(e.type()),
                e.type() == Object);
        BSONElement pipeline;
        for (BSONElement f : e.Obj()) {
            auto n = f.fieldNameStringData();
            if (n == "coll") {
                uassert(ErrorCodes::TypeMismatch, "$unionWith 'coll' must be a string", f.type() == String);
                coll = f.str();
            } else if (n == "pipeline") {
                uassert(ErrorCodes::TypeMismatch, "$unionWith 'pipeline' must be an array", f.type() == Array);
                pipeline = f;
            } else {
                uasserted(40415, "BSON field '$unionWith." + std::string(n) + "' is an unknown field.");
            }
        }
        uassert(40414, "BSON field '$unionWith.coll' is missing but a required field", !coll.empty() || !pipeline.eoo());
        if (!pipeline.eoo()) {
            auto specs = pipelineSpecs(pipeline, "$unionWith 'pipeline'");
            for (const auto& s : specs) {
                auto n = std::string_view(s.firstElementFieldName());
                uassert(31441, std::string(n) + " is not allowed within a $unionWith's sub-pipeline",
                        n != "$out" && n != "$merge");
            }
            sub = std::make_unique<SubPipeline>(ctx.expCtx, std::move(specs), ctx.vps, true);
        }
    }
    if (e.type() == String || !coll.empty()) checkForeignNamespace(ctx, coll, "$unionWith");
    return singleStage(std::make_unique<DocumentSourceUnionWith>(ctx.expCtx, stageSpec("$unionWith", e), coll, std::move(sub)));
}

// ---------------------------------------------------------------- $facet

class DocumentSourceFacet : public DocumentSource {
public:
    DocumentSourceFacet(ExpressionContext* expCtx, BSONObj spec,
                        std::vector<std::pair<std::string, std::unique_ptr<SubPipeline>>> facets)
        : DocumentSource(expCtx), _spec(std::move(spec)), _facets(std::move(facets)) {}
    const char* name() const override { return "$facet"; }
    BSONObj serialize() const override { return _spec; }
    std::optional<Document> getNext() override {
        if (_done) return std::nullopt;
        _done = true;
        auto input = std::make_shared<std::vector<Document>>();
        while (auto in = pullInput()) input->push_back(std::move(*in));
        std::vector<Document::Field> out;
        for (auto& [name, sub] : _facets) {
            std::vector<Value> results;
            for (auto& d : sub->run(std::make_unique<DocumentSourceVector>(_expCtx, input))) results.emplace_back(std::move(d));
            out.emplace_back(name, Value(std::move(results)));
        }
        return Document(std::move(out));
    }

private:
    BSONObj _spec;
    std::vector<std::pair<std::string, std::unique_ptr<SubPipeline>>> _facets;
    bool _done = false;
};

std::vector<StagePtr> parseFacet(const BSONElement& e, const StageParseContext& ctx) {
    uassert(40169, "the $facet specification must be a non-empty object, but found: " + e.toString(false),
            e.type() == Object && !e.Obj().isEmpty());
    std::vector<std::pair<std::string, std::unique_ptr<SubPipeline>>> facets;
    for (BSONElement f : e.Obj()) {
        std::string name(f.fieldNameStringData());
        FieldPath check(name);
        uassert(40172, "$facet pipeline names must not contain '.': " + name, check.size() == 1);
        uassert(40170, "arguments to $facet must be arrays, " + name + " is type " + typeName(f.type()),
                f.type() == Array);
        auto specs = pipelineSpecs(f, "$facet");
        for (const auto& s : specs) {
            std::string_view n = s.isEmpty() ? std::string_view() : std::string_view(s.firstElementFieldName());
            uassert(40600, std::string(n) + " is not allowed to be used within a $facet stage",
                    n != "$facet" && n != "$out" && n != "$merge" && n != "$collStats" && n != "$indexStats" &&
                        n != "$geoNear" && n != "$documents" && n != "$changeStream");
        }
        facets.emplace_back(name, std::make_unique<SubPipeline>(ctx.expCtx, std::move(specs), ctx.vps, ctx.inLookup));
    }
    return singleStage(std::make_unique<DocumentSourceFacet>(ctx.expCtx, stageSpec("$facet", e), std::move(facets)));
}

// ---------------------------------------------------------------- $documents

class DocumentSourceDocuments : public DocumentSource {
public:
    DocumentSourceDocuments(ExpressionContext* expCtx, BSONObj spec, ExprPtr expr)
        : DocumentSource(expCtx), _spec(std::move(spec)), _expr(std::move(expr)) {}
    const char* name() const override { return "$documents"; }
    bool isSourceStage() const override { return true; }
    BSONObj serialize() const override { return _spec; }
    std::optional<Document> getNext() override {
        if (!_evaluated) {
            _evaluated = true;
            Value v = _expr->evaluate(Document(), vars());
            uassert(5858203, "an array is expected", v.isArray());
            _docs = v.getArray();
        }
        if (_pos >= _docs.size()) return std::nullopt;
        const Value& d = _docs[_pos++];
        uassert(ErrorCodes::TypeMismatch, "$documents expects an array of objects, found " + typeNameOf(d), d.isObject());
        return d.getDocument();
    }

private:
    BSONObj _spec;
    ExprPtr _expr;
    bool _evaluated = false;
    std::vector<Value> _docs;
    size_t _pos = 0;
};

std::vector<StagePtr> parseDocuments(const BSONElement& e, const StageParseContext& ctx) {
    uassert(ErrorCodes::InvalidNamespace, "$documents may only be the first stage of a pipeline", ctx.isFirst);
    return singleStage(std::make_unique<DocumentSourceDocuments>(ctx.expCtx, stageSpec("$documents", e),
                                                            Expression::parseOperand(e, ctx.vps)));
}

// ---------------------------------------------------------------- $out / $merge

class DocumentSourceOut : public DocumentSource {
public:
    DocumentSourceOut(ExpressionContext* expCtx, BSONObj spec)
        : DocumentSource(expCtx), _spec(std::move(spec)), _name(_spec.firstElementFieldName()) {}
    const char* name() const override { return _name.c_str(); }
    BSONObj serialize() const override { return _spec; }
    std::optional<Document> getNext() override {
        if (_done) return std::nullopt;
        _done = true;
        std::vector<BSONObj> docs;
        while (auto in = pullInput()) docs.push_back(in->toBson());
        _expCtx->ctx.writeOutput(_spec, docs);
        return std::nullopt;
    }

private:
    BSONObj _spec;
    std::string _name;
    bool _done = false;
};

std::vector<StagePtr> parseOut(const BSONElement& e, const StageParseContext& ctx, const char* name) {
    uassert(ctx.inFacet ? 40600 : 51047,
            std::string(name) + (ctx.inFacet ? " is not allowed to be used within a $facet stage"
                                             : " is not allowed within a $lookup's sub-pipeline"),
            !ctx.inFacet && !ctx.inLookup);
    uassert(40601, std::string(name) + " can only be the final stage in the pipeline", ctx.isLast);
    uassert(ErrorCodes::NotImplemented, std::string(name) + " is not supported by this server",
            static_cast<bool>(ctx.expCtx->ctx.writeOutput));
    if (std::string_view(name) == "$out") {
        uassert(16990, "$out only supports a string or object argument, not " + typeName(e.type()),
                e.type() == String || e.type() == Object);
    } else {
        uassert(ErrorCodes::TypeMismatch, "$merge requires a string or object argument, not " + typeName(e.type()),
                e.type() == String || e.type() == Object);
    }
    return singleStage(std::make_unique<DocumentSourceOut>(ctx.expCtx, stageSpec(name, e)));
}

struct Registrar {
    Registrar() {
        registerStage("$lookup", parseLookup);
        registerStage("$unionWith", parseUnionWith);
        registerStage("$facet", parseFacet);
        registerStage("$documents", parseDocuments);
        registerStage("$out", [](const BSONElement& e, const StageParseContext& c) { return parseOut(e, c, "$out"); });
        registerStage("$merge", [](const BSONElement& e, const StageParseContext& c) { return parseOut(e, c, "$merge"); });
    }
} registrar;

}  // namespace
}  // namespace mongo

namespace mongo {
namespace {

// Source stages answered by the server through PipelineContext::serverSourceStage.
class DocumentSourceServer : public DocumentSource {
public:
    DocumentSourceServer(ExpressionContext* expCtx, BSONObj spec) : DocumentSource(expCtx), _spec(std::move(spec)) {}
    const char* name() const override { return "$serverSource"; }
    bool isSourceStage() const override { return true; }
    BSONObj serialize() const override { return _spec; }
    std::optional<Document> getNext() override {
        if (!_gen) _gen = _expCtx->ctx.serverSourceStage(_spec);
        auto d = _gen ? _gen() : std::nullopt;
        if (!d) return std::nullopt;
        return Document::fromBson(*d);
    }

private:
    BSONObj _spec;
    std::function<std::optional<BSONObj>()> _gen;
};

std::vector<StagePtr> parseServerSource(const BSONElement& e, const StageParseContext& ctx, const char* name) {
    uassert(40602, std::string(name) + " is only valid as the first stage in a pipeline", ctx.isFirst);
    uassert(ctx.inFacet ? 40600 : 51047,
            std::string(name) + (ctx.inFacet ? " is not allowed to be used within a $facet stage"
                                             : " is not allowed within a $lookup's sub-pipeline"),
            !ctx.inFacet && !ctx.inLookup);
    if (!ctx.expCtx->ctx.serverSourceStage) {
        uassert(40573, "The $changeStream stage is only supported on replica sets", std::string_view(name) != "$changeStream");
        uasserted(ErrorCodes::NotImplemented, std::string(name) + " is not supported by this server");
    }
    return singleStage(std::make_unique<DocumentSourceServer>(ctx.expCtx, stageSpec(name, e)));
}

struct ServerStagesRegistrar {
    ServerStagesRegistrar() {
        for (const char* name : {"$collStats", "$indexStats", "$currentOp", "$listLocalSessions", "$listSessions",
                                 "$planCacheStats", "$changeStream"}) {
            registerStage(name, [name](const BSONElement& e, const StageParseContext& c) {
                return parseServerSource(e, c, name);
            });
        }
    }
} serverStagesRegistrar;

}  // namespace
}  // namespace mongo
