#pragma once
// The DuplicateKey (11000) error with the details MongoDB 7.0 reports in writeErrors and
// error replies (its DuplicateKeyErrorInfo): keyPattern, keyValue, and for an index with a
// collation its collation. Every layer lets it through as it is (or rethrows it with the
// details), so that the reply of every command that hits a unique index carries them.
//
// Strings in keys of an index with a collation are collation keys (binary, not text), and a
// string may hold invalid UTF-8: such values are reported hex-encoded, so that the reply is
// valid UTF-8 for drivers. The message shows them as "0x<hex>"; keyValue holds the bare hex
// and "hexEncoded" (one boolean per key field) says which fields were encoded.
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class DuplicateKeyException : public DBException {
public:
    // keyValue: the key as stored, with the pattern's field names. collation: the index's full
    // collation spec (empty for the simple collation).
    DuplicateKeyException(const NamespaceString& nss, const std::string& indexName, const BSONObj& keyPattern,
                          const BSONObj& keyValue, const BSONObj& collation = BSONObj());
    // The same error passed on with another message (e.g. "$merge failed: E11000 ..."); info as
    // info() gave it.
    DuplicateKeyException(std::string reason, BSONObj info);

    // The reply's fields: {keyPattern, keyValue[, hexEncoded][, collation]}.
    const BSONObj& info() const { return _info; }
    BSONObj keyPattern() const { return _info["keyPattern"].Obj(); }
    BSONObj keyValue() const { return _info["keyValue"].Obj(); }  // as reported (hex-encoded fields)

private:
    BSONObj _info;
};

// "E11000 duplicate key error collection: db.c index: a_1 [collation: {...} ]dup key: { a: 1 }"
std::string duplicateKeyMessage(const NamespaceString& nss, const std::string& indexName, const BSONObj& keyValue,
                                const BSONObj& collation = BSONObj());

}  // namespace mongo
