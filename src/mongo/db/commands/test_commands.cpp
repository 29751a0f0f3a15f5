#include "mongo/db/commands/test_commands.h"

#include <vector>

#include "mongo/db/server_parameters.h"
#include "mongo/util/log.h"

namespace mongo {

namespace {
std::vector<std::function<void()>>& factories() {
    static std::vector<std::function<void()>>* f = new std::vector<std::function<void()>>();
    return *f;
}
}  // namespace

void addTestCommandFactory(std::function<void()> construct) { factories().push_back(std::move(construct)); }

void registerTestCommandsForTesting() {
    for (auto& f : factories()) f();
}

void registerTestCommandsIfEnabled() {
    if (!testCommandsEnabled()) return;
    LOGV2(22120, Control, "Test commands are enabled (enableTestCommands=1)");
    registerTestCommandsForTesting();
}

}  // namespace mongo
