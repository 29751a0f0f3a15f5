#include "mongo/db/auth/authentication_restrictions.h"

#include <arpa/inet.h>

#include <cstring>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo::auth {

std::optional<std::vector<unsigned char>> CidrRange::parseAddress(const std::string& text) {
    unsigned char buf[16];
    if (inet_pton(AF_INET, text.c_str(), buf) == 1) return std::vector<unsigned char>(buf, buf + 4);
    if (inet_pton(AF_INET6, text.c_str(), buf) == 1) {
        // An IPv4 client seen through an IPv6 socket (::ffff:a.b.c.d) is that IPv4 address.
        static const unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (std::memcmp(buf, kMapped, 12) == 0) return std::vector<unsigned char>(buf + 12, buf + 16);
        return std::vector<unsigned char>(buf, buf + 16);
    }
    return std::nullopt;
}

StatusWith<CidrRange> CidrRange::parse(const std::string& text) {
    auto bad = [&] { return Status(ErrorCodes::BadValue, "'" + text + "' is not a valid IP address or CIDR range"); };
    const auto slash = text.find('/');
    auto address = parseAddress(text.substr(0, slash));
    if (!address) return bad();
    CidrRange r;
    r._bytes = *address;
    const int maxBits = int(r._bytes.size()) * 8;
    r._prefixBits = maxBits;
    if (slash != std::string::npos) {
        const std::string bits = text.substr(slash + 1);
        if (bits.empty() || bits.size() > 3 || bits.find_first_not_of("0123456789") != std::string::npos) return bad();
        r._prefixBits = std::stoi(bits);
        if (r._prefixBits > maxBits) return bad();
    }
    return r;
}

bool CidrRange::contains(const std::vector<unsigned char>& address) const {
    if (address.size() != _bytes.size()) return false;
    int bits = _prefixBits;
    for (size_t i = 0; i < _bytes.size() && bits > 0; ++i, bits -= 8) {
        const unsigned char mask = bits >= 8 ? 0xff : static_cast<unsigned char>(0xff << (8 - bits));
        if ((address[i] & mask) != (_bytes[i] & mask)) return false;
    }
    return true;
}

namespace {
constexpr const char* kFields[] = {"clientSource", "serverAddress"};

bool anyRangeContains(const BSONElement& ranges, const std::string& address) {
    auto parsed = CidrRange::parseAddress(address);
    if (!parsed || ranges.type() != Array) return false;
    for (BSONElement e : ranges.Obj()) {
        if (e.type() != String) continue;
        auto r = CidrRange::parse(e.str());
        if (r.isOK() && r.getValue().contains(*parsed)) return true;
    }
    return false;
}
}  // namespace

StatusWith<BSONArray> parseRestrictions(const BSONElement& arg, const std::string& field) {
    if (arg.type() != Array)
        return Status(ErrorCodes::TypeMismatch, "BSON field '" + field + "' is the wrong type '" +
                                                    typeName(arg.type()) + "', expected type 'array'");
    BSONArrayBuilder out;
    for (BSONElement doc : arg.Obj()) {
        if (doc.type() != Object)
            return Status(ErrorCodes::TypeMismatch, field + " must contain only documents, found " + typeName(doc.type()));
        BSONObjBuilder checked;
        for (BSONElement f : doc.Obj()) {
            const std::string name(f.fieldNameStringData());
            if (name != kFields[0] && name != kFields[1])
                return Status(ErrorCodes::BadValue, "Unknown restriction type '" + name + "' in " + field +
                                                        " (expected clientSource or serverAddress)");
            if (f.type() != Array)
                return Status(ErrorCodes::TypeMismatch, field + "." + name + " must be an array of IP addresses or "
                                                                             "CIDR ranges");
            for (BSONElement range : f.Obj()) {
                if (range.type() != String)
                    return Status(ErrorCodes::TypeMismatch, field + "." + name + " must contain only strings");
                auto r = CidrRange::parse(range.str());
                if (!r.isOK()) return r.getStatus();
            }
            checked.append(f);
        }
        out.append(checked.obj());
    }
    return out.arr();
}

std::optional<BSONArray> restrictionsArgument(const BSONObj& cmd, const std::string& cmdName) {
    BSONElement r = cmd["authenticationRestrictions"];
    if (r.eoo()) return std::nullopt;
    auto parsed = parseRestrictions(r, cmdName + ".authenticationRestrictions");
    if (!parsed.isOK()) throw DBException(parsed.getStatus());
    return parsed.getValue();
}

bool restrictionsAllow(const BSONObj& list, const std::string& clientAddress, const std::string& serverAddress) {
    if (list.isEmpty()) return true;
    for (BSONElement doc : list) {
        if (doc.type() != Object) continue;
        const BSONObj d = doc.Obj();
        const BSONElement client = d[kFields[0]], server = d[kFields[1]];
        if (!client.eoo() && !anyRangeContains(client, clientAddress)) continue;
        if (!server.eoo() && !anyRangeContains(server, serverAddress)) continue;
        return true;
    }
    return false;
}

std::string addressOfRemote(const std::string& remote) {
    if (!remote.empty() && remote[0] == '[') {
        const auto close = remote.find(']');
        return close == std::string::npos ? std::string() : remote.substr(1, close - 1);
    }
    const auto colon = remote.rfind(':');
    std::string host = colon == std::string::npos ? remote : remote.substr(0, colon);
    return CidrRange::parseAddress(host) ? host : std::string();
}

}  // namespace mongo::auth
