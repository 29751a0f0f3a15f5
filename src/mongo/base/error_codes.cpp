#include "mongo/base/error_codes.h"

#include <unordered_map>

namespace mongo {

std::string errorCodeName(int code) {
    static const std::unordered_map<int, std::string> names = [] {
        std::unordered_map<int, std::string> m;
#define MONGO_EC_NAME(name, num) m.emplace(num, #name);
        MONGO_ERROR_CODES(MONGO_EC_NAME)
#undef MONGO_EC_NAME
        // Raised by number only (uasserted(int)), named here so that replies carry MongoDB's
        // codeName (Stable API errors, db/commands/api_parameters.cpp).
        m.emplace(322, "APIVersionError");
        m.emplace(363, "APIDeprecationError");
        return m;
    }();
    auto it = names.find(code);
    if (it == names.end() || it->second.rfind("Location", 0) == 0)
        return "Location" + std::to_string(code);
    return it->second;
}

}  // namespace mongo
