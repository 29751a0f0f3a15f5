#pragma once
// Dotted paths ("a.b.0.c") and the way the query language walks them through documents.
//
// DottedPath splits a path once (at parse time) so that matching many documents does not
// re-split it. visitMatchValues() enumerates the values a filter predicate on a path must
// consider, with MongoDB's implicit array traversal:
//   - "a.b" on {a: [{b: 1}, {b: 2}]} yields 1 and 2;
//   - a numeric component indexes arrays ("a.0.b"), and is also tried as a field name of
//     documents inside the array;
//   - an array at the end of the path yields each element and then the array itself
//     (unless leaf expansion is off, as for $size and $elemMatch);
//   - a missing field yields EOO (so {a: null} matches documents without a).
// Thread safety: DottedPath is immutable after construction; the functions are reentrant.
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

// A non-owning reference to a callable, cheap to pass down recursive walks (no allocation).
template <typename Sig>
class FunctionRef;
template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
public:
    template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
    FunctionRef(F&& f)  // NOLINT: implicit, like std::function
        : _obj(const_cast<void*>(static_cast<const void*>(&f))),
          _call([](void* o, Args... a) -> R {
              return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<Args>(a)...);
          }) {}
    R operator()(Args... a) const { return _call(_obj, std::forward<Args>(a)...); }

private:
    void* _obj;
    R (*_call)(void*, Args...);
};

class DottedPath {
public:
    DottedPath() = default;
    explicit DottedPath(std::string_view dotted);

    const std::string& dotted() const { return _dotted; }
    size_t size() const { return _parts.size(); }
    bool empty() const { return _parts.empty(); }
    const std::string& part(size_t i) const { return _parts[i]; }
    // True if part i is all digits (it may index an array).
    bool isNumeric(size_t i) const { return _numeric[i]; }
    const std::vector<std::string>& parts() const { return _parts; }

private:
    std::string _dotted;
    std::vector<std::string> _parts;
    std::vector<bool> _numeric;
};

// True for "0", "12", ...: non-empty and all ASCII digits.
bool isAllDigits(std::string_view s);

// Called for each candidate value. 'arrayOffset' is the field name (array index) of the element
// of the outermost array traversed implicitly to reach the value, or nullptr if none.
// Return true to stop the walk (the predicate matched).
using MatchValueVisitor = FunctionRef<bool(const BSONElement& value, const char* arrayOffset)>;

// Walks 'path' in 'doc' as described above; returns true if the visitor stopped the walk.
bool visitMatchValues(const BSONObj& doc, const DottedPath& path, bool expandLeafArrays,
                      MatchValueVisitor visitor);

}  // namespace mongo
