#pragma once
// CRC-32C (Castagnoli), the checksum of OP_MSG's optional trailing checksum field.
// Uses the SSE4.2 crc32 instruction when the CPU has it, else a slicing-by-8 table.
// Thread safe (pure functions; the table is built once).
#include <cstddef>
#include <cstdint>

namespace mongo {

// CRC-32C of len bytes (initial value and final xor 0xFFFFFFFF, reflected polynomial
// 0x82F63B78): crc32c("123456789") == 0xE3069283.
uint32_t crc32c(const void* data, size_t len);

// Continues a checksum: crc32c(a+b) == crc32cExtend(crc32c(a), b).
uint32_t crc32cExtend(uint32_t crc, const void* data, size_t len);

// The portable table implementation (exposed so tests can compare both paths).
uint32_t crc32cSoftwareExtend(uint32_t crc, const void* data, size_t len);

}  // namespace mongo
