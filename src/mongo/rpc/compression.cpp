#include "mongo/rpc/compression.h"

#include <atomic>
#include <mutex>

#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

namespace mongo {
namespace {

constexpr size_t kCompressionHeaderSize = 4 + 4 + 1;  // originalOpcode, uncompressedSize, id
constexpr int kNumCompressors = 4;

struct Counters {
    std::atomic<long long> compIn{0}, compOut{0}, decompIn{0}, decompOut{0};
};
Counters gCounters[kNumCompressors];

std::mutex gEnabledMutex;
// Guarded by gEnabledMutex; ids in configured order. mongod's default.
std::vector<uint8_t> gEnabled = {uint8_t(CompressorId::kSnappy), uint8_t(CompressorId::kZstd),
                                 uint8_t(CompressorId::kZlib)};

std::vector<uint8_t> enabledIds() {
    std::lock_guard<std::mutex> lk(gEnabledMutex);
    return gEnabled;
}

// Decompresses payload into exactly `expected` bytes; false on corruption or any size mismatch.
bool decompressPayload(uint8_t id, const char* in, size_t inLen, size_t expected, std::string* out) {
    switch (static_cast<CompressorId>(id)) {
        case CompressorId::kNoop:
            if (inLen != expected) return false;
            out->assign(in, inLen);
            return true;
        case CompressorId::kSnappy: {
            size_t len = 0;
            // The length is known before any allocation: a lying header cannot make us allocate.
            if (!snappy::GetUncompressedLength(in, inLen, &len) || len != expected) return false;
            out->resize(len);
            return snappy::RawUncompress(in, inLen, out->data());
        }
        case CompressorId::kZlib: {
            out->resize(expected);
            uLongf destLen = static_cast<uLongf>(expected);
            int rc = ::uncompress(reinterpret_cast<Bytef*>(out->data()), &destLen,
                                  reinterpret_cast<const Bytef*>(in), static_cast<uLong>(inLen));
            return rc == Z_OK && destLen == expected;
        }
        case CompressorId::kZstd: {
            unsigned long long declared = ZSTD_getFrameContentSize(in, inLen);
            if (declared == ZSTD_CONTENTSIZE_ERROR) return false;
            if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != expected) return false;
            out->resize(expected);
            size_t n = ZSTD_decompress(out->data(), expected, in, inLen);
            return !ZSTD_isError(n) && n == expected;
        }
    }
    return false;
}

bool compressPayload(uint8_t id, const char* in, size_t inLen, std::string* out) {
    switch (static_cast<CompressorId>(id)) {
        case CompressorId::kNoop:
            out->assign(in, inLen);
            return true;
        case CompressorId::kSnappy: {
            out->resize(snappy::MaxCompressedLength(inLen));
            size_t n = 0;
            snappy::RawCompress(in, inLen, out->data(), &n);
            out->resize(n);
            return true;
        }
        case CompressorId::kZlib: {
            uLongf bound = ::compressBound(static_cast<uLong>(inLen));
            out->resize(bound);
            int rc = ::compress2(reinterpret_cast<Bytef*>(out->data()), &bound,
                                 reinterpret_cast<const Bytef*>(in), static_cast<uLong>(inLen),
                                 Z_DEFAULT_COMPRESSION);
            if (rc != Z_OK) return false;
            out->resize(bound);
            return true;
        }
        case CompressorId::kZstd: {
            out->resize(ZSTD_compressBound(inLen));
            size_t n = ZSTD_compress(out->data(), out->size(), in, inLen, ZSTD_CLEVEL_DEFAULT);
            if (ZSTD_isError(n)) return false;
            out->resize(n);
            return true;
        }
    }
    return false;
}

}  // namespace

const char* compressorName(uint8_t id) {
    switch (id) {
        case 0: return "noop";
        case 1: return "snappy";
        case 2: return "zlib";
        case 3: return "zstd";
    }
    return nullptr;
}

std::optional<CompressorId> compressorIdByName(const std::string& name) {
    for (uint8_t id = 0; id < kNumCompressors; id++)
        if (name == compressorName(id)) return static_cast<CompressorId>(id);
    return std::nullopt;
}

std::vector<std::string> supportedCompressorNames() {
    return {"snappy", "zstd", "zlib"};
}

Status setEnabledCompressors(const std::string& list) {
    std::vector<uint8_t> ids;
    if (list != "disabled") {
        size_t start = 0;
        while (start <= list.size()) {
            size_t comma = list.find(',', start);
            if (comma == std::string::npos) comma = list.size();
            std::string name = list.substr(start, comma - start);
            // Tolerate spaces around names ("snappy, zstd").
            while (!name.empty() && name.front() == ' ') name.erase(name.begin());
            while (!name.empty() && name.back() == ' ') name.pop_back();
            if (!name.empty()) {
                auto id = compressorIdByName(name);
                if (!id) return Status(ErrorCodes::BadValue, "Invalid network message compressor specified in configuration: " + name);
                bool dup = false;
                for (auto x : ids) dup = dup || x == uint8_t(*id);
                if (!dup) ids.push_back(uint8_t(*id));
            }
            start = comma + 1;
        }
    }
    std::lock_guard<std::mutex> lk(gEnabledMutex);
    gEnabled = std::move(ids);
    return Status::OK();
}

std::vector<std::string> enabledCompressorNames() {
    std::vector<std::string> out;
    for (auto id : enabledIds()) out.push_back(compressorName(id));
    return out;
}

bool isCompressorEnabled(uint8_t id) {
    for (auto x : enabledIds())
        if (x == id) return true;
    return false;
}

bool isCompressionProhibitedCommand(const std::string& name) {
    static const char* const kNames[] = {"hello",      "isMaster",       "ismaster",       "saslStart",
                                         "saslContinue", "getnonce",     "authenticate",   "createUser",
                                         "updateUser", "copydbSaslStart", "copydbgetnonce", "copydb"};
    for (const char* n : kNames)
        if (name == n) return true;
    return false;
}

StatusWith<Message> decompressMessage(const Message& compressed, uint8_t* compressorIdOut) {
    std::string_view body = compressed.body();
    if (body.size() < kCompressionHeaderSize)
        return Status(ErrorCodes::BadValue, "Invalid compressed message header");
    int32_t originalOpcode = readLE32(body.data());
    int32_t uncompressedSize = readLE32(body.data() + 4);
    uint8_t id = static_cast<uint8_t>(body[8]);

    // noop is always understood (it is only a framing); the real compressors must be enabled.
    if (id >= kNumCompressors || (id != uint8_t(CompressorId::kNoop) && !isCompressorEnabled(id)))
        return Status(ErrorCodes::InternalError, "Compression algorithm specified in message is not available");
    if (compressorIdOut) *compressorIdOut = id;
    if (uncompressedSize < 0)
        return Status(ErrorCodes::BadValue, "Decompressed message would be negative in size");
    if (static_cast<int64_t>(uncompressedSize) + kMsgHeaderSize > kMaxMessageSizeBytes)
        return Status(ErrorCodes::BadValue, "Decompressed message would be larger than maximum message size");
    if (originalOpcode == static_cast<int32_t>(OpCode::kCompressed))
        return Status(ErrorCodes::BadValue, "OP_COMPRESSED may not wrap another OP_COMPRESSED message");

    const char* payload = body.data() + kCompressionHeaderSize;
    size_t payloadLen = body.size() - kCompressionHeaderSize;
    std::string inner;
    if (!decompressPayload(id, payload, payloadLen, static_cast<size_t>(uncompressedSize), &inner))
        return Status(ErrorCodes::BadValue, "Decompressing message returned less data than expected");
    gCounters[id].decompIn += static_cast<long long>(payloadLen);
    gCounters[id].decompOut += static_cast<long long>(inner.size());

    MsgHeader h = compressed.header();
    Message out = Message::start(static_cast<OpCode>(originalOpcode), h.requestID, h.responseTo);
    out.buf().append(inner);
    out.finish();
    return out;
}

StatusWith<Message> compressMessage(const Message& msg, uint8_t id) {
    if (id >= kNumCompressors) return Status(ErrorCodes::BadValue, "Unknown compressor id " + std::to_string(id));
    if (msg.empty()) return Status(ErrorCodes::BadValue, "Cannot compress a message without a header");
    std::string_view body = msg.body();
    std::string payload;
    if (!compressPayload(id, body.data(), body.size(), &payload))
        return Status(ErrorCodes::InternalError, std::string("Compression with ") + compressorName(id) + " failed");
    gCounters[id].compIn += static_cast<long long>(body.size());
    gCounters[id].compOut += static_cast<long long>(payload.size());

    MsgHeader h = msg.header();
    Message out = Message::start(OpCode::kCompressed, h.requestID, h.responseTo);
    std::string& b = out.buf();
    appendLE32(b, h.opCode);
    appendLE32(b, static_cast<int32_t>(body.size()));
    b.push_back(static_cast<char>(id));
    b.append(payload);
    out.finish();
    return out;
}

std::vector<CompressorStats> compressionStats() {
    std::vector<CompressorStats> out;
    for (auto id : enabledIds()) {
        const Counters& c = gCounters[id];
        out.push_back(CompressorStats{compressorName(id), c.compIn.load(), c.compOut.load(), c.decompIn.load(),
                                      c.decompOut.load()});
    }
    return out;
}

}  // namespace mongo
