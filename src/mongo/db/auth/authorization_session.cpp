#include "mongo/db/auth/authorization_session.h"

#include <algorithm>

#include "mongo/db/auth/auth_options.h"
#include "mongo/db/auth/authentication_restrictions.h"
#include "mongo/transport/transport_layer.h"
#include "mongo/util/log.h"

namespace mongo::auth {

BSONObj UserName::toBSON() const {
    BSONObjBuilder b;
    b.append("user", user);
    b.append("db", db);
    return b.obj();
}

AuthorizationSession* AuthorizationSession::get(Client* client) {
    if (!client->authzSession) client->authzSession = std::make_shared<AuthorizationSession>();
    return client->authzSession.get();
}

namespace {
// What user u holds: its roles resolved through the role graph, once its document is read and
// its restrictions and its roles' admit opCtx's connection (authentication_restrictions.h);
// UserNotFound / AuthenticationRestrictionUnmet otherwise.
StatusWith<ResolvedRoles> resolveUser(OperationContext* opCtx, const UserName& u) {
    if (u.user == "__system" && u.db == "local") return resolveRoles(opCtx, {{"__system", "admin"}});
    auto doc = findUserDocument(opCtx, u.user, u.db);
    if (!doc) return Status(ErrorCodes::UserNotFound, "Could not find user \"" + u.user + "\" for db \"" + u.db + "\"");
    ResolvedRoles rr = resolveRoles(opCtx, rolesOfDocument(*doc));
    std::vector<BSONObj> lists = rr.restrictions;
    if (BSONElement own = (*doc)["authenticationRestrictions"]; own.type() == Array && !own.Obj().isEmpty())
        lists.push_back(own.Obj());
    if (lists.empty()) return rr;
    Client* c = opCtx->getClient();
    const std::string client = c ? addressOfRemote(c->remote()) : std::string();
    const std::string server = c ? transport::localAddressOf(c->socketFd) : std::string();
    for (const BSONObj& l : lists)
        if (!restrictionsAllow(l, client, server))
            return Status(ErrorCodes::AuthenticationRestrictionUnmet,
                          "Restriction " + l.jsonString() + " is not met by client " + client + " connected to " + server);
    return rr;
}
}  // namespace

Status authenticationRestrictionsMet(OperationContext* opCtx, const UserName& u) {
    return resolveUser(opCtx, u).getStatus();
}

void AuthorizationSession::addAuthenticatedUser(OperationContext* opCtx, const UserName& u) {
    _users.erase(std::remove_if(_users.begin(), _users.end(), [&](const UserName& x) { return x.db == u.db; }),
                 _users.end());
    _users.push_back(u);
    _generation = 0;
    refresh(opCtx);
}

void AuthorizationSession::logoutDatabase(const std::string& db) {
    _users.erase(std::remove_if(_users.begin(), _users.end(), [&](const UserName& x) { return x.db == db; }),
                 _users.end());
    _generation = 0;
    _roles.clear();
    _privileges.clear();
}

void AuthorizationSession::refresh(OperationContext* opCtx) {
    uint64_t gen = authGeneration();
    auto now = std::chrono::steady_clock::now();
    // Every write to the users and roles moves the generation (noteWriteToAuthCollection); the
    // cache is also re-resolved once it is kStaleAfter old, in case a change reached storage
    // some other way (a restore under a running server).
    if (_generation == gen && now - _resolvedAt < kStaleAfter) return;
    _resolvedAt = now;
    // Each user resolved once: its restrictions checked and its privileges gathered together.
    std::vector<RoleName> roles;
    PrivilegeVector privileges;
    for (auto it = _users.begin(); it != _users.end();) {
        auto rr = resolveUser(opCtx, *it);
        if (rr.isOK()) {
            roles.insert(roles.end(), rr.getValue().roles.begin(), rr.getValue().roles.end());
            addPrivileges(privileges, rr.getValue().privileges);
            ++it;
            continue;
        }
        // A dropped user, or one its restrictions no longer admit, leaves the session.
        Client* c = opCtx->getClient();
        LOGV2(20242, Access, "Removed user from session cache",
              logv2::attrs("user", it->fullName(), "remote", c ? c->remote() : std::string(), "error",
                           rr.getStatus().toString()));
        it = _users.erase(it);
    }
    std::sort(roles.begin(), roles.end());
    roles.erase(std::unique(roles.begin(), roles.end()), roles.end());
    _roles = std::move(roles);
    _privileges = std::move(privileges);
    _generation = gen;
}

const std::vector<RoleName>& AuthorizationSession::roles(OperationContext* opCtx) {
    refresh(opCtx);
    return _roles;
}

const PrivilegeVector& AuthorizationSession::privileges(OperationContext* opCtx) {
    refresh(opCtx);
    return _privileges;
}

bool AuthorizationSession::isAuthorized(OperationContext* opCtx, const PrivilegeVector& required) {
    return privilegesCover(privileges(opCtx), required);
}

namespace {
bool anyPrivilegeOnDatabase(const PrivilegeVector& privileges, const std::string& db) {
    for (const auto& p : privileges) {
        switch (p.resource.kind()) {
            case ResourcePattern::Kind::kAnyResource:
            case ResourcePattern::Kind::kAnyNormal: return true;
            case ResourcePattern::Kind::kDatabase:
            case ResourcePattern::Kind::kExactNamespace:
                if (p.resource.db() == db) return true;
                break;
            default: break;
        }
    }
    return false;
}
}  // namespace

std::string cursorOwner(OperationContext* opCtx) {
    Client* c = opCtx->getClient();
    if (!authorizationEnabled() || !c || !c->authzSession) return "";
    std::vector<std::string> names;
    for (auto& u : c->authzSession->users()) names.push_back(u.fullName());
    std::sort(names.begin(), names.end());
    std::string out;
    for (auto& n : names) out += (out.empty() ? "" : ",") + n;
    return out;
}

bool mayKillAnyCursor(OperationContext* opCtx) {
    Client* c = opCtx->getClient();
    if (!authorizationEnabled() || !c) return true;
    return AuthorizationSession::get(c)->isAuthorized(opCtx, {{ResourcePattern::cluster(), {ActionType::killAnyCursor}}});
}

std::optional<std::function<bool(const std::string&)>> listDatabasesFilter(OperationContext* opCtx,
                                                                          bool authorizedOnly) {
    Client* c = opCtx->getClient();
    if (!authorizationEnabled() || !c) return std::nullopt;
    AuthorizationSession* as = AuthorizationSession::get(c);
    if (!authorizedOnly && as->isAuthorized(opCtx, {{ResourcePattern::cluster(), {ActionType::listDatabases}}}))
        return std::nullopt;
    // Resolved now, before the caller takes the catalog lock: the filter itself never reads.
    PrivilegeVector privileges = as->privileges(opCtx);
    return [privileges](const std::string& db) { return anyPrivilegeOnDatabase(privileges, db); };
}

}  // namespace mongo::auth
