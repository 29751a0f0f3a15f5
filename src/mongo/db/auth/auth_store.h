#pragma once
// Users and roles as MongoDB stores them, in admin.system.users
//   {_id: "<db>.<user>", userId: UUID, user, db, credentials: {"SCRAM-SHA-1": {...},
//    "SCRAM-SHA-256": {...}}, roles: [{role, db}], customData?, authenticationRestrictions?}
// and admin.system.roles
//   {_id: "<db>.<role>", role, db, privileges: [{resource, actions}], roles: [{role, db}],
//    authenticationRestrictions?}
// (ordinary collections: durable, replicated through the oplog like any write), and the
// resolution of roles into privileges through the role graph.
//
// Every write through this file bumps authGeneration(), which per-connection caches of
// resolved privileges compare against (authorization_session.h), so a change of a user or a
// role takes effect on every connection's next command.
//
// Callers pass an OperationContext of the command; the functions take the catalog/write
// locks they need themselves (callers must hold none). Thread safe.
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/privilege.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"

namespace mongo::auth {

struct RoleName {
    std::string role, db;
    bool operator==(const RoleName& o) const { return role == o.role && db == o.db; }
    bool operator<(const RoleName& o) const { return db != o.db ? db < o.db : role < o.role; }
    BSONObj toBSON() const;  // {role, db}
    std::string fullName() const { return role + "@" + db; }
};
BSONArray roleNamesToBSON(const std::vector<RoleName>& v);

// A role argument of a command: "name" (in defaultDb) or {role, db}. BadValue otherwise.
RoleName parseRoleName(const BSONElement& e, const std::string& defaultDb);
std::vector<RoleName> parseRoleNames(const BSONElement& arr, const std::string& defaultDb, const char* field);

// Monotonic counter of changes to users and roles.
uint64_t authGeneration();
void bumpAuthGeneration();
// Every write to admin.system.users / admin.system.roles, by any path (a root user's plain
// write, a secondary applying the primary's, a drop or rename), calls this (catalog/): the
// generation moves when the write commits, so open connections re-resolve at once.
void noteWriteToAuthCollection(OperationContext* opCtx, const NamespaceString& nss);

// --- users ---
std::optional<BSONObj> findUserDocument(OperationContext* opCtx, const std::string& user, const std::string& db);
// Every user document (admin.system.users order), optionally only those of db.
std::vector<BSONObj> listUserDocuments(OperationContext* opCtx, const std::optional<std::string>& db);
bool anyUserExists(OperationContext* opCtx);
// Inserts; 51003 "User "u@db" already exists" if there is one.
void insertUserDocument(OperationContext* opCtx, const BSONObj& doc);
// Replaces the stored document of (user, db); false if there was none.
bool replaceUserDocument(OperationContext* opCtx, const std::string& user, const std::string& db, const BSONObj& doc);
// Removes users matching; returns how many.
long long removeUserDocuments(OperationContext* opCtx, const std::string& db, const std::optional<std::string>& user);

// --- roles ---
std::optional<BSONObj> findRoleDocument(OperationContext* opCtx, const RoleName& r);
std::vector<BSONObj> listRoleDocuments(OperationContext* opCtx, const std::optional<std::string>& db);
void insertRoleDocument(OperationContext* opCtx, const BSONObj& doc);  // 51002 if it exists
bool replaceRoleDocument(OperationContext* opCtx, const RoleName& r, const BSONObj& doc);
long long removeRoleDocuments(OperationContext* opCtx, const std::string& db, const std::optional<std::string>& role);
// Removes r from the roles arrays of every user and role (dropRole), bumping the generation.
void removeRoleReferences(OperationContext* opCtx, const RoleName& r);

// Whether r names a built-in role or a stored one.
bool roleExists(OperationContext* opCtx, const RoleName& r);
// RoleNotFound "Role r@db does not exist" unless every role exists.
void uassertRolesExist(OperationContext* opCtx, const std::vector<RoleName>& roles);

// The closure of roles through the role graph: every role reached (the given ones
// included), and the union of their privileges. Missing roles are skipped (a role dropped
// after it was granted grants nothing).
struct ResolvedRoles {
    std::vector<RoleName> roles;  // all, sorted
    PrivilegeVector privileges;
    // The authenticationRestrictions of every reached role that has some (each list must be
    // met: authentication_restrictions.h).
    std::vector<BSONObj> restrictions;
};
ResolvedRoles resolveRoles(OperationContext* opCtx, const std::vector<RoleName>& direct);
// The direct privileges and roles of one role (built-in or stored), nullopt if it is neither.
struct RoleDefinition {
    PrivilegeVector privileges;
    std::vector<RoleName> roles;
    bool builtin = false;
};
std::optional<RoleDefinition> roleDefinition(OperationContext* opCtx, const RoleName& r);

std::vector<RoleName> rolesOfDocument(const BSONObj& doc);  // its "roles" array

}  // namespace mongo::auth
