#pragma once
// IndexKeyGenerator: the index keys of a document for a btree key pattern, as MongoDB's
// BtreeKeyGenerator produces them:
//   - one value per key-pattern field, found by its dotted path; a missing field gives null,
//     named key_string::kMissingFieldName so the key still tells it from a null value (sparse
//     indexes skip a document whose fields are all missing);
//   - an array along a path produces one key per element (the index becomes multikey); an
//     empty array gives undefined (or null if the path continues past it); nested arrays at
//     the end of a path are indexed whole; two fields whose paths cross different arrays
//     fail with CannotIndexParallelArrays (171);
//   - numeric path components ("a.0.b") index into arrays positionally;
//   - a "hashed" field ({a: "hashed"}, or one field of a compound pattern) keys the value's
//     64-bit hash as a NumberLong (db/hash/bson_element_hasher.h), a missing field the hash of
//     null; an array along its path fails with 16766, as in MongoDB 7.0.
//   - with a collation (db/query/collator.h), strings at any depth in a key are replaced by
//     the collator's comparison keys (a hashed field hashes the comparison key), as MongoDB
//     stores them: index order and uniqueness follow the collation.
// Keys are BSONObjs with empty field names (but for missing fields), deduplicated by value.
// Thread safety: immutable after construction; getKeys may be called concurrently.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/multikey_paths.h"
#include "mongo/db/query/collator.h"

namespace mongo {

// Keys compared by their values only: a missing field's marked null and a null value are one
// key (they are the same index entry, whose type bits say which it holds).
struct KeyValueCmp {
    bool operator()(const BSONObj& a, const BSONObj& b) const { return a.woCompare(b, false) < 0; }
};
using KeyStringSet = std::set<BSONObj, KeyValueCmp>;

class IndexKeyGenerator {
public:
    // collator: the index's collation (null: simple).
    IndexKeyGenerator(const BSONObj& keyPattern, bool sparse, CollatorPtr collator = nullptr);

    // Adds the keys of doc to keys; sets *multikey if an array was traversed (when non-null).
    // Throws DBException(CannotIndexParallelArrays).
    void getKeys(const BSONObj& doc, KeyStringSet* keys, bool* multikey) const;
    // The same, also adding to *paths (one set per key field, sized by the call) the path
    // components at which an array was traversed for that field.
    void getKeys(const BSONObj& doc, KeyStringSet* keys, MultikeyPaths* paths) const;

private:
    void generate(const BSONObj& doc, KeyStringSet* keys, MultikeyPaths* paths) const;  // without collation
    void getHashedKeys(const BSONObj& doc, KeyStringSet* keys, MultikeyPaths* paths) const;

    // Component index of the array that 'pathPos' (a position inside _fieldNames[field], just
    // past the array's component) follows.
    size_t arrayComponent(size_t field, const char* pathPos) const;

    BSONObj _keyPattern;
    std::vector<std::string> _fieldNames;
    bool _sparse;
    CollatorPtr _collator;
    BSONObj _nullObj;       // {"": null}
    BSONObj _undefinedObj;  // {"": undefined}
    // A hashed key pattern: the hashed field's position, and generators of the other fields'
    // keys (dense, and sparse for documents lacking the hashed field); null when none remain.
    int _hashedField = -1;
    std::unique_ptr<IndexKeyGenerator> _others, _othersSparse;
};

}  // namespace mongo
