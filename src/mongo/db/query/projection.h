#pragma once
// find's projection (MongoDB 4.4+ semantics): inclusion ({a: 1, "b.c": 1}), exclusion ({a: 0}),
// _id rules, $slice, $elemMatch, positional "a.$", and computed fields ({a: "$b.c"},
// {a: {$add: [...]}}, literals), evaluated with the aggregation expression language.
// Immutable after parse; apply() is thread safe.
#include <memory>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/query/matcher.h"

namespace mongo {

class Projection {
public:
    // Throws DBException (Location31254 "Cannot do exclusion on field ... in inclusion
    // projection", Location31253, BadValue ...) as MongoDB does.
    explicit Projection(const BSONObj& spec);
    ~Projection();
    Projection(Projection&&) noexcept;
    // details: from the query's Matcher (requestElemMatchKey) when the projection uses "a.$".
    // Returns an owned document. Throws 51246 / 51247 when "a.$" finds no matched element.
    BSONObj apply(const BSONObj& doc, const MatchDetails* details = nullptr) const;
    bool requiresMatchDetails() const;  // uses the positional operator
    bool isEmpty() const;

private:
    struct Impl;
    std::unique_ptr<Impl> _impl;
};

}  // namespace mongo
