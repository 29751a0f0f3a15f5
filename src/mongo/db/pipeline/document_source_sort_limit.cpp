// Ordering and slicing stages: $sort (bounded to the top k when a $limit follows), $limit,
// $skip, $count, $sample.
#include <algorithm>
#include <queue>
#include <random>

#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/pipeline/expression_context.h"
#include "mongo/db/query/blocking_memory_tracker.h"
#include "mongo/db/query/sort_pattern.h"
#include "mongo/db/server_parameters.h"

namespace mongo {
namespace {

class DocumentSourceSort : public DocumentSource, public BoundedSortable {
public:
    DocumentSourceSort(ExpressionContext* expCtx, BSONObj spec, SortPattern pattern)
        : DocumentSource(expCtx), _spec(std::move(spec)), _pattern(std::move(pattern)) {}
    const char* name() const override { return "$sort"; }
    void setLimit(long long k) override { _limit = k; }

    std::optional<Document> getNext() override {
        if (!_sorted) sortInput();
        if (_pos >= _out.size()) return std::nullopt;
        return std::move(_out[_pos++].doc);
    }
    BSONObj serialize() const override {
        if (_limit < 0) return _spec;
        BSONObjBuilder b;
        BSONObjBuilder& s = b.subobjStart("$sort");
        s.append("sortKey", _spec.firstElement().Obj());
        s.appendNumber("limit", _limit);
        s.doneFast();
        return b.obj();
    }

private:
    struct Entry {
        BSONObj key;
        size_t seq;  // input order: equal keys keep it (a stable sort)
        Document doc;
        long long bytes;  // what the entry counts against the memory limit
    };
    Entry makeEntry(Document doc, size_t seq) const {
        BSONObj bson = doc.toBson();
        BSONObj key = _pattern.extractKey(bson);
        long long bytes = static_cast<long long>(sizeof(Entry)) + bson.objsize() + key.objsize();
        return Entry{std::move(key), seq, std::move(doc), bytes};
    }
    bool less(const Entry& a, const Entry& b) const {
        int c = _pattern.compareKeys(a.key, b.key);
        return c != 0 ? c < 0 : a.seq < b.seq;
    }

    void sortInput() {
        _sorted = true;
        if (_limit == 0) return;
        BlockingMemoryTracker memory = BlockingMemoryTracker::forSort(_expCtx->ctx.allowDiskUse, "$sort");
        auto cmp = [this](const Entry& a, const Entry& b) { return less(a, b); };
        size_t seq = 0;
        if (_limit > 0) {
            // Max-heap of the best k so far: the worst of them is on top and is evicted first.
            std::priority_queue<Entry, std::vector<Entry>, decltype(cmp)> heap(cmp);
            while (auto in = pullInput()) {
                Entry e = makeEntry(std::move(*in), seq++);
                if (static_cast<long long>(heap.size()) < _limit) {
                    memory.add(e.bytes);
                    heap.push(std::move(e));
                } else if (less(e, heap.top())) {
                    memory.add(e.bytes - heap.top().bytes);
                    heap.pop();
                    heap.push(std::move(e));
                }
            }
            while (!heap.empty()) {
                _out.push_back(heap.top());
                heap.pop();
            }
            std::reverse(_out.begin(), _out.end());
            return;
        }
        while (auto in = pullInput()) {
            Entry e = makeEntry(std::move(*in), seq++);
            memory.add(e.bytes);
            _out.push_back(std::move(e));
        }
        std::sort(_out.begin(), _out.end(), cmp);
    }

    BSONObj _spec;
    SortPattern _pattern;
    long long _limit = -1;
    bool _sorted = false;
    std::vector<Entry> _out;
    size_t _pos = 0;
};

std::vector<StagePtr> parseSort(const BSONElement& e, const StageParseContext& ctx) {
    uassert(15973, "the $sort key specification must be an object", e.type() == Object);
    uassert(15976, "$sort stage must have at least one sort key", !e.Obj().isEmpty());
    return singleStage(std::make_unique<DocumentSourceSort>(ctx.expCtx, stageSpec("$sort", e),
                                                            SortPattern(e.Obj().getOwned(), ctx.expCtx->ctx.collator)));
}

long long integralArg(const BSONElement& e, const char* stage) {
    long long v;
    uassert(ErrorCodes::FailedToParse,
            std::string("invalid argument to ") + stage + " stage: Cannot represent as a 64-bit integer: " +
                e.toString(),
            e.isIntegral64(&v));
    return v;
}

class DocumentSourceLimit : public DocumentSource, public LimitStage {
public:
    DocumentSourceLimit(ExpressionContext* expCtx, long long n) : DocumentSource(expCtx), _limit(n) {}
    const char* name() const override { return "$limit"; }
    long long limit() const override { return _limit; }
    std::optional<Document> getNext() override {
        if (_seen >= _limit) return std::nullopt;
        auto in = pullInput();
        if (in) _seen++;
        return in;
    }
    BSONObj serialize() const override {
        BSONObjBuilder b;
        b.appendNumber("$limit", _limit);
        return b.obj();
    }

private:
    long long _limit;
    long long _seen = 0;
};

std::vector<StagePtr> parseLimit(const BSONElement& e, const StageParseContext& ctx) {
    uassert(15957, "the limit must be specified as a number", e.isNumber());
    long long n = integralArg(e, "$limit");
    uassert(15958, "the limit must be positive", n > 0);
    return singleStage(std::make_unique<DocumentSourceLimit>(ctx.expCtx, n));
}

class DocumentSourceSkip : public DocumentSource, public SkipStage {
public:
    DocumentSourceSkip(ExpressionContext* expCtx, long long n) : DocumentSource(expCtx), _skip(n) {}
    const char* name() const override { return "$skip"; }
    long long skip() const override { return _skip; }
    std::optional<Document> getNext() override {
        while (_skipped < _skip) {
            if (!pullInput()) return std::nullopt;
            _skipped++;
        }
        return pullInput();
    }
    BSONObj serialize() const override {
        BSONObjBuilder b;
        b.appendNumber("$skip", _skip);
        return b.obj();
    }

private:
    long long _skip;
    long long _skipped = 0;
};

std::vector<StagePtr> parseSkip(const BSONElement& e, const StageParseContext& ctx) {
    uassert(15972, "Argument to $skip must be a number", e.isNumber());
    long long n = integralArg(e, "$skip");
    uassert(15956, "Argument to $skip cannot be negative", n >= 0);
    return singleStage(std::make_unique<DocumentSourceSkip>(ctx.expCtx, n));
}

class DocumentSourceCount : public DocumentSource {
public:
    DocumentSourceCount(ExpressionContext* expCtx, std::string field) : DocumentSource(expCtx), _field(std::move(field)) {}
    const char* name() const override { return "$count"; }
    std::optional<Document> getNext() override {
        if (_done) return std::nullopt;
        _done = true;
        long long n = 0;
        while (pullInput()) n++;
        if (n == 0) return std::nullopt;
        std::vector<Document::Field> f;
        f.emplace_back(_field, n <= std::numeric_limits<int>::max() ? Value(static_cast<int>(n)) : Value(n));
        return Document(std::move(f));
    }
    BSONObj serialize() const override {
        BSONObjBuilder b;
        b.append("$count", _field);
        return b.obj();
    }

private:
    std::string _field;
    bool _done = false;
};

std::vector<StagePtr> parseCount(const BSONElement& e, const StageParseContext& ctx) {
    uassert(40156, "the count field must be a non-empty string", e.type() == String && !e.valueStringData().empty());
    std::string f = e.str();
    uassert(40157, "the count field cannot be a $-prefixed path", f[0] != '$');
    uassert(40158, "the count field cannot contain '.'", f.find('.') == std::string::npos);
    uassert(40159, "the count field cannot contain a null byte", f.find('\0') == std::string::npos);
    return singleStage(std::make_unique<DocumentSourceCount>(ctx.expCtx, f));
}

class DocumentSourceSample : public DocumentSource {
public:
    DocumentSourceSample(ExpressionContext* expCtx, BSONObj spec, long long size)
        : DocumentSource(expCtx), _spec(std::move(spec)), _size(size), _rng(std::random_device{}()) {}
    const char* name() const override { return "$sample"; }
    std::optional<Document> getNext() override {
        if (!_filled) fill();
        if (_pos >= _sample.size()) return std::nullopt;
        return std::move(_sample[_pos++]);
    }
    BSONObj serialize() const override { return _spec; }

private:
    void fill() {
        _filled = true;
        // Reservoir sampling keeps memory to 'size' documents; the shuffle randomises order.
        long long seen = 0;
        while (auto in = pullInput()) {
            seen++;
            if (static_cast<long long>(_sample.size()) < _size) {
                _sample.push_back(std::move(*in));
            } else if (_size > 0) {
                std::uniform_int_distribution<long long> d(0, seen - 1);
                long long j = d(_rng);
                if (j < _size) _sample[j] = std::move(*in);
            }
        }
        std::shuffle(_sample.begin(), _sample.end(), _rng);
    }

    BSONObj _spec;
    long long _size;
    std::mt19937_64 _rng;
    bool _filled = false;
    std::vector<Document> _sample;
    size_t _pos = 0;
};

std::vector<StagePtr> parseSample(const BSONElement& e, const StageParseContext& ctx) {
    uassert(28745, "the $sample stage specification must be an object", e.type() == Object);
    bool haveSize = false;
    long long size = 0;
    for (BSONElement f : e.Obj()) {
        auto n = f.fieldNameStringData();
        uassert(28748, "unrecognized option to $sample: " + std::string(n), n == "size");
        uassert(28746, "size argument to $sample must be a number", f.isNumber());
        size = f.numberLong();
        uassert(28747, "size argument to $sample must not be negative", f.numberDouble() >= 0);
        haveSize = true;
    }
    uassert(28749, "$sample stage must specify a size", haveSize);
    return singleStage(std::make_unique<DocumentSourceSample>(ctx.expCtx, stageSpec("$sample", e), size));
}

struct Registrar {
    Registrar() {
        registerStage("$sort", parseSort);
        registerStage("$limit", parseLimit);
        registerStage("$skip", parseSkip);
        registerStage("$count", parseCount);
        registerStage("$sample", parseSample);
    }
} registrar;

}  // namespace
}  // namespace mongo
