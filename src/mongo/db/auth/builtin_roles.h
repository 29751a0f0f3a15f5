#pragma once
// MongoDB's built-in roles (manual, "Built-In Roles") and their privileges. The database
// roles (read, readWrite, dbAdmin, dbOwner, userAdmin) exist in every database; the others
// only in admin. Built-in roles inherit nothing (dbOwner and root list their privileges
// directly, as rolesInfo shows them with showBuiltinRoles).
// Pure functions over constant tables: callable from any thread.
#include <optional>
#include <string>
#include <vector>

#include "mongo/db/auth/privilege.h"

namespace mongo::auth {

bool isBuiltinRole(const std::string& role, const std::string& db);
// The role's privileges, nullopt if {role, db} is not a built-in role.
std::optional<PrivilegeVector> builtinRolePrivileges(const std::string& role, const std::string& db);
// The built-in roles of db (rolesInfo with showBuiltinRoles), sorted by name.
std::vector<std::string> builtinRoleNames(const std::string& db);

}  // namespace mongo::auth
