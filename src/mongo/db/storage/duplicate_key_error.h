#pragma once
// The DuplicateKey (11000) error with the details MongoDB reports in writeErrors and
// error replies: keyPattern and keyValue. Every layer lets it through as it is (or rethrows it
// with the details), so that the reply of every command that hits a unique index carries them.
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class DuplicateKeyException : public DBException {
public:
    DuplicateKeyException(const NamespaceString& nss, const std::string& indexName, BSONObj keyPattern,
                          BSONObj keyValue);
    // The same error passed on with another message (e.g. "$merge failed: E11000 ...").
    DuplicateKeyException(std::string reason, BSONObj keyPattern, BSONObj keyValue);
    const BSONObj& keyPattern() const { return _keyPattern; }
    const BSONObj& keyValue() const { return _keyValue; }  // {a: 1} (field names from the pattern)

private:
    BSONObj _keyPattern, _keyValue;
};

// "E11000 duplicate key error collection: db.c index: a_1 dup key: { a: 1 }"
std::string duplicateKeyMessage(const NamespaceString& nss, const std::string& indexName, const BSONObj& keyValue);

}  // namespace mongo
