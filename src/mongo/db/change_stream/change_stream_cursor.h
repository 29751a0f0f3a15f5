#pragma once
// The cursor of an aggregate whose first stage is $changeStream (MongoDB 7.0's change streams):
// a tailable, awaitData cursor over local.oplog.rs that turns the entries of the watched
// collection, database or cluster into events (change_event.h), runs them through the stages
// that follow ($match, $project, $addFields, $set, $unset, $replaceRoot, $replaceWith, $redact),
// and reports a postBatchResumeToken with every batch.
//
// Only majority-committed entries become events (an entry past the commit point waits), so an
// event is never rolled back. fullDocument "updateLookup" reads the document's newest version,
// which may be newer than the majority snapshot MongoDB reads it from (this server's tables keep
// no history). A new stream starts after the newest entry this member applied;
// resumeAfter / startAfter a token start after its entry (startAfter may follow an invalidate,
// resumeAfter may not: 260), startAtOperationTime at that time. A point older than the oldest
// oplog entry: ChangeStreamHistoryLost (286). After an invalidate event the cursor ends.
//
// Not built, and refused rather than ignored (NotImplemented): fullDocument "whenAvailable" /
// "required" and fullDocumentBeforeChange other than "off" (they need the pre- and post-images
// this server does not record), showExpandedEvents, explain.
// Thread safety: one cursor per operation at a time (CursorManager).
#include <deque>
#include <memory>

#include "mongo/db/change_stream/change_event.h"
#include "mongo/db/commands/aggregate_cursor_source.h"
#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/query/plan_executor.h"

namespace mongo {

// The aggregate command's path for a pipeline that begins with $changeStream: checks the
// stage (40573 on a standalone server, 40602 when not first, 166 on a view, 73 on internal
// namespaces, ...), opens the cursor and replies with its first batch.
void runChangeStream(OperationContext* opCtx, const AggregateRequest& ar, BSONObjBuilder& result);

bool isChangeStreamPipeline(const AggregateRequest& ar);

// A change stream's command: an aggregate beginning with $changeStream, or a getMore of a
// change stream's cursor (ask before the command runs: a failed getMore destroys its cursor).
bool isChangeStreamCommand(const std::string& name, const BSONObj& body);
// An error reply of such a command with "ResumableChangeStreamError" among its errorLabels when
// its code is one drivers resume a stream after (not primary, shutdown, network, ...), as
// MongoDB labels them; other replies unchanged.
BSONObj withResumableChangeStreamLabel(const BSONObj& reply);

class ChangeStreamCursorSource : public CursorSource {
public:
    struct Spec {
        change_stream::Scope scope;
        change_stream::EventOptions options;
        Timestamp after;                  // events of entries with a later timestamp
        // Resuming from an event's token: the events of its entry up to it (token order) are
        // skipped, and that entry must still be in the oplog (else ChangeStreamFatalError 280).
        std::optional<std::string> skipThrough;  // the token's _data
        std::optional<Timestamp> entryMustExist;
        BSONObj startToken;               // postBatchResumeToken until something is scanned
    };
    // REQUIRES: shared catalog lock. stages: those after $changeStream.
    ChangeStreamCursorSource(OperationContext* opCtx, const NamespaceString& nss, Spec spec,
                             const std::vector<BSONObj>& stages);
    std::optional<BSONObj> next(const OperationContext* interruptCtx) override;
    void save() override;
    void restore() override;
    std::optional<BSONObj> postBatchResumeToken() const override;
    bool ended() const override { return _ended; }
    void returned(const BSONObj& doc) override;

private:
    // Reads the next committed entries into _pending; false when none is there yet.
    bool refill(const OperationContext* interruptCtx);

    Client* _client;
    Spec _spec;
    std::unique_ptr<PlanExecutor> _exec;  // local.oplog.rs from _spec.after, tailable
    std::optional<BSONObj> _held;         // read, but past the commit point
    std::deque<BSONObj> _pending;         // events the pipeline has not pulled yet
    std::unique_ptr<Pipeline> _pipeline;
    Timestamp _scanned;                   // the newest entry turned into events (or none)
    std::optional<BSONObj> _lastReturned;  // the token of the newest event returned
    int _notReturned = 0;                 // events next() gave that are not in a batch yet
    bool _invalidated = false;            // the invalidate event was produced
    bool _invalidateEmitted = false;      // ... and came out of the pipeline
    bool _ended = false;                  // ... and was returned (or filtered out): no more events
};

}  // namespace mongo
