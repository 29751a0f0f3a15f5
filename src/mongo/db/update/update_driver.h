#pragma once
// Applies an update to a document: either a replacement document or update operators
// ($set $unset $inc $mul $min $max $rename $setOnInsert $currentDate $push (with $each $slice
// $sort $position) $pull $pullAll $addToSet (with $each) $pop, positional "$", "$[]" and
// "$[<id>]" with arrayFilters), with MongoDB's errors and reply semantics.
// Immutable after construction; apply() is thread safe.
#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/query/collator.h"

namespace mongo {

class UpdateDriver {
public:
    // u: a replacement document or an operator document. Throws DBException:
    // FailedToParse (9) for unknown operators ("Unknown modifier: $foo..."), empty operator
    // documents, BadValue, ConflictingUpdateOperators (40) for paths that conflict, ...
    // bypassEmptyTsReplacement: keep top-level Timestamp(0, 0) values of a replacement document
    // as they are (the write commands' option); by default they become the write's timestamp.
    // collator: the update's collation (null: simple): arrayFilters, $pull/$pullAll,
    // $addToSet, $push's $sort, $min and $max compare strings under it.
    explicit UpdateDriver(const BSONObj& u, const std::vector<BSONObj>& arrayFilters = {},
                          bool bypassEmptyTsReplacement = false, CollatorPtr collator = nullptr);
    ~UpdateDriver();
    UpdateDriver(UpdateDriver&&) noexcept;

    bool isReplacement() const;

    // Returns the updated document. positionalIndex: the array index matched by the query
    // (MatchDetails::elemMatchKey) for "a.$", empty if none. isInsert: the document is being
    // created by an upsert ($setOnInsert applies). *changed is set false when the update is a
    // no-op (the document is returned unchanged). _id is kept first; changing it throws
    // ImmutableField (66). Type errors throw TypeMismatch (14) etc. with MongoDB's messages.
    BSONObj apply(const BSONObj& doc, const std::string& positionalIndex, bool isInsert, bool* changed) const;

    // The base document of an upsert: the query's equality predicates on fields (top level
    // and within $and), e.g. {a: 1, "b.c": 2, d: {$gt: 1}} -> {a: 1, b: {c: 2}}. Throws
    // NotSingleValueField (54) / NotExactValueField (111) where MongoDB does.
    static BSONObj seedUpsertDocument(const BSONObj& query);

private:
    struct Impl;
    std::unique_ptr<Impl> _impl;
};

}  // namespace mongo
