#pragma once
// The arrayFilters of an update command: one filter per identifier ("x" in "a.$[x]"), e.g.
// {"x.grade": {$gte: 85}} or {x: {$gt: 1}} or {$or: [{"x.a": 1}, {"x.b": 2}]}. An array element
// matches when the filter matches the document {<identifier>: <element>}.
// Immutable after construction; matches() is thread safe.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/query/collator.h"

namespace mongo {

class Matcher;

class ArrayFilters {
public:
    // Throws FailedToParse / BadValue as mongod does for malformed filters, and the matcher's
    // errors for bad expressions. collator: the update's collation (null: simple), under which
    // the filters and the update's operators compare strings.
    explicit ArrayFilters(const std::vector<BSONObj>& filters, CollatorPtr collator = nullptr);
    ~ArrayFilters();

    bool empty() const { return _matchers.empty(); }
    bool has(const std::string& identifier) const { return _matchers.count(identifier) > 0; }
    std::vector<std::string> identifiers() const;
    // REQUIRES: has(identifier).
    bool matches(const std::string& identifier, const BSONElement& value) const;
    const CollatorPtr& collator() const { return _collator; }

private:
    CollatorPtr _collator;
    std::vector<BSONObj> _owned;
    std::map<std::string, std::unique_ptr<Matcher>> _matchers;
};

}  // namespace mongo
