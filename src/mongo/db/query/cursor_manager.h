#pragma once
// Open cursors between find/aggregate and their getMores, by id. A cursor not used for
// cursorTimeoutMillis (10 minutes, as MongoDB) is killed by the reaper.
// Thread safe: the registry is locked; a cursor is checked out by one command at a time.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"

namespace mongo {

class CappedInsertNotifier;

// Produces a cursor's documents. Implemented by find (PlanExecutor) and aggregate (Pipeline).
class CursorSource {
public:
    virtual ~CursorSource() = default;
    // REQUIRES: restore() was called since the last save(). interruptCtx may be null.
    virtual std::optional<BSONObj> next(const OperationContext* interruptCtx) = 0;
    // Between batches (no locks held afterwards).
    virtual void save() = 0;
    // Before a getMore batch; the caller holds a shared catalog lock. Throws if the cursor
    // cannot go on (QueryPlanKilled when its collection was dropped).
    virtual void restore() = 0;
    // A change stream's resume token for the batch just filled (its replies carry it).
    virtual std::optional<BSONObj> postBatchResumeToken() const { return std::nullopt; }
    // A tailable cursor that will return nothing more (a change stream after its invalidate).
    virtual bool ended() const { return false; }
    // doc (from next()) went into a batch: one kept back for the next batch (16 MB) has not.
    virtual void returned(const BSONObj& doc) {}
};

struct ClientCursor {
    long long id = 0;
    NamespaceString nss;
    std::unique_ptr<CursorSource> source;
    std::optional<BSONObj> stash;  // a document read but not returned (did not fit the batch)
    BSONObj lsid;
    // Who opened it (auth::cursorOwner: the authenticated users, "" without access control):
    // only they may continue it with getMore, as MongoDB.
    std::string owner;
    // find's tailable: the cursor stays open at the end of its capped collection; awaitData:
    // a getMore at the end waits for inserts (signalled through insertNotifier).
    bool tailable = false;
    bool awaitData = false;
    std::shared_ptr<CappedInsertNotifier> insertNotifier;
    bool noTimeout = false;
    long long nReturned = 0;
    long long nBatchesReturned = 0;  // the first batch included
    std::chrono::steady_clock::time_point lastUsed;
    // For $currentOp's idleCursors, taken by registerCursor from the operation opening it:
    // when, the command (OperationContext::command) and its plan (its planSummary).
    Date_t createdDate;
    BSONObj originatingCommand;
    std::string planSummary;
    // The time left of the originating command's maxTimeMS (MongoDB's leftover max time): a
    // getMore of a cursor that is not awaitData runs with this as its deadline, and what it
    // leaves is kept for the next one. Time between getMores does not count. Unset: no limit.
    // Set by registerCursor and checkIn from the operation running on the calling thread.
    std::optional<std::chrono::microseconds> leftoverMaxTime;
    // Opened by a readConcern majority command: every getMore's batch waits, as the first one
    // did, until it is majority-committed (OperationContext::readsMajorityCommitted).
    bool majorityRead = false;
    // A $changeStream's cursor: its getMore errors carry ResumableChangeStreamError.
    bool changeStream = false;
    // Opened by a command of a multi-document transaction: "<lsid id hex>:<txnNumber>" (its
    // documents come from the transaction's snapshot; it dies with the transaction). "" if not.
    std::string transaction;
};

class CursorManager {
public:
    static CursorManager& get();

    // Registers and returns the new cursor id (never 0). Takes the leftover max time from the
    // operation running on this thread (currentOperationOnThisThread), if it has a deadline,
    // and its command and plan summary (what $currentOp reports of the cursor).
    long long registerCursor(std::unique_ptr<ClientCursor> c);
    // Takes the cursor out for a getMore run by user; nullptr if unknown. Return it with
    // checkIn or forget before user is destroyed.
    std::unique_ptr<ClientCursor> checkOut(long long id, OperationContext* user);
    // Also records the time the operation on this thread leaves of the cursor's leftover max
    // time (cursors that are not awaitData).
    void checkIn(std::unique_ptr<ClientCursor> c);
    // A checked-out cursor that is being destroyed (exhausted or failed).
    void forget(long long id);
    // Kills a cursor; false if it did not exist. A cursor in use is destroyed when its user
    // returns it, and its user is interrupted with CursorKilled (as MongoDB does), which also
    // ends a getMore waiting for inserts.
    bool kill(long long id);
    // Whether id is registered (in use or not): for killCursors' cursorsAlive/NotFound.
    bool exists(long long id);
    // The owner (ClientCursor::owner) of a registered cursor, in use or not; nullopt if none.
    std::optional<std::string> ownerOf(long long id);
    // Whether cursor id is a change stream's (false when there is no such cursor).
    bool isChangeStream(long long id);
    void killAll();
    // Kills the cursors a transaction opened (ClientCursor::transaction == key) when it ends.
    size_t killTransactionCursors(const std::string& key);
    // Kills (as kill() does) every cursor whose session (its lsid, {} if none) satisfies pred:
    // killSessions, endSessions and expired sessions. Returns how many.
    size_t killIf(const std::function<bool(const BSONObj& lsid)>& pred);
    // $currentOp's idleCursors, as MongoDB 7.0 shows them: one {type: "idleCursor", host, ns,
    // lsid? ({id, uid}), planSummary?, cursor: {cursorId, createdDate, lastAccessDate,
    // nDocsReturned, nBatchesReturned, noCursorTimeout, tailable, awaitData,
    // originatingCommand}} per cursor not in use.
    std::vector<BSONObj> reportIdle(const std::string& host);
    // Kills idle cursors older than the timeout. Returns how many.
    int reapIdle(std::chrono::milliseconds timeout);
    long long openCount();
    long long timedOutTotal() const { return _timedOut; }

private:
    std::mutex _mutex;
    std::map<long long, std::unique_ptr<ClientCursor>> _cursors;  // idle (checked in)
    struct InUse {
        bool live = true;  // false: killed while in use, destroyed when returned
        OperationContext* user = nullptr;
        BSONObj lsid;
        std::string owner;
    };
    std::map<long long, InUse> _inUse;
    long long _timedOut = 0;
};

// Fills a batch from the cursor: up to batchSize documents (negative: no limit; 0: none, the
// cursor stays open) and ~16 MB. Returns true if the cursor is exhausted (then it should be
// destroyed / not registered).
bool fillBatch(const OperationContext* opCtx, ClientCursor& cursor, long long batchSize, BSONArrayBuilder& docs);
// A cursor over documents already computed (listCollections, listIndexes).
class VectorCursorSource : public CursorSource {
public:
    explicit VectorCursorSource(std::vector<BSONObj> docs) : _docs(std::move(docs)) {}
    std::optional<BSONObj> next(const OperationContext*) override {
        if (_pos >= _docs.size()) return std::nullopt;
        return _docs[_pos++];
    }
    void save() override {}
    void restore() override {}

private:
    std::vector<BSONObj> _docs;
    size_t _pos = 0;
};

// Replies with the first batch of a cursor over source (the {cursor: {batchSize}} argument of
// cmd decides its size) and registers the cursor if documents remain.
void replyWithCursor(OperationContext* opCtx, const NamespaceString& cursorNss, std::unique_ptr<CursorSource> source,
                     const BSONObj& cmd, BSONObjBuilder& result);

// Appends {cursor: {<batchName>: docs, postBatchResumeToken?, id, ns}} (MongoDB's cursor
// reply shape; the token for change streams).
void appendCursorReply(BSONObjBuilder& reply, const char* batchName, BSONArray docs, long long id,
                       const std::string& ns, const std::optional<BSONObj>& postBatchResumeToken = std::nullopt);

}  // namespace mongo
