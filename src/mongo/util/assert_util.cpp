#include <cstdio>
#include <cstdlib>

#include "mongo/base/status.h"
#include "mongo/util/log.h"

namespace mongo {

void invariantFailed(const char* expr, const char* file, int line) {
    logv2::log(logv2::Severity::Fatal, logv2::Component::Control, 23081, "Invariant failure",
               logv2::attrs("expr", expr, "file", file, "line", line));
    std::fprintf(stderr, "Invariant failure %s at %s:%d\n", expr, file, line);
    std::abort();
}

}  // namespace mongo
