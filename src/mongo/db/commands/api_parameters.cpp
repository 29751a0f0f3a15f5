#include "mongo/db/commands/api_parameters.h"

#include "mongo/base/status.h"
#include "mongo/db/server_parameters.h"

namespace mongo {

namespace {

constexpr int kAPIVersionError = 322;
constexpr int kAPIDeprecationError = 363;

// Aggregation stages in API version 1 (MongoDB 7.0); others ($currentOp, $listLocalSessions,
// $indexStats, $collStats, $planCacheStats, ...) fail with apiStrict: true.
const std::set<std::string>& apiVersion1Stages() {
    static const std::set<std::string> s = {
        "$addFields", "$bucket", "$bucketAuto", "$changeStream", "$count", "$densify", "$documents", "$facet",
        "$fill", "$geoNear", "$graphLookup", "$group", "$limit", "$lookup", "$match", "$merge", "$out",
        "$project", "$redact", "$replaceRoot", "$replaceWith", "$sample", "$set", "$setWindowFields", "$skip",
        "$sort", "$sortByCount", "$unionWith", "$unset", "$unwind"};
    return s;
}

// Every stage of the pipeline, and of the pipelines nested in $facet, $lookup and $unionWith.
void checkStagesStrict(const BSONElement& pipeline) {
    if (pipeline.type() != Array) return;  // the aggregate command reports a malformed pipeline
    for (BSONElement stage : pipeline.Obj()) {
        if (stage.type() != Object || stage.Obj().isEmpty()) continue;
        BSONElement spec = stage.Obj().firstElement();
        std::string name = spec.fieldName();
        if (!apiVersion1Stages().count(name))
            uasserted(ErrorCodes::APIStrictError, name + " is not allowed with 'apiStrict: true' in API Version 1");
        if (spec.type() != Object) continue;
        if (name == "$facet") {
            for (BSONElement sub : spec.Obj()) checkStagesStrict(sub);
        } else if (name == "$lookup" || name == "$unionWith") {
            checkStagesStrict(spec.Obj()["pipeline"]);
        }
    }
}

bool exemptFromRequireApiVersion(const std::string& name) {
    // The handshake, and what replica-set members send each other (MongoDB exempts internal
    // clients).
    return name == "hello" || name == "isMaster" || name == "ismaster" || name.rfind("replSet", 0) == 0 ||
           name.rfind("_", 0) == 0;
}

}  // namespace

const std::set<std::string>& apiVersion1Commands() {
    static const std::set<std::string> s = {
        "abortTransaction", "aggregate", "authenticate", "collMod", "commitTransaction", "count", "create",
        "createIndexes", "delete", "drop", "dropDatabase", "dropIndexes", "endSessions", "explain", "find",
        "findAndModify", "getMore", "hello", "insert", "killCursors", "listCollections", "listDatabases",
        "listIndexes", "ping", "refreshSessions", "saslContinue", "saslStart", "update",
        // Test commands (enableTestCommands) of version 1, as MongoDB's.
        "testDeprecation", "testDeprecationInVersion2", "testVersion1And2", "testRemoval"};
    return s;
}

const std::set<std::string>& apiVersion1DeprecatedCommands() {
    static const std::set<std::string> s = {"testDeprecation"};
    return s;
}

void checkAPIParameters(const std::string& commandName, const BSONObj& body, bool internalClient) {
    BSONElement version = body["apiVersion"];
    BSONElement strict = body["apiStrict"];
    BSONElement deprecation = body["apiDeprecationErrors"];
    if (!version.eoo() && version.type() != String)
        uasserted(ErrorCodes::TypeMismatch, "BSON field 'apiVersion' is the wrong type '" + typeName(version.type()) +
                                                "', expected type 'string'");
    for (const BSONElement& flag : {strict, deprecation})
        if (!flag.eoo() && flag.type() != Bool)
            uasserted(ErrorCodes::TypeMismatch, "BSON field '" + std::string(flag.fieldName()) + "' is the wrong type '" +
                                                    typeName(flag.type()) + "', expected type 'bool'");
    if (version.eoo()) {
        if (!strict.eoo() || !deprecation.eoo())
            uasserted(4886600, "Provided apiStrict and/or apiDeprecationErrors without passing apiVersion");
        if (requireApiVersion() && !internalClient && !exemptFromRequireApiVersion(commandName))
            uasserted(498870, "The apiVersion parameter is required, please configure your MongoClient's API version");
        return;
    }
    if (version.str() != "1") uasserted(kAPIVersionError, "API version must be \"1\"");
    if (strict.trueValue()) {
        if (!apiVersion1Commands().count(commandName))
            uasserted(ErrorCodes::APIStrictError,
                      "Provided apiStrict:true, but the command " + commandName +
                          " is not in API Version 1. Information on supported commands and migrations in API "
                          "Version 1 can be found at https://dochub.mongodb.org/core/manual-versioned-api");
        if (commandName == "aggregate") checkStagesStrict(body["pipeline"]);
    }
    if (deprecation.trueValue() && apiVersion1DeprecatedCommands().count(commandName))
        uasserted(kAPIDeprecationError, "Provided apiDeprecationErrors:true, but the command " +
                                                        commandName + " is deprecated in API Version 1");
}

}  // namespace mongo
