#include "mongo/db/catalog/catalog_open.h"

#include <memory>

#include "mongo/db/catalog/collection_catalog_impl.h"

namespace mongo {
namespace {
std::unique_ptr<CollectionCatalogImpl> gCatalog;
}

void openCollectionCatalog(StorageEngine* engine) {
    static Client startupClient(0, "initandlisten");
    OperationContext opCtx(&startupClient, engine->newRecoveryUnit());
    auto catalog = std::make_unique<CollectionCatalogImpl>(&opCtx, engine);
    CollectionCatalog::set(catalog.get());
    gCatalog = std::move(catalog);
}

void closeCollectionCatalog() {
    CollectionCatalog::set(nullptr);
    gCatalog.reset();
}

}  // namespace mongo
