#pragma once
// MongoDB's privilege actions (manual, "Privilege Actions"), by their names, and sets of them.
// An ActionSet is a bitset: checking a command's privileges costs a few word operations.
// Pure values: thread safe.
#include <bitset>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mongo {

#define MONGO_AUTH_ACTION_TYPES(X)                                                                           \
    X(anyAction) X(applicationMessage) X(appendOplogNote) X(authSchemaUpgrade) X(bypassDocumentValidation)    \
    X(changeCustomData) X(changeOwnCustomData) X(changeOwnPassword) X(changePassword) X(changeStream)          \
    X(checkFreeMonitoringStatus) X(cleanupOrphaned) X(collMod) X(collStats) X(compact) X(connPoolStats)        \
    X(connPoolSync) X(convertToCapped) X(cpuProfiler) X(createCollection) X(createIndex) X(createRole)         \
    X(createUser) X(dbHash) X(dbStats) X(dropAllRolesFromDatabase) X(dropAllUsersFromDatabase)                 \
    X(dropCollection) X(dropConnections) X(dropDatabase) X(dropIndex) X(dropRole) X(dropUser) X(enableProfiler) \
    X(enableSharding) X(find) X(flushRouterConfig) X(forceUUID) X(fsync) X(getClusterParameter)                \
    X(getCmdLineOpts) X(getDefaultRWConcern) X(getLog) X(getParameter) X(getUserWriteBlockMode) X(grantRole)   \
    X(hostInfo) X(impersonate) X(indexStats) X(inprog) X(insert) X(internal) X(invalidateUserCache)            \
    X(killAnyCursor) X(killAnySession) X(killCursors) X(killop) X(listCachedAndActiveUsers)                    \
    X(listCollections) X(listDatabases) X(listIndexes) X(listSessions) X(listShards) X(logRotate)              \
    X(netstat) X(operationMetrics) X(planCacheIndexFilter) X(planCacheRead) X(planCacheWrite) X(reIndex)       \
    X(remove) X(renameCollection) X(renameCollectionSameDB) X(replSetConfigure) X(replSetGetConfig)            \
    X(replSetGetStatus) X(replSetHeartbeat) X(replSetResizeOplog) X(replSetStateChange) X(resync)              \
    X(revokeRole) X(rotateCertificates) X(serverStatus) X(setAuthenticationRestriction)                        \
    X(setClusterParameter) X(setDefaultRWConcern) X(setFeatureCompatibilityVersion) X(setFreeMonitoring)       \
    X(setParameter) X(setUserWriteBlockMode) X(shutdown) X(splitVector) X(storageDetails) X(top)               \
    X(update) X(useUUID) X(validate) X(viewRole) X(viewUser)

enum class ActionType {
#define MONGO_AUTH_ENUM(a) a,
    MONGO_AUTH_ACTION_TYPES(MONGO_AUTH_ENUM)
#undef MONGO_AUTH_ENUM
        kCount
};

const char* actionTypeName(ActionType a);
std::optional<ActionType> parseActionType(std::string_view name);

class ActionSet {
public:
    ActionSet() = default;
    ActionSet(std::initializer_list<ActionType> actions) {
        for (auto a : actions) add(a);
    }
    void add(ActionType a) { _bits.set(static_cast<size_t>(a)); }
    void add(const ActionSet& o) { _bits |= o._bits; }
    void remove(const ActionSet& o) { _bits &= ~o._bits; }
    bool contains(ActionType a) const { return _bits.test(static_cast<size_t>(a)) || _bits.test(kAny); }
    // Every action of o (anyAction covers all).
    bool containsAll(const ActionSet& o) const { return _bits.test(kAny) || (o._bits & ~_bits).none(); }
    bool empty() const { return _bits.none(); }
    bool operator==(const ActionSet& o) const { return _bits == o._bits; }
    // Names, sorted, as rolesInfo/usersInfo show them.
    std::vector<std::string> names() const;

private:
    static constexpr size_t kAny = static_cast<size_t>(ActionType::anyAction);
    std::bitset<static_cast<size_t>(ActionType::kCount)> _bits;
};

}  // namespace mongo
