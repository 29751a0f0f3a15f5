// profile: {profile: -1} reads the settings, {profile: 0|1|2, slowms, sampleRate, filter}
// changes them. The reply holds the settings before the change: {was, slowms, sampleRate}.
#include <atomic>
#include <map>
#include <mutex>
#include <optional>

#include "mongo/db/commands/command.h"
#include "mongo/db/commands/profile_settings.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/server_options.h"

namespace mongo {

namespace {

struct Settings {
    std::mutex mutex;
    std::map<std::string, int> levels;      // per db; absent: the startup level
    std::map<std::string, BSONObj> filters;  // per db
    std::optional<int> slowMs;              // absent: the startup value
    std::optional<double> sampleRate;
};
// Whether some database's level (or the startup level) is above 0; updated under the mutex.
std::atomic<bool> gAnyProfiling{false};

Settings& settings() {
    static Settings* s = new Settings();
    return *s;
}

int levelLocked(Settings& s, const std::string& db) {
    auto it = s.levels.find(db);
    return it != s.levels.end() ? it->second : serverGlobalParams().profileLevel;
}

class ProfileCmd : public Command {
public:
    ProfileCmd() : Command("profile") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onDatabase(req.db(), {ActionType::enableProfiler}); }
    std::string help() const override {
        return "controls the behaviour of the performance profiler, the fraction of eligible operations "
               "which are sampled for logging/profiling, and the threshold duration at which ops become "
               "eligible. See http://docs.mongodb.org/manual/reference/command/profile";
    }

    void run(OperationContext*, const OpMsgRequest& request, BSONObjBuilder& result) override {
        const BSONObj& cmd = request.body;
        const std::string db = request.db();
        BSONElement levelElem = cmd.firstElement();
        long long level;
        uassert(ErrorCodes::TypeMismatch,
                "BSON field 'profile.profile' is the wrong type '" + typeName(levelElem.type()) +
                    "', expected type 'long'",
                levelElem.isNumber() && levelElem.isIntegral64(&level));
        uassert(ErrorCodes::BadValue, "Profiling level must be one of -1, 0, 1 or 2 (got " + std::to_string(level) + ")",
                level >= -1 && level <= 2);

        std::optional<int> newSlowMs;
        std::optional<double> newSampleRate;
        std::optional<BSONObj> newFilter;  // an empty object: "unset"
        if (BSONElement e = cmd["slowms"]; !e.eoo()) {
            long long v;
            uassert(ErrorCodes::TypeMismatch, "BSON field 'profile.slowms' is the wrong type '" + typeName(e.type()) + "', expected type 'long'",
                    e.isNumber() && e.isIntegral64(&v));
            newSlowMs = static_cast<int>(v);
        }
        if (BSONElement e = cmd["sampleRate"]; !e.eoo()) {
            uassert(ErrorCodes::TypeMismatch, "BSON field 'profile.sampleRate' is the wrong type '" + typeName(e.type()) + "', expected type 'double'",
                    e.isNumber());
            double v = e.numberDouble();
            uassert(ErrorCodes::BadValue, "'sampleRate' must be between 0.0 and 1.0 inclusive", v >= 0 && v <= 1);
            newSampleRate = v;
        }
        if (BSONElement e = cmd["filter"]; !e.eoo()) {
            if (e.type() == String && e.str() == "unset") {
                newFilter = BSONObj();
            } else {
                uassert(ErrorCodes::TypeMismatch, "BSON field 'profile.filter' is the wrong type '" + typeName(e.type()) + "', expected type 'object'",
                        e.type() == Object);
                newFilter = e.Obj().getOwned();
                Matcher check(*newFilter);  // a bad filter fails here, as a query would
            }
        }

        auto& s = settings();
        std::lock_guard<std::mutex> lk(s.mutex);
        result.appendInt("was", levelLocked(s, db));
        result.appendInt("slowms", s.slowMs.value_or(serverGlobalParams().slowOpThresholdMs));
        result.append("sampleRate", s.sampleRate.value_or(serverGlobalParams().slowOpSampleRate));
        auto f = s.filters.find(db);
        if (f != s.filters.end()) {
            result.append("filter", f->second);
            result.append("note",
                          "When a filter expression is set, slowms and sampleRate are not used for profiling and "
                          "slow-query log lines.");
        }
        if (level >= 0) s.levels[db] = static_cast<int>(level);
        bool any = serverGlobalParams().profileLevel > 0;
        for (auto& [name, l] : s.levels) any = any || l > 0;
        gAnyProfiling.store(any);
        if (newSlowMs) s.slowMs = newSlowMs;
        if (newSampleRate) s.sampleRate = newSampleRate;
        if (newFilter) {
            if (newFilter->isEmpty()) s.filters.erase(db);
            else s.filters[db] = *newFilter;
        }
    }
} profileCmd;

}  // namespace

bool anyProfilingEnabled() {
    return gAnyProfiling.load(std::memory_order_relaxed) || serverGlobalParams().profileLevel > 0;
}

int profileLevel(const std::string& db) {
    auto& s = settings();
    std::lock_guard<std::mutex> lk(s.mutex);
    return levelLocked(s, db);
}

int slowOpThresholdMs() {
    auto& s = settings();
    std::lock_guard<std::mutex> lk(s.mutex);
    return s.slowMs.value_or(serverGlobalParams().slowOpThresholdMs);
}

double slowOpSampleRate() {
    auto& s = settings();
    std::lock_guard<std::mutex> lk(s.mutex);
    return s.sampleRate.value_or(serverGlobalParams().slowOpSampleRate);
}

BSONObj profileFilter(const std::string& db) {
    auto& s = settings();
    std::lock_guard<std::mutex> lk(s.mutex);
    auto it = s.filters.find(db);
    return it == s.filters.end() ? BSONObj() : it->second;
}

}  // namespace mongo
