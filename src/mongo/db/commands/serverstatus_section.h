#pragma once
// serverStatus sections: each subsystem contributes a named sub-document
// (serverStatus().wiredTiger, .connections, .network, .dedup, ...).
//
//   class ConnectionsSection : public ServerStatusSection {
//   public:
//       ConnectionsSection() : ServerStatusSection("connections") {}
//       BSONObj generate(OperationContext* opCtx) override { ... }
//   };
//   registerServerStatusSection(std::make_unique<ConnectionsSection>());
//
// Registering may happen at static-initialisation time or at startup; registering a name
// again replaces the earlier section (so a subsystem can take over a default one).
// Thread safety: register/generate may run concurrently with serverStatus; generate() is
// called from many connections at once and must be thread safe itself.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/commands/server_status_counters.h"
#include "mongo/db/operation_context.h"

namespace mongo {

class ServerStatusSection {
public:
    ServerStatusSection() = default;
    explicit ServerStatusSection(std::string name) : _name(std::move(name)) {}
    virtual ~ServerStatusSection() = default;

    // The field name in serverStatus' reply.
    virtual std::string name() const { return _name; }
    // Whether {serverStatus: 1} includes it; otherwise only when asked for ({<name>: 1}).
    virtual bool includeByDefault() const { return true; }
    // The section's document. An empty document omits the section from the reply.
    virtual BSONObj generate(OperationContext* opCtx) = 0;

private:
    std::string _name;
};

void registerServerStatusSection(std::unique_ptr<ServerStatusSection> section);
// Convenience for a section that is one function.
void registerServerStatusSection(std::string name, std::function<BSONObj(OperationContext*)> generate,
                                 bool includeByDefault = true);

// Sub-documents of serverStatus().metrics (metrics.commands is built in): e.g. the cursor
// manager registers "cursor" -> {open: {total, noTimeout, pinned}, timedOut}. Same rules.
void registerServerStatusMetric(std::string name, std::function<BSONObj(OperationContext*)> generate);

// The sections currently registered (a snapshot), for serverStatus and tests.
std::vector<std::shared_ptr<ServerStatusSection>> serverStatusSections();
std::vector<std::pair<std::string, std::function<BSONObj(OperationContext*)>>> serverStatusMetrics();

}  // namespace mongo
