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

    // InvalidNamespace errors with MongoDB's messages.
    static Status validateDbName(std::string_view db);
    static Status validateCollectionName(std::string_view coll);

private:
    std::string _db, _coll;
};

}  // namespace mongo
