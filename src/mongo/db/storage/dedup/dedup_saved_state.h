#pragma once
// The dedup engine's state saved at a clean shutdown, so that the next start-up neither reads
// every stored form (the links) nor sketches every raw record again (thesis 5.1.1 keeps this
// metadata on disk; here it is written once, at shutdown, and nothing is paid on the write
// path).
//
// Why it can be trusted: the file is written only after WiredTiger closed cleanly with no
// write since the engine's state was taken (every client, background and replication writer
// stopped), so it describes exactly the data on disk. At the next start-up it is read and
// removed, durably, before the server accepts a write: a crash later leaves no stale file.
// The start-up still checks it against storage (record counts, a sample of stored headers)
// and rebuilds any collection that does not match. A damaged file (checksum) is ignored.
//
// The file: "<dbpath>/dedup-state.saved", little-endian:
//   "MDDSTAT1", u32 version, str featureSignature, u32 namespaces,
//   per namespace: str ns, i64 storedRecords, u64 records,
//     per record: i64 id, u32 logicalSize, i64 baseId, u32 storedSize, u8 flags (1: retained),
//                 u8 sketch length, u64 features...
//     u64 untracked, i64 ids...
//   u32 crc32c of everything before it, "MDDEND01".
// Thread safety: free functions on caller-owned values.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/db/dedup/dedup_engine.h"

namespace mongo {

struct SavedDedupNamespace {
    std::string ns;                 // the engine's namespace ("<db>.<ident>")
    long long storedRecords = 0;    // stored forms in the collection's table, retained included
    std::vector<dedup::Engine::SavedRecord> records;
    // Records stored whole that the engine never learned (the encoder's backlog overflowed,
    // or they changed while queued): ids only, possibly deleted since. The start-up reads
    // these few from storage.
    std::vector<int64_t> untracked;
};

struct SavedDedupState {
    std::string featureSignature;  // dedup::Engine::featureSignature() of the engine that saved it
    std::vector<SavedDedupNamespace> namespaces;
};

extern const char* const kSavedDedupStateFile;

std::string encodeSavedDedupState(const SavedDedupState& state);
// FailedToParse on a truncated or damaged encoding (checksum, magic, lengths).
Status decodeSavedDedupState(std::string_view bytes, SavedDedupState* out);

// Writes the file (temporary file, fsync, rename, fsync of the directory).
Status writeSavedDedupState(const std::string& dbpath, const SavedDedupState& state);

// Reads the file and removes it, the removal made durable before returning. nullopt if there
// is none. A file that cannot be decoded is removed and reported as an error status (the
// caller rebuilds from storage). Throws if the file exists but cannot be removed: a state
// left behind would describe data that later writes change.
StatusWith<std::optional<SavedDedupState>> takeSavedDedupState(const std::string& dbpath);

}  // namespace mongo
