// is_self.h without a server: names match first; a host nobody listens on is not self (and is
// asked again next time rather than remembered); the process id is fixed.
#include "mongo/db/repl/is_self.h"

#include <gtest/gtest.h>

#include "mongo/db/repl/repl_config.h"

namespace mongo {
namespace repl {
namespace {

TEST(IsSelf, ProcessIdIsStable) {
    EXPECT_TRUE(processInstanceId() == processInstanceId());
    EXPECT_EQ(processInstanceId().toString().size(), 24u);
}

TEST(IsSelf, NamesFirstThenNetwork) {
    ReplSetConfig c = ReplSetConfig::makeDefault("rs", "localhost:1");
    MemberConfig m = c.members[0];
    m.id = 1;
    m.host = "Example.invalid:27017";
    c.members.push_back(m);
    EXPECT_EQ(findSelfInConfig(c, {"example.invalid:27017"}, false), 1);  // case-insensitive
    EXPECT_EQ(findSelfInConfig(c, {"localhost:2"}, false), -1);
    // Port 1 on the loopback refuses at once: not self, and no hang.
    EXPECT_FALSE(isSelfByNetwork("127.0.0.1:1", 500));
}

}  // namespace
}  // namespace repl
}  // namespace mongo
