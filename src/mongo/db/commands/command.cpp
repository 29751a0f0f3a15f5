#include "mongo/db/commands/command.h"

namespace mongo {

namespace {
std::map<std::string, Command*>& registry() {
    static std::map<std::string, Command*> r;
    return r;
}
}  // namespace

Command::Command(std::string name, std::vector<std::string> aliases) : _name(std::move(name)) {
    registry()[_name] = this;
    for (auto& a : aliases) registry()[a] = this;
}

const std::map<std::string, Command*>& allCommands() { return registry(); }

Command* findCommand(const std::string& name) {
    auto it = registry().find(name);
    return it == registry().end() ? nullptr : it->second;
}

}  // namespace mongo
