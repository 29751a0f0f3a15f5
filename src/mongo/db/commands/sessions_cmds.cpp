// Logical session commands (see sessions_cmds.h).
#include "mongo/db/commands/sessions_cmds.h"

#include <mutex>
#include <random>

#include "mongo/bson/uuid.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/test_commands.h"
#include "mongo/db/session/logical_session_cache.h"
#include "mongo/db/session/logical_session_id.h"
#include "mongo/db/server_parameters.h"

namespace mongo {

namespace {

std::mutex gHooksMutex;
SessionCommandHooks gHooks;  // guarded by gHooksMutex

SessionCommandHooks hooks() {
    std::lock_guard<std::mutex> lk(gHooksMutex);
    return gHooks;
}

std::string wrongType(const std::string& field, const BSONElement& e, const std::string& expected) {
    return "BSON field '" + field + "' is the wrong type '" + typeName(e.type()) + "', expected type '" + expected + "'";
}

// {id: UUID} from a session document; uid and other fields are accepted and dropped.
BSONObj parseLsid(const BSONElement& e, const std::string& cmdName) {
    uassert(ErrorCodes::TypeMismatch, wrongType(cmdName, e, "object"), e.type() == Object);
    BSONElement id = e.Obj()["id"];
    uassert(40414, "BSON field '" + cmdName + ".id' is missing but a required field", !id.eoo());
    int len = 0, subtype = -1;
    if (id.type() == BinData) id.binData(&len, &subtype);
    uassert(ErrorCodes::TypeMismatch, wrongType(cmdName + ".id", id, "uuid"),
            id.type() == BinData && subtype == 4 && len == 16);
    return id.wrap("id");
}

// The command's value: an array of session documents.
std::vector<BSONObj> parseLsidArray(const BSONObj& cmd, const std::string& cmdName) {
    BSONElement arr = cmd.firstElement();
    uassert(ErrorCodes::TypeMismatch, wrongType(cmdName + "." + cmdName, arr, "array"), arr.type() == Array);
    std::vector<BSONObj> out;
    for (auto e : arr.Obj()) out.push_back(parseLsid(e, cmdName));
    return out;
}

class StartSessionCmd : public Command {
public:
    StartSessionCmd() : Command("startSession") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::authenticated(); }
    std::string help() const override { return "start a logical session"; }
    void run(OperationContext* opCtx, const OpMsgRequest&, BSONObjBuilder& result) override {
        BSONObj lsid = makeLogicalSessionId();
        if (auto h = hooks().onStartSession) h(opCtx, lsid);
        result.append("id", lsid);
        result.appendInt("timeoutMinutes", localLogicalSessionTimeoutMinutes());
    }
} startSessionCmd;

class EndSessionsCmd : public Command {
public:
    EndSessionsCmd() : Command("endSessions") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::authenticated(); }
    std::string help() const override { return "end a set of logical sessions"; }
    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder&) override {
        auto lsids = parseLsidArray(request.body, "endSessions");
        if (auto h = hooks().onEndSessions) h(opCtx, lsids);
    }
} endSessionsCmd;

class RefreshSessionsCmd : public Command {
public:
    RefreshSessionsCmd() : Command("refreshSessions") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::authenticated(); }
    std::string help() const override { return "renew a set of logical sessions"; }
    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder&) override {
        auto lsids = parseLsidArray(request.body, "refreshSessions");
        if (auto h = hooks().onRefreshSessions) h(opCtx, lsids);
    }
} refreshSessionsCmd;

class KillSessionsCmd : public Command {
public:
    KillSessionsCmd() : Command("killSessions") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::authenticated(); }
    std::string help() const override { return "kill a logical session and its operations"; }
    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder&) override {
        auto lsids = parseLsidArray(request.body, "killSessions");
        if (auto h = hooks().onKillSessions) h(opCtx, lsids);
    }
} killSessionsCmd;

// Whether {user, db} names the owner of every session here: the unauthenticated user ("", "").
bool isNoAuthUser(const BSONObj& u) { return u["user"].str().empty() && u["db"].str().empty(); }

// {killAllSessions: [{user, db}, ...]}: an empty list means every session. This server has
// no users: every session belongs to the unauthenticated user {user: "", db: ""}, so naming
// it selects every session and naming anyone else selects none.
class KillAllSessionsCmd : public Command {
public:
    KillAllSessionsCmd() : Command("killAllSessions") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::killAnySession}); }
    std::string help() const override { return "kill all logical sessions, for a user, and their operations"; }
    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder&) override {
        BSONElement arr = request.body.firstElement();
        uassert(ErrorCodes::TypeMismatch, wrongType("killAllSessions.killAllSessions", arr, "array"),
                arr.type() == Array);
        for (auto u : arr.Obj()) {
            uassert(ErrorCodes::TypeMismatch, wrongType("killAllSessions", u, "object"), u.type() == Object);
            for (const char* f : {"user", "db"}) {
                BSONElement v = u.Obj()[f];
                uassert(40414, std::string("BSON field 'killAllSessions.") + f + "' is missing but a required field",
                        !v.eoo());
                uassert(ErrorCodes::TypeMismatch, wrongType(std::string("killAllSessions.") + f, v, "string"),
                        v.type() == String);
            }
        }
        bool all = arr.Obj().isEmpty();
        for (auto u : arr.Obj()) all = all || isNoAuthUser(u.Obj());
        if (all)
            if (auto h = hooks().onKillAllSessions) h(opCtx);
    }
} killAllSessionsCmd;

// {killAllSessionsByPattern: [{lsid: {...}} | {uid: ...} | {users: [...]} | {roles: [...]} | {}]}.
class KillAllSessionsByPatternCmd : public Command {
public:
    KillAllSessionsByPatternCmd() : Command("killAllSessionsByPattern") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::onCluster({ActionType::killAnySession}); }
    std::string help() const override { return "kill logical sessions by pattern"; }
    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder&) override {
        BSONElement arr = request.body.firstElement();
        uassert(ErrorCodes::TypeMismatch, wrongType("killAllSessionsByPattern.killAllSessionsByPattern", arr, "array"),
                arr.type() == Array);
        bool all = arr.Obj().isEmpty();
        std::vector<BSONObj> lsids;
        for (auto p : arr.Obj()) {
            uassert(ErrorCodes::TypeMismatch, wrongType("killAllSessionsByPattern", p, "object"), p.type() == Object);
            BSONObj pattern = p.Obj();
            for (auto f : pattern) {
                auto n = f.fieldNameStringData();
                uassert(40415, "BSON field 'KillAllSessionsByPattern." + std::string(n) + "' is an unknown field.",
                        n == "lsid" || n == "uid" || n == "users" || n == "roles");
            }
            if (pattern.hasField("lsid")) {
                lsids.push_back(parseLsid(pattern["lsid"], "killAllSessionsByPattern.lsid"));
            } else if (pattern.isEmpty()) {
                all = true;
            } else if (BSONElement uid = pattern["uid"]; !uid.eoo()) {
                // A user digest: every session here has the unauthenticated user's.
                int len = 0, subtype = -1;
                const char* d = uid.type() == BinData ? uid.binData(&len, &subtype) : nullptr;
                uassert(ErrorCodes::TypeMismatch, wrongType("KillAllSessionsByPattern.uid", uid, "binData"), d);
                all = all || std::string(d, len) == noAuthUserDigest();
            } else if (BSONElement users = pattern["users"]; users.type() == Array) {
                for (auto u : users.Obj())
                    all = all || (u.type() == Object && isNoAuthUser(u.Obj()));
            }
            // roles patterns select sessions of users holding roles; there are no users here.
        }
        auto h = hooks();
        if (all) {
            if (h.onKillAllSessions) h.onKillAllSessions(opCtx);
        } else if (!lsids.empty() && h.onKillSessions) {
            h.onKillSessions(opCtx, lsids);
        }
    }
} killAllSessionsByPatternCmd;

// {refreshLogicalSessionCacheNow: 1} (test command, as in MongoDB): runs the session cache's
// periodic refresh now (session/logical_session_cache.h), so tests need not wait for it.
class RefreshLogicalSessionCacheNowCmd : public Command {
public:
    RefreshLogicalSessionCacheNowCmd() : Command("refreshLogicalSessionCacheNow") {}
    std::string help() const override { return "force the logical session cache to refresh (test only)"; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::authenticated(); }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder&) override { LogicalSessionCache::get().refreshNow(); }
};
MONGO_REGISTER_TEST_COMMAND(RefreshLogicalSessionCacheNowCmd);

// {reapLogicalSessionCacheNow: 1} (test command, as in MongoDB): runs the session reaper now,
// removing the retryable-write records of expired sessions (session/logical_session_cache.h).
class ReapLogicalSessionCacheNowCmd : public Command {
public:
    ReapLogicalSessionCacheNowCmd() : Command("reapLogicalSessionCacheNow") {}
    std::string help() const override { return "force the logical session cache to reap (test only)"; }
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::authenticated(); }
    void run(OperationContext*, const OpMsgRequest&, BSONObjBuilder&) override { LogicalSessionCache::get().reapNow(); }
};
MONGO_REGISTER_TEST_COMMAND(ReapLogicalSessionCacheNowCmd);

}  // namespace

void setSessionCommandHooks(SessionCommandHooks h) {
    std::lock_guard<std::mutex> lk(gHooksMutex);
    gHooks = std::move(h);
}

BSONObj makeLogicalSessionId() {
    unsigned char uuid[kUuidLength];
    generateUuidBytes(uuid);
    BSONObjBuilder b;
    b.appendBinData("id", kUuidLength, kUuidBinDataSubtype, uuid);
    return b.obj();
}

}  // namespace mongo
