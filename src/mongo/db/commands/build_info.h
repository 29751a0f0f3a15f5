#pragma once
// The server's version and build description: buildInfo, `mongod --version`, serverStatus.
// Thread safe (constant data).
#include <string>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

// MongoDB release this server is compatible with.
constexpr const char* kServerVersion = "7.0.14";
constexpr int kServerVersionArray[4] = {7, 0, 14, 0};
// Wire protocol versions (MongoDB 7.0: 21).
constexpr int kMinWireVersion = 0;
constexpr int kMaxWireVersion = 21;

// Appends buildInfo's fields (version, gitVersion, versionArray, bits, maxBsonObjectSize, ...).
void appendBuildInfo(BSONObjBuilder& result);

// `mongod --version` output: "db version v7.0.14\nBuild Info: {...}\n".
std::string versionBanner();

}  // namespace mongo
