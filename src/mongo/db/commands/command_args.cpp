#include "mongo/db/commands/command_args.h"

#include <map>
#include <set>

#include "mongo/base/status.h"

namespace mongo {

namespace {

[[noreturn]] void unknownField(std::string_view path, std::string_view field) {
    uasserted(ErrorCodes::Location40415,
              "BSON field '" + std::string(path) + "." + std::string(field) + "' is an unknown field.");
}

[[noreturn]] void duplicateField(std::string_view path, std::string_view field) {
    uasserted(40413, "BSON field '" + std::string(path) + "." + std::string(field) + "' is a duplicate field.");
}

// The table: one entry per command (canonical name). Fields are those of MongoDB 7.0's request
// structs that this server implements; internal fields (sharding, replication, encryption,
// resharding) are not declared and so are unknown here. Where a field is accepted although it
// changes nothing on this server, the comment says why that is what MongoDB does too.
std::map<std::string, CommandArgs, std::less<>> buildTable() {
    using A = CommandArgs;
    std::map<std::string, CommandArgs, std::less<>> t;
    auto add = [&t](const char* name, CommandArgs a) { t.emplace(name, std::move(a)); };

    // --- CRUD ---
    // allowPartialResults: only meaningful on mongos (a standalone has no shards to miss);
    // oplogReplay: deprecated, accepted and ignored by 7.0; readOnce: a storage caching hint
    // that cannot change results; term: a replication term, irrelevant without a replica set.
    // maxScan (removed in 4.2), $_requestResumeToken/$_resumeAfter (internal) are unknown.
    add("find", A::strict("FindCommandRequest",
                          {"filter", "projection", "sort", "hint", "skip", "limit", "batchSize", "singleBatch",
                           "max", "min", "returnKey", "showRecordId", "tailable", "oplogReplay",
                           "noCursorTimeout", "awaitData", "allowPartialResults", "collation", "readOnce", "let",
                           "term", "allowDiskUse", "$_dedupForwardDeltas"}));
    add("getMore", A::strict("getMore", {"collection", "batchSize", "term", "lastKnownCommittedOpTime", "$_replUpdatePosition"}));
    add("killCursors", A::strict("killCursors", {"cursors"}));
    add("aggregate", A::strict("aggregate", {"pipeline", "explain", "allowDiskUse", "cursor", "bypassDocumentValidation",
                                             "collation", "hint", "let"}));
    // fields: "a BSONObj added by the shell, left in for backwards compatibility" (ignored by
    // MongoDB's parser as well).
    add("count", A::strict("count", {"query", "limit", "skip", "hint", "collation", "fields"}));
    // hint on distinct is new in 7.1.
    add("distinct", A::strict("distinct", {"key", "query", "collation"}));
    add("insert", A::strict("insert", {"documents", "ordered", "bypassDocumentValidation", "stmtIds",
                                       "bypassEmptyTsReplacement"}));
    add("update", A::strict("update", {"updates", "ordered", "bypassDocumentValidation", "let", "stmtIds",
                                       "bypassEmptyTsReplacement"}));
    add("delete", A::strict("delete", {"deletes", "ordered", "let", "stmtIds"}));
    add("findAndModify", A::strict("findAndModify", {"query", "fields", "sort", "remove", "update", "new", "upsert",
                                                     "bypassDocumentValidation", "collation", "arrayFilters", "hint",
                                                     "let", "bypassEmptyTsReplacement"}));
    add("explain", A::strict("explain", {"verbosity"}));

    // --- DDL ---
    // create's options are checked again (types, values) by CollectionOptions::parse.
    add("create", A::strict("create",
                            {"capped", "autoIndexId", "idIndex", "size", "max", "storageEngine", "validator",
                             "validationLevel", "validationAction", "indexOptionDefaults", "viewOn", "pipeline",
                             "collation", "changeStreamPreAndPostImages", "timeseries", "clusteredIndex",
                             "expireAfterSeconds", "encryptedFields", "dedup"}));
    // collMod's options are parsed (types, values) and refused where unsupported by the command.
    add("collMod", A::strict("collMod", {"validator", "validationLevel", "validationAction", "index", "cappedSize",
                                         "cappedMax", "viewOn", "pipeline", "changeStreamPreAndPostImages",
                                         "expireAfterSeconds", "timeseries", "dryRun"}));
    add("drop", A::strict("drop", {}));
    add("dropDatabase", A::strict("dropDatabase", {}));
    // stayTemp: this server has no temporary collections, so none stays or stops being one.
    add("renameCollection", A::strict("renameCollection", {"to", "dropTarget", "stayTemp"}));
    // authorizedCollections / authorizedDatabases: without access control every collection is
    // authorized; includePendingDrops: no drop is ever pending here.
    add("listCollections", A::strict("listCollections", {"filter", "nameOnly", "authorizedCollections", "cursor",
                                                         "includePendingDrops"}));
    add("listDatabases", A::strict("listDatabases", {"filter", "nameOnly", "authorizedDatabases"}));
    add("createIndexes", A::strict("createIndexes", {"indexes", "commitQuorum", "ignoreUnknownIndexOptions"}));
    // includeBuildUUIDs only adds the UUIDs of index builds in progress; no build is ever in
    // progress when listIndexes runs here (they run under the exclusive catalog lock).
    add("listIndexes", A::strict("listIndexes", {"cursor", "includeBuildUUIDs", "includeIndexBuildInfo"}));
    add("dropIndexes", A::strict("dropIndexes", {"index"}));
    add("compact", A::strict("compact", {"force", "freeSpaceTargetMB"}));
    add("autoCompact", A::strict("autoCompact", {"freeSpaceTargetMB", "runOnce"}));
    // background: the result is the same as a foreground validation's (which this is);
    // checkBSONConformance: every record's BSON is checked anyway.
    // scandata: a legacy option MongoDB accepts and ignores (pymongo's validate_collection sends it).
    add("validate", A::strict("validate", {"full", "background", "checkBSONConformance", "repair", "metadata", "scandata"}));

    // --- diagnostics and administration ---
    add("dbStats", A::strict("dbStats", {"scale", "freeStorage"}));
    add("dataSize", A::strict("dataSize", {"keyPattern", "min", "max", "estimate", "maxSize", "maxObjects"}));
    add("profile", A::strict("profile", {"slowms", "sampleRate", "filter"}));
    add("shutdown", A::strict("shutdown", {"force", "timeoutSecs"}));
    add("fsync", A::strict("fsync", {"lock"}));
    add("getDefaultRWConcern", A::strict("getDefaultRWConcern", {"inMemory"}));
    add("setDefaultRWConcern", A::strict("setDefaultRWConcern", {"defaultReadConcern", "defaultWriteConcern"}));
    add("setFeatureCompatibilityVersion", A::strict("setFeatureCompatibilityVersion", {"confirm", "fromConfigServer"}));
    add("waitForFailPoint", A::strict("waitForFailPoint", {"timesEntered"}));
    // The Stable API's test commands (api_version_test_cmds.cpp) take no arguments.
    for (const char* name : {"testVersion2", "testVersion1And2", "testDeprecation", "testDeprecationInVersion2",
                             "testRemoval"})
        add(name, A::strict(name, {}));
    add("connectionStatus", A::strict("connectionStatus", {"showPrivileges"}));
    add("killAllSessions", A::strict("KillAllSessionsCmd", {}));
    // recoveryToken is mongos's; commitTimestamp belongs to prepared (sharded) transactions.
    add("commitTransaction", A::strict("commitTransaction", {"recoveryToken", "commitTimestamp"}));
    add("abortTransaction", A::strict("abortTransaction", {"recoveryToken"}));
    add("killAllSessionsByPattern", A::strict("KillAllSessionsByPatternCmd", {}));

    const char* basic = "a BasicCommand in MongoDB 7.0: it reads the fields it knows and ignores the others";
    for (const char* name : {"buildInfo", "ping", "hostInfo", "whatsmyuri", "getCmdLineOpts", "getLog", "logRotate",
                             "listCommands", "collStats", "killOp", "configureFailPoint", "startSession",
                             "endSessions", "refreshSessions", "killSessions", "dbHash",
                             "refreshLogicalSessionCacheNow", "reapLogicalSessionCacheNow"})
        add(name, A::lenient(basic));
    // --- authentication and access control (src/mongo/db/auth) ---
    add("saslStart", A::lenient("a BasicCommand in MongoDB 7.0: mechanism, payload, autoAuthorize, options"));
    add("saslContinue", A::lenient("a BasicCommand in MongoDB 7.0: conversationId, payload"));
    add("logout", A::lenient(basic));
    add("authenticate", A::lenient("a BasicCommand in MongoDB 7.0: mechanism, user"));
    add("createUser", A::strict("createUser", {"pwd", "customData", "roles", "digestPassword", "mechanisms",
                                               "authenticationRestrictions"}));
    add("updateUser", A::strict("updateUser", {"pwd", "customData", "roles", "digestPassword", "mechanisms",
                                               "authenticationRestrictions"}));
    add("dropUser", A::strict("dropUser", {}));
    add("dropAllUsersFromDatabase", A::strict("dropAllUsersFromDatabase", {}));
    add("usersInfo", A::strict("usersInfo", {"showCredentials", "showCustomData", "showPrivileges",
                                             "showAuthenticationRestrictions", "filter"}));
    add("createRole", A::strict("createRole", {"privileges", "roles", "authenticationRestrictions"}));
    add("updateRole", A::strict("updateRole", {"privileges", "roles", "authenticationRestrictions"}));
    add("dropRole", A::strict("dropRole", {}));
    add("dropAllRolesFromDatabase", A::strict("dropAllRolesFromDatabase", {}));
    add("rolesInfo", A::strict("rolesInfo", {"showPrivileges", "showBuiltinRoles", "showAuthenticationRestrictions"}));
    for (const char* name : {"grantRolesToUser", "revokeRolesFromUser", "grantRolesToRole", "revokeRolesFromRole"})
        add(name, A::strict(name, {"roles"}));
    for (const char* name : {"grantPrivilegesToRole", "revokePrivilegesFromRole"}) add(name, A::strict(name, {"privileges"}));
    add("replSetGetConfig", A::strict("replSetGetConfig", {"commitmentStatus"}));
    add("replSetInitiate", A::lenient("a BasicCommand in MongoDB 7.0: its value is the configuration"));
    add("replSetReconfig", A::strict("replSetReconfig", {"force"}));
    add("replSetStepDown", A::strict("replSetStepDown", {"secondaryCatchUpPeriodSecs", "force"}));
    add("replSetStepUp", A::strict("replSetStepUp", {"skipDryRun"}));
    add("replSetAbortPrimaryCatchUp", A::strict("replSetAbortPrimaryCatchUp", {}));
    add("replSetFreeze", A::strict("replSetFreeze", {}));
    add("replSetGetRBID", A::strict("replSetGetRBID", {}));
    add("replSetSyncFrom", A::lenient("a BasicCommand in MongoDB 7.0: its value is the host"));  // isync
    add("replSetResizeOplog", A::strict("replSetResizeOplog", {"size", "minRetentionHours"}));  // isync
    // Member-to-member commands: what this server's members send each other (heartbeat.h).
    add("replSetHeartbeat", A::strict("ReplSetHeartbeatArgsV1", {"configVersion", "configTerm", "hbv", "from",
                                                                 "fromId", "term", "checkEmpty", "heartbeatVersion"}));
    add("replSetRequestVotes", A::strict("ReplSetRequestVotesArgs", {"setName", "dryRun", "term", "candidateIndex",
                                                                     "configVersion", "configTerm", "lastAppliedOpTime",
                                                                     "lastCommittedOp"}));
    add("replSetUpdatePosition", A::strict("UpdatePositionArgs", {"optimes", "$replData", "term"}));
    add("_isSelf", A::lenient("a BasicCommand in MongoDB 7.0: it reads no fields"));
    add("replSetGetStatus", A::lenient("a BasicCommand in MongoDB 7.0: it reads the fields it knows and ignores the others"));
    add("hello", A::lenient("hello's IDL is strict: false, so that drivers may send fields of newer versions"));
    add("isMaster", A::lenient("isMaster is hello's alias"));
    add("serverStatus", A::lenient("its other fields include or exclude sections"));
    add("currentOp", A::lenient("its other fields are a filter on the operations"));
    add("getParameter", A::lenient("its other fields are parameter names"));
    add("setParameter", A::lenient("its other fields are parameter names, each checked by the command"));
    return t;
}

const std::map<std::string, CommandArgs, std::less<>>& table() {
    static const auto t = buildTable();
    return t;
}

}  // namespace

CommandArgs CommandArgs::strict(std::string structName, std::initializer_list<const char*> fields) {
    CommandArgs a;
    a._strict = true;
    a._structName = std::move(structName);
    for (const char* f : fields) a._fields.emplace_back(f);
    return a;
}

CommandArgs CommandArgs::lenient(const char*) {
    CommandArgs a;
    a._strict = false;
    return a;
}

bool CommandArgs::accepts(std::string_view field) const {
    if (isGenericArgument(field)) return true;
    if (!_strict) return true;
    for (const auto& f : _fields)
        if (f == field) return true;
    return false;
}

void CommandArgs::check(const BSONObj& body) const {
    if (!_strict) return;
    std::set<std::string_view> seen;
    bool first = true;
    for (BSONElement e : body) {
        if (first) {
            first = false;
            continue;
        }
        std::string_view f = e.fieldNameStringData();
        if (isGenericArgument(f)) continue;
        bool declared = false;
        for (const auto& k : _fields)
            if (k == f) declared = true;
        if (!declared) unknownField(_structName, f);
        if (!seen.insert(f).second) duplicateField(_structName, f);
    }
}

const CommandArgs* findCommandArgs(std::string_view commandName) {
    auto it = table().find(commandName);
    return it == table().end() ? nullptr : &it->second;
}

std::vector<std::string> commandArgsTableNames() {
    std::vector<std::string> out;
    for (const auto& [name, args] : table()) out.push_back(name);
    return out;
}

bool isGenericArgument(std::string_view f) {
    // generic_argument.idl of MongoDB 7.0 (API version 1 and unstable). $tenant and expectPrefix
    // (multitenancy) are left out: this server has no tenants.
    static const std::set<std::string_view> kGeneric = {
        "apiVersion", "apiStrict", "apiDeprecationErrors", "$db", "maxTimeMS", "readConcern", "writeConcern",
        "lsid", "clientOperationKey", "txnNumber", "autocommit", "startTransaction", "stmtId", "comment",
        "$readPreference", "$clusterTime", "$audit", "$client", "$configServerState",
        "allowImplicitCollectionCreation", "$oplogQueryData", "$queryOptions", "$replData", "databaseVersion",
        "shardVersion", "tracking_info", "coordinator", "maxTimeMSOpOnly", "$configTime", "$topologyTime",
        "txnRetryCounter", "mayBypassWriteBlocking"};
    return kGeneric.count(f) > 0;
}

void checkStrictFields(const BSONObj& obj, std::string_view path, std::initializer_list<std::string_view> fields) {
    std::set<std::string_view> seen;
    for (BSONElement e : obj) {
        std::string_view f = e.fieldNameStringData();
        bool declared = false;
        for (auto k : fields)
            if (k == f) declared = true;
        if (!declared) unknownField(path, f);
        if (!seen.insert(f).second) duplicateField(path, f);
    }
}

}  // namespace mongo
