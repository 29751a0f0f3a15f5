// The process-wide CollectionCatalog instance (collection.h).
#include <atomic>

#include "mongo/db/catalog/collection.h"

namespace mongo {
namespace {
std::atomic<CollectionCatalog*> gCatalog{nullptr};
}

CollectionCatalog* CollectionCatalog::get() { return gCatalog.load(); }
void CollectionCatalog::set(CollectionCatalog* catalog) { gCatalog.store(catalog); }

}  // namespace mongo
