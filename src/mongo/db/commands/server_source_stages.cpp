#include "mongo/db/commands/server_source_stages.h"

#include <memory>
#include <set>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/commands/current_op_registry.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/transaction/transaction_report.h"
#include "mongo/db/session/logical_session_cache.h"
#include "mongo/db/session/logical_session_id.h"

namespace mongo {

namespace {

std::string wrongType(const std::string& path, const BSONElement& e, const char* expected) {
    return "BSON field '" + path + "' is the wrong type '" + typeName(e.type()) + "', expected type '" + expected + "'";
}

// Documents produced one at a time from a list computed at the first call.
std::function<std::optional<BSONObj>()> lazyList(std::function<std::vector<BSONObj>()> compute) {
    struct State {
        std::optional<std::vector<BSONObj>> docs;
        size_t next = 0;
    };
    auto st = std::make_shared<State>();
    return [st, compute = std::move(compute)]() -> std::optional<BSONObj> {
        if (!st->docs) st->docs = compute();
        if (st->next >= st->docs->size()) return std::nullopt;
        return (*st->docs)[st->next++];
    };
}

struct CurrentOpSpec {
    bool idleConnections = false, idleCursors = false;
    bool idleSessions = true;  // MongoDB's default: inactive transactions are shown
    bool truncateOps = false;
};

CurrentOpSpec parseCurrentOp(const NamespaceString& nss, bool collectionless, const BSONElement& spec) {
    if (spec.type() != Object)
        uasserted(ErrorCodes::TypeMismatch,
                  "$currentOp options must be specified in an object, but found: " + typeName(spec.type()));
    for (const char* f : {"allUsers", "localOps"}) {
        BSONElement e = spec.Obj()[f];
        if (!e.eoo() && e.type() != Bool)
            uasserted(ErrorCodes::TypeMismatch, std::string("The '") + f +
                                                    "' parameter of the $currentOp stage must be a boolean value, "
                                                    "but found: " + typeName(e.type()));
    }
    uassert(ErrorCodes::InvalidNamespace, "$currentOp must be run against the 'admin' database with {aggregate: 1}",
            nss.db() == "admin" && collectionless);
    CurrentOpSpec out;
    for (BSONElement e : spec.Obj()) {
        std::string name(e.fieldNameStringData());
        static const std::set<std::string> kFields = {"allUsers",   "idleConnections", "idleCursors", "idleSessions",
                                                      "localOps",   "truncateOps",     "backtrace"};
        uassert(40415, "BSON field '$currentOp." + name + "' is an unknown field.", kFields.count(name));
        uassert(ErrorCodes::TypeMismatch, wrongType("$currentOp." + name, e, "bool"), e.type() == Bool);
        if (name == "idleConnections") out.idleConnections = e.boolean();
        if (name == "idleCursors") out.idleCursors = e.boolean();
        if (name == "truncateOps") out.truncateOps = e.boolean();
        if (name == "idleSessions") out.idleSessions = e.boolean();
        // allUsers: every operation is the (one, unauthenticated) user's own. localOps,
        // backtrace: mongos / latch details this server has none of.
    }
    return out;
}

// {allUsers, users} as $listLocalSessions / $listSessions take it: the owners' digests, or
// nullopt for every session.
std::optional<std::set<std::string>> parseListSessions(const char* stage, const BSONElement& spec) {
    const std::string name(stage);
    if (spec.type() != Object)
        uasserted(ErrorCodes::TypeMismatch, name + " options must be specified in an object, but found: " +
                                                typeName(spec.type()));
    bool allUsers = false;
    std::vector<std::pair<std::string, std::string>> users;
    bool usersGiven = false;
    for (BSONElement e : spec.Obj()) {
        std::string f(e.fieldNameStringData());
        if (f == "allUsers") {
            uassert(ErrorCodes::TypeMismatch, wrongType(name + ".allUsers", e, "bool"), e.type() == Bool);
            allUsers = e.boolean();
        } else if (f == "users") {
            uassert(ErrorCodes::TypeMismatch, wrongType(name + ".users", e, "array"), e.type() == Array);
            usersGiven = true;
            for (BSONElement u : e.Obj()) {
                uassert(ErrorCodes::TypeMismatch, wrongType(name + ".users", u, "object"), u.type() == Object);
                std::string user, db;
                bool hasUser = false, hasDb = false;
                for (BSONElement uf : u.Obj()) {
                    std::string ufn(uf.fieldNameStringData());
                    uassert(40415, "BSON field '" + name + ".users." + ufn + "' is an unknown field.",
                            ufn == "user" || ufn == "db");
                    uassert(ErrorCodes::TypeMismatch, wrongType(name + ".users." + ufn, uf, "string"),
                            uf.type() == String);
                    (ufn == "user" ? user : db) = uf.str();
                    (ufn == "user" ? hasUser : hasDb) = true;
                }
                uassert(40414, "BSON field '" + name + ".users.user' is missing but a required field", hasUser);
                uassert(40414, "BSON field '" + name + ".users.db' is missing but a required field", hasDb);
                users.emplace_back(user, db);
            }
        } else {
            uasserted(40415, "BSON field '" + name + "." + f + "' is an unknown field.");
        }
    }
    uassert(ErrorCodes::UnsupportedFormat,
            name + " may not specify {allUsers:true} and {users:[...]} at the same time",
            !allUsers || !usersGiven || users.empty());
    if (allUsers) return std::nullopt;
    std::set<std::string> digests;
    if (users.empty()) digests.insert(noAuthUserDigest());  // the caller's own: no user here
    for (auto& [user, db] : users) digests.insert(userDigest(user, db));
    return digests;
}

}  // namespace

std::optional<std::function<std::optional<BSONObj>()>> prepareServerSourceStage(const NamespaceString& nss,
                                                                                 bool collectionless,
                                                                                 const BSONObj& stage) {
    BSONElement spec = stage.firstElement();
    std::string_view name = spec.fieldNameStringData();
    if (name == "$currentOp") {
        CurrentOpSpec s = parseCurrentOp(nss, collectionless, spec);
        return lazyList([s] {
            CurrentOpReportOptions o;
            o.idleConnections = s.idleConnections;
            o.truncateOps = s.truncateOps;
            std::vector<BSONObj> docs = CurrentOpRegistry::get().report(o);
            if (s.idleCursors)
                for (BSONObj& c : CursorManager::get().reportIdle(hostAndPort())) docs.push_back(std::move(c));
            if (s.idleSessions)
                for (BSONObj& t : txn::reportIdleTransactions(hostAndPort())) docs.push_back(std::move(t));
            return docs;
        });
    }
    if (name == "$listLocalSessions") {
        auto uids = parseListSessions("$listLocalSessions", spec);
        uassert(ErrorCodes::InvalidNamespace,
                "$listLocalSessions must be run against the database with {aggregate: 1}, not a collection",
                collectionless);
        return lazyList([uids] { return LogicalSessionCache::get().listLocalSessions(uids); });
    }
    return std::nullopt;
}

BSONObj listSessionsAsMatch(const NamespaceString& nss, bool collectionless, const BSONObj& stage) {
    auto uids = parseListSessions("$listSessions", stage.firstElement());
    uassert(ErrorCodes::InvalidNamespace,
            "$listSessions must be run against the 'system.sessions' collection in the 'config' database.",
            !collectionless && nss.db() == "config" && nss.coll() == "system.sessions");
    if (!uids) return BSONObj();
    BSONArrayBuilder in;
    for (const std::string& d : *uids) {
        BSONObjBuilder one;
        appendUserDigest(one, "", d);
        in.append(one.obj().firstElement());
    }
    BSONObjBuilder inObj;
    inObj.append("$in", in.arr());
    BSONObjBuilder match;
    match.append("_id.uid", inObj.obj());
    BSONObjBuilder stageB;
    stageB.append("$match", match.obj());
    return stageB.obj();
}

}  // namespace mongo
