// $graphLookup: a breadth-first search over another collection, following connectFromField
// values to documents whose connectToField equals them.
#include <set>

#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/matcher.h"

namespace mongo {
namespace {

// Values along a dotted path, with arrays along the way and at the end flattened.
void pathValues(const Value& v, const std::vector<std::string>& path, size_t i, std::vector<Value>* out) {
    if (v.isArray()) {
        for (const Value& e : v.getArray()) {
            if (i == path.size())
                out->push_back(e);
            else
                pathValues(e, path, i, out);
        }
        return;
    }
    if (i == path.size()) {
        if (!v.missing()) out->push_back(v);
        return;
    }
    if (v.isObject()) pathValues(v.getDocument().getField(path[i]), path, i + 1, out);
}

class DocumentSourceGraphLookup : public DocumentSource {
public:
    DocumentSourceGraphLookup(ExpressionContext* expCtx, BSONObj spec, std::string from, ExprPtr startWith,
                              FieldPath connectFrom, FieldPath connectTo, FieldPath as, long long maxDepth,
                              std::optional<FieldPath> depthField, BSONObj restrict)
        : DocumentSource(expCtx), _spec(std::move(spec)), _from(std::move(from)), _startWith(std::move(startWith)),
          _connectFrom(std::move(connectFrom)), _connectTo(std::move(connectTo)), _as(std::move(as)),
          _maxDepth(maxDepth), _depthField(std::move(depthField)) {
        if (!restrict.isEmpty()) _restrict.emplace(restrict.getOwned(), expCtx->ctx.collator);
    }
    const char* name() const override { return "$graphLookup"; }
    BSONObj serialize() const override { return _spec; }

    std::optional<Document> getNext() override {
        auto in = pullInput();
        if (!in) return std::nullopt;
        loadForeign();
        std::vector<Value> frontier;
        pathValues(_startWith->evaluate(*in, vars()), {}, 0, &frontier);
        std::set<size_t> visited;
        std::vector<Value> results;
        for (long long depth = 0; !frontier.empty() && (_maxDepth < 0 || depth <= _maxDepth); depth++) {
            std::set<Value, ValueLess> wanted(frontier.begin(), frontier.end());
            frontier.clear();
            for (size_t i = 0; i < _foreign.size(); i++) {
                if (visited.count(i)) continue;
                _expCtx->checkForInterrupt();
                std::vector<Value> keys;
                pathValues(Value(_foreignDocs[i]), _connectTo.parts(), 0, &keys);
                if (keys.empty()) keys.push_back(Value::null());
                bool hit = false;
                for (const Value& k : keys) hit |= wanted.count(k) > 0;
                if (!hit || (_restrict && !_restrict->matches(_foreign[i]))) continue;
                visited.insert(i);
                pathValues(Value(_foreignDocs[i]), _connectFrom.parts(), 0, &frontier);
                if (_depthField) {
                    MutableDoc d(_foreignDocs[i]);
                    d.setNestedField(*_depthField, Value(depth));
                    results.emplace_back(d.freeze());
                } else {
                    results.emplace_back(_foreignDocs[i]);
                }
            }
        }
        MutableDoc out(*in);
        out.setNestedField(_as, Value(std::move(results)));
        return out.freeze();
    }

private:
    void loadForeign() {
        if (_loaded) return;
        _loaded = true;
        if (!_expCtx->ctx.openCollection) return;
        auto gen = _expCtx->ctx.openCollection(_from);
        if (!gen) return;
        while (auto d = gen()) {
            _foreign.push_back(d->getOwned());
            _foreignDocs.push_back(Document::fromBson(_foreign.back()));
        }
    }

    BSONObj _spec;
    std::string _from;
    ExprPtr _startWith;
    FieldPath _connectFrom, _connectTo, _as;
    long long _maxDepth;
    std::optional<FieldPath> _depthField;
    std::optional<Matcher> _restrict;
    bool _loaded = false;
    std::vector<BSONObj> _foreign;
    std::vector<Document> _foreignDocs;
};

std::vector<StagePtr> parseGraphLookup(const BSONElement& e, const StageParseContext& ctx) {
    uassert(40327, "the $graphLookup stage specification must be an object, but found " + typeName(e.type()),
            e.type() == Object);
    std::optional<std::string> from, connectFrom, connectTo, as, depthField;
    BSONElement startWith;
    long long maxDepth = -1;
    BSONObj restrict;
    for (BSONElement f : e.Obj()) {
        std::string n(f.fieldNameStringData());
        if (n == "startWith") {
            startWith = f;
        } else if (n == "maxDepth") {
            uassert(40100, "maxDepth must be numeric, found type: " + typeName(f.type()), f.isNumber());
            uassert(40101, "maxDepth requires a nonnegative argument, found: " + f.toString(false), f.numberDouble() >= 0);
            uassert(40102, "maxDepth could not be represented as a long long: " + f.toString(false),
                    f.isIntegral64(&maxDepth));
        } else if (n == "restrictSearchWithMatch") {
            uassert(40185, "restrictSearchWithMatch must be an object, found " + typeName(f.type()), f.type() == Object);
            restrict = f.Obj().getOwned();
            Matcher check(restrict);
        } else if (n == "from" || n == "connectFromField" || n == "connectToField" || n == "as" || n == "depthField") {
            uassert(40103, "expected string as argument for " + n + ", found: " + f.toString(false), f.type() == String);
            if (n == "from") from = f.str();
            if (n == "connectFromField") connectFrom = f.str();
            if (n == "connectToField") connectTo = f.str();
            if (n == "as") as = f.str();
            if (n == "depthField") depthField = f.str();
        } else {
            uasserted(40104, "Unknown argument to $graphLookup: " + n);
        }
    }
    const char* missing = !from ? "from" : !as ? "as" : !connectFrom ? "connectFromField" : !connectTo ? "connectToField"
                                                                                            : startWith.eoo() ? "startWith" : nullptr;
    uassert(40105, std::string("missing '") + (missing ? missing : "") + "' option to $graphLookup stage specification: " +
                       e.Obj().toString(),
            missing == nullptr);
    checkForeignNamespace(ctx, *from, "$graphLookup");
    std::optional<FieldPath> depth;
    if (depthField) depth = FieldPath(*depthField);
    return singleStage(std::make_unique<DocumentSourceGraphLookup>(
        ctx.expCtx, stageSpec("$graphLookup", e), *from, Expression::parseOperand(startWith, ctx.vps),
        FieldPath(*connectFrom), FieldPath(*connectTo), FieldPath(*as), maxDepth, std::move(depth), restrict));
}

struct Registrar {
    Registrar() { registerStage("$graphLookup", parseGraphLookup); }
} registrar;

}  // namespace
}  // namespace mongo
