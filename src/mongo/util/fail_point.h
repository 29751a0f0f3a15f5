#pragma once
// Fail points: named switches in the server's code that tests turn on with the
// configureFailPoint command (test commands only) or --setParameter failpoint.<name>=<json>.
//
//   MONGO_FAIL_POINT_DEFINE(hangBeforeCommit);      // a global, registered by name
//   ...
//   if (hangBeforeCommit.shouldFail()) ...           // one relaxed atomic load when off
//   hangBeforeCommit.executeIf([&](const BSONObj& data) { ... },
//                              [&](const BSONObj& data) { return data["ns"].str() == ns; });
//
// Modes (MongoDB's): off, alwaysOn, {times: n} (the next n evaluations that match fire, then
// off), {skip: n} (the first n matching evaluations pass, every later one fires),
// {activationProbability: p}. A predicate is checked before the mode, so non-matching
// evaluations consume neither times nor skips. Every firing counts in timesEntered.
// Thread safety: all members may be called concurrently.
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

class FailPoint {
public:
    enum Mode { off = 0, alwaysOn = 1, random = 2, nTimes = 3, skip = 4 };
    struct ModeOptions {
        Mode mode = off;
        long long val = 0;  // times / skip count; activation probability scaled to [0, 2^31-1]
        BSONObj data;
    };
    using Predicate = std::function<bool(const BSONObj& data)>;

    // Parses configureFailPoint's {mode: ..., data: {...}} (other fields are ignored).
    static StatusWith<ModeOptions> parseBSON(const BSONObj& obj);

    // Registers the fail point under name (see MONGO_FAIL_POINT_DEFINE).
    explicit FailPoint(std::string name);
    FailPoint(const FailPoint&) = delete;
    FailPoint& operator=(const FailPoint&) = delete;

    const std::string& name() const { return _name; }

    // Changes the mode; returns timesEntered before the change.
    long long setMode(Mode mode, long long val = 0, BSONObj data = BSONObj());
    long long setMode(const ModeOptions& opts) { return setMode(opts.mode, opts.val, opts.data); }

    // Evaluates the fail point (consuming a time/skip when it matches). Returns its data when it
    // fires, nothing otherwise.
    std::optional<BSONObj> evaluate(const Predicate& pred = nullptr);
    bool shouldFail(const Predicate& pred = nullptr) { return evaluate(pred).has_value(); }
    // Runs f(data) if the fail point fires; returns whether it did.
    template <typename F>
    bool executeIf(F&& f, const Predicate& pred) {
        auto data = evaluate(pred);
        if (!data) return false;
        f(*data);
        return true;
    }
    template <typename F>
    bool execute(F&& f) {
        return executeIf(std::forward<F>(f), nullptr);
    }

    // Blocks while the fail point is on (the wait counts as one entry). checkForInterrupt, if
    // given, is called every few milliseconds and may throw to stop waiting, e.g.
    //   fp.pauseWhileSet([&] { opCtx->checkForInterrupt(); });
    // (A callback rather than an OperationContext: util/ must not depend on db/.)
    // With a predicate, pauses only when it matches the fail point's data.
    void pauseWhileSet(const std::function<void()>& checkForInterrupt = nullptr, const Predicate& pred = nullptr);
    // Blocks until timesEntered reaches `target` (the waitForFailPoint command).
    void waitForTimesEntered(long long target, const std::function<void()>& checkForInterrupt = nullptr);

    bool isActive() const { return _active.load(std::memory_order_relaxed); }
    long long timesEntered() const { return _timesEntered.load(); }
    // {mode: <int>, data: {...}, timesEntered: n}
    BSONObj toBSON() const;

private:
    const std::string _name;
    std::atomic<bool> _active{false};
    std::atomic<long long> _timesEntered{0};
    mutable std::mutex _mutex;  // guards the fields below
    Mode _mode = off;
    long long _val = 0;
    BSONObj _data;
};

// All fail points by name. Filled during static initialisation, read-only afterwards.
class FailPointRegistry {
public:
    void add(FailPoint* fp);  // a duplicate name aborts
    FailPoint* find(const std::string& name) const;
    const std::map<std::string, FailPoint*>& all() const { return _fps; }

private:
    std::map<std::string, FailPoint*> _fps;
};
FailPointRegistry& globalFailPointRegistry();

// Sets a fail point from a configureFailPoint-style object; returns timesEntered before.
// Throws FailPointSetFailed (266) "<name> not found" or the parse error.
long long setGlobalFailPoint(const std::string& name, const BSONObj& cmdObj);

}  // namespace mongo

#define MONGO_FAIL_POINT_DEFINE(fp) ::mongo::FailPoint fp(#fp)
