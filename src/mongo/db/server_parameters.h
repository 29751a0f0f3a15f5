#pragma once
// Server parameters: named tunables read by getParameter, changed by setParameter (at runtime)
// and by --setParameter name=value / the config file's setParameter map (at startup).
//
// A parameter object registers itself in the global set when constructed; define them as
// globals (registration happens during static initialisation, before main()):
//
//   ServerParameterWithStorage<long long> gCursorTimeoutMillis(
//       "cursorTimeoutMillis", 600000, ServerParameterType::kStartupAndRuntime);
//   ... gCursorTimeoutMillis.get() ...
//
// Thread safety: the set is filled before main() and only read afterwards. Values are
// read and written under each parameter's own synchronisation (atomics or a mutex), so
// get() may be called from any thread while setParameter runs.
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

enum class ServerParameterType { kStartupOnly, kRuntimeOnly, kStartupAndRuntime, kReadOnly };

class ServerParameter {
public:
    ServerParameter(std::string name, ServerParameterType type);
    virtual ~ServerParameter() = default;
    ServerParameter(const ServerParameter&) = delete;
    ServerParameter& operator=(const ServerParameter&) = delete;

    const std::string& name() const { return _name; }
    bool allowedToChangeAtStartup() const {
        return _type == ServerParameterType::kStartupOnly || _type == ServerParameterType::kStartupAndRuntime;
    }
    bool allowedToChangeAtRuntime() const {
        return _type == ServerParameterType::kRuntimeOnly || _type == ServerParameterType::kStartupAndRuntime;
    }

    // Appends the current value under `name`.
    virtual void append(BSONObjBuilder& b, const std::string& name) const = 0;
    // setParameter: a BSON value. Returns BadValue/TypeMismatch for unusable values.
    virtual Status set(const BSONElement& value) = 0;
    // --setParameter name=value: the text after '='.
    virtual Status setFromString(const std::string& value) = 0;

private:
    std::string _name;
    ServerParameterType _type;
};

// All parameters by name (sorted, as getParameter '*' lists them).
class ServerParameterSet {
public:
    static ServerParameterSet& global();
    void add(ServerParameter* p);  // a duplicate name aborts: two definitions are a bug
    ServerParameter* find(const std::string& name) const;
    const std::map<std::string, ServerParameter*>& all() const { return _params; }

private:
    std::map<std::string, ServerParameter*> _params;
};

namespace server_parameter_detail {
// Conversions shared by the typed parameters; each returns BadValue/TypeMismatch on failure.
Status fromBSON(const BSONElement& e, bool* out);
Status fromBSON(const BSONElement& e, int* out);
Status fromBSON(const BSONElement& e, long long* out);
Status fromBSON(const BSONElement& e, double* out);
Status fromBSON(const BSONElement& e, std::string* out);
Status fromString(const std::string& s, bool* out);
Status fromString(const std::string& s, int* out);
Status fromString(const std::string& s, long long* out);
Status fromString(const std::string& s, double* out);
Status fromString(const std::string& s, std::string* out);
}  // namespace server_parameter_detail

// A parameter holding a value of type T (bool, int, long long, double or std::string).
// validator (optional) rejects values; onUpdate (optional) runs after each successful set,
// e.g. to push logLevel into the logger.
template <typename T>
class ServerParameterWithStorage : public ServerParameter {
public:
    using Validator = std::function<Status(const T&)>;
    using OnUpdate = std::function<void(const T&)>;

    ServerParameterWithStorage(std::string name, T initial, ServerParameterType type,
                               Validator validator = nullptr, OnUpdate onUpdate = nullptr)
        : ServerParameter(std::move(name), type),
          _validator(std::move(validator)),
          _onUpdate(std::move(onUpdate)) {
        store(std::move(initial));
    }

    T get() const {
        if constexpr (kAtomic) {
            return _atomic.load();
        } else {
            std::lock_guard<std::mutex> lk(_mutex);
            return _value;
        }
    }

    // Sets from C++ (startup code, tests); runs the validator and onUpdate.
    Status setValue(T v) {
        if (_validator) {
            Status s = _validator(v);
            if (!s.isOK()) return s;
        }
        store(v);
        if (_onUpdate) _onUpdate(v);
        return Status::OK();
    }

    void append(BSONObjBuilder& b, const std::string& name) const override { b.append(name, get()); }
    Status set(const BSONElement& e) override {
        T v{};
        Status s = server_parameter_detail::fromBSON(e, &v);
        if (!s.isOK()) return Status(s.code(), "Invalid value for " + this->name() + ": " + s.reason());
        return setValue(std::move(v));
    }
    Status setFromString(const std::string& str) override {
        T v{};
        Status s = server_parameter_detail::fromString(str, &v);
        if (!s.isOK()) return Status(s.code(), "Invalid value for " + this->name() + ": " + s.reason());
        return setValue(std::move(v));
    }

private:
    static constexpr bool kAtomic = std::is_arithmetic_v<T>;
    void store(T v) {
        if constexpr (kAtomic) {
            _atomic.store(v);
        } else {
            std::lock_guard<std::mutex> lk(_mutex);
            _value = std::move(v);
        }
    }

    std::conditional_t<kAtomic, std::atomic<T>, char> _atomic{};
    mutable std::mutex _mutex;
    std::conditional_t<kAtomic, char, T> _value{};
    Validator _validator;
    OnUpdate _onUpdate;
};

// Validators for the common cases.
template <typename T>
typename ServerParameterWithStorage<T>::Validator boundedBy(T lo, T hi) {
    return [lo, hi](const T& v) -> Status {
        if (v < lo || v > hi)
            return Status(ErrorCodes::BadValue, "must be between " + std::to_string(lo) + " and " +
                                                    std::to_string(hi) + ", got " + std::to_string(v));
        return Status::OK();
    };
}

// Parameters other subsystems read (defined in server_parameters.cpp, MongoDB 7.0 defaults).
bool testCommandsEnabled();                       // enableTestCommands (startup only)
int logLevel();                                   // logLevel (kept in step with the logger)
bool notablescan();                               // notablescan
long long cursorTimeoutMillis();                  // cursorTimeoutMillis
int transactionLifetimeLimitSeconds();            // transactionLifetimeLimitSeconds
int maxTransactionLockRequestTimeoutMillis();     // maxTransactionLockRequestTimeoutMillis
long long internalQueryMaxBlockingSortMemoryUsageBytes();
long long internalDocumentSourceGroupMaxMemoryBytes();
long long internalQueryMaxRangeBytes();             // $range's array (104857600)
long long internalQueryMaxAllowedDensifyDocs();     // documents one $densify may generate (500000)
int maxBSONDepth();                               // nesting levels a result document may have (200)
bool allowDiskUseByDefault();
int localLogicalSessionTimeoutMinutes();          // also hello's logicalSessionTimeoutMinutes
int logicalSessionRefreshMillis();                // the session cache's refresh period
int transactionRecordMinimumLifetimeMinutes();    // config.transactions records outlive their last write
bool requireApiVersion();
bool quietLogging();                              // quiet

// featureCompatibilityVersion: "7.0" (default) or "6.0" after a downgrade.
std::string featureCompatibilityVersion();
void setFeatureCompatibilityVersion(const std::string& version);

}  // namespace mongo
