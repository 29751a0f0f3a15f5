#include "mongo/db/catalog/catalog_lock.h"

namespace mongo {

std::shared_mutex& catalogMutex() {
    static std::shared_mutex m;
    return m;
}

std::mutex& writeMutex() {
    static std::mutex m;
    return m;
}

}  // namespace mongo
