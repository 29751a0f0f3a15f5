#pragma once
// CRC32C (Castagnoli), the checksum that makes dedup deltas self-checking.
// Uses the SSE4.2 crc32 instruction when the CPU has it (checked once at startup),
// otherwise a slicing-by-8 table. Thread-safety: stateless after static initialisation.
#include <cstddef>
#include <cstdint>

namespace mongo {
namespace dedup {

// Extends `crc` (0 to start) with n bytes. crc32c(crc32c(0,a),b) == crc32c(0, a+b).
uint32_t crc32c(uint32_t crc, const void* data, size_t n);

// The portable path, exposed so tests can compare it with the hardware path.
uint32_t crc32cPortable(uint32_t crc, const void* data, size_t n);

}  // namespace dedup
}  // namespace mongo
