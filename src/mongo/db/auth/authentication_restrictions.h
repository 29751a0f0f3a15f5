#pragma once
// authenticationRestrictions of users and roles, as MongoDB 7.0 has them:
//   [{clientSource: ["<IP>" | "<CIDR>", ...], serverAddress: ["<IP>" | "<CIDR>", ...]}, ...]
// A user may authenticate only from where its restrictions allow:
//   - within one restriction document, every field present must match (the client's address
//     in one of clientSource's ranges, the address it connected to in one of serverAddress's);
//   - of one list (the user's own, or one role's), at least one document must match;
//   - the user's own list and the list of every role it holds, directly or inherited, must
//     each be met. An empty list restricts nothing.
// Checked when a SCRAM conversation succeeds (sasl_commands.cpp): otherwise the client gets
// AuthenticationFailed like any other failure, and the reason goes to the log only.
// Pure (unit-tested): thread safe.
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo::auth {

// An IPv4 or IPv6 address range ("10.0.0.0/8", "::1", "fe80::/10"; a bare address is /32 or
// /128).
class CidrRange {
public:
    static StatusWith<CidrRange> parse(const std::string& text);
    // An address as text (no port, no brackets); nullopt if it is not an IP address.
    static std::optional<std::vector<unsigned char>> parseAddress(const std::string& text);
    bool contains(const std::vector<unsigned char>& address) const;

private:
    std::vector<unsigned char> _bytes;  // 4 or 16
    int _prefixBits = 0;
};

// Checks a command's authenticationRestrictions argument (an array of restriction documents)
// and returns it as stored (BadValue / TypeMismatch with MongoDB-style messages otherwise).
StatusWith<BSONArray> parseRestrictions(const BSONElement& arg, const std::string& field);
// A user or role command's authenticationRestrictions argument, checked (throws the error
// above); nullopt when the command has none.
std::optional<BSONArray> restrictionsArgument(const BSONObj& cmd, const std::string& cmdName);

// Whether one list of restriction documents (as stored) admits a client at clientAddress that
// connected to serverAddress (addresses as text, without port; "" when unknown, which no
// range contains).
bool restrictionsAllow(const BSONObj& list, const std::string& clientAddress, const std::string& serverAddress);

// The IP address part of a connection's peer as the transport layer names it
// ("10.1.2.3:5000", "[::1]:5000"); "" for a unix socket.
std::string addressOfRemote(const std::string& remote);

}  // namespace mongo::auth
