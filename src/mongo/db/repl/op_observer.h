#pragma once
// OpObserver: the one hook on the write path. The catalog (create/drop/rename collection,
// dropDatabase, index create/drop) and Collection (insert/update/delete of documents) call it
// inside the unit of work that makes the change, after the change, so whatever it writes
// (the oplog entry of a replica set member) commits or aborts with the change itself.
//
// The process has one observer: a no-op one until a replica-set node installs the oplog's
// (op_observer_impl.h). Which namespaces are observed is the observer's business.
// Thread safety: the hooks run on the writer's thread, under the caller's locks (documents:
// the collection write lock; DDL: the exclusive catalog lock), which serialise every writer.
// set() happens at startup, before any write.
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"

namespace mongo {

class Collection;

namespace repl {

// While one is alive on this thread, the thread's writes get no oplog entries (MongoDB's
// UnreplicatedWritesBlock): config.transactions and config.image_collection, which every
// member derives from the oplog's retryable-write fields (session_txn_storage.h), and initial
// sync's clone of its source's data and drop of its own (initial_sync.h), which the set must
// not see as new writes. Nests; thread-local, so other threads' writes are observed as usual.
class UnreplicatedWritesBlock {
public:
    UnreplicatedWritesBlock();
    ~UnreplicatedWritesBlock();
    UnreplicatedWritesBlock(const UnreplicatedWritesBlock&) = delete;
    UnreplicatedWritesBlock& operator=(const UnreplicatedWritesBlock&) = delete;
    static bool active();
};

class OpObserver {
public:
    virtual ~OpObserver() = default;

    static OpObserver* get();
    static void set(std::unique_ptr<OpObserver> observer);

    // Documents (REQUIRES: in the unit of work of the write).
    virtual void onInsert(OperationContext* opCtx, const Collection& coll, const BSONObj& doc) {}
    virtual void onUpdate(OperationContext* opCtx, const Collection& coll, const BSONObj& pre, const BSONObj& post) {}
    virtual void onDelete(OperationContext* opCtx, const Collection& coll, const BSONObj& deleted) {}

    // DDL (REQUIRES: in the unit of work that changes the catalog).
    virtual void onCreateCollection(OperationContext* opCtx, const Collection& coll, const BSONObj& idIndexSpec) {}
    virtual void onDropCollection(OperationContext* opCtx, const NamespaceString& nss, const std::string& uuid) {}
    // After every collection of db was dropped (each through onDropCollection).
    virtual void onDropDatabase(OperationContext* opCtx, const std::string& db) {}
    virtual void onCreateIndex(OperationContext* opCtx, const Collection& coll, const BSONObj& spec) {}
    virtual void onDropIndex(OperationContext* opCtx, const Collection& coll, const std::string& name,
                             const BSONObj& spec) {}
    // A rename within a database; dropTargetUuid is the UUID of the collection it replaced
    // ("" if none).
    virtual void onRenameCollection(OperationContext* opCtx, const NamespaceString& from, const NamespaceString& to,
                                    const std::string& uuid, const std::string& dropTargetUuid) {}
};

}  // namespace repl
}  // namespace mongo
