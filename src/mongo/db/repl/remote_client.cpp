#include "mongo/db/repl/remote_client.h"

#include <mongoc/mongoc.h>
#include <unistd.h>

#include <exception>
#include <mutex>

#include "mongo/db/auth/auth_options.h"
#include "mongo/db/server_options.h"
#include "mongo/rpc/compression.h"

namespace mongo {
namespace repl {

namespace {
constexpr long long kNoRescanMillis = 24LL * 3600 * 1000;

void initDriverOnce() {
    static std::once_flag once;
    std::call_once(once, [] { mongoc_init(); });
}

// The application name of every connection to another member: "replication hostInfo=<host>:<port>",
// the host and port this process listens on. MongoDB's internal clients name themselves in their
// first hello (hostInfo); libmongoc writes its own handshake, so the name goes in the handshake's
// client.application.name, which is just as surely the first message on every connection. The
// test bridge (jstests/lib/mongobridge.py) reads it to know which member is calling.
const std::string& appName() {
    static const std::string name = [] {
        char host[256] = "localhost";
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = 0;
        return "replication hostInfo=" + std::string(host) + ":" + std::to_string(serverGlobalParams().port);
    }();
    return name;
}
}  // namespace

RemoteClient::RemoteClient(std::string host, int timeoutMillis) : _host(std::move(host)), _timeoutMillis(timeoutMillis) {
    initDriverOnce();
}

RemoteClient::~RemoteClient() {
    if (_client) mongoc_client_destroy(_client);
}

void RemoteClient::connect(int socketTimeoutMillis) {
    if (_client && _connectedTimeout == socketTimeoutMillis) return;
    if (_client) mongoc_client_destroy(_client);
    _client = nullptr;
    // heartbeatFrequencyMS: a day, i.e. libmongoc never rescans a live connection on its own. Why:
    // a single-threaded client (1.23) rescans when the last scan is older than that interval, and
    // it may do so in the middle of a command: for a member that advertises no sessions (STARTUP2,
    // RECOVERING, ROLLBACK, an arbiter), creating the command's implicit session selects the
    // server again after the command's connection was taken. If that rescan's hello fails (the
    // member is shutting down), the connection is destroyed under the command, which then writes
    // to it and aborts the process (`_mongoc_stream_socket_timed_out(): precondition failed:
    // ss->sock`; remote_client_test.cpp checks that no rescan happens). No rescan is needed here: any
    // network error drops the client (dropConnection) and the next command connects afresh, and
    // the state a member is in comes from its heartbeat replies, not from libmongoc's view.
    const std::string uri = "mongodb://" + _host + "/?directConnection=true&connectTimeoutMS=" +
                            std::to_string(_timeoutMillis) + "&socketTimeoutMS=" + std::to_string(socketTimeoutMillis) +
                            "&serverSelectionTimeoutMS=" + std::to_string(_timeoutMillis) +
                            "&serverSelectionTryOnce=true&heartbeatFrequencyMS=" + std::to_string(kNoRescanMillis);
    bson_error_t error;
    mongoc_uri_t* u = mongoc_uri_new_with_error(uri.c_str(), &error);
    if (!u) return;
    mongoc_uri_set_appname(u, appName().c_str());
    // Members compress what they send each other with the server's own compressors
    // (--networkMessageCompressors), as MongoDB's members do: the oplog fetched from the sync
    // source is most of it.
    std::string compressors;
    for (const std::string& c : enabledCompressorNames())
        if (c != "noop") compressors += (compressors.empty() ? "" : ",") + c;
    if (!compressors.empty()) mongoc_uri_set_compressors(u, compressors.c_str());
    // With a key file every connection to another member authenticates as __system@local
    // (SCRAM-SHA-256, the key as password), as MongoDB's members do (auth/auth_options.h).
    if (auto c = _withoutAuth ? std::nullopt : auth::internalAuthCredentials(_keyIndex)) {
        mongoc_uri_set_username(u, c->user.c_str());
        mongoc_uri_set_password(u, c->password.c_str());
        mongoc_uri_set_auth_source(u, c->source.c_str());
        mongoc_uri_set_auth_mechanism(u, c->mechanism.c_str());
    }
    _client = mongoc_client_new_from_uri(u);
    mongoc_uri_destroy(u);
    _connectedTimeout = socketTimeoutMillis;
}

void RemoteClient::dropConnection() {
    if (_client) mongoc_client_destroy(_client);
    _client = nullptr;
}

StatusWith<BSONObj> RemoteClient::runCommand(const std::string& db, const BSONObj& cmd, int extraMillis) {
    // Each way of connecting is tried at most once per command: a member that refuses our keys
    // and also refuses us unauthenticated (it enforces access control with another key) gets
    // the refusal back, not an endless alternation.
    bool triedWithoutAuth = _withoutAuth, triedKeysAgain = false;
    for (;;) {
        auto r = runCommandOnce(db, cmd, extraMillis);
        if (_withoutAuth && r.getStatus().code() == int(ErrorCodes::Unauthorized) && !triedKeysAgain) {
            // The member enforces access control now: authenticate again.
            triedKeysAgain = true;
            _withoutAuth = false;
            _keyIndex = 0;
            dropConnection();
            continue;
        }
        // Refused before the command was sent: try the key file's next key, if any.
        if (r.getStatus().code() != int(ErrorCodes::AuthenticationFailed)) return r;
        if (auth::internalAuthCredentials(_keyIndex + 1)) {
            ++_keyIndex;
            continue;
        }
        _keyIndex = 0;
        if (auth::transitionToAuth() && !triedWithoutAuth) {
            // A member that has no key file yet (a rolling move to key-file authentication).
            triedWithoutAuth = true;
            _withoutAuth = true;
            continue;
        }
        return r;
    }
}

StatusWith<BSONObj> RemoteClient::runCommandOnce(const std::string& db, const BSONObj& cmd, int extraMillis) {
    connect(_timeoutMillis + extraMillis);
    if (!_client) return Status(ErrorCodes::FailedToParse, "bad member host " + _host);
    bson_t command;
    if (!bson_init_static(&command, reinterpret_cast<const uint8_t*>(cmd.objdata()), size_t(cmd.objsize())))
        return Status(ErrorCodes::InvalidBSON, "bad command document");
    bson_t reply;
    bson_error_t error;
    const bool ok = mongoc_client_command_simple(_client, db.c_str(), &command, nullptr, &reply, &error);
    BSONObj replyObj = BSONObj::copyFrom(reinterpret_cast<const char*>(bson_get_data(&reply)));
    bson_destroy(&reply);
    if (ok) return replyObj;
    if (error.domain == MONGOC_ERROR_SERVER || error.domain == MONGOC_ERROR_QUERY || error.domain == MONGOC_ERROR_WRITE_CONCERN) {
        int code = replyObj["code"].isNumber() ? replyObj["code"].numberInt() : int(error.code);
        std::string msg = replyObj["errmsg"].type() == String ? replyObj["errmsg"].str() : std::string(error.message);
        return Status(code, msg);
    }
    // Unreachable: drop the client so the next command reconnects from scratch.
    dropConnection();
    // The member refused our key (or we have none and it wants one): say so, with MongoDB's code.
    if (error.domain == MONGOC_ERROR_CLIENT && error.code == MONGOC_ERROR_CLIENT_AUTHENTICATE)
        return Status(ErrorCodes::AuthenticationFailed,
                      "Error connecting to " + _host + " :: caused by :: " + error.message);
    const bool timedOut = std::string(error.message).find("timed out") != std::string::npos ||
                          std::string(error.message).find("Timed out") != std::string::npos;
    return Status(timedOut ? ErrorCodes::NetworkTimeout : ErrorCodes::HostUnreachable,
                  "Error connecting to " + _host + " :: caused by :: " + error.message);
}

BSONObj runOrThrow(RemoteClient* member, const std::string& db, const BSONObj& cmd) {
    BSONObjBuilder b;
    b.appendElements(cmd);
    BSONObjBuilder rp;
    rp.append("mode", "secondaryPreferred");
    b.append("$readPreference", rp.obj());
    auto reply = member->runCommand(db, b.obj());
    uassertStatusOK(reply.getStatus());
    return reply.getValue();
}

RemoteCursor::RemoteCursor(RemoteClient* member, std::string db, const BSONObj& cmd)
    : _member(member), _db(std::move(db)) {
    BSONObj reply = runOrThrow(_member, _db, cmd);
    BSONObj cursor = reply["cursor"].embeddedObject();
    _id = cursor["id"].numberLong();
    const std::string ns = cursor["ns"].type() == String ? cursor["ns"].str() : "";
    _coll = ns.find('.') == std::string::npos ? ns : ns.substr(ns.find('.') + 1);
    _first = reply.getOwned();
}

RemoteCursor::~RemoteCursor() {
    // Not when unwinding from an error: the member may be the reason (gone, hung).
    if (_id == 0 || std::uncaught_exceptions() > 0) return;
    BSONObjBuilder kill;
    kill.append("killCursors", _coll);
    BSONArrayBuilder ids;
    ids.append(_id);
    kill.appendArray("cursors", ids.arr());
    _member->runCommand(_db, kill.obj());  // best effort: the member times it out otherwise
}

std::vector<BSONObj> RemoteCursor::nextBatch() {
    BSONObj cursor;
    const char* field = "nextBatch";
    if (_first) {
        cursor = (*_first)["cursor"].embeddedObject();
        field = "firstBatch";
    } else {
        if (_id == 0) return {};
        BSONObjBuilder more;
        more.append("getMore", _id);
        more.append("collection", _coll);
        BSONObj reply = runOrThrow(_member, _db, more.obj());
        cursor = reply["cursor"].embeddedObject().getOwned();
        _id = cursor["id"].numberLong();
    }
    std::vector<BSONObj> docs;
    for (BSONElement e : cursor[field].embeddedObject()) docs.push_back(e.embeddedObject().getOwned());
    _first.reset();
    return docs;
}

const BSONObj* RemoteCursor::next() {
    while (_pos >= _batch.size()) {
        if (exhausted()) return nullptr;
        _batch = nextBatch();
        _pos = 0;
    }
    return &_batch[_pos++];
}

namespace {
StatusWith<BSONObj> oplogEnd(RemoteClient* member, int direction) {
    BSONObjBuilder q;
    q.append("find", "oplog.rs");
    BSONObjBuilder sort;
    sort.append("$natural", direction);
    q.append("sort", sort.obj());
    q.append("limit", 1);
    q.append("singleBatch", true);
    auto reply = member->runCommand("local", q.obj());
    if (!reply.isOK()) return reply.getStatus();
    BSONObj batch = reply.getValue()["cursor"].embeddedObject()["firstBatch"].embeddedObject();
    return batch.isEmpty() ? BSONObj() : batch.firstElement().embeddedObject().getOwned();
}
}  // namespace

StatusWith<BSONObj> newestOplogEntry(RemoteClient* member) { return oplogEnd(member, -1); }
StatusWith<BSONObj> oldestOplogEntry(RemoteClient* member) { return oplogEnd(member, 1); }

}  // namespace repl
}  // namespace mongo
