#pragma once
// What the planner knows of one index: key pattern, per-field multikey paths, and the
// properties that decide whether it may answer a query (sparse, partial, hidden).
// A snapshot taken when the query is planned; plain values (the descriptor is owned by the
// collection, which the caller keeps locked).
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/collection.h"

namespace mongo {

class MatchExpression;

struct IndexEntry {
    const IndexDescriptor* desc = nullptr;
    std::string name;
    std::string ident;  // the index's table (IndexDescriptor::ident)
    BSONObj keyPattern;
    std::vector<std::string> fields;  // key-pattern paths, in order
    std::vector<int> directions;      // 1 / -1 per field
    MultikeyPaths multikeyPaths;      // one set per field
    bool multikey = false;
    bool unique = false;
    bool sparse = false;
    bool hidden = false;
    const MatchExpression* partialFilter = nullptr;  // owned by the index catalog
    // The key field holding hashes ({a: "hashed"}), or -1. Its keys are not the document's
    // values: they give only equality bounds (inexact: values may collide), and never cover a
    // projection or filter, provide a sort or answer a distinct.
    int hashedField = -1;
    // The index's collation (null: simple; owned by the descriptor). Its keys hold comparison
    // keys of strings: bounds are translated, and keys never cover a projection or filter.
    const Collator* collator = nullptr;

    bool fieldMultikey(size_t i) const { return i < multikeyPaths.size() && !multikeyPaths[i].empty(); }
    bool fieldHashed(size_t i) const { return hashedField >= 0 && i == static_cast<size_t>(hashedField); }
    // Position of path among the key fields, or -1.
    int fieldIndex(std::string_view path) const;
    // Every key field is a distinct path and none is a prefix of another, none is hashed, and
    // the index has no collation (its keys hold comparison keys, not the strings), so a
    // document can be rebuilt from a key (covered plans and key filters need that).
    bool keyFieldsIndependent() const;

    static IndexEntry make(OperationContext* opCtx, const Collection* coll, const IndexDescriptor* desc);
};

// The entries of every index of coll (hidden ones included; the planner skips them).
std::vector<IndexEntry> indexEntriesOf(OperationContext* opCtx, const Collection* coll);

// The document a key stands for: {a: {b: v1}, c: v2} for key pattern {"a.b": 1, c: 1}; a
// field the document lacks (key_string::isMissingKeyValue) is left out, as in the document.
// REQUIRES: entry.keyFieldsIndependent().
BSONObj keyToDocument(const IndexEntry& entry, const BSONObj& key);
// The key with field names: {"a.b": v1, c: v2} (returnKey's output).
BSONObj keyWithFieldNames(const BSONObj& keyPattern, const BSONObj& key);

// Number of dot-separated components of a path.
size_t pathComponents(std::string_view path);
// Number of leading components two paths share ("a.b.c", "a.b.d" -> 2).
size_t sharedComponents(std::string_view a, std::string_view b);
// True if prefix is path itself or one of its dotted prefixes ("a" of "a.b").
bool isPathPrefixOf(std::string_view prefix, std::string_view path);

}  // namespace mongo
