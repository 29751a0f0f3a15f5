// libFuzzer target for the delta decoder (buildscripts/fuzz_delta.sh builds and runs it).
// Arbitrary bytes given as a delta, or as a stored record form, must yield an error or the
// exact target: never a crash, an out-of-bounds access, or a result that fails its checksum.
// Input layout: [1 byte selector][source bytes][delta bytes]; the selector's low 7 bits give
// the source length (0..127) and its high bit picks the stored-form path.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mongo/db/dedup/crc32c.h"
#include "mongo/db/dedup/delta_encoder.h"
#include "mongo/db/dedup/delta_format.h"
#include "mongo/db/dedup/stored_form.h"

using namespace mongo::dedup;

namespace {

class OneRecordReader : public StoredRecordReader {
public:
    OneRecordReader(std::string base, std::string self) : _base(std::move(base)), _self(std::move(self)) {}
    mongo::Status readStored(std::string_view, int64_t id, std::string* out) override {
        if (id == 1) {
            *out = _self;
            return mongo::Status::OK();
        }
        if (id == 2) {
            *out = makeRawStored(_base);
            return mongo::Status::OK();
        }
        return mongo::Status(mongo::ErrorCodes::NoSuchKey, "absent");
    }

private:
    std::string _base, _self;
};

void checkDecoded(const uint8_t* delta, size_t n, const std::string& out) {
    // A successful decode must agree with the header's length and checksum.
    DeltaHeader h;
    if (!parseDeltaHeader(delta, n, &h).isOK() || h.targetLen != out.size() ||
        crc32c(0, out.data(), out.size()) != h.targetCrc)
        __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    size_t srcLen = std::min<size_t>(data[0] & 0x7f, size - 1);
    bool storedPath = data[0] & 0x80;
    const uint8_t* src = data + 1;
    const uint8_t* delta = src + srcLen;
    size_t deltaLen = size - 1 - srcLen;

    std::string out;
    mongo::Status st = applyDelta(src, srcLen, delta, deltaLen, &out);
    if (st.isOK())
        checkDecoded(delta, deltaLen, out);
    else if (!out.empty())
        __builtin_trap();  // errors leave no partial output

    std::vector<uint8_t> buf(256);
    auto r = applyDeltaTo(src, srcLen, delta, deltaLen, buf.data(), buf.size());
    if (r.isOK() && (!st.isOK() || r.getValue() != out.size() ||
                     std::string(reinterpret_cast<char*>(buf.data()), r.getValue()) != out))
        __builtin_trap();  // both entry points agree

    DeltaHeader h;
    std::vector<DeltaInst> insts;
    if (parseDelta(delta, deltaLen, srcLen, &h, &insts).isOK() != st.isOK() && st.isOK())
        __builtin_trap();  // a delta that decodes also parses

    if (storedPath) {
        OneRecordReader reader(std::string(reinterpret_cast<const char*>(src), srcLen),
                               std::string(reinterpret_cast<const char*>(delta), deltaLen));
        std::string rec;
        DecodeInfo info;
        (void)decodeRecord(reader, "fuzz.ns", 1, &rec, &info, {}, 64);
    }
    return 0;
}
