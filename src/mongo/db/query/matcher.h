#pragma once
// The query language's filter: parses a filter document ({a: {$gt: 1}, $or: [...]}) and tests
// documents against it with MongoDB's semantics (implicit array traversal along dotted paths,
// cross-type comparison rules: {$gt: 5} only matches numbers, etc.).
// Thread safety: a parsed Matcher is immutable; matches() may be called concurrently.
#include <memory>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/query/collator.h"

namespace mongo {

class MatchExpression;  // internal tree (matcher.cpp and friends)

// Filled by matches() when requested: the index of the array element that satisfied the
// query, for the positional projection "a.$" and the update operator "a.$".
struct MatchDetails {
    bool requestElemMatchKey = false;
    bool hasElemMatchKey = false;
    std::string elemMatchKey;  // e.g. "2"
};

class Matcher {
public:
    // Throws DBException with MongoDB's codes: BadValue (2) for unknown operators
    // ("unknown operator: $foo") and bad arguments, FailedToParse (9), InvalidRegex (51091), ...
    // collator: the collation strings compare under ($eq, $lt..., $in, $ne, $nin, $all,
    // $elemMatch; never regexes, field names or other types). Null: simple (bytewise).
    explicit Matcher(const BSONObj& filter, CollatorPtr collator = nullptr);
    ~Matcher();
    Matcher(Matcher&&) noexcept;
    Matcher& operator=(Matcher&&) noexcept;

    bool matches(const BSONObj& doc, MatchDetails* details = nullptr) const;
    // Tests one value (an array element) rather than a document, for $pull conditions and
    // arrayFilters: predicates on the empty path test the value itself, without array
    // traversal (filter {"": {$gt: 5}} or {"": {$in: [1, 2]}}); predicates on other paths look
    // inside the value when it is a document ({x: 1} tests the element's field x).
    bool matchesElement(const BSONElement& value, MatchDetails* details = nullptr) const;
    const BSONObj& filter() const { return _filter; }
    bool matchesEverything() const;  // empty filter (or one with only $comment)
    // The parsed tree, for the planner (lives as long as this Matcher).
    const MatchExpression* root() const { return _root.get(); }
    const CollatorPtr& collator() const { return _collator; }

private:
    BSONObj _filter;
    CollatorPtr _collator;
    std::unique_ptr<MatchExpression> _root;
};

}  // namespace mongo
