#pragma once
// Reads a JSON Lines data set (plain or zstd-compressed, long-window streams up to 2^27 as the
// shared data sets use) and turns each line into a record for dedup_bench: either the BSON
// document libbson builds from the line (fields in file order, what the server stores) or the
// line itself.
// Thread-safety: a JsonlReader is used by one thread.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mongo/base/status.h"

struct ZSTD_DCtx_s;

namespace mongo {
namespace dedup {

class JsonlReader {
public:
    ~JsonlReader();
    // Opens `path`; zstd input is recognised by its magic number.
    static StatusWith<std::unique_ptr<JsonlReader>> open(const std::string& path);
    // Next line without its newline; false at the end or on error (see status()).
    bool next(std::string* line);
    const Status& status() const { return _status; }

private:
    JsonlReader() = default;
    bool fill();

    std::FILE* _f = nullptr;
    ZSTD_DCtx_s* _zstd = nullptr;
    std::vector<char> _in;
    size_t _inPos = 0, _inLen = 0;
    std::string _buf;  // decoded bytes not yet returned
    size_t _bufPos = 0;
    bool _eof = false;
    Status _status;
};

enum class RecordFormat { kBson, kJson };

struct BenchRecord {
    std::string key;    // the "key" field (the document this record is a version of)
    std::string bytes;  // the record as stored
};

// Loads up to `limit` records (0: all).
Status loadRecords(const std::string& path, RecordFormat format, size_t limit,
                   std::vector<BenchRecord>* out);

}  // namespace dedup
}  // namespace mongo
