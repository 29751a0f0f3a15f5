// Test-only commands of the Stable API (registered only with enableTestCommands=1), as
// MongoDB's, for drivers' versioned-API tests: each just answers {ok: 1}; what matters is the
// API version they belong to (api_parameters.cpp), checked by the dispatcher:
//   testVersion2 (version 2 only), testVersion1And2, testDeprecation (deprecated in version 1),
//   testDeprecationInVersion2 and testRemoval (version 1, not 2).
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/test_commands.h"

namespace mongo {

namespace {

class ApiVersionTestCmd : public Command {
public:
    explicit ApiVersionTestCmd(std::string name) : Command(std::move(name)) {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override { return "a test command of the Stable API"; }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder&) override {}
};

struct TestVersion2Cmd : ApiVersionTestCmd {
    TestVersion2Cmd() : ApiVersionTestCmd("testVersion2") {}
};
struct TestVersion1And2Cmd : ApiVersionTestCmd {
    TestVersion1And2Cmd() : ApiVersionTestCmd("testVersion1And2") {}
};
struct TestDeprecationCmd : ApiVersionTestCmd {
    TestDeprecationCmd() : ApiVersionTestCmd("testDeprecation") {}
};
struct TestDeprecationInVersion2Cmd : ApiVersionTestCmd {
    TestDeprecationInVersion2Cmd() : ApiVersionTestCmd("testDeprecationInVersion2") {}
};
struct TestRemovalCmd : ApiVersionTestCmd {
    TestRemovalCmd() : ApiVersionTestCmd("testRemoval") {}
};
MONGO_REGISTER_TEST_COMMAND(TestVersion2Cmd);
MONGO_REGISTER_TEST_COMMAND(TestVersion1And2Cmd);
MONGO_REGISTER_TEST_COMMAND(TestDeprecationCmd);
MONGO_REGISTER_TEST_COMMAND(TestDeprecationInVersion2Cmd);
MONGO_REGISTER_TEST_COMMAND(TestRemovalCmd);

}  // namespace

}  // namespace mongo
