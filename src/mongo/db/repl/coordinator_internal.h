#pragma once
// Helpers shared by the coordinator's source files (not an interface of the repl layer).
#include <optional>

#include "mongo/db/catalog/collection.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/repl/repl_config.h"

namespace mongo {
namespace repl {

const NamespaceString& configNss();    // local.system.replset
const NamespaceString& electionNss();  // local.replset.election
// The only document of a local single-document collection (nullopt if none).
std::optional<Record> readSingleton(OperationContext* opCtx, const NamespaceString& nss);
// Replaces (or inserts) the only document of nss. REQUIRES: the exclusive catalog lock.
void writeSingleton(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& doc);
// Whether config a supersedes b (term, then version; a forced config by version alone).
bool configIsNewer(const ReplSetConfig& a, const ReplSetConfig& b);

}  // namespace repl
}  // namespace mongo
