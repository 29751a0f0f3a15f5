#pragma once
// "db.collection" names and MongoDB's rules for them.
#include <string>
#include <string_view>

#include "mongo/base/status.h"

namespace mongo {

class NamespaceString {
public:
    NamespaceString() = default;
    NamespaceString(std::string_view db, std::string_view coll) : _db(db), _coll(coll) {}
    // "db.coll" (the first dot separates).
    static NamespaceString parse(std::string_view full);

    const std::string& db() const { return _db; }
    const std::string& coll() const { return _coll; }
    std::string ns() const { return _coll.empty() ? _db : _db + "." + _coll; }
    std::string toString() const { return ns(); }
    bool isEmpty() const { return _db.empty(); }
    bool isSystem() const { return _coll.rfind("system.", 0) == 0; }
    bool isOplog() const { return _db == "local" && _coll == "oplog.rs"; }
    bool operator==(const NamespaceString& o) const { return _db == o._db && _coll == o._coll; }
    bool operator!=(const NamespaceString& o) const { return !(*this == o); }
    bool operator<(const NamespaceString& o) const { return ns() < o.ns(); }

    // MongoDB's limit on "db.coll" (7.0, featureCompatibilityVersion >= 4.4) and on db names.
    static constexpr size_t kMaxNsLength = 255;
    static constexpr size_t kMaxDbNameLength = 63;

    // The name rules, as InvalidNamespace (73) with MongoDB's messages. Every path that takes a
    // name from a client (the dispatcher's $db, commandTargetNamespace, rename, $out/$merge,
    // $lookup/$graphLookup/$unionWith, getMore/killCursors) and the catalog's create and rename
    // go through them, so no command can create, or even name, a collection these refuse.
    // Beyond MongoDB's rules, names must be well-formed UTF-8: MongoDB stores any bytes, and a
    // name drivers cannot decode makes listCollections/listDatabases fail for every client.
    //
    // validateDbName: not empty, at most 63 bytes, no NUL, none of / \ . space " $.
    static Status validateDbName(std::string_view db);
    // validateCollectionName: not empty, no NUL, not starting with '.', no '$' (except
    // "oplog.$main"), no trailing '.'.
    static Status validateCollectionName(std::string_view coll);
    // Both of the above, and "db.coll" at most kMaxNsLength bytes: the check for any namespace a
    // command reads, writes or creates.
    static Status validateNamespace(std::string_view db, std::string_view coll);
    // Whether a client may create db.coll (create, implicit creation by a write, createIndexes,
    // $out/$merge, a rename's target): validateNamespace, and system.* collections are the
    // server's, except system.js and system.profile in any database and admin's
    // system.users/roles/version/new_users/backup_users ("Invalid system namespace: ...").
    static Status validateUserCreatable(std::string_view db, std::string_view coll);
    // Whether a client may write to db.coll (insert, update, delete, findAndModify): as
    // validateUserCreatable, and never system.profile ("cannot write to 'db.system.profile'").
    static Status validateUserWritable(std::string_view db, std::string_view coll);
    // For the namespace a cursor belongs to (getMore, killCursors): as validateNamespace, but the
    // "$cmd.*" pseudo-collections of command cursors (listCollections, listIndexes,
    // aggregate: 1) are allowed.
    static Status validateCursorNamespace(std::string_view db, std::string_view coll);

private:
    std::string _db, _coll;
};

}  // namespace mongo
