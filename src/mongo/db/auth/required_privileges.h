#pragma once
// What one request of a command needs from the client, as every command declares it
// (Command::requiredPrivileges, the one place per command): nothing at all (commands any
// client may run before authenticating: hello, ping, saslStart, ...), any authenticated user
// (startSession, logout of nobody, ...), or actions on resources. The dispatcher checks it
// before the command runs (auth/command_authorization.h); a client without them gets
// Unauthorized (13) and nothing happens.
// Pure values: thread safe.
#include <string>

#include "mongo/db/auth/privilege.h"
#include "mongo/rpc/op_msg_request.h"

namespace mongo {

class RequiredPrivileges {
public:
    // Any client, authenticated or not.
    static RequiredPrivileges none() {
        RequiredPrivileges r;
        r._noAuth = true;
        return r;
    }
    // Any authenticated client, whatever its privileges.
    static RequiredPrivileges authenticated() {
        RequiredPrivileges r;
        r._anyUser = true;
        return r;
    }
    static RequiredPrivileges on(const ResourcePattern& resource, const ActionSet& actions) {
        RequiredPrivileges r;
        r.add(resource, actions);
        return r;
    }
    static RequiredPrivileges onCluster(const ActionSet& actions) { return on(ResourcePattern::cluster(), actions); }
    static RequiredPrivileges onDatabase(const std::string& db, const ActionSet& actions) {
        return on(ResourcePattern::database(db), actions);
    }
    // The namespace named by the request's first element ({find: "c", $db: "d"} -> d.c);
    // the database when the first element is not a non-empty string ({aggregate: 1}).
    static RequiredPrivileges onCommandNamespace(const OpMsgRequest& req, const ActionSet& actions) {
        return on(commandResource(req), actions);
    }
    static ResourcePattern commandResource(const OpMsgRequest& req) {
        BSONElement first = req.body.firstElement();
        if (first.type() == String && !first.valueStringData().empty())
            return ResourcePattern::exact(req.db(), first.str());
        return ResourcePattern::database(req.db());
    }

    RequiredPrivileges& add(const ResourcePattern& resource, const ActionSet& actions) {
        addPrivilege(_privileges, {resource, actions});
        return *this;
    }
    RequiredPrivileges& add(const RequiredPrivileges& o) {
        addPrivileges(_privileges, o._privileges);
        return *this;
    }

    // Also allowed for a client authenticated as user@db that has selfActions on database db
    // (none: whatever its privileges): usersInfo about oneself, updateUser of one's own
    // password with changeOwnPassword, as MongoDB allows.
    RequiredPrivileges& orSelf(std::string user, std::string db, const ActionSet& selfActions = {}) {
        _selfUser = std::move(user);
        _selfDb = std::move(db);
        _selfPrivileges.clear();
        if (!selfActions.empty()) addPrivilege(_selfPrivileges, {ResourcePattern::database(_selfDb), selfActions});
        return *this;
    }
    bool hasSelf() const { return !_selfUser.empty(); }
    const std::string& selfUser() const { return _selfUser; }
    const std::string& selfDb() const { return _selfDb; }
    const PrivilegeVector& selfPrivileges() const { return _selfPrivileges; }

    bool requiresAuthentication() const { return !_noAuth; }
    bool anyAuthenticatedUser() const { return _anyUser; }
    const PrivilegeVector& privileges() const { return _privileges; }
    // Declared: none(), authenticated(), or at least one privilege.
    bool isDeclared() const { return _noAuth || _anyUser || !_privileges.empty(); }

private:
    bool _noAuth = false;
    bool _anyUser = false;
    PrivilegeVector _privileges;
    std::string _selfUser, _selfDb;
    PrivilegeVector _selfPrivileges;
};

}  // namespace mongo
