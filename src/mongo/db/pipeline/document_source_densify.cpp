// $densify: fills gaps in a numeric or date field with new documents, per partition.
#include <algorithm>
#include <map>

#include "mongo/db/pipeline/date_util.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/numeric.h"
#include "mongo/db/server_parameters.h"

namespace mongo {
namespace {

enum class DensifyBounds { kFull, kPartition, kExplicit };

class DocumentSourceDensify : public DocumentSource {
public:
    DocumentSourceDensify(ExpressionContext* expCtx, BSONObj spec, FieldPath field, std::vector<FieldPath> partitionBy,
                          Value step, std::string unit, DensifyBounds bounds, Value lo, Value hi)
        : DocumentSource(expCtx), _spec(std::move(spec)), _field(std::move(field)), _partitionBy(std::move(partitionBy)),
          _step(std::move(step)), _unit(std::move(unit)), _bounds(bounds), _lo(std::move(lo)), _hi(std::move(hi)) {}
    const char* name() const override { return "$densify"; }
    BSONObj serialize() const override { return _spec; }
    std::optional<Document> getNext() override {
        if (!_done) compute();
        if (_pos >= _out.size()) return std::nullopt;
        return std::move(_out[_pos++]);
    }

private:
    // The next value after v: numeric step, or a date advanced by 'step' units.
    Value advance(const Value& v) const {
        if (_unit.empty()) {
            NumericSum s;
            s.add(v);
            s.add(_step);
            return s.result();
        }
        // The unit was validated at parse time. Dates are densified in UTC, as MongoDB does.
        DateUnit u = DateUnit::kMillisecond;
        parseDateUnit(_unit, &u);
        return Value(Date_t{addDateUnits(v.getDate().millis, u, _step.coerceToLong(), TimeZone())});
    }

    Value partitionKey(const Document& d) const {
        std::vector<Document::Field> f;
        for (const auto& p : _partitionBy) f.emplace_back(p.full(), d.getNestedField(p));
        return Value(Document(std::move(f)));
    }

    Document makeDoc(const Document& partitionSource, const Value& v) const {
        MutableDoc m;
        for (const auto& p : _partitionBy) {
            Value pv = partitionSource.getNestedField(p);
            if (!pv.missing()) m.setNestedField(p, pv);
        }
        m.setNestedField(_field, v);
        return m.freeze();
    }

    void checkType(const Value& v) const {
        if (_unit.empty())
            uassert(5733201, "Densify field type must be numeric when no unit is given, found " + typeNameOf(v),
                    v.numeric());
        else
            uassert(5733200, "Densify field type must be a date when a unit is given, found " + typeNameOf(v),
                    v.getType() == Date);
    }

    void emitRange(const Document& source, Value cur, const Value& end, bool inclusiveEnd,
                   std::vector<Document>::const_iterator& it, std::vector<Document>::const_iterator last) {
        // Generated values interleave with the existing documents in field order.
        while (inclusiveEnd ? Value::compare(cur, end) <= 0 : Value::compare(cur, end) < 0) {
            _expCtx->checkForInterrupt();
            bool exists = false;
            while (it != last) {
                Value v = it->getNestedField(_field);
                int c = Value::compare(v, cur);
                if (c > 0) break;
                if (c == 0) exists = true;
                _out.push_back(*it++);
            }
            if (!exists) {
                _out.push_back(makeDoc(source, cur));
                countGenerated();
            }
            cur = advance(cur);
        }
    }

    // MongoDB caps what one $densify may generate (internalQueryMaxAllowedDensifyDocs): bounds
    // far apart, or a step too small to advance, would otherwise generate without end.
    void countGenerated() {
        _generated++;
        uassert(5897900,
                "Generated " + std::to_string(_generated) + " documents in $densify, which is over the limit of " +
                    std::to_string(_maxDocs) +
                    ". Increase the 'internalQueryMaxAllowedDensifyDocs' parameter to allow more generated documents",
                _generated <= _maxDocs);
    }

    void compute() {
        _done = true;
        _maxDocs = internalQueryMaxAllowedDensifyDocs();
        std::map<Value, std::vector<Document>, ValueLess> partitions;
        std::vector<Document> passthrough;
        Value globalMin, globalMax;
        while (auto in = pullInput()) {
            Value v = in->getNestedField(_field);
            if (v.nullish()) {
                passthrough.push_back(std::move(*in));
                continue;
            }
            checkType(v);
            if (globalMin.missing() || Value::compare(v, globalMin) < 0) globalMin = v;
            if (globalMax.missing() || Value::compare(v, globalMax) > 0) globalMax = v;
            partitions[partitionKey(*in)].push_back(std::move(*in));
        }
        _out = std::move(passthrough);
        for (auto& [key, docs] : partitions) {
            std::stable_sort(docs.begin(), docs.end(), [&](const Document& a, const Document& b) {
                return Value::compare(a.getNestedField(_field), b.getNestedField(_field)) < 0;
            });
            auto it = docs.cbegin();
            const Document& source = docs.front();
            if (_bounds == DensifyBounds::kExplicit) {
                // Documents below the range pass through first.
                while (it != docs.cend() && Value::compare(it->getNestedField(_field), _lo) < 0) _out.push_back(*it++);
                emitRange(source, _lo, _hi, false, it, docs.cend());
            } else {
                Value lo = _bounds == DensifyBounds::kFull ? globalMin : docs.front().getNestedField(_field);
                Value hi = _bounds == DensifyBounds::kFull ? globalMax : docs.back().getNestedField(_field);
                emitRange(source, lo, hi, true, it, docs.cend());
            }
            while (it != docs.cend()) _out.push_back(*it++);
        }
    }

    BSONObj _spec;
    FieldPath _field;
    std::vector<FieldPath> _partitionBy;
    Value _step;
    std::string _unit;
    DensifyBounds _bounds;
    Value _lo, _hi;
    bool _done = false;
    long long _generated = 0;
    long long _maxDocs = 0;
    std::vector<Document> _out;
    size_t _pos = 0;
};

std::vector<StagePtr> parseDensify(const BSONElement& e, const StageParseContext& ctx) {
    uassert(ErrorCodes::TypeMismatch, "$densify specification must be an object", e.type() == Object);
    BSONElement field, partitionByFields, range;
    for (BSONElement f : e.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "field")
            field = f;
        else if (n == "partitionByFields")
            partitionByFields = f;
        else if (n == "range")
            range = f;
        else
            uasserted(40415, "BSON field '$densify." + std::string(n) + "' is an unknown field.");
    }
    uassert(40414, "BSON field '$densify.field' is missing but a required field", !field.eoo());
    uassert(40414, "BSON field '$densify.range' is missing but a required field", !range.eoo());
    uassert(ErrorCodes::TypeMismatch, "BSON field '$densify.field' is the wrong type, expected type 'string'",
            field.type() == String);
    uassert(ErrorCodes::TypeMismatch, "BSON field '$densify.range' is the wrong type, expected type 'object'",
            range.type() == Object);
    FieldPath fieldPath(field.str());
    std::vector<FieldPath> partitions;
    if (!partitionByFields.eoo())
        for (const std::string& p : parsePartitionByFields(partitionByFields)) partitions.emplace_back(p);
    BSONElement step, unit, bounds;
    for (BSONElement f : range.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "step")
            step = f;
        else if (n == "unit")
            unit = f;
        else if (n == "bounds")
            bounds = f;
        else
            uasserted(40415, "BSON field '$densify.range." + std::string(n) + "' is an unknown field.");
    }
    uassert(40414, "BSON field '$densify.range.step' is missing but a required field", !step.eoo());
    uassert(40414, "BSON field '$densify.range.bounds' is missing but a required field", !bounds.eoo());
    uassert(5733401, "the step parameter in a range statement must be a strictly positive numeric value",
            step.isNumber() && step.numberDouble() > 0);
    std::string unitName;
    if (!unit.eoo()) {
        uassert(ErrorCodes::TypeMismatch, "'unit' must be a string", unit.type() == String);
        unitName = unit.str();
        DateUnit ignored;
        uassert(ErrorCodes::FailedToParse, "unknown time unit value: " + unitName, parseDateUnit(unitName, &ignored));
        long long n;
        uassert(5733402, "The step parameter in a range satement must be a whole number when densifying a date range",
                step.isIntegral64(&n));
    }
    DensifyBounds kind;
    Value lo, hi;
    if (bounds.type() == String && bounds.str() == "full") {
        kind = DensifyBounds::kFull;
    } else if (bounds.type() == String && bounds.str() == "partition") {
        kind = DensifyBounds::kPartition;
    } else {
        uassert(5946800, "Bounds must be 'full', 'partition', or an array of two values",
                bounds.type() == Array && bounds.Obj().nFields() == 2);
        kind = DensifyBounds::kExplicit;
        auto b = bounds.arrayElements();
        lo = Value::fromElement(b[0]);
        hi = Value::fromElement(b[1]);
        bool dates = lo.getType() == Date && hi.getType() == Date;
        uassert(5733403, "A bounding array in a range statement must have two numeric or two date values",
                (lo.numeric() && hi.numeric()) || dates);
        uassert(5733406, "A bounding array must be an ascending array of either two dates or two numbers",
                Value::compare(lo, hi) <= 0);
        uassert(5733412, "A bounding array with dates requires a unit", !dates || !unitName.empty());
        uassert(5733411, "A unit is only allowed with date bounds", dates || unitName.empty());
    }
    uassert(6586400, "partitionByFields must be specified with bounds 'partition'",
            kind != DensifyBounds::kPartition || !partitions.empty());
    return singleStage(std::make_unique<DocumentSourceDensify>(ctx.expCtx, stageSpec("$densify", e), std::move(fieldPath),
                                                               std::move(partitions), Value::fromElement(step), unitName,
                                                               kind, std::move(lo), std::move(hi)));
}

struct Registrar {
    Registrar() { registerStage("$densify", parseDensify); }
} registrar;

}  // namespace
}  // namespace mongo
