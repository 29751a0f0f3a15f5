#include "mongo/db/dedup/stored_form.h"

#include <vector>

#include "mongo/db/dedup/delta_format.h"
#include "mongo/db/dedup/varint.h"

namespace mongo {
namespace dedup {

std::string makeRawStored(std::string_view bytes) {
    std::string s;
    s.reserve(bytes.size() + 1);
    s.push_back(char(kStoredRaw));
    s.append(bytes.data(), bytes.size());
    return s;
}

std::string makeDeltaStored(int64_t id, int64_t baseId, std::string_view delta) {
    std::string s;
    s.reserve(delta.size() + 11);
    s.push_back(char(kStoredDelta));
    putVarint(&s, zigzagEncode(int64_t(uint64_t(baseId) - uint64_t(id))));
    s.append(delta.data(), delta.size());
    return s;
}

size_t rawStoredSize(size_t recordLen) { return recordLen + 1; }

size_t deltaStoredSize(int64_t id, int64_t baseId, size_t deltaLen) {
    return 1 + varintLength(zigzagEncode(int64_t(uint64_t(baseId) - uint64_t(id)))) + deltaLen;
}

std::string withRetainedFlag(std::string stored, bool retained) {
    uint8_t tag = uint8_t(stored[0]) & uint8_t(~kStoredRetainedFlag);
    stored[0] = char(retained ? tag | kStoredRetainedFlag : tag);
    return stored;
}

std::string readdressStored(int64_t id, int64_t newId, const std::string& stored) {
    StoredView v;
    if (!parseStored(id, stored, &v).isOK() || !v.isDelta)
        return stored;
    return withRetainedFlag(makeDeltaStored(newId, v.baseId, v.payload), v.retained);
}

Status parseStored(int64_t id, std::string_view stored, StoredView* out) {
    if (stored.empty())
        return Status(ErrorCodes::DataCorruptionDetected, "dedup stored form: empty");
    const uint8_t* p = reinterpret_cast<const uint8_t*>(stored.data());
    const uint8_t* end = p + stored.size();
    out->retained = (p[0] & kStoredRetainedFlag) != 0;
    const uint8_t tag = p[0] & uint8_t(~kStoredRetainedFlag);
    if (tag == kStoredRaw) {
        out->isDelta = false;
        out->payload = stored.substr(1);
        return Status::OK();
    }
    if (tag != kStoredDelta)
        return Status(ErrorCodes::DataCorruptionDetected, "dedup stored form: unknown tag");
    ++p;
    uint64_t z;
    if (!getVarint(&p, end, &z))
        return Status(ErrorCodes::DataCorruptionDetected, "dedup stored form: bad base id");
    out->isDelta = true;
    out->baseId = int64_t(uint64_t(id) + uint64_t(zigzagDecode(z)));
    out->payload = stored.substr(static_cast<size_t>(p - reinterpret_cast<const uint8_t*>(stored.data())));
    return Status::OK();
}

Status decodeRecord(StoredRecordReader& reader, std::string_view ns, int64_t id, std::string* out,
                    DecodeInfo* info, const KnownRecordFn& known, uint32_t maxSteps,
                    const DecodedFn& onDecoded) {
    DecodeInfo local;
    DecodeInfo& di = info ? *info : local;
    di = DecodeInfo();
    struct Step {
        int64_t id;          // the record this delta rebuilds
        std::string stored;  // its stored form
        size_t deltaAt;      // where the delta starts in `stored`
    };
    std::vector<Step> steps;  // steps[i] rebuilds steps[i].id from the record after it
    std::string stored, current;
    int64_t cur = id;
    while (true) {
        if (cur != id && known) {
            if (auto bytes = known(cur)) {
                current = *bytes;
                di.usedKnown = true;
                break;
            }
        }
        Status st = reader.readStored(ns, cur, &stored);
        if (!st.isOK())
            return cur == id ? st
                             : Status(ErrorCodes::DataCorruptionDetected,
                                      "dedup: a delta's base record is missing: " + st.reason());
        ++di.reads;
        StoredView v;
        st = parseStored(cur, stored, &v);
        if (!st.isOK())
            return st;
        if (!v.isDelta) {
            current.assign(v.payload.data(), v.payload.size());
            break;
        }
        if (steps.size() >= maxSteps)
            return Status(ErrorCodes::DataCorruptionDetected,
                          "dedup: delta chain longer than the limit (a cycle?)");
        const size_t at = static_cast<size_t>(v.payload.data() - stored.data());
        const int64_t base = v.baseId;
        steps.push_back(Step{cur, std::move(stored), at});
        stored.clear();
        cur = base;
    }
    std::string next;
    for (size_t i = steps.size(); i-- > 0;) {
        const Step& s = steps[i];
        Status st = applyDelta(reinterpret_cast<const uint8_t*>(current.data()), current.size(),
                               reinterpret_cast<const uint8_t*>(s.stored.data()) + s.deltaAt,
                               s.stored.size() - s.deltaAt, &next);
        if (!st.isOK())
            return st;
        current.swap(next);
        ++di.steps;
        if (onDecoded)
            onDecoded(s.id, current);
    }
    out->swap(current);
    return Status::OK();
}

namespace {
class CallbackReader : public StoredRecordReader {
public:
    explicit CallbackReader(const FetchStoredFn& f) : _f(f) {}
    Status readStored(std::string_view, int64_t id, std::string* out) override { return _f(id, out); }

private:
    const FetchStoredFn& _f;
};
}  // namespace

Status decodeRecord(const FetchStoredFn& fetch, int64_t id, std::string* out, DecodeInfo* info,
                    const KnownRecordFn& known, uint32_t maxSteps, const DecodedFn& onDecoded) {
    CallbackReader reader(fetch);
    return decodeRecord(reader, std::string_view(), id, out, info, known, maxSteps, onDecoded);
}

}  // namespace dedup
}  // namespace mongo
