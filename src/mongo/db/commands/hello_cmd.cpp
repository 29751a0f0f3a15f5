// hello / isMaster / ismaster: the node's role, limits, wire versions, negotiated compression,
// and the awaitable form drivers use for streaming monitoring.
#include "mongo/db/commands/hello_cmd.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "mongo/db/auth/sasl_commands.h"
#include "mongo/db/commands/build_info.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/server_options.h"
#include "mongo/db/server_parameters.h"
#include "mongo/util/log.h"

namespace mongo {

namespace {

constexpr int kMaxMessageSizeBytes = 48000000;
constexpr int kMaxWriteBatchSize = 100000;
constexpr int kMaxClientMetadataBytes = 512;
constexpr size_t kMaxApplicationNameBytes = 128;

struct Topology {
    const OID processId = OID::gen();
    std::mutex mutex;
    std::condition_variable changed;
    long long counter = 0;  // guarded by mutex
    HelloReplicationHook hook;  // guarded by mutex
};
Topology& topology() {
    static Topology* t = new Topology();  // never destroyed: hellos may wait during exit
    return *t;
}

std::string wrongType(const std::string& field, const BSONElement& e, const std::string& expected) {
    return "BSON field '" + field + "' is the wrong type '" + typeName(e.type()) + "', expected type '" + expected + "'";
}

struct TopologyVersionArg {
    OID processId;
    long long counter = 0;
};

TopologyVersionArg parseTopologyVersion(const BSONElement& e) {
    uassert(10065, "invalid parameter: expected an object (topologyVersion)", e.type() == Object);
    TopologyVersionArg tv;
    bool havePid = false, haveCounter = false;
    for (auto f : e.Obj()) {
        auto n = f.fieldNameStringData();
        if (n == "processId") {
            uassert(ErrorCodes::TypeMismatch, wrongType("topologyVersion.processId", f, "objectId"), f.type() == jstOID);
            tv.processId = f.oid();
            havePid = true;
        } else if (n == "counter") {
            uassert(ErrorCodes::TypeMismatch, wrongType("topologyVersion.counter", f, "long"), f.type() == NumberLong);
            tv.counter = f.numberLong();
            haveCounter = true;
        } else {
            uasserted(40415, "BSON field 'topologyVersion." + std::string(n) + "' is an unknown field.");
        }
    }
    uassert(40414, "BSON field 'topologyVersion.processId' is missing but a required field", havePid);
    uassert(40414, "BSON field 'topologyVersion.counter' is missing but a required field", haveCounter);
    uassert(31372, "topologyVersion must have a non-negative counter", tv.counter >= 0);
    return tv;
}

BSONObj topologyVersionBSON(long long counter) {
    BSONObjBuilder b;
    b.append("processId", topologyProcessId());
    b.appendLong("counter", counter);
    return b.obj();
}

// Awaitable hello: returns once the topology changed past the client's version or
// maxAwaitTimeMS passed. A different processId (the server restarted) or an older counter
// answers at once.
void awaitTopologyChange(OperationContext* opCtx, const TopologyVersionArg& clientTv, long long maxAwaitTimeMS) {
    auto& t = topology();
    if (!(clientTv.processId == t.processId)) return;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(maxAwaitTimeMS);
    std::unique_lock<std::mutex> lk(t.mutex);
    uassert(31382,
            "Received a topology version with the same process ID and a higher counter than the server's: "
            "received " + std::to_string(clientTv.counter) + ", current " + std::to_string(t.counter),
            clientTv.counter <= t.counter);
    while (t.counter == clientTv.counter) {
        auto now = std::chrono::steady_clock::now();
        if (now >= deadline) return;
        // Wake regularly to notice killOp and shutdown.
        t.changed.wait_for(lk, std::min<std::chrono::steady_clock::duration>(deadline - now, std::chrono::milliseconds(100)));
        lk.unlock();
        opCtx->checkForInterrupt();
        lk.lock();
    }
}

class HelloCmd : public Command {
public:
    HelloCmd() : Command("hello") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    HelloCmd(std::string name, std::vector<std::string> aliases) : Command(std::move(name), std::move(aliases)) {}

    std::string help() const override {
        return "Check if this server is primary for a replica set\n{ hello : 1 }";
    }

    void run(OperationContext* opCtx, const OpMsgRequest& request, BSONObjBuilder& result) override {
        const BSONObj& cmd = request.body;
        Client* client = opCtx->getClient();

        // Client metadata: accepted only with the connection's first hello.
        const bool seenHello = client && client->seenHello;
        if (client) client->seenHello = true;
        BSONElement metadata = cmd["client"];
        if (!metadata.eoo()) {
            uassert(ErrorCodes::ClientMetadataCannotBeMutated,
                    "The client metadata document may only be sent in the first hello", !seenHello);
            uassertStatusOK(validateClientMetadata(metadata));
            if (client) client->metadata = metadata.Obj().getOwned();
        }

        // Awaitable hello arguments: both or neither.
        BSONElement tvElem = cmd["topologyVersion"];
        BSONElement maxAwaitElem = cmd["maxAwaitTimeMS"];
        std::optional<TopologyVersionArg> clientTv;
        if (!tvElem.eoo()) clientTv = parseTopologyVersion(tvElem);
        long long maxAwaitTimeMS = 0;
        if (!maxAwaitElem.eoo()) {
            uassert(ErrorCodes::TypeMismatch, wrongType(name() + ".maxAwaitTimeMS", maxAwaitElem, "long"),
                    maxAwaitElem.isNumber());
            uassert(31373, "maxAwaitTimeMS must be a non-negative integer",
                    maxAwaitElem.isIntegral64(&maxAwaitTimeMS) && maxAwaitTimeMS >= 0);
        }
        uassert(31368,
                clientTv ? "A request with a 'topologyVersion' must include 'maxAwaitTimeMS'"
                         : "A request with 'maxAwaitTimeMS' must include a 'topologyVersion'",
                clientTv.has_value() == !maxAwaitElem.eoo());

        BSONElement compression = cmd["compression"];
        std::optional<std::vector<std::string>> offered;
        if (!compression.eoo()) {
            uassert(ErrorCodes::TypeMismatch, wrongType(name() + ".compression", compression, "array"),
                    compression.type() == Array);
            offered.emplace();
            for (auto c : compression.Obj()) {
                uassert(ErrorCodes::TypeMismatch, wrongType(name() + ".compression." + std::string(c.fieldNameStringData()), c, "string"),
                        c.type() == String);
                offered->push_back(c.str());
            }
        }

        if (clientTv) awaitTopologyChange(opCtx, *clientTv, maxAwaitTimeMS);

        const bool legacy = useLegacyFields();
        HelloReplicationHook hook;
        long long counter;
        {
            auto& t = topology();
            std::lock_guard<std::mutex> lk(t.mutex);
            hook = t.hook;
            counter = t.counter;
        }
        if (hook) {
            hook(opCtx, legacy, result);
        } else {
            result.append(legacy ? "ismaster" : "isWritablePrimary", true);
        }
        if (cmd["helloOk"].trueValue()) result.append("helloOk", true);
        result.append("topologyVersion", topologyVersionBSON(counter));
        result.appendInt("maxBsonObjectSize", BSONObjMaxUserSize);
        result.appendInt("maxMessageSizeBytes", kMaxMessageSizeBytes);
        result.appendInt("maxWriteBatchSize", kMaxWriteBatchSize);
        result.append("localTime", Date_t::now());
        result.appendInt("logicalSessionTimeoutMinutes", localLogicalSessionTimeoutMinutes());
        if (client) result.appendNumber("connectionId", client->id());
        result.appendInt("minWireVersion", kMinWireVersion);
        result.appendInt("maxWireVersion", kMaxWireVersion);
        result.append("readOnly", false);
        // saslSupportedMechs and speculativeAuthenticate (auth/sasl_commands.h).
        auth::appendHelloAuthFields(opCtx, cmd, result);

        // Compression: a request naming compressors (re)negotiates; one without reports what
        // was negotiated before. Nothing is reported when nothing was agreed.
        if (client) {
            if (offered) client->compressors = negotiateCompressors(*offered, serverGlobalParams().networkCompressors);
            if (!client->compressors.empty()) {
                BSONArrayBuilder& arr = result.subarrayStart("compression");
                for (auto& c : client->compressors) arr.append(c);
                arr.doneFast();
            }
        }

        if (!metadata.eoo() && client && !quietLogging()) {
            BSONArrayBuilder negotiated;
            for (auto& c : client->compressors) negotiated.append(c);
            LOGV2(51800, Network, "client metadata",
                  logv2::attrs("remote", client->remote(), "client", client->desc(), "negotiatedCompressors",
                               negotiated.arr(), "doc", client->metadata));
        }
    }

protected:
    virtual bool useLegacyFields() const { return false; }
} helloCmd;

class IsMasterCmd : public HelloCmd {
public:
    IsMasterCmd() : HelloCmd("isMaster", {"ismaster"}) {}
    std::string help() const override {
        return "Check if this server is primary for a replica set\n{ isMaster : 1 }";
    }

protected:
    bool useLegacyFields() const override { return true; }
} isMasterCmd;

}  // namespace

OID topologyProcessId() { return topology().processId; }

long long topologyVersionCounter() {
    auto& t = topology();
    std::lock_guard<std::mutex> lk(t.mutex);
    return t.counter;
}

void bumpTopologyVersion() {
    auto& t = topology();
    {
        std::lock_guard<std::mutex> lk(t.mutex);
        t.counter++;
    }
    t.changed.notify_all();
}

void setHelloReplicationHook(HelloReplicationHook hook) {
    auto& t = topology();
    std::lock_guard<std::mutex> lk(t.mutex);
    t.hook = std::move(hook);
}

std::vector<std::string> negotiateCompressors(const std::vector<std::string>& clientOffered,
                                              const std::vector<std::string>& serverEnabled) {
    std::vector<std::string> out;
    for (auto& c : clientOffered) {
        if (std::find(serverEnabled.begin(), serverEnabled.end(), c) == serverEnabled.end()) continue;
        if (std::find(out.begin(), out.end(), c) != out.end()) continue;
        out.push_back(c);
    }
    return out;
}

Status validateClientMetadata(const BSONElement& client) {
    auto notObject = [](const std::string& name) {
        return Status(ErrorCodes::TypeMismatch,
                      "The '" + name + "' field is required to be a BSON document in the client metadata document");
    };
    if (client.type() != Object) return notObject("client");
    BSONObj doc = client.Obj();
    if (doc.objsize() > kMaxClientMetadataBytes)
        return Status(ErrorCodes::ClientMetadataDocumentTooLarge,
                      "The client metadata document must be less then or equal to " +
                          std::to_string(kMaxClientMetadataBytes) + " bytes");
    bool foundDriver = false, foundOs = false;
    for (auto e : doc) {
        auto name = e.fieldNameStringData();
        if (name == "application") {
            if (e.type() != Object) return notObject("application");
            BSONElement appName = e.Obj()["name"];
            if (!appName.eoo()) {
                if (appName.type() != String)
                    return Status(ErrorCodes::TypeMismatch,
                                  "The 'application.name' field must be a string in the client metadata document");
                if (appName.valueStringData().size() > kMaxApplicationNameBytes)
                    return Status(ErrorCodes::ClientMetadataAppNameTooLarge,
                                  "The 'application.name' field must be less then or equal to 128 bytes in the "
                                  "client metadata document");
            }
        } else if (name == "driver") {
            if (e.type() != Object) return notObject("driver");
            for (const char* f : {"name", "version"}) {
                BSONElement v = e.Obj()[f];
                if (v.eoo())
                    return Status(ErrorCodes::ClientMetadataMissingField,
                                  std::string("Missing required field 'driver.") + f + "' in the client metadata document");
                if (v.type() != String)
                    return Status(ErrorCodes::TypeMismatch, std::string("The 'driver.") + f +
                                                                "' field must be a string in the client metadata document");
            }
            foundDriver = true;
        } else if (name == "os") {
            if (e.type() != Object) return notObject("os");
            BSONElement type = e.Obj()["type"];
            if (type.eoo())
                return Status(ErrorCodes::ClientMetadataMissingField,
                              "Missing required field 'os.type' in the client metadata document");
            if (type.type() != String)
                return Status(ErrorCodes::TypeMismatch,
                              "The 'os.type' field must be a string in the client metadata document");
            foundOs = true;
        }
    }
    if (!foundDriver)
        return Status(ErrorCodes::ClientMetadataMissingField,
                      "Missing required sub-document 'driver' in the client metadata document");
    if (!foundOs)
        return Status(ErrorCodes::ClientMetadataMissingField,
                      "Missing required sub-document 'os' in the client metadata document");
    return Status::OK();
}

}  // namespace mongo
