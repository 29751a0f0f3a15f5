#include "mongo/db/commands/fail_command.h"

#include <chrono>
#include <cstdint>
#include <thread>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/command.h"
#include "mongo/util/log.h"

namespace mongo {

MONGO_FAIL_POINT_DEFINE(failCommand);

namespace {

constexpr const char* kFailMessage = "Failing command via 'failCommand' failpoint";

// Names refer to the same command when they are equal or resolve to one registered command
// (so failCommands: ["isMaster"] also fails "ismaster").
bool sameCommand(const std::string& a, const std::string& b) {
    if (a == b) return true;
    Command* ca = findCommand(a);
    return ca && ca == findCommand(b);
}

std::string appNameOf(Client* client) {
    if (!client) return "";
    BSONElement app = client->metadata["application"];
    if (app.type() != Object) return "";
    return app.Obj()["name"].str();
}

// Sleeps ms milliseconds in short slices so killOp, maxTimeMS and shutdown still apply.
void interruptibleSleep(OperationContext* opCtx, long long ms) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (true) {
        opCtx->checkForInterrupt();
        auto now = std::chrono::steady_clock::now();
        if (now >= deadline) return;
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(deadline - now, std::chrono::milliseconds(10)));
    }
}

bool boolField(const BSONObj& data, const char* name) {
    BSONElement e = data[name];
    return e.type() == Bool && e.boolean();
}

}  // namespace

bool failCommandMatches(const BSONObj& data, const std::string& cmdName, const std::string& ns, Client* client) {
    if (sameCommand(cmdName, "configureFailPoint")) return false;  // never, even if listed
    BSONElement threadName = data["threadName"];
    if (!threadName.eoo() && (!client || client->desc() != threadName.str())) return false;
    BSONElement appName = data["appName"];
    if (!appName.eoo() && appNameOf(client) != appName.str()) return false;
    BSONElement nsElem = data["namespace"];
    if (!nsElem.eoo() && ns != nsElem.str()) return false;
    // Every connection here is an external client, so failInternalCommands changes nothing.
    if (data["failAllCommands"].trueValue()) return true;
    BSONElement list = data["failCommands"];
    if (list.type() != Array) return false;
    for (auto e : list.Obj())
        if (e.type() == String && sameCommand(cmdName, e.str())) return true;
    return false;
}

std::optional<FailCommandOutcome> checkFailCommand(OperationContext* opCtx, const std::string& cmdName,
                                                   const std::string& ns) {
    if (!failCommand.isActive()) return std::nullopt;
    Client* client = opCtx->getClient();
    auto data = failCommand.evaluate([&](const BSONObj& d) {
        bool acts = boolField(d, "closeConnection") || boolField(d, "blockConnection") || d.hasField("errorCode");
        return acts && failCommandMatches(d, cmdName, ns, client);
    });
    if (!data) return std::nullopt;

    if (boolField(*data, "blockConnection")) {
        BSONElement t = data->getField("blockTimeMS");
        long long blockTimeMS = 0;
        uassert(ErrorCodes::InvalidOptions, "must specify 'blockTimeMS' when 'blockConnection' is true",
                t.isNumber() && t.isIntegral64(&blockTimeMS));
        uassert(ErrorCodes::InvalidOptions, "'blockTimeMS' must be non-negative", blockTimeMS >= 0);
        LOGV2(20432, Command, "Blocking command via 'failCommand' failpoint",
              logv2::attrs("command", cmdName, "blockTimeMS", blockTimeMS));
        interruptibleSleep(opCtx, blockTimeMS);
        LOGV2(20433, Command, "Unblocking command via 'failCommand' failpoint", logv2::attrs("command", cmdName));
    }

    FailCommandOutcome outcome;
    BSONElement labels = data->getField("errorLabels");
    outcome.errorLabelsOverridden = labels.type() == Array;

    if (boolField(*data, "closeConnection")) {
        LOGV2(20431, Command, "Failing command via 'failCommand' failpoint: closing connection",
              logv2::attrs("command", cmdName));
        outcome.closeConnection = true;
        return outcome;
    }

    BSONElement codeElem = data->getField("errorCode");
    if (codeElem.eoo()) return std::nullopt;  // blocked only
    // The code goes into the reply as is: 0 would read as success, and anything outside int32 was
    // being truncated (2^40 became 0), so only real error codes are accepted.
    long long code = 0;
    uassert(ErrorCodes::InvalidOptions,
            "'errorCode' in the failCommand data must be an integer from 1 to 2147483647, got " +
                codeElem.toString(false),
            codeElem.isNumber() && codeElem.isIntegral64(&code) && code > 0 && code <= INT32_MAX);
    LOGV2(20435, Command, "Failing command via 'failCommand' failpoint",
          logv2::attrs("command", cmdName, "errorCode", code));
    BSONObjBuilder b;
    b.append("ok", 0.0);
    b.append("errmsg", kFailMessage);
    b.appendInt("code", static_cast<int>(code));
    b.append("codeName", errorCodeName(static_cast<int>(code)));
    if (outcome.errorLabelsOverridden && !labels.Obj().isEmpty()) b.appendArray("errorLabels", labels.Obj());
    outcome.reply = b.obj();
    return outcome;
}

std::optional<BSONObj> checkFailCommand(const std::string& cmdName, Client* client) {
    if (!failCommand.isActive()) return std::nullopt;
    // An OperationContext without storage, only to carry the client and observe shutdown.
    OperationContext opCtx(client, nullptr);
    auto outcome = checkFailCommand(&opCtx, cmdName, "");
    if (!outcome) return std::nullopt;
    if (!outcome->closeConnection) return outcome->reply;
    BSONObjBuilder b;
    b.append("ok", 0.0);
    b.append("errmsg", "Failing command due to 'failCommand' failpoint");
    b.appendInt("code", 50985);
    b.append("codeName", errorCodeName(50985));
    return b.obj();
}

std::optional<BSONObj> failCommandWriteConcernError(OperationContext* opCtx, const std::string& cmdName,
                                                    const std::string& ns) {
    if (!failCommand.isActive()) return std::nullopt;
    Client* client = opCtx->getClient();
    auto data = failCommand.evaluate([&](const BSONObj& d) {
        return d.hasField("writeConcernError") && failCommandMatches(d, cmdName, ns, client);
    });
    if (!data) return std::nullopt;
    BSONObjBuilder b;
    b.appendAs(data->getField("writeConcernError"), "writeConcernError");
    BSONElement labels = data->getField("errorLabels");
    if (labels.type() == Array && !labels.Obj().isEmpty()) b.appendArray("errorLabels", labels.Obj());
    return b.obj();
}

}  // namespace mongo
