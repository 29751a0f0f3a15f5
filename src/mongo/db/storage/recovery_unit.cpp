#include "mongo/db/storage/recovery_unit.h"

#include <exception>

#include "mongo/util/log.h"

namespace mongo {

namespace {
void runLogged(const std::function<void()>& f, const char* what) {
    try {
        f();
    } catch (const DBException& e) {
        LOGV2_ERROR(22750, Storage, "A unit of work's handler failed", logv2::attrs("handler", what, "error",
                                                                                e.toStatus().toString()));
    } catch (const std::exception& e) {
        LOGV2_ERROR(22750, Storage, "A unit of work's handler failed",
                    logv2::attrs("handler", what, "error", std::string(e.what())));
    } catch (...) {
        LOGV2_ERROR(22750, Storage, "A unit of work's handler failed",
                    logv2::attrs("handler", what, "error", std::string("unknown exception")));
    }
}
}  // namespace

void RecoveryUnit::runCommitHandlers() {
    _preCommit.clear();
    auto fs = std::move(_onCommit);
    _onCommit.clear();
    _onRollback.clear();
    for (auto& f : fs) runLogged(f, "commit");
}

void RecoveryUnit::runRollbackHandlers() {
    _preCommit.clear();
    auto fs = std::move(_onRollback);
    _onCommit.clear();
    _onRollback.clear();
    for (auto it = fs.rbegin(); it != fs.rend(); ++it) runLogged(*it, "rollback");
}

}  // namespace mongo
