// Grouping stages: $group, $sortByCount, $bucket, $bucketAuto.
#include <algorithm>
#include <limits>
#include <map>

#include "mongo/db/pipeline/accumulator.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/query/blocking_memory_tracker.h"
#include "mongo/db/server_parameters.h"

namespace mongo {
namespace {

// {count: {$sum: 1}}: the default output of $bucket/$bucketAuto and $sortByCount's count.
BSONObj countAccumulatorSpec() {
    BSONObjBuilder b;
    BSONObjBuilder& sum = b.subobjStart("count");
    sum.append("$sum", 1);
    sum.doneFast();
    return b.obj();
}

class DocumentSourceGroup : public DocumentSource {
public:
    enum class OutputOrder { kFirstSeen, kById, kByCountDesc };

    DocumentSourceGroup(ExpressionContext* expCtx, BSONObj spec, ExprPtr id, std::vector<AccumulationStatement> accs,
                        OutputOrder order)
        : DocumentSource(expCtx), _spec(std::move(spec)), _id(std::move(id)), _accs(std::move(accs)), _order(order) {}
    const char* name() const override { return "$group"; }
    BSONObj serialize() const override { return _spec; }

    std::optional<Document> getNext() override {
        if (!_grouped) group();
        if (_pos >= _groups.size()) return std::nullopt;
        Group& g = _groups[_pos++];
        std::vector<Document::Field> out;
        out.emplace_back("_id", g.id);
        for (size_t i = 0; i < _accs.size(); i++) out.emplace_back(_accs[i].fieldName, g.accs[i]->getValue());
        g.accs.clear();
        return Document(std::move(out));
    }

private:
    struct Group {
        Value id;
        std::vector<std::unique_ptr<Accumulator>> accs;
    };

    void group() {
        _grouped = true;
        // Group keys (held twice: the index and the group) and what the accumulators hold.
        constexpr long long kGroupOverhead = sizeof(Group) + 64, kAccumulatorOverhead = 64;
        BlockingMemoryTracker memory(internalDocumentSourceGroupMaxMemoryBytes(), _expCtx->ctx.allowDiskUse,
                                     "Exceeded memory limit for $group, but didn't allow external sort. Pass "
                                     "allowDiskUse:true to opt in.",
                                     "$group");
        std::map<Value, size_t, ValueLess> index;
        while (auto in = pullInput()) {
            Value id = _id->evaluate(*in, vars());
            if (id.missing()) id = Value::null();
            auto it = index.find(id);
            size_t gi;
            if (it == index.end()) {
                gi = _groups.size();
                memory.add(kGroupOverhead + 2 * static_cast<long long>(id.approximateSize()) +
                           kAccumulatorOverhead * static_cast<long long>(_accs.size()));
                index.emplace(id, gi);
                Group g{id, {}};
                for (const auto& a : _accs) g.accs.push_back(a.makeAccumulator());
                _groups.push_back(std::move(g));
            } else {
                gi = it->second;
            }
            Group& g = _groups[gi];
            for (size_t i = 0; i < _accs.size(); i++) {
                Accumulator& acc = *g.accs[i];
                long long before = static_cast<long long>(acc.memUsageBytes());
                acc.process(_accs[i].argument->evaluate(*in, vars()));
                memory.add(static_cast<long long>(acc.memUsageBytes()) - before);
            }
        }
        if (_order == OutputOrder::kById) {
            std::stable_sort(_groups.begin(), _groups.end(),
                             [](const Group& a, const Group& b) { return Value::compare(a.id, b.id) < 0; });
        } else if (_order == OutputOrder::kByCountDesc) {
            // $sortByCount: the single accumulator is the count.
            std::vector<std::pair<Value, size_t>> keyed;
            for (size_t i = 0; i < _groups.size(); i++) keyed.emplace_back(_groups[i].accs[0]->getValue(), i);
            std::stable_sort(keyed.begin(), keyed.end(),
                             [](const auto& a, const auto& b) { return Value::compare(a.first, b.first) > 0; });
            std::vector<Group> sorted;
            for (auto& k : keyed) sorted.push_back(std::move(_groups[k.second]));
            _groups = std::move(sorted);
        }
    }

    BSONObj _spec;
    ExprPtr _id;
    std::vector<AccumulationStatement> _accs;
    OutputOrder _order;
    bool _grouped = false;
    std::vector<Group> _groups;
    size_t _pos = 0;
};

std::vector<StagePtr> parseGroup(const BSONElement& e, const StageParseContext& ctx) {
    uassert(15947, "a group's fields must be specified in an object", e.type() == Object);
    ExprPtr id;
    std::vector<AccumulationStatement> accs;
    for (BSONElement f : e.Obj()) {
        if (f.fieldNameStringData() == "_id") {
            uassert(15948, "a group's _id may only be specified once", id == nullptr);
            id = Expression::parseOperand(f, ctx.vps);
            continue;
        }
        accs.push_back(AccumulationStatement::parse(f, ctx.vps));
    }
    uassert(15955, "a group specification must include an _id", id != nullptr);
    return singleStage(std::make_unique<DocumentSourceGroup>(ctx.expCtx, stageSpec("$group", e), std::move(id),
                                                        std::move(accs), DocumentSourceGroup::OutputOrder::kFirstSeen));
}

std::vector<StagePtr> parseSortByCount(const BSONElement& e, const StageParseContext& ctx) {
    if (e.type() == Object) {
        BSONObj o = e.Obj();
        uassert(40147, "the sortByCount field must be defined as a $-prefixed path or an expression",
                o.nFields() == 1 && o.firstElementFieldName()[0] == '$');
    } else if (e.type() == String) {
        uassert(40148, "the sortByCount field must be defined as a $-prefixed path or an expression",
                !e.valueStringData().empty() && e.valueStringData()[0] == '$');
    } else {
        uasserted(40149, "the sortByCount field must be specified as a string or as an object");
    }
    BSONObj accSpec = countAccumulatorSpec();
    std::vector<AccumulationStatement> accs;
    accs.push_back(AccumulationStatement::parse(accSpec.firstElement(), ctx.vps));
    return singleStage(std::make_unique<DocumentSourceGroup>(ctx.expCtx, stageSpec("$sortByCount", e),
                                                        Expression::parseOperand(e, ctx.vps), std::move(accs),
                                                        DocumentSourceGroup::OutputOrder::kByCountDesc));
}

// $bucket: _id is the lower boundary of the bucket holding groupBy's value (or 'default').
class ExpressionBucketId : public Expression {
public:
    ExpressionBucketId(ExprPtr groupBy, std::vector<Value> bounds, Value def)
        : _groupBy(std::move(groupBy)), _bounds(std::move(bounds)), _default(std::move(def)) {}
    Value evaluate(const Document& root, Variables* vars) const override {
        Value v = _groupBy->evaluate(root, vars);
        if (v.missing()) v = Value::null();
        if (Value::compare(v, _bounds.front()) >= 0 && Value::compare(v, _bounds.back()) < 0) {
            auto it = std::upper_bound(_bounds.begin(), _bounds.end(), v,
                                       [](const Value& a, const Value& b) { return Value::compare(a, b) < 0; });
            return *(it - 1);
        }
        uassert(40066, "$switch could not find a matching branch for an input, and no default was specified.",
                !_default.missing());
        return _default;
    }

private:
    ExprPtr _groupBy;
    std::vector<Value> _bounds;
    Value _default;
};

std::vector<StagePtr> parseBucket(const BSONElement& e, const StageParseContext& ctx) {
    uassert(40201, "Argument to $bucket stage must be an object, but found type: " + typeName(e.type()),
            e.type() == Object);
    BSONElement groupBy, boundaries, def, output;
    for (BSONElement f : e.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "groupBy")
            groupBy = f;
        else if (n == "boundaries")
            boundaries = f;
        else if (n == "default")
            def = f;
        else if (n == "output")
            output = f;
        else
            uasserted(40197, "Unrecognized option to $bucket: " + std::string(n) + ".");
    }
    uassert(40198, "$bucket requires 'groupBy' and 'boundaries' to be specified.", !groupBy.eoo() && !boundaries.eoo());
    uassert(40202,
            "The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: " +
                groupBy.toString(false),
            (groupBy.type() == String && groupBy.valueStringData().size() > 0 && groupBy.valueStringData()[0] == '$') ||
                groupBy.type() == Object);
    uassert(40200, "The $bucket 'boundaries' field must be an array, but found type: " + typeName(boundaries.type()),
            boundaries.type() == Array);
    std::vector<Value> bounds;
    // Boundaries are constant expressions.
    for (BSONElement b : boundaries.Obj()) {
        ExprPtr be = Expression::parseOperand(b, ctx.vps);
        uassert(40191, "The $bucket 'boundaries' field must be an array of constant values, but found value: " +
                           b.toString(false),
                be->isConstant());
        bounds.push_back(static_cast<ExpressionConstant*>(be.get())->value());
    }
    uassert(40192,
            "The $bucket 'boundaries' field must have at least 2 values, but found " + std::to_string(bounds.size()) +
                " value(s).",
            bounds.size() >= 2);
    for (size_t i = 1; i < bounds.size(); i++) {
        uassert(40193,
                "All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting "
                "types " + typeNameOf(bounds[i - 1]) + " and " + typeNameOf(bounds[i]) + ".",
                canonicalizeBSONType(bounds[i - 1].getType()) == canonicalizeBSONType(bounds[i].getType()));
        uassert(40194,
                "The 'boundaries' option to $bucket must be sorted, but elements " + std::to_string(i - 1) + " and " +
                    std::to_string(i) + " are not in ascending order (" + bounds[i - 1].toString() + " is not less than " +
                    bounds[i].toString() + ").",
                Value::compare(bounds[i - 1], bounds[i]) < 0);
    }
    Value defVal;
    if (!def.eoo()) {
        ExprPtr de = Expression::parseOperand(def, ctx.vps);
        uassert(40195, "The $bucket 'default' field must be a constant expression, but found: " + def.toString(false),
                de->isConstant());
        defVal = static_cast<ExpressionConstant*>(de.get())->value();
        bool typesMatch = canonicalizeBSONType(defVal.getType()) == canonicalizeBSONType(bounds[0].getType());
        uassert(40199,
                "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the "
                "highest boundary.",
                !typesMatch || Value::compare(defVal, bounds.front()) < 0 || Value::compare(defVal, bounds.back()) >= 0);
    }
    std::vector<AccumulationStatement> accs;
    if (output.eoo()) {
        BSONObj accSpec = countAccumulatorSpec();
        accs.push_back(AccumulationStatement::parse(accSpec.firstElement(), ctx.vps));
    } else {
        uassert(40196, "The $bucket 'output' field must be an object, but found type: " + typeName(output.type()),
                output.type() == Object);
        for (BSONElement f : output.Obj()) accs.push_back(AccumulationStatement::parse(f, ctx.vps));
    }
    auto id = std::make_unique<ExpressionBucketId>(Expression::parseOperand(groupBy, ctx.vps), std::move(bounds),
                                                   std::move(defVal));
    return singleStage(std::make_unique<DocumentSourceGroup>(ctx.expCtx, stageSpec("$bucket", e), std::move(id),
                                                        std::move(accs), DocumentSourceGroup::OutputOrder::kById));
}

// $bucketAuto: sorts the groupBy values and cuts them into 'buckets' groups of about equal size
// (equal values never straddle two buckets); _id is {min, max}.
class DocumentSourceBucketAuto : public DocumentSource {
public:
    DocumentSourceBucketAuto(ExpressionContext* expCtx, BSONObj spec, ExprPtr groupBy, long long buckets,
                             std::vector<AccumulationStatement> accs)
        : DocumentSource(expCtx), _spec(std::move(spec)), _groupBy(std::move(groupBy)), _buckets(buckets), _accs(std::move(accs)) {}
    const char* name() const override { return "$bucketAuto"; }
    BSONObj serialize() const override { return _spec; }
    std::optional<Document> getNext() override {
        if (!_done) compute();
        if (_pos >= _out.size()) return std::nullopt;
        return _out[_pos++];
    }

private:
    void compute() {
        _done = true;
        std::vector<std::pair<Value, Document>> items;
        // MongoDB sorts the documents with its Sorter: the blocking sort's memory limit.
        BlockingMemoryTracker memory = BlockingMemoryTracker::forSort(_expCtx->ctx.allowDiskUse, "$bucketAuto");
        while (auto in = pullInput()) {
            Value v = _groupBy->evaluate(*in, vars());
            if (v.missing()) v = Value::null();
            memory.add(static_cast<long long>(sizeof(items[0]) + v.approximateSize() + in->approximateSize()));
            items.emplace_back(std::move(v), std::move(*in));
        }
        std::stable_sort(items.begin(), items.end(),
                         [](const auto& a, const auto& b) { return Value::compare(a.first, b.first) < 0; });
        size_t n = items.size();
        if (n == 0) return;
        size_t per = std::max<size_t>(1, (n + _buckets - 1) / _buckets);
        size_t i = 0;
        std::vector<std::pair<size_t, size_t>> ranges;
        while (i < n) {
            size_t end = std::min(n, i + per);
            while (end < n && Value::compare(items[end].first, items[end - 1].first) == 0) end++;
            ranges.emplace_back(i, end);
            i = end;
        }
        for (size_t r = 0; r < ranges.size(); r++) {
            auto [b, e] = ranges[r];
            std::vector<std::unique_ptr<Accumulator>> accs;
            for (const auto& a : _accs) accs.push_back(a.makeAccumulator());
            for (size_t k = b; k < e; k++)
                for (size_t a = 0; a < _accs.size(); a++) accs[a]->process(_accs[a].argument->evaluate(items[k].second, vars()));
            // A bucket's max is the next bucket's min (the last one's is its own largest value).
            Value max = r + 1 < ranges.size() ? items[ranges[r + 1].first].first : items[e - 1].first;
            std::vector<Document::Field> id;
            id.emplace_back("min", items[b].first);
            id.emplace_back("max", max);
            std::vector<Document::Field> f;
            f.emplace_back("_id", Value(Document(std::move(id))));
            for (size_t a = 0; a < _accs.size(); a++) f.emplace_back(_accs[a].fieldName, accs[a]->getValue());
            _out.emplace_back(std::move(f));
        }
    }

    BSONObj _spec;
    ExprPtr _groupBy;
    long long _buckets;
    std::vector<AccumulationStatement> _accs;
    bool _done = false;
    std::vector<Document> _out;
    size_t _pos = 0;
};

std::vector<StagePtr> parseBucketAuto(const BSONElement& e, const StageParseContext& ctx) {
    uassert(40240, "The argument to $bucketAuto must be an object, but found type: " + typeName(e.type()),
            e.type() == Object);
    BSONElement groupBy, buckets, output;
    for (BSONElement f : e.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "groupBy")
            groupBy = f;
        else if (n == "buckets")
            buckets = f;
        else if (n == "output")
            output = f;
        else if (n == "granularity")
            uasserted(ErrorCodes::NotImplemented, "$bucketAuto 'granularity' is not supported by this server");
        else
            uasserted(40245, "Unrecognized option to $bucketAuto: " + std::string(n) + ".");
    }
    uassert(40246, "$bucketAuto requires 'groupBy' and 'buckets' to be specified", !groupBy.eoo() && !buckets.eoo());
    uassert(40239,
            "The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: " +
                groupBy.toString(false),
            (groupBy.type() == String && groupBy.valueStringData().size() > 0 && groupBy.valueStringData()[0] == '$') ||
                groupBy.type() == Object);
    long long nb;
    uassert(40241, "The $bucketAuto 'buckets' field must be a numeric value, but found type: " + typeName(buckets.type()),
            buckets.isNumber());
    uassert(40242, "The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found " +
                       buckets.toString(false),
            buckets.isIntegral64(&nb) && nb <= std::numeric_limits<int>::max() && nb >= std::numeric_limits<int>::min());
    uassert(40243, "The $bucketAuto 'buckets' field must be greater than 0, but found: " + std::to_string(nb), nb > 0);
    std::vector<AccumulationStatement> accs;
    if (output.eoo()) {
        BSONObj accSpec = countAccumulatorSpec();
        accs.push_back(AccumulationStatement::parse(accSpec.firstElement(), ctx.vps));
    } else {
        uassert(40244, "The $bucketAuto 'output' field must be an object, but found type: " + typeName(output.type()),
                output.type() == Object);
        for (BSONElement f : output.Obj()) accs.push_back(AccumulationStatement::parse(f, ctx.vps));
    }
    return singleStage(std::make_unique<DocumentSourceBucketAuto>(ctx.expCtx, stageSpec("$bucketAuto", e),
                                                             Expression::parseOperand(groupBy, ctx.vps), nb,
                                                             std::move(accs)));
}

struct Registrar {
    Registrar() {
        registerStage("$group", parseGroup);
        registerStage("$sortByCount", parseSortByCount);
        registerStage("$bucket", parseBucket);
        registerStage("$bucketAuto", parseBucketAuto);
    }
} registrar;

}  // namespace
}  // namespace mongo
