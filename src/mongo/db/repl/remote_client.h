#pragma once
// RemoteClient: one connection from this node to another member, over libmongoc (the C
// driver the tree already links), used for replSetHeartbeat, replSetRequestVotes,
// replSetUpdatePosition and the oplog fetcher's find/getMore.
//
// A command's outcome is a Status: the command's own error (code and message from the reply)
// or, when the member could not be reached, HostUnreachable (6) / NetworkTimeout (89) with
// libmongoc's message, so that callers can tell "refused" from "the member said no".
// The connection is direct (directConnection=true): no topology discovery, no retries.
// Not thread safe: one RemoteClient per thread (libmongoc single-threaded clients).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

typedef struct _mongoc_client_t mongoc_client_t;

namespace mongo {
namespace repl {

class RemoteClient {
public:
    // host: "host:port". timeoutMillis bounds the connect and every reply (socketTimeoutMS);
    // a command may ask for longer (runCommand's extraMillis, e.g. an awaitData getMore).
    RemoteClient(std::string host, int timeoutMillis);
    ~RemoteClient();
    RemoteClient(const RemoteClient&) = delete;
    RemoteClient& operator=(const RemoteClient&) = delete;

    const std::string& host() const { return _host; }

    // Runs cmd against db. OK with the reply document when the reply says ok: 1. With a key
    // file of several keys, a key the member refuses is followed by the next one, as MongoDB.
    StatusWith<BSONObj> runCommand(const std::string& db, const BSONObj& cmd, int extraMillis = 0);

private:
    void connect(int socketTimeoutMillis);
    void dropConnection();
    StatusWith<BSONObj> runCommandOnce(const std::string& db, const BSONObj& cmd, int extraMillis);

    std::string _host;
    int _timeoutMillis;
    int _connectedTimeout = -1;  // the socket timeout of the current client
    size_t _keyIndex = 0;        // which key of the key file authenticates (auth_options.h)
    // --transitionToAuth: the member refused every key (it has no key file yet), so this
    // client connects without authenticating, until a command is refused as Unauthorized.
    bool _withoutAuth = false;
    mongoc_client_t* _client = nullptr;
};

// cmd's reply from member, or throws its error (DBException). Sent with the secondaryPreferred
// read preference: the member read from may be a secondary.
BSONObj runOrThrow(RemoteClient* member, const std::string& db, const BSONObj& cmd);

// A cursor on another member (find or aggregate, then getMore) whose batches are read on
// demand; the cursor is killed if it is abandoned before its end (not while an exception
// unwinds: the member may be why). Throws (runOrThrow) on any error. Not thread safe; the member's RemoteClient must outlive it.
class RemoteCursor {
public:
    RemoteCursor(RemoteClient* member, std::string db, const BSONObj& cmd);
    ~RemoteCursor();
    RemoteCursor(const RemoteCursor&) = delete;
    RemoteCursor& operator=(const RemoteCursor&) = delete;

    // The next batch (the first call: the command's first batch); empty at the end.
    std::vector<BSONObj> nextBatch();
    // One document at a time; nullptr at the end. Valid until the next call.
    const BSONObj* next();
    // Every batch was read (a batch may be empty before the end).
    bool exhausted() const { return !_first && _id == 0; }

private:
    RemoteClient* _member;
    std::string _db;
    std::string _coll;  // for getMore/killCursors: the reply's ns without the database
    long long _id = 0;
    std::optional<BSONObj> _first;  // the command's reply until its batch is taken
    std::vector<BSONObj> _batch;    // next()'s current batch
    size_t _pos = 0;
};

// The member's newest oplog entry: its document, or an empty one if its oplog is empty.
StatusWith<BSONObj> newestOplogEntry(RemoteClient* member);
// Its oldest oplog entry (empty if its oplog is empty).
StatusWith<BSONObj> oldestOplogEntry(RemoteClient* member);

}  // namespace repl
}  // namespace mongo
