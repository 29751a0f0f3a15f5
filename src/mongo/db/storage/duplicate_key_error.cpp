#include "mongo/db/storage/duplicate_key_error.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/storage/key_string.h"
#include "mongo/db/update/element_format.h"

namespace mongo {
namespace {

// Collation keys are bytes, and a string may be invalid UTF-8: both are shown as hex.
bool hexEncoded(const BSONElement& e, bool collated) {
    return e.type() == String && (collated || !isValidUtf8(e.valueStringData()));
}

}  // namespace

std::string duplicateKeyMessage(const NamespaceString& nss, const std::string& indexName, const BSONObj& keyValue,
                                const BSONObj& collation) {
    // MongoDB prints the key as "{ a: 1 }" (shell style, unquoted names).
    std::string key = "{ ";
    bool first = true;
    for (BSONElement e : keyValue) {
        if (!first) key += ", ";
        first = false;
        key += std::string(e.fieldNameStringData()) + ": ";
        if (hexEncoded(e, !collation.isEmpty())) key += "\"0x" + key_string::toHex(e.valueStringData()) + "\"";
        else key += e.toString(false);
    }
    key += first ? "}" : " }";
    std::string msg = "E11000 duplicate key error collection: " + nss.ns() + " index: " + indexName;
    if (!collation.isEmpty()) msg += " collation: " + formatObjectForError(collation);
    return msg + " dup key: " + key;
}

DuplicateKeyException::DuplicateKeyException(const NamespaceString& nss, const std::string& indexName,
                                             const BSONObj& keyPattern, const BSONObj& keyValue,
                                             const BSONObj& collation)
    : DBException(Status(ErrorCodes::DuplicateKey, duplicateKeyMessage(nss, indexName, keyValue, collation))) {
    BSONObjBuilder b;
    b.append("keyPattern", keyPattern);
    BSONObjBuilder& kv = b.subobjStart("keyValue");
    std::vector<bool> encoded;
    bool anyEncoded = false;
    for (BSONElement e : keyValue) {
        encoded.push_back(hexEncoded(e, !collation.isEmpty()));
        anyEncoded |= encoded.back();
        if (encoded.back()) kv.append(e.fieldNameStringData(), key_string::toHex(e.valueStringData()));
        else kv.append(e);
    }
    kv.doneFast();
    if (anyEncoded) {
        BSONArrayBuilder& a = b.subarrayStart("hexEncoded");
        for (bool x : encoded) a.append(x);
        a.doneFast();
    }
    if (!collation.isEmpty()) b.append("collation", collation);
    _info = b.obj();
}

DuplicateKeyException::DuplicateKeyException(std::string reason, BSONObj info)
    : DBException(Status(ErrorCodes::DuplicateKey, std::move(reason))), _info(info.getOwned()) {}

}  // namespace mongo
