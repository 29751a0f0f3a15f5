// The Stable API parameters and the readConcern argument, checked before a command runs.
#include <gtest/gtest.h>

#include "mongo/base/code_of_test_util.h"

#include <functional>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/commands/api_parameters.h"
#include "mongo/db/commands/read_concern_check.h"

namespace mongo {
namespace {

int apiCode(const std::string& cmd, const char* json, std::string* msg = nullptr) {
    return codeOf([&] { checkAPIParameters(cmd, fromjson(json)); }, msg);
}

TEST(APIParametersTest, VersionAndFlags) {
    EXPECT_EQ(apiCode("ping", R"({"ping": 1})"), 0);
    EXPECT_EQ(apiCode("ping", R"({"ping": 1, "apiVersion": "1"})"), 0);
    EXPECT_EQ(apiCode("ping", R"({"ping": 1, "apiVersion": "2"})"), 322);
    EXPECT_EQ(apiCode("ping", R"({"ping": 1, "apiVersion": 1})"), static_cast<int>(ErrorCodes::TypeMismatch));
    EXPECT_EQ(apiCode("ping", R"({"ping": 1, "apiStrict": true})"), 4886600);
    EXPECT_EQ(apiCode("ping", R"({"ping": 1, "apiDeprecationErrors": false})"), 4886600);
    EXPECT_EQ(apiCode("ping", R"({"ping": 1, "apiVersion": "1", "apiStrict": 1})"), static_cast<int>(ErrorCodes::TypeMismatch));
}

TEST(APIParametersTest, StrictRefusesCommandsAndStagesOutsideVersion1) {
    std::string msg;
    EXPECT_EQ(apiCode("distinct", R"({"distinct": "c", "apiVersion": "1", "apiStrict": true})", &msg), 323);
    EXPECT_NE(msg.find("the command distinct is not in API Version 1"), std::string::npos);
    EXPECT_EQ(apiCode("distinct", R"({"distinct": "c", "apiVersion": "1", "apiStrict": false})"), 0);
    EXPECT_EQ(apiCode("count", R"({"count": "c", "apiVersion": "1", "apiStrict": true})"), 0);
    EXPECT_EQ(apiCode("aggregate", R"({"aggregate": 1, "pipeline": [{"$currentOp": {}}], "apiVersion": "1",
                                       "apiStrict": true})", &msg), 323);
    EXPECT_EQ(msg, "$currentOp is not allowed with 'apiStrict: true' in API Version 1");
    EXPECT_EQ(apiCode("aggregate", R"({"aggregate": "c", "pipeline": [{"$lookup": {"from": "d", "as": "x",
                                       "pipeline": [{"$collStats": {}}]}}], "apiVersion": "1", "apiStrict": true})"),
              323);
    EXPECT_EQ(apiCode("aggregate", R"({"aggregate": "c", "pipeline": [{"$match": {}}, {"$group": {"_id": 1}}],
                                       "apiVersion": "1", "apiStrict": true})"), 0);
    EXPECT_EQ(apiCode("testDeprecation", R"({"testDeprecation": 1, "apiVersion": "1", "apiDeprecationErrors": true})"),
              363);
    EXPECT_EQ(apiCode("testDeprecation", R"({"testDeprecation": 1, "apiVersion": "1"})"), 0);
}

int rcCode(const char* json, bool replSet) {
    return codeOf([&] { checkReadConcernArgument(fromjson(json), replSet); });
}

TEST(ReadConcernCheckTest, StandaloneAndReplicaSet) {
    EXPECT_EQ(rcCode(R"({"find": "c"})", false), 0);
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": {"level": "local"}})", false), 0);
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": {"level": "majority"}})", false), 0);
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": {"level": "snapshot"}})", false), static_cast<int>(ErrorCodes::NotAReplicaSet));
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": {"level": "snapshot"}})", true), 0);
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": {"level": "linearizable"}})", false), static_cast<int>(ErrorCodes::NotAReplicaSet));
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": {"level": "unknown"}})", true), static_cast<int>(ErrorCodes::FailedToParse));
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": {"level": 1}})", true), static_cast<int>(ErrorCodes::TypeMismatch));
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": "local"})", true), static_cast<int>(ErrorCodes::TypeMismatch));
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": {"x": 1}})", true), static_cast<int>(ErrorCodes::InvalidOptions));
    EXPECT_EQ(rcCode(R"({"find": "c", "readConcern": {"afterClusterTime": {"$timestamp": {"t": 1, "i": 1}}}})", false),
              static_cast<int>(ErrorCodes::IllegalOperation));
}

}  // namespace
}  // namespace mongo
