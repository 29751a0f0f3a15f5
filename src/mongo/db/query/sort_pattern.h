#pragma once
// A sort specification ({a: 1, "b.c": -1}) and the comparison of documents under it, with
// MongoDB's rules: missing sorts as null; for an array value the ascending key is its smallest
// element and the descending key its largest; ties keep no particular order.
// Immutable after construction: compare/extractKey may be called concurrently.
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/index_key_generator.h"
#include "mongo/db/query/path_traversal.h"

namespace mongo {

class SortPattern {
public:
    // Throws MongoDB's errors for bad specs: 15974 "Illegal key in $sort specification: a: \"x\"",
    // 15975 "$sort key ordering must be 1 (for ascending) or -1 (for descending)", FieldPath
    // errors (16410 for "$a", 40352 ...), 17312 for other expressions. {$meta: ...} is rejected
    // (no text/search metadata here). An empty spec compares every document equal. "$natural"
    // is not a path: callers handle {$natural: 1} themselves before building a SortPattern.
    // Sort keys are index keys: the keys an index over the pattern would hold for the document
    // (index_key_generator.h: arrays expanded, an empty array gives undefined, which sorts before
    // null; a positional path's array taken whole), of which the smallest under the pattern is
    // the document's; fields through two different arrays throw BadValue "cannot sort with
    // keys that are parallel arrays".
    // collator: the collation strings sort under (null: simple). Keys (extractKey) then hold
    // the collator's comparison keys of strings, not the strings: compare them with
    // compareKeys only.
    explicit SortPattern(const BSONObj& spec, CollatorPtr collator = nullptr);
    // <0, 0, >0. Extracts both keys on each call: for large sorts, extract keys once
    // (extractKey) and use compareKeys.
    int compare(const BSONObj& a, const BSONObj& b) const;
    bool operator()(const BSONObj& a, const BSONObj& b) const { return compare(a, b) < 0; }
    // The sort key of doc: one value per field, as {"": v1, "": v2}.
    BSONObj extractKey(const BSONObj& doc) const;
    int compareKeys(const BSONObj& ka, const BSONObj& kb) const;
    const BSONObj& spec() const { return _spec; }
    struct Part {
        std::string path;
        bool ascending;
    };
    const std::vector<Part>& parts() const { return _parts; }

private:
    // The key when no sort path meets an array (elements point into doc); false otherwise.
    bool fastKey(const BSONObj& doc, std::vector<BSONElement>* key) const;
    BSONObj keyOf(const BSONObj& doc) const;

    BSONObj _spec;
    std::vector<Part> _parts;
    std::vector<DottedPath> _pathParts;  // _parts[i].path split at dots
    CollatorPtr _collator;
    std::shared_ptr<const IndexKeyGenerator> _keyGen;  // keys of the pattern, for arrays
};

}  // namespace mongo
