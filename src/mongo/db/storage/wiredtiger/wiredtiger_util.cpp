#include "mongo/db/storage/wiredtiger/wiredtiger_util.h"

#include <cerrno>

#include "mongo/util/log.h"

namespace mongo {

Status wtRCToStatus(int ret, std::string_view context) {
    if (ret == 0) return Status::OK();
    std::string ctx(context);
    switch (ret) {
        case WT_ROLLBACK: return Status(ErrorCodes::WriteConflict, kWriteConflictMessage);
        case WT_DUPLICATE_KEY: return Status(ErrorCodes::DuplicateKey, ctx + ": duplicate key");
        case WT_CACHE_FULL:
            return Status(ErrorCodes::ExceededMemoryLimit, ctx + ": WiredTiger cache is full");
        case ENOENT: return Status(ErrorCodes::NamespaceNotFound, ctx + ": table does not exist");
        default: break;
    }
    return Status(ErrorCodes::InternalError,
                  ctx + ": WiredTiger error " + std::to_string(ret) + ": " + wiredtiger_strerror(ret));
}

void wtInvariant(int ret, const char* expr, const char* file, int line) {
    LOGV2_ERROR(22435, Storage, "WiredTiger call failed",
                logv2::attrs("expr", expr, "error", ret, "message", wiredtiger_strerror(ret)));
    invariantFailed(expr, file, line);
}

}  // namespace mongo
