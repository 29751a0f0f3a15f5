#pragma once
// Helpers shared by the WiredTiger implementation: mapping WiredTiger return codes to
// MongoDB's error codes, and WT_ITEM construction.
// WT_ROLLBACK -> WriteConflict (112, retryable), WT_DUPLICATE_KEY -> DuplicateKey (11000),
// WT_CACHE_FULL -> ExceededMemoryLimit, ENOENT -> NamespaceNotFound, anything else ->
// InternalError with WiredTiger's message.
#include <wiredtiger.h>

#include <string>
#include <string_view>

#include "mongo/base/status.h"

namespace mongo {

Status wtRCToStatus(int ret, std::string_view context);

// Throws DBException for ret != 0.
inline void wtCheck(int ret, std::string_view context) {
    if (ret != 0) throw DBException(wtRCToStatus(ret, context));
}

// Aborts on ret != 0: for calls that cannot fail unless the engine is broken.
void wtInvariant(int ret, const char* expr, const char* file, int line);
#define invariantWTOK(expr)                                                 \
    do {                                                                    \
        int _wtRet = (expr);                                                \
        if (_wtRet != 0) ::mongo::wtInvariant(_wtRet, #expr, __FILE__, __LINE__); \
    } while (0)

inline WT_ITEM wtItem(const void* data, size_t size) {
    WT_ITEM item{};
    item.data = data;
    item.size = size;
    return item;
}
inline WT_ITEM wtItem(std::string_view s) { return wtItem(s.data(), s.size()); }
inline std::string_view itemView(const WT_ITEM& item) {
    return std::string_view(static_cast<const char*>(item.data), item.size);
}

// MongoDB's message for a write conflict.
constexpr const char* kWriteConflictMessage =
    "WriteConflict error: this operation conflicted with another operation. Please retry your "
    "operation or multi-document transaction.";

}  // namespace mongo
