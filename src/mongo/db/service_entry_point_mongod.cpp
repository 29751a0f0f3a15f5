#include "mongo/db/service_entry_point_mongod.h"

#include <chrono>
#include <limits>
#include <optional>
#include <set>

#include "mongo/db/auth/command_authorization.h"
#include "mongo/db/commands/api_parameters.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/command_args.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/commands/current_op_registry.h"
#include "mongo/db/commands/fail_command.h"
#include "mongo/db/commands/read_concern_check.h"
#include "mongo/db/commands/server_status_counters.h"
#include "mongo/db/commands/profile_settings.h"
#include "mongo/db/commands/profiler.h"
#include "mongo/db/error_extra_info.h"
#include "mongo/db/change_stream/change_stream_cursor.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/db/repl/rw_concern_defaults.h"
#include "mongo/db/repl/oplog.h"
#include "mongo/db/repl/retryable_write.h"
#include "mongo/db/service_context.h"
#include "mongo/db/session/logical_session_cache.h"
#include "mongo/db/storage/duplicate_key_error.h"
#include "mongo/db/transaction/transaction_error_labels.h"
#include "mongo/db/transaction/transaction_scope.h"
#include "mongo/util/log.h"

namespace mongo {


BSONObj makeErrorReply(const Status& s, const BSONObj& extraInfo) {
    BSONObjBuilder b;
    b.append("ok", 0.0);
    b.append("errmsg", s.reason());
    b.append("code", s.code());
    b.append("codeName", s.codeName());
    b.appendElements(extraInfo);
    return b.obj();
}

namespace {

// The database a command writes to, when it is a write a non-primary must refuse; nullopt for
// reads and administration.
std::optional<std::string> writeTargetDatabase(const std::string& name, const OpMsgRequest& req) {
    static const std::set<std::string> kWrites = {
        "insert", "update", "delete", "findAndModify", "create", "drop", "dropDatabase", "createIndexes",
        "dropIndexes", "collMod", "convertToCapped", "emptycapped", "cloneCollectionAsCapped",
        // A transaction's commit writes its applyOps entry (the admin database's).
        "commitTransaction", "abortTransaction",
        // User and role management writes admin.system.users / system.roles (replicated).
        "createUser", "updateUser", "dropUser", "dropAllUsersFromDatabase", "grantRolesToUser",
        "revokeRolesFromUser", "createRole", "updateRole", "dropRole", "dropAllRolesFromDatabase",
        "grantRolesToRole", "revokeRolesFromRole", "grantPrivilegesToRole", "revokePrivilegesFromRole"};
    if (kWrites.count(name)) return req.db();
    if (name == "setDefaultRWConcern") return std::string("config");  // config.settings
    if (name == "renameCollection") {
        BSONElement from = req.body.firstElement();
        if (from.type() != String) return std::nullopt;  // the command reports the bad argument
        std::string ns = from.str();
        return ns.substr(0, ns.find('.'));
    }
    if (name == "aggregate") {
        // $out / $merge write their output.
        BSONElement p = req.body["pipeline"];
        if (p.type() != Array) return std::nullopt;
        std::string last;
        for (BSONElement st : p.embeddedObject())
            if (st.type() == Object && !st.embeddedObject().isEmpty())
                last = std::string(st.embeddedObject().firstElementFieldName());
        if (last == "$out" || last == "$merge") return req.db();
    }
    return std::nullopt;
}

// Commands that read a database's data: a replica-set member that is not primary serves them
// only as MongoDB does (ReplicationCoordinator::checkCanServeReads). getMore is not checked:
// an open cursor survives a change of state, as in MongoDB.
bool readsData(const std::string& name) {
    static const std::set<std::string> kReads = {"find", "aggregate", "count", "distinct", "listCollections",
                                                 "listIndexes", "listDatabases", "dbStats", "collStats",
                                                 "explain", "validate", "dbHash", "dbhash", "dataSize",
                                                 "datasize"};
    return kReads.count(name) > 0;
}

bool secondaryOk(const BSONObj& body) {
    BSONElement rp = body["$readPreference"];
    if (rp.type() != Object) return false;
    BSONElement mode = rp.embeddedObject()["mode"];
    return mode.type() == String && mode.str() != "primary";
}

// The labels drivers act on: RetryableWriteError for a retryable write's reply, and for a
// transaction's TransientTransactionError / RetryableWriteError.
BSONObj withWriteErrorLabels(const std::string& name, const BSONObj& body, const BSONObj& reply) {
    return txn::withTransactionErrorLabels(name, body, repl::withRetryableWriteErrorLabel(name, body, reply));
}

// labelsFinal: set when the reply's errorLabels must not be added to (a failCommand reply).
void runCommand(Command* cmd, Client* client, const OpMsgRequest& req, BSONObjBuilder& result, bool* labelsFinal) {
    const BSONObj& body = req.body;
    if (BSONElement dbElem = body["$db"]; !dbElem.eoo() && dbElem.type() != String)
        uasserted(ErrorCodes::TypeMismatch, "BSON field '$db' is the wrong type '" + typeName(dbElem.type()) +
                                                "', expected type 'string'");
    if (req.db().empty() && !req.fromLegacyQuery)
        uasserted(40571, "OP_MSG requests require a $db argument");
    // $external (external users' authentication database) is a valid target of commands, as
    // MongoDB's; collections in it stay refused by the namespace checks.
    if (req.db() != "$external") uassertStatusOK(NamespaceString::validateDbName(req.db()));
    if (cmd->adminOnly() && req.db() != "admin")
        uasserted(ErrorCodes::Unauthorized, cmd->name() + " may only be run against the admin database.");
    // {<cmd>: ..., help: true} describes the command instead of running it, as MongoDB does.
    if (BSONElement help = body["help"]; !help.eoo() && help.trueValue()) {
        result.append("help", "help for: " + cmd->name() + " " + cmd->help());
        return;
    }
    const bool replSet = repl::ReplicationCoordinator::get()->isReplSet();
    // A majority read's reply is refused if this member rolls back from here on (awaitReadDurable):
    // taken before the state check and any readConcern wait.
    const int rbidBeforeRun = replSet ? repl::ReplicationCoordinator::get()->rbid() : 0;
    // A command of a multi-document transaction (transaction/transaction_scope.h).
    const bool inTransaction = !body["autocommit"].eoo() || !body["startTransaction"].eoo();
    if (inTransaction && !replSet)
        uasserted(ErrorCodes::IllegalOperation, "Transaction numbers are only allowed on a replica set member or mongos");
    if (!body["txnNumber"].eoo() && !replSet)
        uasserted(ErrorCodes::IllegalOperation,
                  "Transaction numbers are only allowed on a replica set member or mongos");
    // Writes only on the primary (replica-set members), as MongoDB: NotWritablePrimary.
    const auto writeDb = writeTargetDatabase(cmd->name(), req);
    if (writeDb)
        repl::ReplicationCoordinator::get()->checkCanAcceptWrites(*writeDb);
    else if (replSet && readsData(cmd->name()))
        repl::ReplicationCoordinator::get()->checkCanServeReads(req.db(), secondaryOk(body));

    auto opCtx = makeOperationContext(client);
    // Access control (auth/command_authorization.h): before anything of the command runs.
    auth::checkCommandAuthorization(opCtx.get(), cmd, req);
    std::string ns = req.db();
    if (body.firstElement().type() == String) ns += "." + body.firstElement().str();
    // The session first: currentOp shows it, killSessions finds the operation by it, and a
    // session used by a command is active in the session cache (as a driver's implicit one).
    if (body["lsid"].type() == Object) {
        opCtx->lsid = body["lsid"].Obj().getOwned();
        LogicalSessionCache::get().vivify(opCtx->lsid);
    }
    auto [opType, opNs] = CurrentOpRegistry::describeCommand(cmd->name(), req);
    // currentOp never shows a password (createUser/updateUser's pwd).
    opCtx->command = auth::redactedForDiagnostics(body);
    ScopedCurrentOp currentOp(opCtx.get(), opCtx->command, opNs, opType);
    BSONElement maxTime = body["maxTimeMS"];
    if (!maxTime.eoo()) {
        long long ms;
        if (!maxTime.isNumber() || !maxTime.isIntegral64(&ms) || ms < 0 || ms > INT32_MAX)
            uasserted(ErrorCodes::BadValue, "maxTimeMS must be a non-negative integer, got " + maxTime.toString(false));
        opCtx->setDeadlineAfterMillis(ms);
        opCtx->checkForInterrupt();  // maxTimeAlwaysTimeOut fails every command with a deadline
    }
    checkReadConcernArgument(body, replSet);
    // Members' own connections (the fetcher, initial sync, rollback) name themselves.
    BSONElement app = client->metadata["application"];
    const bool internalClient = app.type() == Object && app.Obj()["name"].type() == String &&
                                app.Obj()["name"].str().rfind("replication", 0) == 0;
    // The cluster's default read concern is for clients' reads of replicated data, never for
    // a member's reads of another member's oplog (a majority default would wait for the very
    // batch the member is fetching). A transaction reads its own snapshot (its scope waits for
    // the first command's afterClusterTime).
    if (replSet && !inTransaction)
        repl::ReplicationCoordinator::get()->waitForReadConcern(opCtx.get(), body,
                                                                !internalClient && req.db() != "local");
    // The Stable API parameters (api_parameters.h), before the command's other arguments.
    checkAPIParameters(cmd->name(), body, internalClient);
    // The command's arguments, as MongoDB parses them before running anything (command_args.h).
    if (const CommandArgs* args = findCommandArgs(cmd->name()))
        args->check(body);
    else
        CommandArgs::strict(cmd->name(), {}).check(body);
    // The write concern is validated once, before anything is written (a bad one fails the
    // command and writes nothing, as MongoDB's), and honoured once after the command: a
    // durable one (j, fsync, or w: "majority" on a replica set) makes every commit of the
    // command durable with one journal flush, DDL and user management included.
    // A transaction's commands other than its commit or abort write nothing durable yet.
    const bool txnStatement = inTransaction && !txn::isCommitOrAbort(cmd->name());
    // A transaction's commit or abort is carried out whatever its write concern: one that no
    // set could satisfy is its reply's writeConcernError (UnsatisfiableWriteConcern), as MongoDB.
    const bool durable = writeDb && !txnStatement &&
                         (inTransaction ? parseWriteConcernIsDurable(body, replSet, std::numeric_limits<int>::max())
                                        : parseWriteConcernIsDurable(body));
    // The handshake's hello: failCommand's appName filter sees the metadata it brings, as
    // MongoDB's (drivers' pool tests fail or block the connection handshake of one app). Only
    // for the check: hello itself validates the metadata and keeps it.
    const bool handshakeMetadata = !client->seenHello && client->metadata.isEmpty() &&
                                   (cmd->name() == "hello" || cmd->name() == "isMaster") &&
                                   body["client"].type() == Object;
    if (handshakeMetadata) client->metadata = body["client"].Obj().getOwned();
    std::optional<FailCommandOutcome> failOutcome;
    try {
        failOutcome = checkFailCommand(opCtx.get(), cmd->name(), ns);
    } catch (...) {
        if (handshakeMetadata) client->metadata = BSONObj();
        throw;
    }
    if (handshakeMetadata) client->metadata = BSONObj();
    if (auto outcome = failOutcome) {
        if (outcome->closeConnection) {
            client->closeConnectionWithoutReply = true;
            return;
        }
        // carries ok: 0; errorLabels as the fail point says, else as MongoDB labels the error
        *labelsFinal = true;
        BSONObj injected = outcome->reply;
        if (!outcome->errorLabelsOverridden) {
            injected = withWriteErrorLabels(cmd->name(), body, injected);
            if (isChangeStreamCommand(cmd->name(), body)) injected = withResumableChangeStreamLabel(injected);
        }
        result.appendElements(injected);
        return;
    }
    // Retryable writes (txnNumber on a replica-set member): the session is checked out for the
    // command and a statement already executed is answered from its record, never applied
    // twice (repl/retryable_write.h). Begun after failCommand: an injected failure applied
    // nothing, and the driver's retry must go through.
    std::unique_ptr<repl::RetryableWrite> retryable;
    std::unique_ptr<txn::TransactionScope> transaction;
    if (inTransaction)
        transaction = txn::TransactionScope::begin(opCtx.get(), cmd->name(), body);
    else if (!body["txnNumber"].eoo())
        retryable = repl::RetryableWrite::begin(opCtx.get(), cmd->name(), body);
    repl::LocalOplog::resetLastAppendedOnThisThread();
    if (transaction) {
        // A command of a transaction that fails aborts it, as in MongoDB; so does a write
        // command whose statements failed (its reply's writeErrors).
        try {
            cmd->run(opCtx.get(), req, result);
        } catch (...) {
            transaction->abort();
            throw;
        }
        if (result.hasField("writeErrors")) transaction->abort();
    } else {
        cmd->run(opCtx.get(), req, result);
    }
    // readConcern majority/linearizable (or a getMore of a cursor opened with it): the reply
    // waits until what the command read is majority-committed.
    if (replSet && opCtx->readsMajorityCommitted) {
        BSONElement level = body["readConcern"].type() == Object ? body["readConcern"].Obj()["level"] : BSONElement();
        repl::ReplicationCoordinator::get()->awaitReadDurable(
            opCtx.get(), level.type() == String && level.str() == "linearizable", rbidBeforeRun);
    }
    // Write concern (replica-set members): the command's writes must reach the members w asks
    // for. None given: the cluster's default (setDefaultRWConcern), else the implicit w: majority.
    const bool waitsForReplication = replSet && writeDb && *writeDb != "local" && !txnStatement;
    BSONObj wc;
    bool wcFromDefault = false;
    if (waitsForReplication) {
        wc = body["writeConcern"].type() == Object ? body["writeConcern"].Obj() : BSONObj();
        wcFromDefault = wc.isEmpty();
        if (wcFromDefault) wc = repl::RWConcernDefaults::get().current(opCtx.get()).writeConcern;
    }
    // A majority wait needs the writes durable on a majority, this member's share through its
    // journal flusher (the commit point counts durable optimes): no flush here first, which
    // would put each writer's own fsync before its wait instead of beside the replication.
    const bool majorityWait = waitsForReplication && isMajorityWriteConcern(wc) && !wc["fsync"].trueValue();
    if (durable && !majorityWait) opCtx->recoveryUnit()->waitUntilDurable();
    // A retry answered from history waits, as MongoDB, for everything this node holds (the
    // original write included) to satisfy the write concern.
    repl::OpTime waitFor = repl::LocalOplog::lastAppendedOnThisThread();
    if ((retryable && retryable->answeredFromHistory()) ||
        (transaction && (transaction->answeredFromHistory() || transaction->committedReadOnly())))
        waitFor = std::max(waitFor, repl::ReplicationCoordinator::get()->lastApplied());
    retryable.reset();  // the session is checked in before the write concern wait
    transaction.reset();
    // A failure is the reply's writeConcernError; the writes stay done.
    if (waitsForReplication) {
        BSONObj wce = repl::ReplicationCoordinator::get()->awaitWriteConcern(opCtx.get(), wc, waitFor, wcFromDefault);
        if (!wce.isEmpty() && !result.hasField("writeConcernError")) result.append("writeConcernError", wce);
    }
    if (auto wce = failCommandWriteConcernError(opCtx.get(), cmd->name(), ns)) result.appendElements(*wce);
}

}  // namespace

BSONObj ServiceEntryPointMongod::handleRequest(Client* client, const OpMsgRequest& req) {
    if (req.body.isEmpty())
        return makeErrorReply(Status(ErrorCodes::FailedToParse, "Empty command object"));
    std::string name = req.commandName();
    Command* cmd = findCommand(name);
    if (!cmd) return makeErrorReply(Status(ErrorCodes::CommandNotFound, "no such command: '" + name + "'"));

    noteCommandForOpCounters(name);
    cmd->calls++;

    auto start = std::chrono::steady_clock::now();
    const int profLevel = profilingLevelAtStart(req);
    BSONObjBuilder result;
    Status status;
    BSONObj extraInfo;  // fields of the error reply beyond ok/errmsg/code/codeName
    bool labelsFinal = false;
    // Asked before running: a getMore that fails destroys its cursor.
    const bool changeStreamCommand = isChangeStreamCommand(name, req.body);
    try {
        runCommand(cmd, client, req, result, &labelsFinal);
    } catch (const DuplicateKeyException& e) {
        status = e.toStatus();
        extraInfo = e.info();
    } catch (const DBExceptionWithExtraInfo& e) {
        status = e.toStatus();
        extraInfo = e.extraInfo();
    } catch (const DBException& e) {
        status = e.toStatus();
    } catch (const std::bad_alloc&) {
        status = Status(ErrorCodes::ExceededMemoryLimit, "out of memory running " + name);
    } catch (const std::exception& e) {
        status = Status(ErrorCodes::InternalError, std::string("unexpected error: ") + e.what());
    }
    // After the command: hello may have just given the connection its metadata.
    if (!client->notedForCurrentOp || name == "hello" || name == "isMaster" || name == "ismaster") {
        CurrentOpRegistry::get().noteClient(client);
        client->notedForCurrentOp = true;
    }
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    if (ms >= slowOpThresholdMs())
        LOGV2(51803, Command, "Slow query",
              logv2::attrs("type", "command", "ns", req.db() + ".$cmd", "command", name, "durationMillis",
                           static_cast<long long>(ms), "ok", status.isOK() ? 1 : 0));
    if (!status.isOK()) {
        cmd->failed++;
        globalAssertionCounters().gotUser();
        BSONObjBuilder extra;
        extra.appendElements(extraInfo);
        repl::ReplicationCoordinator::get()->appendClusterTimeFields(&extra);
        BSONObj reply = withWriteErrorLabels(name, req.body, makeErrorReply(status, extra.obj()));
        if (changeStreamCommand) reply = withResumableChangeStreamLabel(reply);
        profileCommandIfEnabled(client, req, name, profLevel, status, reply, ms);
        return reply;
    }
    // A command may have set "ok" itself (a failCommand reply).
    BSONObj reply;
    if (!result.hasField("ok")) result.append("ok", 1.0);
    // Replica-set members gossip the cluster time in every reply, as MongoDB.
    repl::ReplicationCoordinator::get()->appendClusterTimeFields(&result);
    reply = result.obj();
    if (!reply["ok"].trueValue()) cmd->failed++;
    // RetryableWriteError on a retryable write's retryable error or write concern error
    // (a failCommand reply with its own errorLabels keeps them).
    if (!labelsFinal) reply = withWriteErrorLabels(name, req.body, reply);
    profileCommandIfEnabled(client, req, name, profLevel, status, reply, ms);
    return reply;
}

void ServiceEntryPointMongod::onClientDisconnect(Client* client) {
    if (client) CurrentOpRegistry::get().forgetClient(client->id());
}

}  // namespace mongo
