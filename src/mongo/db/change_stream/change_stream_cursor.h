#pragma once
// The cursor of an aggregate whose first stage is $changeStream (MongoDB 7.0's change streams):
// a tailable, awaitData cursor over local.oplog.rs that turns the entries of the watched
// collection, database or cluster into events (change_event.h), runs them through the stages
// that follow ($match, $project, $addFields, $set, $unset, $replaceRoot, $replaceWith, $redact),
// and reports a postBatchResumeToken with every batch.
//
// Only majority-committed entries become events (an entry past the commit point waits), so an
// event is never rolled back. A new stream starts after the newest entry this member applied;
// resumeAfter / startAfter a token start after its entry (startAfter may follow an invalidate,
// resumeAfter may not: 260), startAtOperationTime at that time. A point older than the oldest
// oplog entry: ChangeStreamHistoryLost (286). After an invalidate event the cursor ends.
//
// Not built, and refused rather than ignored (NotImplemented): fullDocument "whenAvailable" /
// "required" and fullDocumentBeforeChange other than "off" (they need the pre- and post-images
// this server does not record), showExpandedEvents. fullDocument "updateLookup" reads the
// document as it is when the event is produced (as MongoDB: the current version, or null).
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

class ChangeStreamCursorSource : public CursorSource {
public:
    struct Spec {
        change_stream::Scope scope;
        change_stream::EventOptions options;
        Timestamp after;                  // events of entries with a later timestamp
    };
    // REQUIRES: shared catalog lock. stages: those after $changeStream.
    ChangeStreamCursorSource(OperationContext* opCtx, const NamespaceString& nss, Spec spec,
                             const std::vector<BSONObj>& stages);
    std::optional<BSONObj> next(const OperationContext* interruptCtx) override;
    void save() override;
    void restore() override;
    std::optional<BSONObj> postBatchResumeToken() const override;
    bool ended() const override { return _ended; }

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
    bool _invalidated = false;            // the invalidate event was produced
    bool _ended = false;                  // ... and returned: no more events
};

}  // namespace mongo
