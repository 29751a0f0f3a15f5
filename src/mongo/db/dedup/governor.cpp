#include "mongo/db/dedup/governor.h"

#include <algorithm>

namespace mongo {
namespace dedup {

DbGovernor::DbGovernor(const GovernorOptions& opts) : _o(opts) {
    if (_o.sampleSize == 0)
        _o.sampleSize = 1;
    if (_o.filterUpdateEvery == 0)
        _o.filterUpdateEvery = 1;
}

bool DbGovernor::passesSizeFilter(size_t size) const {
    return !_o.sizeFilterEnabled || size >= _threshold;
}

void DbGovernor::onInsert(size_t size) {
    ++_inserts;
    ++_windowInserts;
    _totalLogical += size;
    _windowLogical += size;
    uint32_t s = size > 0xffffffffu ? 0xffffffffu : uint32_t(size);
    // Reservoir sampling keeps a uniform sample of every size seen.
    if (_sample.size() < _o.sampleSize) {
        _sample.push_back(s);
    } else {
        _rng ^= _rng << 13;
        _rng ^= _rng >> 7;
        _rng ^= _rng << 17;
        uint64_t j = _rng % _inserts;
        if (j < _sample.size())
            _sample[j] = s;
    }
    if (_o.sizeFilterEnabled && _inserts % _o.filterUpdateEvery == 0) {
        std::vector<uint32_t> v = _sample;
        size_t k = std::min(v.size() - 1, size_t(double(v.size()) * _o.sizePercentile));
        std::nth_element(v.begin(), v.begin() + k, v.end());
        _threshold = v[k];
    }
}

void DbGovernor::onSavings(int64_t bytes) {
    _totalSaved += bytes;
    _windowSaved += bytes;
}

double DbGovernor::ratioOf(uint64_t logical, int64_t saved) {
    if (logical == 0)
        return 1.0;
    int64_t stored = int64_t(logical) - saved;
    if (stored <= 0)
        return double(logical);
    return double(logical) / double(stored);
}

double DbGovernor::windowRatio() const { return ratioOf(_windowLogical, _windowSaved); }
double DbGovernor::totalRatio() const { return ratioOf(_totalLogical, _totalSaved); }

bool DbGovernor::evaluate() {
    if (!_active || !_o.governorEnabled || _windowInserts < _o.window)
        return false;
    double r = windowRatio();
    _windowInserts = 0;
    _windowLogical = 0;
    _windowSaved = 0;
    if (r < _o.minRatio) {
        _active = false;
        return true;
    }
    return false;
}

}  // namespace dedup
}  // namespace mongo
