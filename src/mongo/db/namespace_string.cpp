#include "mongo/db/namespace_string.h"

namespace mongo {

namespace {
Status invalid(std::string msg) { return Status(ErrorCodes::InvalidNamespace, std::move(msg)); }

// Shared by db and collection names: checked first, so later messages quote printable names.
Status checkEncoding(std::string_view name, const char* what) {
    if (name.find('\0') != std::string_view::npos) return invalid("namespaces cannot have embedded null characters");
    if (!isValidUtf8(name))
        // The reason is made valid UTF-8 by Status (invalid bytes become U+FFFD).
        return invalid(std::string("Invalid ") + what + " name: '" + std::string(name) + "' is not valid UTF-8");
    return Status::OK();
}
}  // namespace

NamespaceString NamespaceString::parse(std::string_view full) {
    auto dot = full.find('.');
    if (dot == std::string_view::npos) return NamespaceString(full, "");
    return NamespaceString(full.substr(0, dot), full.substr(dot + 1));
}

Status NamespaceString::validateDbName(std::string_view db) {
    if (db.empty()) return invalid("database name cannot be empty");
    if (Status s = checkEncoding(db, "database"); !s.isOK()) return s;
    if (db.size() > kMaxDbNameLength)
        return invalid("db name must be at most " + std::to_string(kMaxDbNameLength) +
                       " characters, found: " + std::to_string(db.size()));
    if (db.find('.') != std::string_view::npos)
        return invalid("'.' is an invalid character in a db name: " + std::string(db));
    for (char c : db) {
        if (c == '/' || c == '\\' || c == ' ' || c == '"' || c == '$')
            return invalid("Invalid database name: '" + std::string(db) + "'");
    }
    return Status::OK();
}

Status NamespaceString::validateCollectionName(std::string_view coll) {
    if (coll.empty()) return invalid("Invalid namespace specified: collection name is empty");
    if (Status s = checkEncoding(coll, "collection"); !s.isOK()) return s;
    bool dollarAllowed = coll == "oplog.$main";
    if ((coll.find('$') != std::string_view::npos && !dollarAllowed) || coll.front() == '.' || coll.back() == '.')
        return invalid("Invalid collection name: " + std::string(coll));
    return Status::OK();
}

Status NamespaceString::validateNamespace(std::string_view db, std::string_view coll) {
    if (Status s = validateDbName(db); !s.isOK()) return s;
    if (coll.empty()) return invalid("Invalid namespace specified '" + std::string(db) + ".'");
    if (Status s = validateCollectionName(coll); !s.isOK()) return s;
    if (db.size() + 1 + coll.size() > kMaxNsLength)
        return invalid("Fully qualified namespace is too long. Namespace: " + std::string(db) + "." +
                       std::string(coll) + " Max: " + std::to_string(kMaxNsLength));
    return Status::OK();
}

Status NamespaceString::validateUserCreatable(std::string_view db, std::string_view coll) {
    if (Status s = validateNamespace(db, coll); !s.isOK()) return s;
    if (coll.rfind("system.", 0) != 0) return Status::OK();
    // system.views holds view definitions (db/views/view_catalog.h); MongoDB lets clients
    // create and write it like system.js.
    if (coll == "system.js" || coll == "system.profile" || coll == "system.views") return Status::OK();
    if (db == "local" && coll == "system.replset") return Status::OK();  // the replica set's config
    if (db == "config" && coll == "system.sessions") return Status::OK();  // the session records
    if (db == "admin" && (coll == "system.users" || coll == "system.roles" || coll == "system.version" ||
                          coll == "system.new_users" || coll == "system.backup_users"))
        return Status::OK();
    return invalid("Invalid system namespace: " + std::string(db) + "." + std::string(coll));
}

Status NamespaceString::validateUserWritable(std::string_view db, std::string_view coll) {
    if (Status s = validateNamespace(db, coll); !s.isOK()) return s;
    if (coll == "system.profile") return invalid("cannot write to '" + std::string(db) + "." + std::string(coll) + "'");
    return validateUserCreatable(db, coll);
}

Status NamespaceString::validateCursorNamespace(std::string_view db, std::string_view coll) {
    if (coll.rfind("$cmd.", 0) == 0) {
        if (Status s = validateDbName(db); !s.isOK()) return s;
        return checkEncoding(coll, "collection");
    }
    return validateNamespace(db, coll);
}

}  // namespace mongo
