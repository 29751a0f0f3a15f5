#include "mongo/bson/uuid.h"

#include <random>

namespace mongo {

namespace {
int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
}  // namespace

bool uuidHexToBytes(std::string_view hex, unsigned char out[kUuidLength]) {
    if (hex.size() != 2 * kUuidLength) return false;
    for (int i = 0; i < kUuidLength; ++i) {
        int hi = hexValue(hex[2 * i]), lo = hexValue(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        out[i] = static_cast<unsigned char>(hi * 16 + lo);
    }
    return true;
}

std::string uuidBytesToHex(const unsigned char* bytes) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    s.reserve(2 * kUuidLength);
    for (int i = 0; i < kUuidLength; ++i) {
        s += digits[bytes[i] >> 4];
        s += digits[bytes[i] & 15];
    }
    return s;
}

bool appendUuidHex(BSONObjBuilder& b, std::string_view name, std::string_view hex) {
    unsigned char bytes[kUuidLength];
    if (!uuidHexToBytes(hex, bytes)) return false;
    b.appendBinData(name, kUuidLength, kUuidBinDataSubtype, bytes);
    return true;
}

std::optional<std::string> uuidHexFromElement(const BSONElement& e) {
    if (e.type() != BinData) return std::nullopt;
    int len = 0, subtype = -1;
    const char* data = e.binData(&len, &subtype);
    if (!data || len != kUuidLength || subtype != kUuidBinDataSubtype) return std::nullopt;
    return uuidBytesToHex(reinterpret_cast<const unsigned char*>(data));
}

std::string uuidHexDashed(const std::string& hex) {
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4) + "-" +
           hex.substr(20);
}

void generateUuidBytes(unsigned char out[kUuidLength]) {
    thread_local std::random_device rd;
    for (int i = 0; i < kUuidLength; i += 4) {
        uint32_t r = rd();
        for (int j = 0; j < 4; j++) out[i + j] = static_cast<unsigned char>(r >> (8 * j));
    }
    out[6] = (out[6] & 0x0f) | 0x40;  // version 4
    out[8] = (out[8] & 0x3f) | 0x80;  // RFC 4122 variant
}

std::string generateUuidHex() {
    unsigned char b[kUuidLength];
    generateUuidBytes(b);
    return uuidBytesToHex(b);
}

}  // namespace mongo
