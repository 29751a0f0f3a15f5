#pragma once
// One connection's authentication state: the users authenticated on it (at most one per
// database, as MongoDB), the roles and privileges they hold, and the SASL conversation in
// progress. Privileges are resolved once, when a user authenticates, and again only when
// users or roles changed since (auth_store.h's generation) or the cache is 5 s old (changes
// made around auth_store.h): checking a command costs a comparison of the generation and a
// clock, and a walk over the cached privileges; reads happen at most once per 5 s.
//
// Owned by its Client and used only by that connection's thread: not thread safe.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/db/auth/auth_store.h"
#include "mongo/db/auth/privilege.h"
#include "mongo/db/auth/scram.h"
#include "mongo/db/operation_context.h"

namespace mongo::auth {

struct UserName {
    std::string user, db;
    bool operator==(const UserName& o) const { return user == o.user && db == o.db; }
    std::string fullName() const { return user + "@" + db; }
    BSONObj toBSON() const;  // {user, db}
};

// A SASL conversation in progress on a connection (saslStart .. saslContinue).
struct SaslConversation {
    int id = 0;
    std::string mechanism;
    std::string db;  // the database the user is defined in
    std::unique_ptr<ScramServerConversation> scram;
    bool skipEmptyExchange = false;
    bool speculative = false;  // started by hello's speculativeAuthenticate
    bool awaitingEmptyExchange = false;  // SCRAM done; the client's empty message ends it
};

// Whether u may be authenticated on opCtx's connection: its authenticationRestrictions and
// those of every role it holds (authentication_restrictions.h) admit the connection's
// addresses. AuthenticationRestrictionUnmet (saying which) otherwise; __system has none.
Status authenticationRestrictionsMet(OperationContext* opCtx, const UserName& u);

class AuthorizationSession {
public:
    static AuthorizationSession* get(Client* client);

    bool isAuthenticated() const { return !_users.empty(); }
    const std::vector<UserName>& users() const { return _users; }
    // Records that u proved who it is (replacing another user of the same database, as
    // MongoDB), and resolves its privileges.
    void addAuthenticatedUser(OperationContext* opCtx, const UserName& u);
    // logout: forgets the user of db (if any).
    void logoutDatabase(const std::string& db);

    // All roles and privileges of the authenticated users, re-resolved if users or roles
    // changed since they were cached. A user whose restrictions no longer admit the connection
    // is logged out then, as MongoDB drops it when it re-acquires the user.
    const std::vector<RoleName>& roles(OperationContext* opCtx);
    const PrivilegeVector& privileges(OperationContext* opCtx);
    bool isAuthorized(OperationContext* opCtx, const PrivilegeVector& required);

    std::unique_ptr<SaslConversation> conversation;
    int lastConversationId = 0;

private:
    void refresh(OperationContext* opCtx);

    static constexpr std::chrono::seconds kStaleAfter{5};
    std::vector<UserName> _users;
    std::chrono::steady_clock::time_point _resolvedAt;
    uint64_t _generation = 0;  // of the cache below; 0: not resolved
    std::vector<RoleName> _roles;
    PrivilegeVector _privileges;
};

// listDatabases' filter under access control: nullopt when every database may be listed
// (access control off, or the listDatabases action on the cluster unless authorizedOnly: the
// command's authorizedDatabases: true, which lists only the databases the user has privileges
// on, as MongoDB), else whether to list db.
// Call it before taking the catalog lock (it may read users and roles); the filter never reads.
std::optional<std::function<bool(const std::string&)>> listDatabasesFilter(OperationContext* opCtx,
                                                                          bool authorizedOnly = false);

// The authenticated users of the operation's connection, as a key ("u@db,u2@db2"; "" without
// access control): a cursor remembers it, and only the same users may continue it.
std::string cursorOwner(OperationContext* opCtx);
// Whether the operation's users may kill cursors of others (killAnyCursor on the cluster).
bool mayKillAnyCursor(OperationContext* opCtx);

}  // namespace mongo::auth
