#pragma once
// Test-only commands (configureFailPoint, waitForFailPoint, ...) exist only when the server
// starts with --setParameter enableTestCommands=1, as in MongoDB: otherwise they are unknown
// commands (CommandNotFound) and absent from listCommands.
//
// Such a command is not a global instance; its file registers a factory instead:
//   MONGO_REGISTER_TEST_COMMAND(ConfigureFailPointCmd);
// and main() calls registerTestCommandsIfEnabled() once options are applied, before serving.
// Thread safety: both functions run during startup only (single-threaded).
#include <functional>

namespace mongo {

void addTestCommandFactory(std::function<void()> construct);
// Constructs (and thereby registers) every test command if enableTestCommands is set.
// Idempotent.
void registerTestCommandsIfEnabled();
// Same, regardless of the parameter (unit tests).
void registerTestCommandsForTesting();

}  // namespace mongo

#define MONGO_TEST_COMMAND_CONCAT2(a, b) a##b
#define MONGO_TEST_COMMAND_CONCAT(a, b) MONGO_TEST_COMMAND_CONCAT2(a, b)
#define MONGO_REGISTER_TEST_COMMAND(CmdClass)                                                    \
    static const bool MONGO_TEST_COMMAND_CONCAT(kTestCommandRegistered_, CmdClass) =            \
        (::mongo::addTestCommandFactory([] { static CmdClass instance; }), true)
