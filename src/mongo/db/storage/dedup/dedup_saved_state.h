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
// The start-up still checks it against storage (the collection's record count and stored
// bytes, which almost every write changes; a sample of stored headers) and rebuilds any collection
// that does not match: a file put back by hand, or left by a build that did not remove it.
// A damaged file (checksum) is ignored. Records the engine never learned (the encoder's
// backlog let them go, or they were queued at shutdown) stay unknown to it after the load, as
// before the shutdown: stored whole, with no dependents.
//
// The file: "<dbpath>/dedup-state.saved", little-endian:
//   "MDDSTAT1", u32 version (2), str featureSignature, u32 namespaces,
//   per namespace: str ns, i64 storedRecords, i64 storedBytes, u64 records,
//     per record: i64 id, u32 logicalSize, i64 baseId, u32 storedSize, u8 flags (1: retained),
//                 u8 sketch length, u64 features...
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
    long long storedBytes = 0;      // and their bytes
    std::vector<dedup::Engine::SavedRecord> records;  // what the engine knew of them
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

// Reads the file's bytes and removes it, the removal made durable before returning (decode
// them with decodeSavedDedupState, off the start-up path). nullopt if there is none. Throws
// if the file exists but cannot be read or removed: a state left behind would describe data
// that later writes change.
std::optional<std::string> takeSavedDedupStateBytes(const std::string& dbpath);

}  // namespace mongo
