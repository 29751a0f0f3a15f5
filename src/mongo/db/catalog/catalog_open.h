#pragma once
// Startup and shutdown of the process-wide collection catalog (main()).
//   openCollectionCatalog(engine): loads the catalog from the engine and installs it as
//     CollectionCatalog::get(). Throws DBException if the catalog cannot be read.
//   closeCollectionCatalog(): uninstalls and destroys it. REQUIRES: no command is running
//     and no cursor is open; call before StorageEngine::cleanShutdown().
#include "mongo/db/storage/storage_engine.h"

namespace mongo {

void openCollectionCatalog(StorageEngine* engine);
void closeCollectionCatalog();

}  // namespace mongo
