// $setWindowFields: per-partition window functions over documents sorted by sortBy.
// Supported: the accumulators ($sum $avg $min $max $count $push $addToSet $first $last
// $stdDevPop $stdDevSamp $mergeObjects $firstN ... $top ...) over 'documents' or 'range'
// windows, and $rank $denseRank $documentNumber $shift $locf.
#include <algorithm>
#include <map>

#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/sort_pattern.h"

namespace mongo {
namespace {

struct Bound {
    enum Kind { kUnbounded, kCurrent, kOffset } kind = kUnbounded;
    long long docs = 0;  // documents windows
    Value range;         // range windows (numeric offset)
};

struct WindowSpec {
    bool range = false;
    Bound lo, hi;
    long long unitMillis = 0;  // range windows over dates
};

struct OutputSpec {
    FieldPath path{std::vector<std::string>{}};
    std::string fn;
    // Accumulator-based functions.
    std::optional<AccumulationStatement> acc;
    WindowSpec window;
    // $shift / $locf.
    ExprPtr arg;
    long long shiftBy = 0;
    Value shiftDefault = Value::null();
};

long long unitToMillis(const std::string& unit) {
    if (unit == "week") return 7 * 86400000LL;
    if (unit == "day") return 86400000LL;
    if (unit == "hour") return 3600000LL;
    if (unit == "minute") return 60000LL;
    if (unit == "second") return 1000LL;
    if (unit == "millisecond") return 1;
    uasserted(ErrorCodes::NotImplemented, "$setWindowFields range windows with unit '" + unit + "' are not supported");
}

Bound parseBound(const BSONElement& e, bool range) {
    Bound b;
    if (e.type() == String) {
        if (e.valueStringData() == "unbounded") return b;
        uassert(ErrorCodes::FailedToParse, "Window bounds must be 'unbounded', 'current', or a number",
                e.valueStringData() == "current");
        b.kind = Bound::kCurrent;
        return b;
    }
    uassert(ErrorCodes::FailedToParse, "Window bounds must be 'unbounded', 'current', or a number", e.isNumber());
    b.kind = Bound::kOffset;
    if (range) {
        b.range = Value::fromElement(e);
    } else {
        long long v;
        uassert(5371600, "Numeric document-based bounds must be an integer", e.isIntegral64(&v));
        b.docs = v;
    }
    return b;
}

WindowSpec parseWindow(const BSONElement& w) {
    WindowSpec spec;
    uassert(ErrorCodes::FailedToParse, "'window' field must be an object", w.type() == Object);
    BSONElement docs, range, unit;
    for (BSONElement f : w.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "documents")
            docs = f;
        else if (n == "range")
            range = f;
        else if (n == "unit")
            unit = f;
        else
            uasserted(ErrorCodes::FailedToParse, "'window' field can only contain 'documents' as the only argument or "
                                                 "'range' with an optional 'unit' field");
    }
    uassert(ErrorCodes::FailedToParse, "'window' field can only contain 'documents' or 'range'",
            docs.eoo() != range.eoo() && (unit.eoo() || !range.eoo()));
    BSONElement bounds = docs.eoo() ? range : docs;
    spec.range = !range.eoo();
    uassert(ErrorCodes::FailedToParse, "Window bounds must be a 2-element array",
            bounds.type() == Array && bounds.Obj().nFields() == 2);
    auto elems = bounds.arrayElements();
    spec.lo = parseBound(elems[0], spec.range);
    spec.hi = parseBound(elems[1], spec.range);
    if (!unit.eoo()) {
        uassert(ErrorCodes::FailedToParse, "'unit' must be a string", unit.type() == String);
        spec.unitMillis = unitToMillis(unit.str());
    }
    if (!spec.range && spec.lo.kind != Bound::kUnbounded && spec.hi.kind != Bound::kUnbounded) {
        long long lo = spec.lo.kind == Bound::kCurrent ? 0 : spec.lo.docs;
        long long hi = spec.hi.kind == Bound::kCurrent ? 0 : spec.hi.docs;
        uassert(5339900, "Lower bound must not exceed upper bound: " + bounds.toString(false), lo <= hi);
    }
    return spec;
}

bool isAccumulatorName(std::string_view n) {
    static const char* kNames[] = {"$sum", "$avg", "$min", "$max", "$count", "$push", "$addToSet", "$first", "$last",
                                   "$stdDevPop", "$stdDevSamp", "$mergeObjects", "$firstN", "$lastN", "$maxN",
                                   "$minN", "$top", "$bottom", "$topN", "$bottomN"};
    for (const char* k : kNames)
        if (n == k) return true;
    return false;
}

class DocumentSourceSetWindowFields : public DocumentSource {
public:
    DocumentSourceSetWindowFields(ExpressionContext* expCtx, BSONObj spec, ExprPtr partitionBy,
                                  std::optional<SortPattern> sortBy, std::vector<OutputSpec> outputs)
        : DocumentSource(expCtx), _spec(std::move(spec)), _partitionBy(std::move(partitionBy)),
          _sortBy(std::move(sortBy)), _outputs(std::move(outputs)) {}
    const char* name() const override { return "$setWindowFields"; }
    BSONObj serialize() const override { return _spec; }
    std::optional<Document> getNext() override {
        if (!_done) compute();
        if (_pos >= _out.size()) return std::nullopt;
        return std::move(_out[_pos++]);
    }

private:
    struct Row {
        Document doc;
        BSONObj sortKey;
        size_t seq;
    };

    void compute() {
        _done = true;
        std::map<Value, std::vector<Row>, ValueLess> partitions;
        size_t seq = 0;
        while (auto in = pullInput()) {
            Value key = _partitionBy ? _partitionBy->evaluate(*in, vars()) : Value::null();
            if (key.missing()) key = Value::null();
            BSONObj sk = _sortBy ? _sortBy->extractKey(in->toBson()) : BSONObj();
            partitions[key].push_back(Row{std::move(*in), sk, seq++});
        }
        for (auto& [key, rows] : partitions) {
            if (_sortBy)
                std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
                    return _sortBy->compareKeys(a.sortKey, b.sortKey) < 0;
                });
            processPartition(rows);
        }
    }

    // The sortBy value of a row, for range windows and ranks.
    Value sortValue(const Row& r) const {
        BSONElement e = r.sortKey.firstElement();
        return Value::fromElement(e);
    }

    void processPartition(std::vector<Row>& rows) {
        size_t n = rows.size();
        std::vector<MutableDoc> outs;
        outs.reserve(n);
        for (auto& r : rows) outs.emplace_back(r.doc);
        for (const auto& o : _outputs) {
            std::vector<Value> results(n);
            if (o.fn == "$documentNumber") {
                for (size_t i = 0; i < n; i++) results[i] = Value(static_cast<int>(i + 1));
            } else if (o.fn == "$rank" || o.fn == "$denseRank") {
                int rank = 0, dense = 0;
                for (size_t i = 0; i < n; i++) {
                    bool same = i > 0 && _sortBy->compareKeys(rows[i].sortKey, rows[i - 1].sortKey) == 0;
                    if (!same) {
                        rank = static_cast<int>(i + 1);
                        dense++;
                    }
                    results[i] = Value(o.fn == "$rank" ? rank : dense);
                }
            } else if (o.fn == "$shift") {
                for (size_t i = 0; i < n; i++) {
                    long long j = static_cast<long long>(i) + o.shiftBy;
                    if (j < 0 || j >= static_cast<long long>(n)) {
                        results[i] = o.shiftDefault;
                    } else {
                        Value v = o.arg->evaluate(rows[j].doc, vars());
                        results[i] = v.missing() ? Value::null() : v;
                    }
                }
            } else if (o.fn == "$linearFill") {
                linearFill(o, rows, &results);
            } else if (o.fn == "$locf") {
                Value last = Value::null();
                for (size_t i = 0; i < n; i++) {
                    Value v = o.arg->evaluate(rows[i].doc, vars());
                    if (!v.nullish()) last = v;
                    results[i] = v.nullish() ? last : v;
                }
            } else {
                windowAccumulate(o, rows, &results);
            }
            for (size_t i = 0; i < n; i++) outs[i].setNestedField(o.path, results[i]);
        }
        for (auto& m : outs) _out.push_back(m.freeze());
    }

    // Nullish values between two numbers are interpolated along the (single) sortBy value.
    void linearFill(const OutputSpec& o, const std::vector<Row>& rows, std::vector<Value>* results) {
        size_t n = rows.size();
        std::vector<Value> v(n);
        std::vector<long double> x(n);
        for (size_t i = 0; i < n; i++) {
            v[i] = o.arg->evaluate(rows[i].doc, vars());
            uassert(6050100, "Value to be filled must be numeric or nullish, found " + typeNameOf(v[i]),
                    v[i].nullish() || v[i].numeric());
            Value k = sortValue(rows[i]);
            uassert(6050106, "$linearFill requires the sortBy field to be numeric or a date, found " + typeNameOf(k),
                    k.numeric() || k.getType() == Date);
            x[i] = k.getType() == Date ? static_cast<long double>(k.getDate().millis) : static_cast<long double>(k.coerceToDouble());
            if (i > 0)
                uassert(6050107, "There can be no repeated values in the sort field", x[i] != x[i - 1]);
        }
        long long prev = -1;
        size_t next = 0;  // the first non-null after the current run of nulls
        for (size_t i = 0; i < n; i++) {
            if (!v[i].nullish()) {
                (*results)[i] = v[i];
                prev = static_cast<long long>(i);
                continue;
            }
            if (next <= i) {
                next = i + 1;
                while (next < n && v[next].nullish()) next++;
            }
            if (prev < 0 || next >= n) {
                (*results)[i] = Value::null();
                continue;
            }
            long double y1 = v[prev].coerceToDouble(), y2 = v[next].coerceToDouble();
            long double r = y1 + (y2 - y1) * (x[i] - x[prev]) / (x[next] - x[prev]);
            (*results)[i] = Value(static_cast<double>(r));
        }
    }

    void windowAccumulate(const OutputSpec& o, const std::vector<Row>& rows, std::vector<Value>* results) {
        size_t n = rows.size();
        std::vector<Value> args(n);
        for (size_t i = 0; i < n; i++) args[i] = o.acc->argument->evaluate(rows[i].doc, vars());
        const WindowSpec& w = o.window;
        if (!w.range) {
            auto index = [&](const Bound& b, size_t i, bool low) -> long long {
                if (b.kind == Bound::kUnbounded) return low ? 0 : static_cast<long long>(n) - 1;
                if (b.kind == Bound::kCurrent) return static_cast<long long>(i);
                return static_cast<long long>(i) + b.docs;
            };
            // Running windows (unbounded lower bound) accumulate incrementally.
            if (w.lo.kind == Bound::kUnbounded) {
                auto acc = o.acc->makeAccumulator();
                long long fed = -1;
                for (size_t i = 0; i < n; i++) {
                    long long hi = std::min<long long>(index(w.hi, i, false), static_cast<long long>(n) - 1);
                    while (fed < hi) acc->process(args[++fed]);
                    (*results)[i] = hi < 0 ? o.acc->makeAccumulator()->getValue() : acc->getValue();
                }
                return;
            }
            for (size_t i = 0; i < n; i++) {
                long long lo = std::max<long long>(0, index(w.lo, i, true));
                long long hi = std::min<long long>(static_cast<long long>(n) - 1, index(w.hi, i, false));
                auto acc = o.acc->makeAccumulator();
                for (long long j = lo; j <= hi; j++) acc->process(args[j]);
                (*results)[i] = acc->getValue();
            }
            return;
        }
        // Range windows: by the (single) sortBy field's value.
        uassert(5339902, "Range-based bounds require sortBy a single field", _sortBy && _sortBy->parts().size() == 1);
        std::vector<Value> keys(n);
        for (size_t i = 0; i < n; i++) {
            keys[i] = sortValue(rows[i]);
            if (w.unitMillis) {
                uassert(5429513, "Invalid range: Expected the sortBy field to be a Date, but it was " +
                                     typeNameOf(keys[i]),
                        keys[i].getType() == Date);
            } else {
                uassert(5429414, "Invalid range: Expected the sortBy field to be a number, but it was " +
                                     typeNameOf(keys[i]),
                        keys[i].numeric());
            }
        }
        auto asNumber = [&](const Value& v) -> long double {
            return v.getType() == Date ? static_cast<long double>(v.getDate().millis) : static_cast<long double>(v.coerceToDouble());
        };
        auto offset = [&](const Bound& b) -> long double {
            long double x = b.range.coerceToDouble();
            return w.unitMillis ? x * w.unitMillis : x;
        };
        for (size_t i = 0; i < n; i++) {
            long double cur = asNumber(keys[i]);
            auto acc = o.acc->makeAccumulator();
            for (size_t j = 0; j < n; j++) {
                long double v = asNumber(keys[j]);
                bool okLo = w.lo.kind == Bound::kUnbounded || v >= cur + (w.lo.kind == Bound::kCurrent ? 0 : offset(w.lo));
                bool okHi = w.hi.kind == Bound::kUnbounded || v <= cur + (w.hi.kind == Bound::kCurrent ? 0 : offset(w.hi));
                if (okLo && okHi) acc->process(args[j]);
            }
            (*results)[i] = acc->getValue();
        }
    }

    BSONObj _spec;
    ExprPtr _partitionBy;
    std::optional<SortPattern> _sortBy;
    std::vector<OutputSpec> _outputs;
    bool _done = false;
    std::vector<Document> _out;
    size_t _pos = 0;
};

std::vector<StagePtr> parseSetWindowFields(const BSONElement& e, const StageParseContext& ctx) {
    uassert(ErrorCodes::FailedToParse, "the $setWindowFields stage specification must be an object, found " +
                                           typeName(e.type()),
            e.type() == Object);
    ExprPtr partitionBy;
    std::optional<SortPattern> sortBy;
    BSONElement output;
    for (BSONElement f : e.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "partitionBy") {
            partitionBy = Expression::parseOperand(f, ctx.vps);
        } else if (n == "sortBy") {
            uassert(ErrorCodes::TypeMismatch, "BSON field '$setWindowFields.sortBy' is the wrong type '" +
                                                  typeName(f.type()) + "', expected type 'object'",
                    f.type() == Object);
            sortBy.emplace(f.Obj().getOwned(), ctx.expCtx->ctx.collator);
        } else if (n == "output") {
            uassert(ErrorCodes::TypeMismatch, "BSON field '$setWindowFields.output' is the wrong type '" +
                                                  typeName(f.type()) + "', expected type 'object'",
                    f.type() == Object);
            output = f;
        } else {
            uasserted(40415, "BSON field '$setWindowFields." + std::string(n) + "' is an unknown field.");
        }
    }
    uassert(40414, "BSON field '$setWindowFields.output' is missing but a required field", !output.eoo());
    std::vector<OutputSpec> outputs;
    for (BSONElement f : output.Obj()) {
        OutputSpec o;
        o.path = FieldPath(f.fieldNameStringData());
        uassert(ErrorCodes::FailedToParse, "Window function found an unknown argument: " + f.toString(false),
                f.type() == Object);
        BSONElement fnElem, window;
        for (BSONElement g : f.Obj()) {
            if (g.fieldNameStringData() == "window") {
                window = g;
                continue;
            }
            uassert(ErrorCodes::FailedToParse, "Window function found an unknown argument: " +
                                                   std::string(g.fieldNameStringData()),
                    fnElem.eoo());
            fnElem = g;
        }
        uassert(ErrorCodes::FailedToParse, "Expected a window function in " + f.toString(false), !fnElem.eoo());
        o.fn = std::string(fnElem.fieldNameStringData());
        if (!window.eoo()) o.window = parseWindow(window);
        if (o.fn == "$rank" || o.fn == "$denseRank" || o.fn == "$documentNumber") {
            uassert(5371601, o.fn + " must be specified with a top level sortBy expression with exactly one element",
                    o.fn == "$documentNumber" || (sortBy && sortBy->parts().size() == 1));
            uassert(5371603, o.fn + " does not accept a 'window' field", window.eoo());
        } else if (o.fn == "$shift") {
            uassert(ErrorCodes::FailedToParse, "Argument to $shift must be an object", fnElem.type() == Object);
            uassert(5424301, "$shift requires a sortBy", sortBy.has_value());
            BSONElement out, by, def;
            for (BSONElement a : fnElem.Obj()) {
                auto an = a.fieldNameStringData();
                if (an == "output")
                    out = a;
                else if (an == "by")
                    by = a;
                else if (an == "default")
                    def = a;
                else
                    uasserted(ErrorCodes::FailedToParse, "Unknown argument in $shift: " + std::string(an));
            }
            uassert(ErrorCodes::FailedToParse, "$shift requires an 'output' expression.", !out.eoo());
            uassert(ErrorCodes::FailedToParse, "$shift requires 'by' as an integer value.",
                    !by.eoo() && by.isNumber() && by.isIntegral64(&o.shiftBy));
            o.arg = Expression::parseOperand(out, ctx.vps);
            if (!def.eoo()) {
                ExprPtr d = Expression::parseOperand(def, ctx.vps);
                uassert(ErrorCodes::FailedToParse, "'$shift:default' expression must yield a constant value.",
                        d->isConstant());
                o.shiftDefault = static_cast<ExpressionConstant*>(d.get())->value();
            }
        } else if (o.fn == "$locf" || o.fn == "$linearFill") {
            if (o.fn == "$linearFill")
                uassert(605001, "$linearFill must be specified with a top level sortBy expression with exactly one element",
                        sortBy && sortBy->parts().size() == 1);
            o.arg = Expression::parseOperand(fnElem, ctx.vps);
        } else if (isAccumulatorName(o.fn)) {
            BSONObjBuilder b;
            BSONObjBuilder& sub = b.subobjStart(f.fieldNameStringData());
            sub.append(fnElem);
            sub.doneFast();
            BSONObj synthesized = b.obj();
            o.acc.emplace(AccumulationStatement::parse(synthesized.firstElement(), ctx.vps));
            if (o.window.range)
                uassert(5339902, "Range-based window require sortBy a single field", sortBy && sortBy->parts().size() == 1);
        } else {
            uasserted(ErrorCodes::FailedToParse, "Unrecognized window function, " + o.fn);
        }
        outputs.push_back(std::move(o));
    }
    return singleStage(std::make_unique<DocumentSourceSetWindowFields>(ctx.expCtx, stageSpec("$setWindowFields", e),
                                                                  std::move(partitionBy), std::move(sortBy),
                                                                  std::move(outputs)));
}

// $fill: {value: <expr>} outputs become $addFields with $ifNull; {method: 'locf'|'linear'}
// outputs become a $setWindowFields with $locf / $linearFill.
std::vector<StagePtr> parseFill(const BSONElement& e, const StageParseContext& ctx) {
    uassert(ErrorCodes::FailedToParse, "the $fill stage specification must be an object, found " + typeName(e.type()),
            e.type() == Object);
    BSONElement partitionBy, partitionByFields, sortBy, output;
    for (BSONElement f : e.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "partitionBy")
            partitionBy = f;
        else if (n == "partitionByFields")
            partitionByFields = f;
        else if (n == "sortBy")
            sortBy = f;
        else if (n == "output")
            output = f;
        else
            uasserted(40415, "BSON field '$fill." + std::string(n) + "' is an unknown field.");
    }
    uassert(40414, "BSON field '$fill.output' is missing but a required field", !output.eoo());
    uassert(ErrorCodes::TypeMismatch, "BSON field '$fill.output' is the wrong type, expected type 'object'",
            output.type() == Object);
    uassert(6050204, "Maximum one of 'partitionBy' and 'partitionByFields' can be specified in '$fill'",
            partitionBy.eoo() || partitionByFields.eoo());
    BSONObjBuilder addFields, windowOutput;
    bool anyValue = false, anyMethod = false;
    for (BSONElement f : output.Obj()) {
        uassert(ErrorCodes::TypeMismatch, "Each $fill output specification must be an object", f.type() == Object);
        BSONObj o = f.Obj();
        uassert(6050203, "Exactly one of 'value' and 'method' must be specified in a $fill output specification",
                o.nFields() == 1 && (o.hasField("value") || o.hasField("method")));
        if (o.hasField("value")) {
            BSONObjBuilder& field = addFields.subobjStart(f.fieldNameStringData());
            BSONArrayBuilder& args = field.subarrayStart("$ifNull");
            args.append(std::string("$") + std::string(f.fieldNameStringData()));
            args.append(o["value"]);
            args.doneFast();
            field.doneFast();
            anyValue = true;
        } else {
            BSONElement m = o["method"];
            uassert(6050202, "Method must be either 'linear' or 'locf'",
                    m.type() == String && (m.str() == "linear" || m.str() == "locf"));
            uassert(6050201, "'sortBy' is required with method 'linear'", m.str() != "linear" || !sortBy.eoo());
            BSONObjBuilder& field = windowOutput.subobjStart(f.fieldNameStringData());
            field.append(m.str() == "linear" ? "$linearFill" : "$locf",
                         std::string("$") + std::string(f.fieldNameStringData()));
            field.doneFast();
            anyMethod = true;
        }
    }
    std::vector<BSONObj> stages;
    if (anyMethod) {
        BSONObjBuilder swf;
        BSONObjBuilder& spec = swf.subobjStart("$setWindowFields");
        if (!partitionBy.eoo()) spec.appendAs(partitionBy, "partitionBy");
        if (!partitionByFields.eoo()) {
            BSONObjBuilder& pb = spec.subobjStart("partitionBy");
            for (const std::string& p : parsePartitionByFields(partitionByFields)) pb.append(p, "$" + p);
            pb.doneFast();
        }
        if (!sortBy.eoo()) spec.appendAs(sortBy, "sortBy");
        spec.append("output", windowOutput.obj());
        spec.doneFast();
        stages.push_back(swf.obj());
    }
    if (anyValue) stages.push_back(BSONObjBuilder().append("$addFields", addFields.obj()).obj());
    return parseStages(stages, ctx.expCtx, ctx.vps, ctx.inFacet, ctx.inLookup);
}

struct Registrar {
    Registrar() {
        registerStage("$setWindowFields", parseSetWindowFields);
        registerStage("$fill", parseFill);
    }
} registrar;

}  // namespace
}  // namespace mongo
