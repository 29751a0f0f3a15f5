#include "mongo/util/fail_point.h"

#include <chrono>
#include <limits>
#include <random>
#include <thread>

#include "mongo/util/log.h"

namespace mongo {

namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(5);

int32_t nextRandomPositiveInt32() {
    thread_local std::mt19937 gen{std::random_device{}()};
    return static_cast<int32_t>(gen() & 0x7fffffff);
}

// Integer field of a mode object: any number that is exactly an integer.
Status extractInteger(const BSONObj& o, const char* field, long long* out) {
    BSONElement e = o[field];
    if (!e.isNumber())
        return Status(ErrorCodes::TypeMismatch, std::string("'") + field + "' option to 'mode' must be a number");
    if (!e.isIntegral64(out))
        return Status(ErrorCodes::BadValue, std::string("'") + field + "' option to 'mode' must be an integer");
    return Status::OK();
}

}  // namespace

StatusWith<FailPoint::ModeOptions> FailPoint::parseBSON(const BSONObj& obj) {
    ModeOptions opts;
    BSONElement modeElem = obj["mode"];
    if (modeElem.eoo()) {
        return Status(ErrorCodes::IllegalOperation, "When setting a failpoint, you must supply a 'mode'");
    } else if (modeElem.type() == String) {
        std::string m = modeElem.str();
        if (m == "off") {
            opts.mode = off;
        } else if (m == "alwaysOn") {
            opts.mode = alwaysOn;
        } else {
            return Status(ErrorCodes::BadValue, "unknown mode: " + m);
        }
    } else if (modeElem.type() == Object) {
        BSONObj modeObj = modeElem.Obj();
        if (modeObj.hasField("times") || modeObj.hasField("skip")) {
            const char* field = modeObj.hasField("times") ? "times" : "skip";
            long long v;
            Status s = extractInteger(modeObj, field, &v);
            if (!s.isOK()) return s;
            if (v < 0) return Status(ErrorCodes::BadValue, std::string("'") + field + "' option to 'mode' must be positive");
            if (v > std::numeric_limits<int>::max())
                return Status(ErrorCodes::BadValue, std::string("'") + field + "' option to 'mode' is too large");
            opts.mode = modeObj.hasField("times") ? nTimes : skip;
            opts.val = v;
        } else if (modeObj.hasField("activationProbability")) {
            BSONElement p = modeObj["activationProbability"];
            if (!p.isNumber())
                return Status(ErrorCodes::TypeMismatch,
                              "the 'activationProbability' option to 'mode' must be a double between 0 and 1");
            double prob = p.numberDouble();
            if (!(prob >= 0 && prob <= 1))
                return Status(ErrorCodes::BadValue,
                              "activationProbability must be between 0.0 and 1.0; found " + std::to_string(prob));
            opts.mode = random;
            opts.val = static_cast<long long>(std::numeric_limits<int32_t>::max() * prob);
        } else {
            return Status(ErrorCodes::BadValue,
                          "'mode' must be one of 'off', 'alwaysOn', '{times:n}', '{skip:n}' or "
                          "'{activationProbability:p}'");
        }
    } else {
        return Status(ErrorCodes::TypeMismatch, "'mode' must be a string or JSON object");
    }

    BSONElement dataElem = obj["data"];
    if (!dataElem.eoo()) {
        if (!dataElem.isABSONObj()) return Status(ErrorCodes::TypeMismatch, "the 'data' option must be a JSON object");
        opts.data = dataElem.Obj().getOwned();
    }
    return opts;
}

FailPoint::FailPoint(std::string name) : _name(std::move(name)) { globalFailPointRegistry().add(this); }

long long FailPoint::setMode(Mode mode, long long val, BSONObj data) {
    std::lock_guard<std::mutex> lk(_mutex);
    _mode = mode;
    _val = val;
    _data = data.getOwned();
    // {times: 0} is "off" from the start, as MongoDB treats it.
    _active.store(mode != off && !(mode == nTimes && val <= 0));
    return _timesEntered.load();
}

std::optional<BSONObj> FailPoint::evaluate(const Predicate& pred) {
    if (!_active.load(std::memory_order_relaxed)) return std::nullopt;
    std::lock_guard<std::mutex> lk(_mutex);
    if (!_active.load()) return std::nullopt;
    if (pred && !pred(_data)) return std::nullopt;
    switch (_mode) {
        case off:
            return std::nullopt;
        case alwaysOn:
            break;
        case random:
            if (nextRandomPositiveInt32() >= _val) return std::nullopt;
            break;
        case nTimes:
            if (--_val <= 0) _active.store(false);
            break;
        case skip:
            if (_val > 0) {
                --_val;
                return std::nullopt;
            }
            break;
    }
    _timesEntered.fetch_add(1);
    return _data;
}

void FailPoint::pauseWhileSet(const std::function<void()>& checkForInterrupt, const Predicate& pred) {
    if (!shouldFail(pred)) return;
    while (isActive()) {
        if (checkForInterrupt) checkForInterrupt();
        std::this_thread::sleep_for(kPollInterval);
    }
}

void FailPoint::waitForTimesEntered(long long target, const std::function<void()>& checkForInterrupt) {
    while (_timesEntered.load() < target) {
        if (checkForInterrupt) checkForInterrupt();
        std::this_thread::sleep_for(kPollInterval);
    }
}

BSONObj FailPoint::toBSON() const {
    BSONObjBuilder b;
    std::lock_guard<std::mutex> lk(_mutex);
    b.appendInt("mode", static_cast<int>(_mode));
    b.append("data", _data);
    b.appendLong("timesEntered", _timesEntered.load());
    return b.obj();
}

void FailPointRegistry::add(FailPoint* fp) { invariant(_fps.emplace(fp->name(), fp).second); }

FailPoint* FailPointRegistry::find(const std::string& name) const {
    auto it = _fps.find(name);
    return it == _fps.end() ? nullptr : it->second;
}

FailPointRegistry& globalFailPointRegistry() {
    static FailPointRegistry* r = new FailPointRegistry();  // never destroyed: used at exit
    return *r;
}

long long setGlobalFailPoint(const std::string& name, const BSONObj& cmdObj) {
    FailPoint* fp = globalFailPointRegistry().find(name);
    if (!fp) uasserted(ErrorCodes::FailPointSetFailed, name + " not found");
    long long before = fp->setMode(uassertStatusOK(FailPoint::parseBSON(cmdObj)));
    LOGV2_WARNING(23829, Control, "Set failpoint", logv2::attrs("failPointName", name, "failPoint", fp->toBSON()));
    return before;
}

}  // namespace mongo
