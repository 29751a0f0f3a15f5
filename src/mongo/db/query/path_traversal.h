#pragma once
// Dotted paths ("a.b.0.c") and the one routine that walks them through documents: walkPath()
// enumerates "all values along a dotted path" with the options MongoDB's dotted-path walking
// has, so that find, distinct, sort keys and index keys follow numeric components and arrays
// of subdocuments the same way (each with its documented mode, see PathWalkOptions).
//
// The rules common to every mode:
//   - "a.b" on {a: {b: 1}} yields 1; each component is looked up in the document reached so far;
//   - an array in the middle of the path is traversed: "a.b" on {a: [{b: 1}, {b: 2}]} yields 1
//     and 2 (its subdocument elements take the rest of the path);
//   - a numeric component right after an array indexes it: "a.1.b" on {a: [{b: 'x'}, {b: 'y'}]}
//     yields 'y'. Whether the number is also tried as a field name of the array's subdocuments
//     depends on the mode (queries do, distinct and keys do not);
//   - an array at the end of the path is expanded into its elements, or kept whole, or both.
//
// Aggregation field paths ("$a.0.b") are NOT walked by this routine and deliberately differ:
// in MongoDB a numeric component of an expression's field path never indexes an array (it is
// only a field name of the array's subdocuments, so "$a.0" over {a: [1, 2]} is []). They work on
// pipeline Values (ExpressionFieldPath::evaluatePath in db/pipeline/expression.cpp).
// Update paths ($set: {"a.1.b": ..}) navigate to one place to modify, which is not a walk over
// all values; they have their own rules in db/update/update_path.h.
//
// Thread safety: DottedPath and PathWalkOptions are immutable values; walkPath is reentrant.
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
    // Parts i.. joined with dots ("b.c" for part 1 of "a.b.c").
    std::string_view rest(size_t i) const { return std::string_view(_dotted).substr(_starts[i]); }

private:
    std::string _dotted;
    std::vector<std::string> _parts;
    std::vector<bool> _numeric;
    std::vector<size_t> _starts;  // offset of each part in _dotted
};

// True for "0", "12", ...: non-empty and all ASCII digits.
bool isAllDigits(std::string_view s);

// How walkPath treats arrays and places where the path finds no value. The three modes MongoDB
// has are the static members below; the fields say what each does.
struct PathWalkOptions {
    enum class NumericComponents {
        // After an array, a numeric component only indexes the array.
        kIndexArrays,
        // After an array, a numeric component indexes the array and is also a field name of the
        // array's subdocuments. The element reached by the index is taken as it is at the end
        // of the path (not expanded), and ends the walk silently when it is neither a document
        // nor an array in the middle. (MongoDB's query matching.)
        kIndexArraysAndNameFields,
    };
    enum class TrailingArrays {
        kExpand,          // an array at the end yields its elements
        kExpandAndWhole,  // its elements, then the array itself ({a: [1, 2]} equality)
        kWhole,           // the array itself only ($size, $elemMatch)
    };
    enum class Absent {
        // Nothing is yielded where the path finds no value.
        kSkip,
        // EOO for a missing field or a non-document where a document was needed, including in
        // the subdocuments of an array; non-document elements of an array in the middle of the
        // path and empty arrays there yield nothing. ({a: null} matches documents without a.)
        kEOO,
        // Index and sort key values: null wherever the path finds no value (a missing field,
        // a non-document where a document was needed, a non-document element of an array in
        // the middle of the path, an empty array there), and undefined for an empty array at the
        // end of the path.
        kKeyValues,
    };

    NumericComponents numericComponents = NumericComponents::kIndexArrays;
    TrailingArrays trailingArrays = TrailingArrays::kExpand;
    Absent absent = Absent::kSkip;
    // Before splitting at the next dot, look the rest of the path up as one field name
    // ({"a.b": 1} has a value at "a.b"), as MongoDB's distinct does.
    bool literalDottedNames = false;

    // Query predicates (the matcher): numeric components index and name fields; a trailing
    // array yields its elements and itself (only itself without expandTrailingArrays); EOO
    // where a value is missing.
    static PathWalkOptions forMatching(bool expandTrailingArrays) {
        return {NumericComponents::kIndexArraysAndNameFields,
                expandTrailingArrays ? TrailingArrays::kExpandAndWhole : TrailingArrays::kWhole, Absent::kEOO, false};
    }
    // distinct: positional components index only, trailing arrays expanded, nothing for missing
    // values, literal dotted field names tried first.
    static PathWalkOptions forDistinct() {
        return {NumericComponents::kIndexArrays, TrailingArrays::kExpand, Absent::kSkip, true};
    }
    // Index keys and sort keys of one field: positional components index only, trailing arrays
    // expanded, null/undefined where no value is found.
    static PathWalkOptions forKeys() {
        return {NumericComponents::kIndexArrays, TrailingArrays::kExpand, Absent::kKeyValues, false};
    }
};

// Called for each value. 'arrayOffset' is the field name (array index) of the element of the
// outermost array traversed implicitly to reach the value (not counting arrays indexed by a
// numeric component), or nullptr if none. Return true to stop the walk.
using PathValueVisitor = FunctionRef<bool(const BSONElement& value, const char* arrayOffset)>;

// Yields every value of 'path' in 'doc' under 'options' (see above), in document order.
// Returns true if the visitor stopped the walk. An empty path yields nothing. The null and
// undefined elements of Absent::kKeyValues point into static storage.
bool walkPath(const BSONObj& doc, const DottedPath& path, const PathWalkOptions& options, PathValueVisitor visitor);

// The query matcher's walk: walkPath with PathWalkOptions::forMatching(expandLeafArrays).
using MatchValueVisitor = PathValueVisitor;
inline bool visitMatchValues(const BSONObj& doc, const DottedPath& path, bool expandLeafArrays,
                             MatchValueVisitor visitor) {
    return walkPath(doc, path, PathWalkOptions::forMatching(expandLeafArrays), visitor);
}

// The static null and undefined elements key walks use.
const BSONElement& nullKeyElement();
const BSONElement& undefinedKeyElement();

}  // namespace mongo
