#include "mongo/db/auth/command_authorization.h"

#include <cmath>
#include <cstdio>

#include "mongo/bson/uuid.h"
#include "mongo/db/auth/auth_options.h"
#include "mongo/db/auth/auth_store.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/commands/command.h"

namespace mongo::auth {

namespace {

void appendValue(std::string& out, const BSONElement& e);

void appendObject(std::string& out, const BSONObj& o, bool array) {
    if (o.isEmpty()) {
        out += array ? "[]" : "{}";
        return;
    }
    out += array ? "[ " : "{ ";
    bool first = true;
    for (BSONElement e : o) {
        if (!first) out += ", ";
        first = false;
        if (!array) {
            out += e.fieldNameStringData();
            out += ": ";
        }
        if (!array && e.fieldNameStringData() == "pwd") out += "\"xxx\"";
        else appendValue(out, e);
    }
    out += array ? " ]" : " }";
}

void appendValue(std::string& out, const BSONElement& e) {
    switch (e.type()) {
        case String: {
            out += '"';
            for (char c : e.valueStringData()) {
                if (c == '"' || c == '\\') out += '\\';
                out += c;
            }
            out += '"';
            break;
        }
        case Object: appendObject(out, e.Obj(), false); break;
        case Array: appendObject(out, e.Obj(), true); break;
        case NumberInt: out += std::to_string(e.numberInt()); break;
        case NumberLong: out += std::to_string(e.numberLong()); break;
        case NumberDouble: {
            double d = e.numberDouble();
            char buf[64];
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) snprintf(buf, sizeof buf, "%.1f", d);
            else snprintf(buf, sizeof buf, "%.17g", d);
            out += buf;
            break;
        }
        case Bool: out += e.boolean() ? "true" : "false"; break;
        case jstNULL: out += "null"; break;
        case jstOID: out += "ObjectId('" + e.oid().toString() + "')"; break;
        case BinData: {
            if (auto hex = uuidHexFromElement(e)) {
                out += "UUID(\"" + uuidHexDashed(*hex) + "\")";
                break;
            }
            int len = 0, sub = 0;
            const unsigned char* p = reinterpret_cast<const unsigned char*>(e.binData(&len, &sub));
            char buf[4];
            std::string hex;
            for (int i = 0; i < len; ++i) {
                snprintf(buf, sizeof buf, "%02x", p[i]);
                hex += buf;
            }
            out += "BinData(" + std::to_string(sub) + ", " + hex + ")";
            break;
        }
        default: out += e.toString(false);
    }
}

}  // namespace

bool isLocalhostAddress(const std::string& remote) {
    return remote.rfind("127.", 0) == 0 || remote.rfind("[::1]", 0) == 0 || remote.rfind("anonymous unix socket", 0) == 0;
}

std::string commandForMessage(const BSONObj& cmd) {
    std::string out;
    appendObject(out, cmd, false);
    return out;
}

BSONObj redactedForDiagnostics(const BSONObj& cmd) {
    if (!cmd.hasField("pwd")) return cmd;
    BSONObjBuilder b;
    for (BSONElement e : cmd)
        if (e.fieldNameStringData() == "pwd") b.append("pwd", "xxx");
        else b.append(e);
    return b.obj();
}

void checkCommandAuthorization(OperationContext* opCtx, const Command* cmd, const OpMsgRequest& req) {
    if (!authorizationEnabled()) return;
    RequiredPrivileges rp = cmd->requiredPrivileges(req);
    if (!rp.requiresAuthentication()) return;
    Client* client = opCtx->getClient();
    if (!client) return;  // internal work
    AuthorizationSession* as = AuthorizationSession::get(client);
    // Re-resolved first (users changed, or whose restrictions no longer admit the connection,
    // are logged out then), so that every check below sees the session as it is now.
    as->privileges(opCtx);
    if (!as->isAuthenticated()) {
        // The localhost exception: the first user may be created from the machine itself.
        // So may a replica set be initiated (before it exists no user can be created: the node
        // is not primary), as MongoDB's "deploy a replica set with key file access control" does.
        if ((cmd->name() == "createUser" || cmd->name() == "replSetInitiate") && req.db() == "admin" &&
            localhostAuthBypassEnabled() &&
            isLocalhostAddress(client->remote()) && !anyUserExists(opCtx))
            return;
        uasserted(ErrorCodes::Unauthorized, "Command " + cmd->name() + " requires authentication");
    }
    if (rp.privileges().empty()) return;  // any authenticated user
    if (rp.hasSelf())
        for (const UserName& u : std::vector<UserName>(as->users()))
            if (u.user == rp.selfUser() && u.db == rp.selfDb() &&
                (rp.selfPrivileges().empty() || as->isAuthorized(opCtx, rp.selfPrivileges())))
                return;
    if (!as->isAuthorized(opCtx, rp.privileges()))
        uasserted(ErrorCodes::Unauthorized,
                  "not authorized on " + req.db() + " to execute command " + commandForMessage(req.body));
}

}  // namespace mongo::auth
