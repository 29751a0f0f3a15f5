#include "mongo/db/storage/duplicate_key_error.h"

namespace mongo {

std::string duplicateKeyMessage(const NamespaceString& nss, const std::string& indexName, const BSONObj& keyValue) {
    // MongoDB prints the key as "{ a: 1 }" (shell style, unquoted names).
    std::string key = "{ ";
    bool first = true;
    for (BSONElement e : keyValue) {
        if (!first) key += ", ";
        first = false;
        key += std::string(e.fieldNameStringData()) + ": " + e.toString(false);
    }
    key += first ? "}" : " }";
    return "E11000 duplicate key error collection: " + nss.ns() + " index: " + indexName + " dup key: " + key;
}

DuplicateKeyException::DuplicateKeyException(const NamespaceString& nss, const std::string& indexName,
                                             BSONObj keyPattern, BSONObj keyValue)
    : DBException(Status(ErrorCodes::DuplicateKey, duplicateKeyMessage(nss, indexName, keyValue))),
      _keyPattern(keyPattern.getOwned()),
      _keyValue(keyValue.getOwned()) {}

DuplicateKeyException::DuplicateKeyException(std::string reason, BSONObj keyPattern, BSONObj keyValue)
    : DBException(Status(ErrorCodes::DuplicateKey, std::move(reason))),
      _keyPattern(keyPattern.getOwned()),
      _keyValue(keyValue.getOwned()) {}

}  // namespace mongo
