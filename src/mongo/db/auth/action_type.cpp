#include "mongo/db/auth/action_type.h"

#include <algorithm>
#include <unordered_map>

namespace mongo {

namespace {
const char* const kNames[] = {
#define MONGO_AUTH_NAME(a) #a,
    MONGO_AUTH_ACTION_TYPES(MONGO_AUTH_NAME)
#undef MONGO_AUTH_NAME
};
}  // namespace

const char* actionTypeName(ActionType a) { return kNames[static_cast<size_t>(a)]; }

std::optional<ActionType> parseActionType(std::string_view name) {
    static const std::unordered_map<std::string_view, ActionType> byName = [] {
        std::unordered_map<std::string_view, ActionType> m;
        for (size_t i = 0; i < static_cast<size_t>(ActionType::kCount); ++i) m[kNames[i]] = static_cast<ActionType>(i);
        return m;
    }();
    auto it = byName.find(name);
    if (it == byName.end()) return std::nullopt;
    return it->second;
}

std::vector<std::string> ActionSet::names() const {
    std::vector<std::string> out;
    for (size_t i = 0; i < static_cast<size_t>(ActionType::kCount); ++i)
        if (_bits.test(i)) out.push_back(kNames[i]);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace mongo
