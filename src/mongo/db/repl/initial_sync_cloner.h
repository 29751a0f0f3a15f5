#pragma once
// DataCloner: the cloning phase of initial sync (initial_sync.h). It copies every database of
// the sync source except local into this node, through the source's ordinary commands, as
// MongoDB's logical initial sync does:
//   listDatabases -> per database listCollections (views are the documents of system.views,
//   cloned like any collection; system.profile is not replicated and is skipped) -> per
//   collection collStats (documentsToCopy, bytesToCopy), listIndexes, then the collection is
//   created here with the source's options (capped, size, max, validator, ...) and its
//   indexes (on the empty collection, so the documents are indexed as they arrive), and the
//   documents are copied with find + getMore in batches, one unit of work per batch.
// Writes here are not observed (no oplog entries: UnreplicatedWritesBlock) and unique
// secondary indexes are relaxed (index_constraints.h): the documents are read over a period of
// time, so the copy is not one snapshot; the oplog phase that follows makes it one. Documents
// go through Collection::insertDocument, the normal insert path, so a --dedup member
// deduplicates them as it would any insert.
// Progress goes to the caller's InitialSyncProgress (through `update`, which holds the
// caller's mutex) and to the log, one JSON line per database and collection.
// Not thread safe: one cloner per attempt, on the initial syncer's thread. Throws DBException
// (the remote command's error, or HostUnreachable/NetworkTimeout) when anything fails.
#include <functional>

#include "mongo/db/operation_context.h"
#include "mongo/db/repl/initial_sync_progress.h"

namespace mongo {
namespace repl {

class RemoteClient;

class DataCloner {
public:
    using Update = std::function<void(const std::function<void(InitialSyncProgress&)>&)>;
    // checkInterrupt throws to abandon the clone (shutdown, restart requested); called between
    // batches and while a fail point holds the clone.
    DataCloner(RemoteClient* source, Update update, std::function<void()> checkInterrupt)
        : _source(source), _update(std::move(update)), _checkInterrupt(std::move(checkInterrupt)) {}

    void cloneAll(OperationContext* opCtx);

private:
    void cloneDatabase(OperationContext* opCtx, size_t dbIndex, const std::string& db);
    void cloneCollection(OperationContext* opCtx, size_t dbIndex, size_t collIndex, const std::string& db,
                         const std::string& coll, const BSONObj& options, const std::string& uuidHex);

    RemoteClient* _source;
    Update _update;
    std::function<void()> _checkInterrupt;
};

// Drops every database but local, here, without oplog entries (the first step of an attempt).
void dropReplicatedDatabases(OperationContext* opCtx);

}  // namespace repl
}  // namespace mongo
