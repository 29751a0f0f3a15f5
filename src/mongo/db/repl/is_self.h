#pragma once
// Is a config's "host:port" this very process? A member first compares hosts with the names it
// knows for itself (ReplicationStartupOptions::selfHosts); a host it does not recognise may
// still reach it through a proxy, a NAT or a DNS alias (the test bridge, jstests/lib/
// mongobridge.py, is such a proxy). MongoDB then asks the host over the network: `_isSelf`
// answers with an ObjectId made once per process, and the host is this process when the
// answer carries our own id. This file holds that id, the network check and the search of a
// config that uses both.
//
// Thread safe. The network check runs without any lock held by this file; callers must not
// hold the coordinator's mutex across it (it waits up to timeoutMillis per unknown host).
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {
namespace repl {

struct ReplSetConfig;

// The id `_isSelf` returns, made on first use and fixed for the life of the process.
const OID& processInstanceId();

// True when `host` answers `_isSelf` with processInstanceId(). Positive answers are cached for
// the process's life (a host:port that reached us once reaches us again); a host that cannot
// be reached is "not self" for now and asked again next time.
bool isSelfByNetwork(const std::string& host, int timeoutMillis = 2000);

// The index of this node in config: a host equal (case-insensitively) to one of selfHosts, else
// (when allowNetwork) the first member whose host answers isSelfByNetwork. -1 when none.
int findSelfInConfig(const ReplSetConfig& config, const std::vector<std::string>& selfHosts,
                     bool allowNetwork = true);

}  // namespace repl
}  // namespace mongo
