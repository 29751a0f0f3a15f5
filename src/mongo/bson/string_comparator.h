#pragma once
// How string values compare when a collation is in force: the BSON layer's canonical
// comparison (bsonobj.h woCompare) takes an optional StringComparator and uses it for String
// and Symbol values at any depth (inside documents and arrays too), never for field names,
// Code, regexes or other types. A null comparator is MongoDB's simple collation (bytewise).
// The query layer's ICU collator (db/query/collator.h) is the one implementation; the BSON
// layer does not depend on it.
// Thread safety: implementations must be immutable and safe to call concurrently.
#include <string>
#include <string_view>

namespace mongo {

class StringComparator {
public:
    virtual ~StringComparator() = default;
    // <0, 0, >0 as a orders before, equal to or after b under the collation.
    virtual int compare(std::string_view a, std::string_view b) const = 0;
    // A byte string whose bytewise order is compare()'s order (an ICU sort key, without its
    // terminating NUL), for index keys and hashing of values equal under the collation.
    virtual std::string comparisonKey(std::string_view s) const = 0;
};

}  // namespace mongo
