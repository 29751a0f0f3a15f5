#pragma once
// OP_COMPRESSED (2012): network message compression as negotiated by hello.
//
// Layout after the 16-byte header (whose requestID/responseTo are the wrapped message's):
//   int32 originalOpcode, int32 uncompressedSize (the wrapped message without its header),
//   uint8 compressorId, compressed bytes.
// Compressor ids: 0 noop, 1 snappy (raw snappy), 2 zlib (zlib stream), 3 zstd (zstd frame).
//
// The set of compressors the server accepts is process-wide (mongod's
// --networkMessageCompressors, default "snappy,zstd,zlib"); hello negotiates a subset per
// connection, and the server answers a compressed request with the same compressor
// (except replies to the handshake and authentication commands, which are never compressed).
// Per-compressor byte counters feed serverStatus.network.compression.
// Thread safety: all functions may be called concurrently; setEnabledCompressors is meant for
// startup but is safe at any time.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/rpc/message.h"

namespace mongo {

enum class CompressorId : uint8_t { kNoop = 0, kSnappy = 1, kZlib = 2, kZstd = 3 };

// "noop", "snappy", "zlib", "zstd"; nullptr for an unknown id.
const char* compressorName(uint8_t id);
std::optional<CompressorId> compressorIdByName(const std::string& name);

// Every compressor this build supports, in mongod's default preference order:
// {"snappy", "zstd", "zlib"} (noop is only for tests and never advertised).
std::vector<std::string> supportedCompressorNames();

// Sets the accepted compressors from a comma-separated list ("snappy,zstd,zlib", "disabled"
// or "" for none, "noop" allowed). Unknown names give BadValue and change nothing.
Status setEnabledCompressors(const std::string& commaSeparated);
// The accepted compressors in configured order (what hello may negotiate).
std::vector<std::string> enabledCompressorNames();
bool isCompressorEnabled(uint8_t id);

// The commands whose replies are never compressed (driver compression spec: handshake and
// authentication). commandName is the request's first field name.
bool isCompressionProhibitedCommand(const std::string& commandName);

// Unwraps an OP_COMPRESSED message into the original message (same requestID/responseTo).
// Errors (the caller closes the connection, as mongod does): BadValue for a short header,
// negative/oversized/mismatched uncompressedSize, corrupt payload or a nested OP_COMPRESSED;
// InternalError for a compressor that is unknown or not enabled.
StatusWith<Message> decompressMessage(const Message& compressed, uint8_t* compressorIdOut = nullptr);

// Wraps msg in OP_COMPRESSED with the given compressor (the requestID/responseTo are kept).
StatusWith<Message> compressMessage(const Message& msg, uint8_t compressorId);

// Cumulative bytes through each compressor: compressor{In: uncompressed, Out: compressed},
// decompressor{In: compressed, Out: decompressed} (payload bytes, headers excluded).
struct CompressorStats {
    std::string name;
    long long compressorBytesIn = 0;
    long long compressorBytesOut = 0;
    long long decompressorBytesIn = 0;
    long long decompressorBytesOut = 0;
};
// Stats of the enabled compressors, in configured order.
std::vector<CompressorStats> compressionStats();

}  // namespace mongo
