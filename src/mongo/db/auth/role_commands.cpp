// User-defined roles as MongoDB 7.0 has them: createRole, updateRole, dropRole,
// dropAllRolesFromDatabase, rolesInfo, grantRolesToUser, revokeRolesFromUser,
// grantRolesToRole, revokeRolesFromRole, grantPrivilegesToRole, revokePrivilegesFromRole.
// Roles live in admin.system.roles (auth_store.h); built-in roles cannot be changed.
#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "mongo/db/auth/auth_store.h"
#include "mongo/db/auth/authentication_restrictions.h"
#include "mongo/db/auth/builtin_roles.h"
#include "mongo/db/commands/command.h"

namespace mongo::auth {

namespace {

using A = ActionType;

std::string wrongType(const std::string& field, const BSONElement& e, const char* expected) {
    return "BSON field '" + field + "' is the wrong type '" + typeName(e.type()) + "', expected type '" + expected + "'";
}

std::string nameArg(const OpMsgRequest& req) {
    BSONElement e = req.body.firstElement();
    uassert(ErrorCodes::TypeMismatch, wrongType(std::string(e.fieldNameStringData()), e, "string"), e.type() == String);
    uassert(ErrorCodes::BadValue, "Role name cannot be empty", !e.valueStringData().empty());
    return e.str();
}

BSONElement required(const OpMsgRequest& req, const char* field) {
    BSONElement e = req.body[field];
    uassert(40414, "BSON field '" + req.commandName() + "." + field + "' is missing but a required field", !e.eoo());
    return e;
}

// A role's privileges: valid resources and actions; a role outside admin may only name its
// own database (MongoDB's rule).
PrivilegeVector parsePrivileges(const BSONElement& arr, const RoleName& role, const std::string& field) {
    uassert(ErrorCodes::TypeMismatch, wrongType(field, arr, "array"), arr.type() == Array);
    PrivilegeVector out;
    for (BSONElement e : arr.Obj()) {
        auto p = Privilege::fromBSON(e);
        uassertStatusOK(p.getStatus());
        const ResourcePattern& r = p.getValue().resource;
        if (role.db != "admin")
            uassert(ErrorCodes::InvalidRoleModification,
                    "Roles on the '" + role.db +
                        "' database cannot be granted privileges that target other databases or the cluster",
                    (r.kind() == ResourcePattern::Kind::kDatabase || r.kind() == ResourcePattern::Kind::kExactNamespace) &&
                        r.db() == role.db);
        addPrivilege(out, p.getValue());
    }
    return out;
}

void uassertNotBuiltin(const RoleName& r, const char* what) {
    uassert(ErrorCodes::InvalidRoleModification, std::string(what) + " built-in role: " + r.fullName(),
            !isBuiltinRole(r.role, r.db));
}

BSONObj requireStoredRole(OperationContext* opCtx, const RoleName& r) {
    auto d = findRoleDocument(opCtx, r);
    uassert(ErrorCodes::RoleNotFound, "Role " + r.fullName() + " not found", d);
    return *d;
}

// Refuses a role graph where r reaches itself through `roles`.
void uassertNoCycle(OperationContext* opCtx, const RoleName& r, const std::vector<RoleName>& roles) {
    for (auto& sub : roles) {
        uassert(ErrorCodes::InvalidRoleModification, "Cannot grant role " + r.fullName() + " to itself", !(sub == r));
        ResolvedRoles rr = resolveRoles(opCtx, {sub});
        uassert(ErrorCodes::InvalidRoleModification,
                "Granting " + sub.fullName() + " to " + r.fullName() + " would introduce a cycle",
                std::find(rr.roles.begin(), rr.roles.end(), r) == rr.roles.end());
    }
}

BSONObj roleDocument(const RoleName& r, const PrivilegeVector& privileges, const std::vector<RoleName>& roles,
                     const BSONObj& restrictions) {
    BSONObjBuilder b;
    b.append("_id", r.db + "." + r.role);
    b.append("role", r.role);
    b.append("db", r.db);
    b.append("privileges", privilegesToBSON(privileges));
    b.append("roles", roleNamesToBSON(roles));
    if (!restrictions.isEmpty()) b.append("authenticationRestrictions", BSONArray(restrictions));
    return b.obj();
}

// A stored role's authenticationRestrictions ({} if none).
BSONObj storedRestrictions(const BSONObj& doc) {
    BSONElement r = doc["authenticationRestrictions"];
    return r.type() == Array ? r.Obj().getOwned() : BSONObj();
}



PrivilegeVector storedPrivileges(const BSONObj& doc) {
    PrivilegeVector v;
    if (doc["privileges"].type() == Array)
        for (BSONElement p : doc["privileges"].Obj())
            if (auto sw = Privilege::fromBSON(p); sw.isOK()) addPrivilege(v, sw.getValue());
    return v;
}

RequiredPrivileges onRolesDbs(const OpMsgRequest& req, A action, bool alsoOwnDb) {
    RequiredPrivileges r;
    if (alsoOwnDb) r.add(ResourcePattern::database(req.db()), {action});
    if (req.body["roles"].type() == Array)
        for (BSONElement e : req.body["roles"].Obj()) {
            try {
                r.add(ResourcePattern::database(parseRoleName(e, req.db()).db), {action});
            } catch (const DBException&) {
            }
        }
    if (!r.isDeclared()) r.add(ResourcePattern::database(req.db()), {action});
    return r;
}

class CreateRoleCmd : public Command {
public:
    CreateRoleCmd() : Command("createRole") {}
    std::string help() const override { return "Adds a role to the system"; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        auto r = onRolesDbs(req, A::grantRole, false);
        r.add(ResourcePattern::database(req.db()), {A::createRole});
        if (req.body.hasField("authenticationRestrictions"))
            r.add(ResourcePattern::database(req.db()), {A::setAuthenticationRestriction});
        return r;
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder&) override {
        RoleName r{nameArg(req), req.db()};
        uassert(ErrorCodes::BadValue, "Cannot create roles in the local database", r.db != "local");
        uassert(ErrorCodes::BadValue, "Cannot create roles in the $external database", r.db != "$external");
        uassert(51002, "Cannot create roles with the same name as a built-in role", !isBuiltinRole(r.role, r.db));
        auto privileges = parsePrivileges(required(req, "privileges"), r, "createRole.privileges");
        auto roles = parseRoleNames(required(req, "roles"), r.db, "createRole.roles");
        auto restrictions = restrictionsArgument(req.body, "createRole");
        uassertRolesExist(opCtx, roles);
        uassertNoCycle(opCtx, r, roles);
        insertRoleDocument(opCtx, roleDocument(r, privileges, roles, restrictions ? *restrictions : BSONObj()));
    }
} createRoleCmd;

class UpdateRoleCmd : public Command {
public:
    UpdateRoleCmd() : Command("updateRole") {}
    std::string help() const override { return "Used to update a role"; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        auto r = onRolesDbs(req, A::grantRole, true);
        r.add(ResourcePattern::database(req.db()), {A::revokeRole});
        if (req.body.hasField("authenticationRestrictions"))
            r.add(ResourcePattern::database(req.db()), {A::setAuthenticationRestriction});
        return r;
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder&) override {
        RoleName r{nameArg(req), req.db()};
        uassert(ErrorCodes::BadValue, "Must specify at least one field to update in updateRole",
                req.body.hasField("privileges") || req.body.hasField("roles") ||
                    req.body.hasField("authenticationRestrictions"));
        auto restrictions = restrictionsArgument(req.body, "updateRole");
        uassertNotBuiltin(r, "Cannot update");
        BSONObj doc = requireStoredRole(opCtx, r);
        PrivilegeVector privileges = req.body.hasField("privileges")
            ? parsePrivileges(req.body["privileges"], r, "updateRole.privileges")
            : storedPrivileges(doc);
        std::vector<RoleName> roles = rolesOfDocument(doc);
        if (req.body.hasField("roles")) {
            roles = parseRoleNames(req.body["roles"], r.db, "updateRole.roles");
            uassertRolesExist(opCtx, roles);
            uassertNoCycle(opCtx, r, roles);
        }
        replaceRoleDocument(opCtx, r,
                            roleDocument(r, privileges, roles, restrictions ? *restrictions : storedRestrictions(doc)));
    }
} updateRoleCmd;

class DropRoleCmd : public Command {
public:
    DropRoleCmd() : Command("dropRole") {}
    std::string help() const override { return "Drops a single role."; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        return RequiredPrivileges::onDatabase(req.db(), {A::dropRole});
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder&) override {
        RoleName r{nameArg(req), req.db()};
        uassertNotBuiltin(r, "Cannot drop");
        requireStoredRole(opCtx, r);
        removeRoleReferences(opCtx, r);
        removeRoleDocuments(opCtx, r.db, r.role);
    }
} dropRoleCmd;

class DropAllRolesFromDatabaseCmd : public Command {
public:
    DropAllRolesFromDatabaseCmd() : Command("dropAllRolesFromDatabase") {}
    std::string help() const override { return "Drops all roles from the given database."; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        return RequiredPrivileges::onDatabase(req.db(), {A::dropRole});
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        for (auto& d : listRoleDocuments(opCtx, req.db())) removeRoleReferences(opCtx, {d["role"].str(), req.db()});
        result.appendNumber("n", removeRoleDocuments(opCtx, req.db(), std::nullopt));
    }
} dropAllRolesFromDatabaseCmd;

// rolesInfo's argument: 1 (the database's roles), "name", {role, db}, or an array of those.
struct RolesInfoArg {
    bool allOfDb = false;
    std::vector<RoleName> names;
};
RolesInfoArg parseRolesInfoArg(const OpMsgRequest& req) {
    RolesInfoArg a;
    BSONElement e = req.body.firstElement();
    if (e.isNumber() && e.numberInt() == 1) a.allOfDb = true;
    else if (e.type() == Array)
        for (BSONElement x : e.Obj()) a.names.push_back(parseRoleName(x, req.db()));
    else a.names.push_back(parseRoleName(e, req.db()));
    return a;
}

class RolesInfoCmd : public Command {
public:
    RolesInfoCmd() : Command("rolesInfo") {}
    std::string help() const override { return "Returns information about roles."; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        RequiredPrivileges r = RequiredPrivileges::onDatabase(req.db(), {A::viewRole});
        try {
            for (auto& n : parseRolesInfoArg(req).names) r.add(ResourcePattern::database(n.db), {A::viewRole});
        } catch (const DBException&) {
        }
        return r;
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        RolesInfoArg a = parseRolesInfoArg(req);
        BSONElement sp = req.body["showPrivileges"];
        bool showPrivileges = sp.trueValue();
        bool asDocuments = sp.type() == String && sp.str() == "asUserFragment";
        bool showBuiltin = req.body["showBuiltinRoles"].trueValue();
        bool showRestrictions = req.body["showAuthenticationRestrictions"].trueValue();
        std::vector<RoleName> names = a.names;
        if (a.allOfDb) {
            if (showBuiltin)
                for (auto& n : builtinRoleNames(req.db())) names.push_back({n, req.db()});
            for (auto& d : listRoleDocuments(opCtx, req.db())) names.push_back({d["role"].str(), req.db()});
        }
        if (asDocuments) {
            // showPrivileges: "asUserFragment": what a user holding these roles would have, as
            // usersInfo shows it.
            std::vector<RoleName> held;
            for (auto& n : names)
                if (roleDefinition(opCtx, n)) held.push_back(n);
            ResolvedRoles rr = resolveRoles(opCtx, held);
            BSONArrayBuilder restrictions;
            for (const BSONObj& l : rr.restrictions) restrictions.append(BSONArray(l));
            BSONObjBuilder fragment;
            fragment.append("roles", roleNamesToBSON(held));
            fragment.append("inheritedRoles", roleNamesToBSON(rr.roles));
            fragment.append("inheritedPrivileges", privilegesToBSON(rr.privileges));
            fragment.append("inheritedAuthenticationRestrictions", restrictions.arr());
            result.append("userFragment", fragment.obj());
            return;
        }
        BSONArrayBuilder out;
        for (auto& n : names) {
            auto def = roleDefinition(opCtx, n);
            if (!def) continue;  // unknown roles are left out, as MongoDB
            BSONObjBuilder b;
            if (!def->builtin) b.append("_id", n.db + "." + n.role);
            b.append("role", n.role);
            b.append("db", n.db);
            if (showPrivileges) b.append("privileges", privilegesToBSON(def->privileges));
            b.append("roles", roleNamesToBSON(def->roles));
            ResolvedRoles rr = resolveRoles(opCtx, def->roles);
            b.append("isBuiltin", def->builtin);
            b.append("inheritedRoles", roleNamesToBSON(rr.roles));
            if (showPrivileges) {
                PrivilegeVector all = def->privileges;
                addPrivileges(all, rr.privileges);
                b.append("inheritedPrivileges", privilegesToBSON(all));
            }
            if (showRestrictions) {
                // Lists of restriction documents: the role's own, and with those it inherits.
                BSONArrayBuilder own, inherited;
                if (!def->builtin)
                    if (auto d = findRoleDocument(opCtx, n)) {
                        BSONObj mine = storedRestrictions(*d);
                        if (!mine.isEmpty()) {
                            own.append(BSONArray(mine));
                            inherited.append(BSONArray(mine));
                        }
                    }
                for (const BSONObj& l : rr.restrictions) inherited.append(BSONArray(l));
                b.append("authenticationRestrictions", own.arr());
                b.append("inheritedAuthenticationRestrictions", inherited.arr());
            }
            out.append(b.obj());
        }
        result.append("roles", out.arr());
    }
} rolesInfoCmd;

// grantRolesToUser / revokeRolesFromUser / grantRolesToRole / revokeRolesFromRole.
class ChangeRolesCmd : public Command {
public:
    ChangeRolesCmd(const char* name, bool toUser, bool grant) : Command(name), _toUser(toUser), _grant(grant) {}
    std::string help() const override {
        return std::string(_grant ? "Grants" : "Revokes") + " roles " + (_grant ? "to" : "from") + " a " +
            (_toUser ? "user" : "role");
    }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        return onRolesDbs(req, _grant ? A::grantRole : A::revokeRole, false);
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder&) override {
        std::string name = nameArg(req);
        auto roles = parseRoleNames(required(req, "roles"), req.db(), (name + ".roles").c_str());
        uassert(ErrorCodes::BadValue, req.commandName() + " requires at least one role", !roles.empty());
        if (_grant) uassertRolesExist(opCtx, roles);
        BSONObj doc;
        if (_toUser) {
            auto d = findUserDocument(opCtx, name, req.db());
            uassert(ErrorCodes::UserNotFound, "Could not find user \"" + name + "\" for db \"" + req.db() + "\"", d);
            doc = *d;
        } else {
            RoleName r{name, req.db()};
            uassertNotBuiltin(r, _grant ? "Cannot grant roles to" : "Cannot remove roles from");
            doc = requireStoredRole(opCtx, r);
            if (_grant) uassertNoCycle(opCtx, r, roles);
        }
        std::vector<RoleName> have = rolesOfDocument(doc);
        for (auto& r : roles) {
            auto it = std::find(have.begin(), have.end(), r);
            if (_grant && it == have.end()) have.push_back(r);
            if (!_grant && it != have.end()) have.erase(it);
        }
        BSONObjBuilder b;
        for (BSONElement e : doc)
            if (e.fieldNameStringData() == "roles") b.append("roles", roleNamesToBSON(have));
            else b.append(e);
        if (!doc.hasField("roles")) b.append("roles", roleNamesToBSON(have));
        if (_toUser) replaceUserDocument(opCtx, name, req.db(), b.obj());
        else replaceRoleDocument(opCtx, {name, req.db()}, b.obj());
    }

private:
    bool _toUser, _grant;
};
ChangeRolesCmd grantRolesToUserCmd("grantRolesToUser", true, true);
ChangeRolesCmd revokeRolesFromUserCmd("revokeRolesFromUser", true, false);
ChangeRolesCmd grantRolesToRoleCmd("grantRolesToRole", false, true);
ChangeRolesCmd revokeRolesFromRoleCmd("revokeRolesFromRole", false, false);

// grantPrivilegesToRole / revokePrivilegesFromRole.
class ChangePrivilegesCmd : public Command {
public:
    ChangePrivilegesCmd(const char* name, bool grant) : Command(name), _grant(grant) {}
    std::string help() const override { return _grant ? "Grants privileges to a role" : "Revokes privileges from a role"; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        return RequiredPrivileges::onDatabase(req.db(), {_grant ? A::grantRole : A::revokeRole});
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder&) override {
        RoleName r{nameArg(req), req.db()};
        auto privileges = parsePrivileges(required(req, "privileges"), r, req.commandName() + ".privileges");
        uassert(ErrorCodes::BadValue, req.commandName() + " requires at least one privilege", !privileges.empty());
        uassertNotBuiltin(r, _grant ? "Cannot grant privileges to" : "Cannot remove privileges from");
        BSONObj doc = requireStoredRole(opCtx, r);
        PrivilegeVector have = storedPrivileges(doc);
        for (auto& p : privileges) {
            if (_grant) addPrivilege(have, p);
            else removePrivilege(have, p);
        }
        replaceRoleDocument(opCtx, r, roleDocument(r, have, rolesOfDocument(doc), storedRestrictions(doc)));
    }

private:
    bool _grant;
};
ChangePrivilegesCmd grantPrivilegesToRoleCmd("grantPrivilegesToRole", true);
ChangePrivilegesCmd revokePrivilegesFromRoleCmd("revokePrivilegesFromRole", false);

}  // namespace
}  // namespace mongo::auth
