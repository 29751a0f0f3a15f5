#pragma once
#include <cstdint>
#include <string>

namespace mongo {

// The storage engine's address of a record: a positive 64-bit integer, increasing with insert
// order within a record store (WiredTiger's "q" key format). 0 is null.
class RecordId {
public:
    RecordId() = default;
    explicit RecordId(int64_t repr) : _repr(repr) {}
    int64_t repr() const { return _repr; }
    bool isNull() const { return _repr == 0; }
    bool operator==(RecordId o) const { return _repr == o._repr; }
    bool operator!=(RecordId o) const { return _repr != o._repr; }
    bool operator<(RecordId o) const { return _repr < o._repr; }
    bool operator<=(RecordId o) const { return _repr <= o._repr; }
    bool operator>(RecordId o) const { return _repr > o._repr; }
    std::string toString() const { return std::to_string(_repr); }

private:
    int64_t _repr = 0;
};

}  // namespace mongo
