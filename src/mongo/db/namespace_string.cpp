#include "mongo/db/namespace_string.h"

namespace mongo {

NamespaceString NamespaceString::parse(std::string_view full) {
    auto dot = full.find('.');
    if (dot == std::string_view::npos) return NamespaceString(full, "");
    return NamespaceString(full.substr(0, dot), full.substr(dot + 1));
}

Status NamespaceString::validateDbName(std::string_view db) {
    if (db.empty()) return Status(ErrorCodes::InvalidNamespace, "database name cannot be empty");
    if (db.size() >= 64) return Status(ErrorCodes::InvalidNamespace, "db name is too long: " + std::string(db));
    for (char c : db) {
        if (c == '/' || c == '\\' || c == '.' || c == ' ' || c == '"' || c == '$' || c == '\0')
            return Status(ErrorCodes::InvalidNamespace,
                          "Invalid database name: '" + std::string(db) + "'");
    }
    return Status::OK();
}

Status NamespaceString::validateCollectionName(std::string_view coll) {
    if (coll.empty()) return Status(ErrorCodes::InvalidNamespace, "Invalid namespace specified: collection name is empty");
    if (coll.find('$') != std::string_view::npos && coll != "$cmd")
        return Status(ErrorCodes::InvalidNamespace, "Invalid collection name: " + std::string(coll));
    if (coll.find('\0') != std::string_view::npos || coll.front() == '.' || coll.back() == '.')
        return Status(ErrorCodes::InvalidNamespace, "Invalid collection name: " + std::string(coll));
    if (coll.size() > 235)
        return Status(ErrorCodes::InvalidNamespace, "Fully qualified namespace is too long");
    return Status::OK();
}

}  // namespace mongo
