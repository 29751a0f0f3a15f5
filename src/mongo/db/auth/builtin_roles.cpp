#include "mongo/db/auth/builtin_roles.h"

#include <algorithm>
#include <functional>
#include <map>

namespace mongo::auth {

namespace {

using A = ActionType;
using R = ResourcePattern;

const ActionSet kReadActions{A::changeStream, A::collStats, A::dbHash, A::dbStats, A::find, A::killCursors,
                             A::listCollections, A::listIndexes};
ActionSet readWriteActions() {
    ActionSet s = kReadActions;
    s.add(ActionSet{A::convertToCapped, A::createCollection, A::createIndex, A::dropCollection, A::dropIndex, A::insert,
                    A::remove, A::renameCollectionSameDB, A::update});
    return s;
}
const ActionSet kDbAdminActions{A::bypassDocumentValidation, A::collMod, A::collStats, A::compact, A::convertToCapped,
                                A::createCollection, A::createIndex, A::dbStats, A::dropCollection, A::dropDatabase,
                                A::dropIndex, A::enableProfiler, A::listCollections, A::listIndexes,
                                A::planCacheIndexFilter, A::planCacheRead, A::planCacheWrite, A::reIndex,
                                A::renameCollectionSameDB, A::storageDetails, A::validate};
const ActionSet kProfileReadActions{A::changeStream, A::collStats, A::convertToCapped, A::createCollection, A::dbHash,
                                    A::dbStats, A::dropCollection, A::find, A::killCursors, A::listCollections,
                                    A::listIndexes, A::planCacheRead};
const ActionSet kUserAdminActions{A::changeCustomData, A::changePassword, A::createRole, A::createUser, A::dropRole,
                                  A::dropUser, A::grantRole, A::revokeRole, A::setAuthenticationRestriction,
                                  A::viewRole, A::viewUser};
const ActionSet kClusterMonitorCluster{A::checkFreeMonitoringStatus, A::connPoolStats, A::getCmdLineOpts,
                                       A::getDefaultRWConcern, A::getLog, A::getParameter, A::getClusterParameter,
                                       A::getUserWriteBlockMode, A::hostInfo, A::inprog, A::listDatabases,
                                       A::listSessions, A::listShards, A::netstat, A::operationMetrics,
                                       A::replSetGetConfig, A::replSetGetStatus, A::serverStatus, A::top, A::useUUID};
const ActionSet kHostManagerCluster{A::applicationMessage, A::connPoolSync, A::dropConnections, A::flushRouterConfig,
                                    A::fsync, A::invalidateUserCache, A::killAnyCursor, A::killAnySession, A::killop,
                                    A::logRotate, A::resync, A::rotateCertificates, A::setParameter, A::shutdown};
const ActionSet kClusterManagerCluster{A::appendOplogNote, A::applicationMessage, A::cleanupOrphaned,
                                       A::flushRouterConfig, A::getDefaultRWConcern, A::listSessions, A::listShards,
                                       A::replSetConfigure, A::replSetGetConfig, A::replSetGetStatus,
                                       A::replSetResizeOplog, A::replSetStateChange, A::resync, A::setClusterParameter,
                                       A::setDefaultRWConcern, A::setFeatureCompatibilityVersion, A::setFreeMonitoring,
                                       A::getClusterParameter, A::setUserWriteBlockMode, A::getUserWriteBlockMode};

void read(PrivilegeVector& v, const std::string& db) {
    addPrivilege(v, {R::database(db), kReadActions});
    addPrivilege(v, {R::exact(db, "system.js"), kReadActions});
}
void readWrite(PrivilegeVector& v, const std::string& db) {
    addPrivilege(v, {R::database(db), readWriteActions()});
    addPrivilege(v, {R::exact(db, "system.js"), readWriteActions()});
}
void dbAdmin(PrivilegeVector& v, const std::string& db) {
    addPrivilege(v, {R::database(db), kDbAdminActions});
    addPrivilege(v, {R::exact(db, "system.profile"), kProfileReadActions});
}
void userAdmin(PrivilegeVector& v, const std::string& db) { addPrivilege(v, {R::database(db), kUserAdminActions}); }

void clusterMonitor(PrivilegeVector& v) {
    addPrivilege(v, {R::cluster(), kClusterMonitorCluster});
    addPrivilege(v, {R::anyNormal(), {A::collStats, A::dbHash, A::dbStats, A::indexStats}});
    addPrivilege(v, {R::exact("local", "system.replset"), {A::find}});
    addPrivilege(v, {R::collectionInAnyDb("system.profile"), {A::find}});
}
void hostManager(PrivilegeVector& v) {
    addPrivilege(v, {R::cluster(), kHostManagerCluster});
    addPrivilege(v, {R::anyNormal(), {A::killCursors}});
}
void clusterManager(PrivilegeVector& v) {
    addPrivilege(v, {R::cluster(), kClusterManagerCluster});
    addPrivilege(v, {R::exact("local", "system.replset"), {A::find, A::insert, A::update, A::remove}});
}
void clusterAdmin(PrivilegeVector& v) {
    clusterMonitor(v);
    hostManager(v);
    clusterManager(v);
    addPrivilege(v, {R::anyNormal(), {A::dropDatabase}});
}
void anyDb(PrivilegeVector& v, const ActionSet& actions) {
    addPrivilege(v, {R::anyNormal(), actions});
    addPrivilege(v, {R::cluster(), {A::listDatabases}});
}
void readAnyDatabase(PrivilegeVector& v) {
    anyDb(v, kReadActions);
    addPrivilege(v, {R::collectionInAnyDb("system.js"), kReadActions});
}
void readWriteAnyDatabase(PrivilegeVector& v) {
    anyDb(v, readWriteActions());
    addPrivilege(v, {R::collectionInAnyDb("system.js"), readWriteActions()});
}
void dbAdminAnyDatabase(PrivilegeVector& v) {
    anyDb(v, kDbAdminActions);
    addPrivilege(v, {R::collectionInAnyDb("system.profile"), kProfileReadActions});
}
void userAdminAnyDatabase(PrivilegeVector& v) {
    anyDb(v, kUserAdminActions);
    addPrivilege(v, {R::cluster(), {A::authSchemaUpgrade, A::invalidateUserCache, A::viewUser}});
    for (const char* c : {"system.users", "system.roles", "system.version"})
        addPrivilege(v, {R::exact("admin", c), {A::collStats, A::dbHash, A::dbStats, A::find, A::killCursors,
                                                A::planCacheRead}});
}
void backup(PrivilegeVector& v) {
    addPrivilege(v, {R::cluster(), {A::appendOplogNote, A::getParameter, A::listDatabases, A::serverStatus,
                                    A::setUserWriteBlockMode, A::getUserWriteBlockMode}});
    addPrivilege(v, {R::anyNormal(), {A::collStats, A::dbHash, A::dbStats, A::find, A::killCursors,
                                      A::listCollections, A::listIndexes}});
    for (const char* c : {"system.js", "system.views", "system.profile"})
        addPrivilege(v, {R::collectionInAnyDb(c), {A::find, A::listCollections, A::listIndexes, A::collStats}});
    for (const char* c : {"system.users", "system.roles", "system.version"})
        addPrivilege(v, {R::exact("admin", c), {A::find, A::listIndexes, A::collStats}});
}
void restore(PrivilegeVector& v) {
    addPrivilege(v, {R::cluster(), {A::getParameter}});
    const ActionSet write{A::bypassDocumentValidation, A::changeCustomData, A::changePassword, A::collMod,
                          A::convertToCapped, A::createCollection, A::createIndex, A::createRole, A::createUser,
                          A::dropCollection, A::dropRole, A::dropUser, A::grantRole, A::insert, A::listCollections,
                          A::revokeRole, A::viewRole, A::viewUser};
    addPrivilege(v, {R::anyNormal(), write});
    ActionSet sys = write;
    sys.add(ActionSet{A::find, A::remove, A::update, A::dropIndex, A::listIndexes});
    for (const char* c : {"system.js", "system.views"}) addPrivilege(v, {R::collectionInAnyDb(c), sys});
    for (const char* c : {"system.users", "system.roles", "system.version"})
        addPrivilege(v, {R::exact("admin", c), sys});
}
void root(PrivilegeVector& v) {
    readWriteAnyDatabase(v);
    dbAdminAnyDatabase(v);
    userAdminAnyDatabase(v);
    clusterAdmin(v);
    backup(v);
    restore(v);
    addPrivilege(v, {R::anyResource(), {A::validate}});
}

using DbRole = std::function<void(PrivilegeVector&, const std::string&)>;
using AdminRole = std::function<void(PrivilegeVector&)>;

const std::map<std::string, DbRole>& dbRoles() {
    static const std::map<std::string, DbRole> m = {
        {"read", read},
        {"readWrite", readWrite},
        {"dbAdmin", dbAdmin},
        {"userAdmin", userAdmin},
        {"dbOwner",
         [](PrivilegeVector& v, const std::string& db) {
             readWrite(v, db);
             dbAdmin(v, db);
             userAdmin(v, db);
         }},
    };
    return m;
}

const std::map<std::string, AdminRole>& adminRoles() {
    static const std::map<std::string, AdminRole> m = {
        {"clusterMonitor", clusterMonitor},
        {"clusterManager", clusterManager},
        {"clusterAdmin", clusterAdmin},
        {"hostManager", hostManager},
        {"readAnyDatabase", readAnyDatabase},
        {"readWriteAnyDatabase", readWriteAnyDatabase},
        {"userAdminAnyDatabase", userAdminAnyDatabase},
        {"dbAdminAnyDatabase", dbAdminAnyDatabase},
        {"backup", backup},
        {"restore", restore},
        {"root", root},
        {"__system", [](PrivilegeVector& v) { addPrivilege(v, {R::anyResource(), {A::anyAction}}); }},
    };
    return m;
}

}  // namespace

bool isBuiltinRole(const std::string& role, const std::string& db) {
    if (dbRoles().count(role)) return true;
    return db == "admin" && adminRoles().count(role);
}

std::optional<PrivilegeVector> builtinRolePrivileges(const std::string& role, const std::string& db) {
    PrivilegeVector v;
    if (auto it = dbRoles().find(role); it != dbRoles().end()) {
        it->second(v, db);
        return v;
    }
    if (db != "admin") return std::nullopt;
    auto it = adminRoles().find(role);
    if (it == adminRoles().end()) return std::nullopt;
    it->second(v);
    return v;
}

std::vector<std::string> builtinRoleNames(const std::string& db) {
    std::vector<std::string> out;
    for (auto& [n, f] : dbRoles()) out.push_back(n);
    if (db == "admin")
        for (auto& [n, f] : adminRoles()) out.push_back(n);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace mongo::auth
