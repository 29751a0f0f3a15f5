#pragma once
// KeyString: index keys as byte strings whose memcmp order is MongoDB's BSON canonical order
// (BSONElement::woCompare), with a per-field direction. Index tables store these bytes as
// their keys, so WiredTiger's default byte comparator sorts index entries correctly.
//
// Encoding, per value: one type byte (increasing with the canonical type rank) followed by a
// self-delimiting payload, so a concatenation of values compares value by value. Numbers of
// every type are encoded by their exact value in decimal (sign, exponent, digits), in the one
// order BSONElement::woCompare uses (bson/number_compare.h): equal numbers give identical
// bytes whatever their types (int 1, long 1, double 1.0, NumberDecimal("1.00"): so a unique
// index treats them as duplicates), and the double 0.1 and NumberDecimal("0.1") differ and sort
// as they compare. The original type of each number (and -0.0, and a decimal's exact bytes
// with its trailing zeros), and String vs Symbol, is kept apart in "type bits" (stored as the
// index entry's value) so that decoding returns exactly the key values that were inserted
// (except the payload of a double NaN, which decodes as the quiet NaN).
// A descending field has its value's bytes inverted.
//
// Thread safety: stateless functions; a Builder belongs to one thread.
#include <cstdint>
#include <string>
#include <string_view>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/storage/record_id.h"

namespace mongo::key_string {

// Directions of the fields of a key pattern: bit i set means field i is descending.
// MongoDB allows at most 32 fields in a compound index.
class Ordering {
public:
    Ordering() = default;
    // {a: 1, b: -1} -> field 1 descending. Non-numeric values (e.g. "hashed") are ascending.
    static Ordering make(const BSONObj& keyPattern);
    static Ordering allAscending() { return Ordering(); }
    bool descending(int field) const { return field < 32 && ((_bits >> field) & 1u); }
    uint32_t bits() const { return _bits; }
    static Ordering fromBits(uint32_t bits) {
        Ordering o;
        o._bits = bits;
        return o;
    }

private:
    uint32_t _bits = 0;
};

// Builds the encoding of a key (its values, in index-field order) and its type bits.
class Builder {
public:
    explicit Builder(Ordering ord = Ordering()) : _ord(ord) {}
    // Appends every value of key ({"": 1, "": "x"}; field names are ignored).
    Builder& appendKey(const BSONObj& key);
    // Appends one value as the next field of the key.
    Builder& appendElement(const BSONElement& e);
    // Appends the RecordId suffix index entries carry after the key values (8 bytes).
    Builder& appendRecordId(RecordId id);

    const std::string& bytes() const { return _buf; }
    // The type bits of the values appended so far (often empty).
    std::string typeBits() const { return _typeBits.substr(0, _typeBitsUsed); }

private:
    friend class ValueEncoder;
    Ordering _ord;
    int _field = 0;
    std::string _buf;
    std::string _typeBits;
    size_t _typeBitsUsed = 0;  // typeBits without its trailing default entries
};

// A key value that is null because the key's field is missing from the document (not null in
// it) is appended under this name instead of "": it orders as null (MongoDB indexes a missing
// field as null), and the type bits keep the difference so that a key can tell what a covered
// query must answer ({} for a missing field, {a: null} for a null one).
inline constexpr const char* kMissingFieldName = "$missing";
inline bool isMissingKeyValue(const BSONElement& e) {
    return e.type() == jstNULL && e.fieldNameStringData() == kMissingFieldName;
}

// Encodes key values (no RecordId). typeBits may be null.
std::string encode(const BSONObj& key, Ordering ord, std::string* typeBits = nullptr);

// Decodes the key values of an encoding (without RecordId suffix) into {"": v1, "": v2, ...}.
// Throws DBException(InternalError) on malformed input.
BSONObj decode(std::string_view bytes, Ordering ord, std::string_view typeBits);

// The 8-byte suffix order-preserving encoding of a RecordId, and back.
constexpr size_t kRecordIdSize = 8;
void appendRecordId(std::string* out, RecordId id);
RecordId decodeRecordId(std::string_view eightBytes);

// A string greater than every "prefix + RecordId" entry and smaller than any longer key
// that does not start with prefix (used to seek past all entries of one key).
std::string afterAllRecordIds(std::string_view prefix);

// Human-readable hex, for logs and test failures.
std::string toHex(std::string_view bytes);

}  // namespace mongo::key_string
