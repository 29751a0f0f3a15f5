#pragma once
// Whether a member's process is gone rather than unreachable: a TCP connect to its host:port
// that the host answers with a refusal (nothing listens there) within timeoutMillis. A
// timeout, an unknown host or any other error is "not known to be refused" (false): the member
// may be alive behind a partition. Blocking for at most timeoutMillis; thread safe.
#include <string>

namespace mongo {
namespace repl {

bool portRefusesConnections(const std::string& hostAndPort, int timeoutMillis);

}  // namespace repl
}  // namespace mongo
