#include "mongo/db/storage/record_store.h"

#include <cstring>

namespace mongo {

RecordData RecordData::copyOf(const char* data, int size) {
    std::shared_ptr<char[]> buf(new char[size > 0 ? size : 1]);
    if (size > 0) std::memcpy(buf.get(), data, size);
    return RecordData(std::shared_ptr<const char[]>(std::move(buf)), size);
}

}  // namespace mongo
