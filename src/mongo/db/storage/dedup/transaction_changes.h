#pragma once
// TransactionChanges: a multi-document transaction's updates and deletes of one deduplicated
// collection, held back from storage until the transaction commits.
//
// Why: an update or delete of a deduplicated record changes the engine's bookkeeping (reference
// counts, retained bases, planned write-backs) and rewrites the records that decode through it,
// which is only safe in a unit of work that commits under the write lock before anyone else
// plans on that bookkeeping. A transaction's unit stays open across commands while others
// write. So the transaction's change is kept here (its reads see it: DedupRecordStore's
// findRecord and cursors), its index changes go to storage at once as for any collection, and
// its commit replays the changes through the store's ordinary update and delete, under the
// write lock, inside the transaction's WiredTiger transaction (RecoveryUnit::onPreCommit): a
// record someone changed since the transaction's snapshot is then a WriteConflict, and the
// transaction is retried. An abort just forgets them: the engine never heard of them.
// Thread safety: thread safe; a unit's changes are made and read by its own commands.
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "mongo/db/operation_context.h"

namespace mongo {

class TransactionChanges {
public:
    using Bytes = std::shared_ptr<const std::string>;  // null: deleted
    // Before the commit, with every held-back change of the unit: check (changes nothing but
    // the unit's own storage: its failure needs no undoing), then apply each.
    using Check = std::function<void(OperationContext*, const std::map<int64_t, Bytes>&)>;
    using Replay = std::function<void(OperationContext*, int64_t id, const Bytes&)>;

    // The transaction of opCtx's recovery unit changed record id to bytes (null: deleted).
    // The first change of a unit registers its check and replay before commit (the checks of
    // every store before any replay: RecoveryUnit::PreCommitPhase) and the clean-up after.
    void put(OperationContext* opCtx, int64_t id, Bytes bytes, Check check, Replay replay);
    // What the transaction of ru changed of id: nullopt if nothing, else its bytes (null if it
    // deleted the record). Cheap when no transaction holds changes.
    std::optional<Bytes> lookup(const RecoveryUnit* ru, int64_t id) const;

private:
    std::map<int64_t, Bytes> take(const RecoveryUnit* ru);
    std::map<int64_t, Bytes> copyOf(const RecoveryUnit* ru) const;

    mutable std::mutex _mu;
    std::map<const RecoveryUnit*, std::map<int64_t, Bytes>> _byUnit;
    std::atomic<size_t> _units{0};  // _byUnit.size(), read without the lock
};

}  // namespace mongo
