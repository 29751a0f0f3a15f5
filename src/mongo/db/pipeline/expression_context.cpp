#include "mongo/db/pipeline/expression_context.h"

namespace mongo {

namespace {
bool isLower(char c) { return c >= 'a' && c <= 'z'; }
bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isNonAscii(char c) { return (static_cast<unsigned char>(c) & 0x80) != 0; }
bool isNameChar(char c) { return isLower(c) || isUpper(c) || isDigit(c) || c == '_' || isNonAscii(c); }
}  // namespace

Value Variables::get(Id id, const Document& root) const {
    switch (id) {
        case kRootId: return Value(root);
        case kRemoveId: return Value();
        case kNowId: return Value(now);
        // A standalone server has no cluster time (MongoDB 7.0 answers the same).
        case kClusterTimeId: uasserted(51144, "Builtin variable '$$CLUSTER_TIME' is not available");
        case kUserRolesId: return Value(std::vector<Value>());
        default:
            if (id >= 0 && static_cast<size_t>(id) < _values.size()) return _values[id];
            return Value();
    }
}

void Variables::set(Id id, Value v) {
    if (id < 0) return;
    if (static_cast<size_t>(id) >= _values.size()) _values.resize(id + 1);
    _values[id] = std::move(v);
}

void Variables::validateNameForUserWrite(std::string_view name) {
    if (name == "CURRENT") return;  // the one builtin users may rebind
    uassert(16866, "empty variable names are not allowed", !name.empty());
    uassert(16867, "'" + std::string(name) + "' starts with an invalid character for a user variable name",
            isLower(name[0]) || isNonAscii(name[0]));
    for (size_t i = 1; i < name.size(); i++)
        uassert(16868,
                "'" + std::string(name) + "' contains an invalid character for a variable name: '" +
                    std::string(1, name[i]) + "'",
                isNameChar(name[i]));
}

void Variables::validateNameForUserRead(std::string_view name) {
    uassert(16869, "empty variable names are not allowed", !name.empty());
    uassert(16870, "'" + std::string(name) + "' starts with an invalid character for a variable name",
            isLower(name[0]) || isUpper(name[0]) || isNonAscii(name[0]));
    for (size_t i = 1; i < name.size(); i++)
        uassert(16871,
                "'" + std::string(name) + "' contains an invalid character for a variable name: '" +
                    std::string(1, name[i]) + "'",
                isNameChar(name[i]));
}

Variables::Id VariablesParseState::defineVariable(std::string_view name) {
    uassert(17275, "Can't redefine a non-user-writable variable",
            name != "ROOT" && name != "REMOVE" && name != "NOW" && name != "CLUSTER_TIME" &&
                name != "USER_ROLES");
    Variables::Id id = _expCtx->nextVariableId++;
    _vars[std::string(name)] = id;
    return id;
}

Variables::Id VariablesParseState::getVariable(std::string_view name) const {
    auto it = _vars.find(name);
    if (it != _vars.end()) return it->second;
    if (name == "ROOT" || name == "CURRENT") return Variables::kRootId;
    if (name == "REMOVE") return Variables::kRemoveId;
    if (name == "NOW") return Variables::kNowId;
    if (name == "CLUSTER_TIME") return Variables::kClusterTimeId;
    if (name == "USER_ROLES") return Variables::kUserRolesId;
    uasserted(17276, "Use of undefined variable: " + std::string(name));
}

}  // namespace mongo
