// User management as MongoDB 7.0 has it: createUser, updateUser, dropUser,
// dropAllUsersFromDatabase, usersInfo; and connectionStatus's authInfo. Users live in
// admin.system.users (auth_store.h); passwords are turned into SCRAM credentials at once and
// are never stored, logged (commands are logged with "pwd" redacted) or returned.
#include <algorithm>
#include <optional>

#include "mongo/bson/uuid.h"
#include "mongo/db/auth/auth_options.h"
#include "mongo/db/auth/auth_store.h"
#include "mongo/db/auth/authentication_restrictions.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/auth/saslprep.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/query/matcher.h"

namespace mongo::auth {

namespace {

using A = ActionType;

std::string wrongType(const std::string& field, const BSONElement& e, const char* expected) {
    return "BSON field '" + field + "' is the wrong type '" + typeName(e.type()) + "', expected type '" + expected + "'";
}

std::string userNameArg(const OpMsgRequest& req) {
    BSONElement e = req.body.firstElement();
    uassert(ErrorCodes::TypeMismatch, wrongType(std::string(e.fieldNameStringData()), e, "string"), e.type() == String);
    uassert(ErrorCodes::BadValue, "User name cannot be empty", !e.valueStringData().empty());
    return e.str();
}

// The mechanisms argument, or both SCRAM mechanisms.
std::vector<std::string> mechanismsArg(const BSONObj& cmd, const std::string& cmdName,
                                       const std::vector<std::string>& dflt) {
    BSONElement m = cmd["mechanisms"];
    if (m.eoo()) return dflt;
    uassert(ErrorCodes::TypeMismatch, wrongType(cmdName + ".mechanisms", m, "array"), m.type() == Array);
    std::vector<std::string> out;
    for (BSONElement e : m.Obj()) {
        uassert(ErrorCodes::TypeMismatch, wrongType(cmdName + ".mechanisms." + std::string(e.fieldNameStringData()), e, "string"),
                e.type() == String);
        uassert(ErrorCodes::BadValue, "Unknown auth mechanism '" + e.str() + "'",
                scramAlgoForMechanism(e.valueStringData()).has_value());
        if (std::find(out.begin(), out.end(), e.str()) == out.end()) out.push_back(e.str());
    }
    uassert(ErrorCodes::BadValue, "mechanisms field must not be empty", !out.empty());
    return out;
}

// credentials: {"SCRAM-SHA-1": {...}, "SCRAM-SHA-256": {...}} for the password.
BSONObj makeCredentials(const std::string& user, const std::string& pwd, bool digestPassword,
                        const std::vector<std::string>& mechanisms) {
    uassert(ErrorCodes::BadValue, "Password cannot be empty", !pwd.empty());
    BSONObjBuilder b;
    for (const char* m : {kScramSha1, kScramSha256}) {
        if (std::find(mechanisms.begin(), mechanisms.end(), m) == mechanisms.end()) continue;
        if (std::string(m) == kScramSha1) {
            std::string digest = digestPassword ? mongoPasswordDigest(user, pwd) : pwd;
            b.append(m, makeScramCredential(HashAlgo::kSha1, digest, scramIterationCount()).toBSON());
        } else {
            uassert(ErrorCodes::BadValue, "Use of SCRAM-SHA-256 requires undigested passwords", digestPassword);
            auto prepared = saslPrep(pwd);
            uassertStatusOK(prepared.getStatus());
            b.append(m, makeScramCredential(HashAlgo::kSha256, prepared.getValue(), scramSha256IterationCount()).toBSON());
        }
    }
    return b.obj();
}

bool digestPasswordArg(const BSONObj& cmd, const std::string& cmdName) {
    BSONElement d = cmd["digestPassword"];
    if (d.eoo()) return true;
    uassert(ErrorCodes::TypeMismatch, wrongType(cmdName + ".digestPassword", d, "bool"), d.type() == Bool || d.isNumber());
    return d.trueValue();
}


std::string pwdArg(const BSONObj& cmd, const std::string& cmdName) {
    BSONElement p = cmd["pwd"];
    uassert(ErrorCodes::TypeMismatch, wrongType(cmdName + ".pwd", p, "string"), p.type() == String);
    return p.str();
}

// Privileges to grant roles: grantRole on each role's database.
RequiredPrivileges& addGrantRoles(RequiredPrivileges& r, const BSONElement& roles, const std::string& db, A action) {
    if (roles.type() == Array)
        for (BSONElement e : roles.Obj()) {
            try {
                r.add(ResourcePattern::database(parseRoleName(e, db).db), {action});
            } catch (const DBException&) {
            }
        }
    return r;
}

std::vector<std::string> mechanismsOf(const BSONObj& userDoc) {
    std::vector<std::string> out;
    BSONElement c = userDoc["credentials"];
    if (c.type() == Object)
        for (const char* m : {kScramSha1, kScramSha256})
            if (c.Obj()[m].type() == Object) out.push_back(m);
    return out;
}

class CreateUserCmd : public Command {
public:
    CreateUserCmd() : Command("createUser") {}
    std::string help() const override { return "Adds a user to the system"; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        auto r = RequiredPrivileges::onDatabase(req.db(), {A::createUser});
        if (req.body.hasField("authenticationRestrictions"))
            r.add(ResourcePattern::database(req.db()), {A::setAuthenticationRestriction});
        return addGrantRoles(r, req.body["roles"], req.db(), A::grantRole);
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        const BSONObj& cmd = req.body;
        std::string user = userNameArg(req), db = req.db();
        uassert(ErrorCodes::BadValue, "Cannot create users in the local database", db != "local");
        uassert(ErrorCodes::BadValue, "$external users are not supported by this server (no external authentication)",
                db != "$external");
        BSONElement rolesElem = cmd["roles"];
        uassert(40414, "BSON field 'createUser.roles' is missing but a required field", !rolesElem.eoo());
        auto roles = parseRoleNames(rolesElem, db, "createUser.roles");
        uassert(ErrorCodes::BadValue,
                "Must provide a 'pwd' field for all user documents, except those with '$external' as the user's "
                "source db",
                cmd.hasField("pwd"));
        std::string pwd = pwdArg(cmd, "createUser");
        BSONElement customData = cmd["customData"];
        uassert(ErrorCodes::TypeMismatch, wrongType("createUser.customData", customData, "object"),
                customData.eoo() || customData.type() == Object);
        auto restrictions = restrictionsArgument(cmd, "createUser");
        bool digest = digestPasswordArg(cmd, "createUser");
        auto mechanisms = mechanismsArg(cmd, "createUser", {kScramSha1, kScramSha256});
        BSONObj credentials = makeCredentials(user, pwd, digest, mechanisms);
        uassertRolesExist(opCtx, roles);

        BSONObjBuilder doc;
        doc.append("_id", db + "." + user);
        unsigned char userId[kUuidLength];
        generateUuidBytes(userId);
        doc.appendBinData("userId", kUuidLength, kUuidBinDataSubtype, userId);
        doc.append("user", user);
        doc.append("db", db);
        doc.append("credentials", credentials);
        doc.append("roles", roleNamesToBSON(roles));
        if (!customData.eoo()) doc.append("customData", customData.Obj());
        if (restrictions && !restrictions->isEmpty()) doc.append("authenticationRestrictions", *restrictions);
        insertUserDocument(opCtx, doc.obj());
    }
} createUserCmd;

class UpdateUserCmd : public Command {
public:
    UpdateUserCmd() : Command("updateUser") {}
    std::string help() const override { return "Used to update a user, for example to change its password"; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        RequiredPrivileges r;
        if (req.body.hasField("pwd") || req.body.hasField("mechanisms"))
            r.add(ResourcePattern::database(req.db()), {A::changePassword});
        if (req.body.hasField("customData")) r.add(ResourcePattern::database(req.db()), {A::changeCustomData});
        if (req.body.hasField("roles")) {
            r.add(ResourcePattern::database(req.db()), {A::revokeRole});
            addGrantRoles(r, req.body["roles"], req.db(), A::grantRole);
        }
        if (req.body.hasField("authenticationRestrictions"))
            r.add(ResourcePattern::database(req.db()), {A::setAuthenticationRestriction});
        if (!r.isDeclared()) r.add(ResourcePattern::database(req.db()), {A::changePassword});
        // A user may change its own password and custom data with changeOwnPassword /
        // changeOwnCustomData on its database instead (MongoDB's), and nothing else of itself.
        const bool ownFieldsOnly = !req.body.hasField("roles") && !req.body.hasField("authenticationRestrictions");
        if (ownFieldsOnly && req.body.firstElement().type() == String) {
            ActionSet own;
            if (req.body.hasField("pwd") || req.body.hasField("mechanisms")) own.add(A::changeOwnPassword);
            if (req.body.hasField("customData")) own.add(A::changeOwnCustomData);
            if (!own.empty()) r.orSelf(req.body.firstElement().str(), req.db(), own);
        }
        return r;
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        const BSONObj& cmd = req.body;
        std::string user = userNameArg(req), db = req.db();
        bool any = false;
        for (const char* f : {"pwd", "customData", "roles", "mechanisms", "authenticationRestrictions"})
            any = any || cmd.hasField(f);
        uassert(ErrorCodes::BadValue, "Must specify at least one field to update in updateUser", any);
        auto restrictions = restrictionsArgument(cmd, "updateUser");
        auto existing = findUserDocument(opCtx, user, db);
        uassert(ErrorCodes::UserNotFound, "Could not find user \"" + user + "\" for db \"" + db + "\"", existing);
        bool digest = digestPasswordArg(cmd, "updateUser");
        BSONObj credentials = (*existing)["credentials"].type() == Object ? (*existing)["credentials"].Obj() : BSONObj();
        if (cmd.hasField("pwd")) {
            auto mechanisms = mechanismsArg(cmd, "updateUser", {kScramSha1, kScramSha256});
            credentials = makeCredentials(user, pwdArg(cmd, "updateUser"), digest, mechanisms);
        } else if (cmd.hasField("mechanisms")) {
            // Without a password, mechanisms can only drop credentials the user has.
            auto mechanisms = mechanismsArg(cmd, "updateUser", {});
            BSONObjBuilder b;
            for (auto& m : mechanisms) {
                uassert(ErrorCodes::BadValue, "mechanisms field must be a subset of previously set mechanisms",
                        credentials[m].type() == Object);
                b.append(credentials[m]);
            }
            credentials = b.obj();
        }
        std::vector<RoleName> roles = rolesOfDocument(*existing);
        if (cmd.hasField("roles")) {
            roles = parseRoleNames(cmd["roles"], db, "updateUser.roles");
            uassertRolesExist(opCtx, roles);
        }
        BSONElement customData = cmd["customData"];
        uassert(ErrorCodes::TypeMismatch, wrongType("updateUser.customData", customData, "object"),
                customData.eoo() || customData.type() == Object);

        BSONObjBuilder doc;
        doc.append((*existing)["_id"]);
        if (!(*existing)["userId"].eoo()) doc.append((*existing)["userId"]);
        doc.append("user", user);
        doc.append("db", db);
        doc.append("credentials", credentials);
        doc.append("roles", roleNamesToBSON(roles));
        if (!customData.eoo()) doc.append("customData", customData.Obj());
        else if (!(*existing)["customData"].eoo()) doc.append((*existing)["customData"]);
        if (restrictions) {
            if (!restrictions->isEmpty()) doc.append("authenticationRestrictions", *restrictions);
        } else if (!(*existing)["authenticationRestrictions"].eoo()) {
            doc.append((*existing)["authenticationRestrictions"]);
        }
        replaceUserDocument(opCtx, user, db, doc.obj());
    }
} updateUserCmd;

class DropUserCmd : public Command {
public:
    DropUserCmd() : Command("dropUser") {}
    std::string help() const override { return "Drops a single user."; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        return RequiredPrivileges::onDatabase(req.db(), {A::dropUser});
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        std::string user = userNameArg(req), db = req.db();
        long long n = removeUserDocuments(opCtx, db, user);
        uassert(ErrorCodes::UserNotFound, "User '" + user + "@" + db + "' not found", n > 0);
    }
} dropUserCmd;

class DropAllUsersFromDatabaseCmd : public Command {
public:
    DropAllUsersFromDatabaseCmd() : Command("dropAllUsersFromDatabase") {}
    std::string help() const override { return "Drops all users for a single database."; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        return RequiredPrivileges::onDatabase(req.db(), {A::dropUser});
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        result.appendNumber("n", removeUserDocuments(opCtx, req.db(), std::nullopt));
    }
} dropAllUsersFromDatabaseCmd;

// usersInfo's argument: 1 (every user of the database), {forAllDBs: true}, "name",
// {user, db}, or an array of the last two.
struct UsersInfoArg {
    bool allOfDb = false, allDbs = false;
    std::vector<UserName> names;
};

UsersInfoArg parseUsersInfoArg(const OpMsgRequest& req) {
    UsersInfoArg a;
    BSONElement e = req.body.firstElement();
    auto one = [&](const BSONElement& x) {
        if (x.type() == String) return UserName{x.str(), req.db()};
        uassert(ErrorCodes::BadValue, "User name must be either a string or an object", x.type() == Object);
        BSONElement u = x.Obj()["user"], d = x.Obj()["db"];
        uassert(ErrorCodes::BadValue, "User name objects must have 'user' and 'db' string fields",
                u.type() == String && d.type() == String);
        return UserName{u.str(), d.str()};
    };
    if (e.isNumber() && e.numberInt() == 1) a.allOfDb = true;
    else if (e.type() == Object && e.Obj()["forAllDBs"].type() == Bool) {
        uassert(ErrorCodes::BadValue, "forAllDBs must be true", e.Obj()["forAllDBs"].boolean());
        a.allDbs = true;
    } else if (e.type() == Array) {
        for (BSONElement x : e.Obj()) a.names.push_back(one(x));
    } else {
        a.names.push_back(one(e));
    }
    return a;
}

class UsersInfoCmd : public Command {
public:
    UsersInfoCmd() : Command("usersInfo") {}
    std::string help() const override { return "Returns information about users."; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override {
        try {
            UsersInfoArg a = parseUsersInfoArg(req);
            if (a.allDbs) return RequiredPrivileges::onCluster({A::viewUser});
            RequiredPrivileges r = RequiredPrivileges::onDatabase(req.db(), {A::viewUser});
            for (auto& n : a.names) r.add(ResourcePattern::database(n.db), {A::viewUser});
            if (a.names.size() == 1) r.orSelf(a.names[0].user, a.names[0].db);  // a user may see itself
            return r;
        } catch (const DBException&) {
            return RequiredPrivileges::onDatabase(req.db(), {A::viewUser});
        }
    }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        const BSONObj& cmd = req.body;
        UsersInfoArg a = parseUsersInfoArg(req);
        for (const char* f : {"showCredentials", "showCustomData", "showPrivileges", "showAuthenticationRestrictions"})
            uassert(ErrorCodes::TypeMismatch, wrongType(std::string("usersInfo.") + f, cmd[f], "bool"),
                    cmd[f].eoo() || cmd[f].type() == Bool || cmd[f].isNumber());
        bool showCredentials = cmd["showCredentials"].trueValue();
        bool showCustomData = cmd["showCustomData"].eoo() || cmd["showCustomData"].trueValue();
        bool showPrivileges = cmd["showPrivileges"].trueValue();
        bool showRestrictions = showPrivileges || cmd["showAuthenticationRestrictions"].trueValue();
        // filter: $match conditions on the stored user documents (as MongoDB's aggregation
        // over admin.system.users).
        std::optional<Matcher> filter;
        if (BSONElement f = cmd["filter"]; !f.eoo()) {
            uassert(ErrorCodes::TypeMismatch, wrongType("usersInfo.filter", f, "object"), f.type() == Object);
            filter.emplace(f.Obj());
        }
        std::vector<BSONObj> docs;
        if (a.allDbs) docs = listUserDocuments(opCtx, std::nullopt);
        else if (a.allOfDb) docs = listUserDocuments(opCtx, req.db());
        else
            for (auto& n : a.names)
                if (auto d = findUserDocument(opCtx, n.user, n.db)) docs.push_back(*d);
        if (filter)
            docs.erase(std::remove_if(docs.begin(), docs.end(), [&](const BSONObj& d) { return !filter->matches(d); }),
                       docs.end());

        BSONArrayBuilder users;
        for (auto& d : docs) {
            BSONObjBuilder u;
            u.append(d["_id"]);
            if (!d["userId"].eoo()) u.append(d["userId"]);
            u.append(d["user"]);
            u.append(d["db"]);
            if (showCredentials && d["credentials"].type() == Object) u.append(d["credentials"]);
            auto roles = rolesOfDocument(d);
            u.append("roles", roleNamesToBSON(roles));
            if (showCustomData && !d["customData"].eoo()) u.append(d["customData"]);
            BSONArrayBuilder mechs;
            for (auto& m : mechanismsOf(d)) mechs.append(m);
            u.append("mechanisms", mechs.arr());
            if (showPrivileges) {
                ResolvedRoles rr = resolveRoles(opCtx, roles);
                u.append("inheritedRoles", roleNamesToBSON(rr.roles));
                u.append("inheritedPrivileges", privilegesToBSON(rr.privileges));
                BSONArrayBuilder inherited;
                for (const BSONObj& l : rr.restrictions) inherited.append(BSONArray(l));
                u.append("inheritedAuthenticationRestrictions", inherited.arr());
            }
            if (showRestrictions) {
                if (d["authenticationRestrictions"].type() == Array)
                    u.appendArray("authenticationRestrictions", d["authenticationRestrictions"].Obj());
                else
                    u.append("authenticationRestrictions", BSONArray());
            }
            users.append(u.obj());
        }
        result.append("users", users.arr());
    }
} usersInfoCmd;

}  // namespace
}  // namespace mongo::auth
