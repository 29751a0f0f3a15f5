#include "mongo/db/storage/recovery_unit.h"

#include <exception>

#include "mongo/util/log.h"

namespace mongo {

void RecoveryUnit::runCommitHandlers() {
    _preCommit.clear();
    auto fs = std::move(_onCommit);
    _onCommit.clear();
    _onRollback.clear();
    for (auto& f : fs) {
        try {
            f();
        } catch (const DBException& e) {
            LOGV2_ERROR(22750, Storage, "A commit handler failed after its unit of work committed",
                        logv2::attrs("error", e.toStatus().toString()));
        } catch (const std::exception& e) {
            LOGV2_ERROR(22750, Storage, "A commit handler failed after its unit of work committed",
                        logv2::attrs("error", std::string(e.what())));
        }
    }
}

}  // namespace mongo
