#include "mongo/db/server_parameters.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "mongo/util/log.h"

namespace mongo {

ServerParameter::ServerParameter(std::string name, ServerParameterType type)
    : _name(std::move(name)), _type(type) {
    ServerParameterSet::global().add(this);
}

ServerParameterSet& ServerParameterSet::global() {
    static ServerParameterSet* set = new ServerParameterSet();  // never destroyed: used at exit
    return *set;
}

void ServerParameterSet::add(ServerParameter* p) {
    invariant(_params.emplace(p->name(), p).second);
}

ServerParameter* ServerParameterSet::find(const std::string& name) const {
    auto it = _params.find(name);
    return it == _params.end() ? nullptr : it->second;
}

namespace server_parameter_detail {

Status fromBSON(const BSONElement& e, bool* out) {
    if (e.type() == Bool || e.isNumber()) {
        *out = e.trueValue();
        return Status::OK();
    }
    return Status(ErrorCodes::TypeMismatch, "expected a boolean, got " + typeName(e.type()));
}

Status fromBSON(const BSONElement& e, long long* out) {
    if (!e.isNumber()) return Status(ErrorCodes::TypeMismatch, "expected a number, got " + typeName(e.type()));
    long long v;
    if (!e.isIntegral64(&v)) return Status(ErrorCodes::BadValue, "expected an integer, got " + e.toString(false));
    *out = v;
    return Status::OK();
}

Status fromBSON(const BSONElement& e, int* out) {
    long long v;
    Status s = fromBSON(e, &v);
    if (!s.isOK()) return s;
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        return Status(ErrorCodes::BadValue, "value out of range: " + std::to_string(v));
    *out = static_cast<int>(v);
    return Status::OK();
}

Status fromBSON(const BSONElement& e, double* out) {
    if (!e.isNumber()) return Status(ErrorCodes::TypeMismatch, "expected a number, got " + typeName(e.type()));
    *out = e.numberDouble();
    return Status::OK();
}

Status fromBSON(const BSONElement& e, std::string* out) {
    if (e.type() != String) return Status(ErrorCodes::TypeMismatch, "expected a string, got " + typeName(e.type()));
    *out = e.str();
    return Status::OK();
}

Status fromString(const std::string& s, bool* out) {
    if (s == "true" || s == "1") {
        *out = true;
    } else if (s == "false" || s == "0") {
        *out = false;
    } else {
        return Status(ErrorCodes::BadValue, "expected true/false/1/0, got '" + s + "'");
    }
    return Status::OK();
}

Status fromString(const std::string& s, long long* out) {
    if (s.empty()) return Status(ErrorCodes::BadValue, "expected an integer, got ''");
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno != 0 || *end != '\0') return Status(ErrorCodes::BadValue, "expected an integer, got '" + s + "'");
    *out = v;
    return Status::OK();
}

Status fromString(const std::string& s, int* out) {
    long long v;
    Status st = fromString(s, &v);
    if (!st.isOK()) return st;
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        return Status(ErrorCodes::BadValue, "value out of range: " + s);
    *out = static_cast<int>(v);
    return Status::OK();
}

Status fromString(const std::string& s, double* out) {
    if (s.empty()) return Status(ErrorCodes::BadValue, "expected a number, got ''");
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (errno != 0 || *end != '\0' || !std::isfinite(v))
        return Status(ErrorCodes::BadValue, "expected a number, got '" + s + "'");
    *out = v;
    return Status::OK();
}

Status fromString(const std::string& s, std::string* out) {
    *out = s;
    return Status::OK();
}

}  // namespace server_parameter_detail

namespace {

using SPT = ServerParameterType;

Status nonNegativeInt(const int& v) {
    return v < 0 ? Status(ErrorCodes::BadValue, "must be non-negative, got " + std::to_string(v)) : Status::OK();
}
Status positiveInt(const int& v) {
    return v <= 0 ? Status(ErrorCodes::BadValue, "must be positive, got " + std::to_string(v)) : Status::OK();
}
Status positiveLong(const long long& v) {
    return v <= 0 ? Status(ErrorCodes::BadValue, "must be positive, got " + std::to_string(v)) : Status::OK();
}

// Test-only commands (configureFailPoint, ...) exist only when this is set at startup.
ServerParameterWithStorage<bool> gEnableTestCommands("enableTestCommands", false, SPT::kStartupOnly);
ServerParameterWithStorage<bool> gTestingDiagnosticsEnabled("testingDiagnosticsEnabled", false, SPT::kStartupOnly);

ServerParameterWithStorage<int> gLogLevel("logLevel", 0, SPT::kStartupAndRuntime, nonNegativeInt,
                                          [](const int& v) { logv2::setVerbosity(v); });
ServerParameterWithStorage<bool> gQuiet("quiet", false, SPT::kStartupAndRuntime);
ServerParameterWithStorage<bool> gTraceExceptions("traceExceptions", false, SPT::kStartupAndRuntime);

ServerParameterWithStorage<bool> gNotablescan("notablescan", false, SPT::kStartupAndRuntime);
ServerParameterWithStorage<long long> gCursorTimeoutMillis("cursorTimeoutMillis", 600000, SPT::kStartupAndRuntime,
                                                           positiveLong);
ServerParameterWithStorage<int> gTransactionLifetimeLimitSeconds("transactionLifetimeLimitSeconds", 60,
                                                                 SPT::kStartupAndRuntime, positiveInt);
ServerParameterWithStorage<int> gMaxTransactionLockRequestTimeoutMillis("maxTransactionLockRequestTimeoutMillis", 5,
                                                                        SPT::kStartupAndRuntime);
ServerParameterWithStorage<long long> gInternalQueryMaxBlockingSortMemoryUsageBytes(
    "internalQueryMaxBlockingSortMemoryUsageBytes", 100LL * 1024 * 1024, SPT::kStartupAndRuntime, positiveLong);
ServerParameterWithStorage<long long> gInternalDocumentSourceGroupMaxMemoryBytes(
    "internalDocumentSourceGroupMaxMemoryBytes", 100LL * 1024 * 1024, SPT::kStartupAndRuntime, positiveLong);
ServerParameterWithStorage<long long> gInternalQueryMaxRangeBytes("internalQueryMaxRangeBytes", 100LL * 1024 * 1024,
                                                                 SPT::kStartupAndRuntime, positiveLong);
ServerParameterWithStorage<long long> gInternalQueryMaxAllowedDensifyDocs("internalQueryMaxAllowedDensifyDocs", 500000,
                                                                          SPT::kStartupAndRuntime, positiveLong);
ServerParameterWithStorage<bool> gAllowDiskUseByDefault("allowDiskUseByDefault", true, SPT::kStartupAndRuntime);
ServerParameterWithStorage<int> gLocalLogicalSessionTimeoutMinutes("localLogicalSessionTimeoutMinutes", 30,
                                                                   SPT::kStartupOnly, positiveInt);
// How often the logical session cache writes its sessions to config.system.sessions
// (db/session/logical_session_cache.h).
ServerParameterWithStorage<int> gLogicalSessionRefreshMillis("logicalSessionRefreshMillis", 300000, SPT::kStartupOnly,
                                                             positiveInt);
// How long a session's config.transactions record is kept at least after its last write
// before the session reaper may remove it (repl/session_txn_storage.h), as in MongoDB 7.0.
ServerParameterWithStorage<int> gTransactionRecordMinimumLifetimeMinutes("TransactionRecordMinimumLifetimeMinutes",
                                                                         30, SPT::kStartupOnly,
                                                                         boundedBy(0, 1000000000));
ServerParameterWithStorage<bool> gRequireApiVersion("requireApiVersion", false, SPT::kStartupAndRuntime);
// Accepted because test harnesses pass them; this server has no FTDC and no flow control, so
// the values change nothing here.
ServerParameterWithStorage<bool> gDiagnosticDataCollectionEnabled("diagnosticDataCollectionEnabled", true,
                                                                  SPT::kStartupAndRuntime);
ServerParameterWithStorage<bool> gEnableFlowControl("enableFlowControl", true, SPT::kStartupAndRuntime);
ServerParameterWithStorage<int> gMaxBSONDepth("maxBSONDepth", 200, SPT::kStartupOnly, boundedBy(5, 1000));

// logComponentVerbosity: {verbosity: <logLevel>, <component>: {verbosity: n}, ...}. Only the
// global verbosity drives the logger (it has no per-component levels); the rest is kept so
// getParameter shows what was set.
class LogComponentVerbosityParameter : public ServerParameter {
public:
    LogComponentVerbosityParameter() : ServerParameter("logComponentVerbosity", SPT::kStartupAndRuntime) {}

    void append(BSONObjBuilder& b, const std::string& name) const override {
        BSONObjBuilder& sub = b.subobjStart(name);
        sub.appendInt("verbosity", gLogLevel.get());
        std::lock_guard<std::mutex> lk(_mutex);
        for (auto e : _components)
            if (e.fieldNameStringData() != "verbosity") sub.append(e);
        sub.doneFast();
    }

    Status set(const BSONElement& e) override {
        if (e.type() != Object)
            return Status(ErrorCodes::TypeMismatch, "Invalid value for logComponentVerbosity: expected an object");
        return setObj(e.Obj());
    }

    Status setFromString(const std::string& s) override {
        try {
            return setObj(fromjson(s));
        } catch (const DBException& ex) {
            return Status(ErrorCodes::BadValue, "Invalid value for logComponentVerbosity: " + ex.reason());
        }
    }

private:
    Status setObj(const BSONObj& o) {
        BSONElement v = o["verbosity"];
        if (!v.eoo()) {
            if (!v.isNumber() || v.numberInt() < -1)
                return Status(ErrorCodes::BadValue, "Invalid value for logComponentVerbosity.verbosity");
            if (v.numberInt() >= 0) {
                Status s = gLogLevel.setValue(v.numberInt());
                if (!s.isOK()) return s;
            }
        }
        BSONObjBuilder merged;
        for (auto e : o)
            if (e.fieldNameStringData() != "verbosity") merged.append(e);
        std::lock_guard<std::mutex> lk(_mutex);
        merged.appendElementsUnique(_components);
        _components = merged.obj();
        return Status::OK();
    }

    mutable std::mutex _mutex;
    BSONObj _components;
} gLogComponentVerbosity;

// featureCompatibilityVersion: read-only here; setFeatureCompatibilityVersion changes it.
class FeatureCompatibilityVersionParameter : public ServerParameter {
public:
    FeatureCompatibilityVersionParameter() : ServerParameter("featureCompatibilityVersion", SPT::kReadOnly) {}

    void append(BSONObjBuilder& b, const std::string& name) const override {
        BSONObjBuilder& sub = b.subobjStart(name);
        sub.append("version", get());
        sub.doneFast();
    }
    Status set(const BSONElement&) override {
        return Status(ErrorCodes::IllegalOperation, "not allowed to change [featureCompatibilityVersion] at runtime");
    }
    Status setFromString(const std::string&) override {
        return Status(ErrorCodes::IllegalOperation, "not allowed to change [featureCompatibilityVersion] at startup");
    }

    std::string get() const {
        std::lock_guard<std::mutex> lk(_mutex);
        return _version;
    }
    void put(const std::string& v) {
        std::lock_guard<std::mutex> lk(_mutex);
        _version = v;
    }

private:
    mutable std::mutex _mutex;
    std::string _version = "7.0";
} gFeatureCompatibilityVersion;

}  // namespace

bool testCommandsEnabled() { return gEnableTestCommands.get(); }
int logLevel() { return gLogLevel.get(); }
bool notablescan() { return gNotablescan.get(); }
long long cursorTimeoutMillis() { return gCursorTimeoutMillis.get(); }
int transactionLifetimeLimitSeconds() { return gTransactionLifetimeLimitSeconds.get(); }
int maxTransactionLockRequestTimeoutMillis() { return gMaxTransactionLockRequestTimeoutMillis.get(); }
long long internalQueryMaxBlockingSortMemoryUsageBytes() { return gInternalQueryMaxBlockingSortMemoryUsageBytes.get(); }
long long internalDocumentSourceGroupMaxMemoryBytes() { return gInternalDocumentSourceGroupMaxMemoryBytes.get(); }
long long internalQueryMaxRangeBytes() { return gInternalQueryMaxRangeBytes.get(); }
long long internalQueryMaxAllowedDensifyDocs() { return gInternalQueryMaxAllowedDensifyDocs.get(); }
int maxBSONDepth() { return gMaxBSONDepth.get(); }
bool allowDiskUseByDefault() { return gAllowDiskUseByDefault.get(); }
int localLogicalSessionTimeoutMinutes() { return gLocalLogicalSessionTimeoutMinutes.get(); }
int logicalSessionRefreshMillis() { return gLogicalSessionRefreshMillis.get(); }
int transactionRecordMinimumLifetimeMinutes() { return gTransactionRecordMinimumLifetimeMinutes.get(); }
bool requireApiVersion() { return gRequireApiVersion.get(); }
bool quietLogging() { return gQuiet.get(); }

std::string featureCompatibilityVersion() { return gFeatureCompatibilityVersion.get(); }
void setFeatureCompatibilityVersion(const std::string& version) { gFeatureCompatibilityVersion.put(version); }

}  // namespace mongo
