#include "mongo/db/session/logical_session_id.h"

#include <openssl/evp.h>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/bson/uuid.h"

namespace mongo {

namespace {
std::string sha256(const std::string& data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(data.data(), data.size(), out, &len, EVP_sha256(), nullptr) != 1 || len != kUserDigestLength)
        uasserted(ErrorCodes::InternalError, "SHA-256 failed");
    return std::string(reinterpret_cast<const char*>(out), len);
}
}  // namespace

std::string noAuthUserDigest() {
    static const std::string digest = sha256("");
    return digest;
}

std::string userDigest(const std::string& user, const std::string& db) {
    if (user.empty() && db.empty()) return noAuthUserDigest();
    return sha256(db + "." + user);
}

void appendUserDigest(BSONObjBuilder& b, std::string_view name, const std::string& digest) {
    b.appendBinData(name, static_cast<int>(digest.size()), 0, digest.data());
}

std::optional<std::string> lsidIdHex(const BSONObj& lsid) { return uuidHexFromElement(lsid["id"]); }

BSONObj sessionIdFromHex(const std::string& idHex) {
    BSONObjBuilder b;
    appendUuidHex(b, "id", idHex);
    appendUserDigest(b, "uid", noAuthUserDigest());
    return b.obj();
}

BSONObj sessionIdWithUid(const BSONObj& lsid) { return sessionIdFromHex(lsidIdHex(lsid).value()); }

}  // namespace mongo
