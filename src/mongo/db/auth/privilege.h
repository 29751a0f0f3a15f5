#pragma once
// Resources and privileges as MongoDB defines them (manual, "Resource Document"):
//   {db: "d", collection: "c"}  one namespace        {db: "d", collection: ""}  database d
//   {db: "", collection: "c"}   c in every database  {db: "", collection: ""}   every database
//   {cluster: true}             the cluster          {anyResource: true}        everything
// A database pattern covers the database itself and its non-system collections; system
// collections (system.*) are covered only by patterns naming them (or anyResource), as in
// MongoDB. A command asks for actions on a database, a namespace or the cluster.
// Pure values: thread safe.
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/action_type.h"

namespace mongo {

class ResourcePattern {
public:
    enum class Kind { kCluster, kAnyResource, kAnyNormal, kDatabase, kCollectionInAnyDb, kExactNamespace };

    static ResourcePattern cluster() { return {Kind::kCluster, "", ""}; }
    static ResourcePattern anyResource() { return {Kind::kAnyResource, "", ""}; }
    static ResourcePattern anyNormal() { return {Kind::kAnyNormal, "", ""}; }
    static ResourcePattern database(std::string db) { return {Kind::kDatabase, std::move(db), ""}; }
    static ResourcePattern collectionInAnyDb(std::string coll) { return {Kind::kCollectionInAnyDb, "", std::move(coll)}; }
    static ResourcePattern exact(std::string db, std::string coll) {
        return {Kind::kExactNamespace, std::move(db), std::move(coll)};
    }
    // "db.coll" (the first '.' separates); a name without '.' is a database.
    static ResourcePattern forNamespace(const std::string& ns);

    Kind kind() const { return _kind; }
    const std::string& db() const { return _db; }
    const std::string& coll() const { return _coll; }
    // Whether a privilege granted on *this covers a request on `requested` (a cluster,
    // database or exact-namespace pattern).
    bool covers(const ResourcePattern& requested) const;
    bool operator==(const ResourcePattern& o) const { return _kind == o._kind && _db == o._db && _coll == o._coll; }

    BSONObj toBSON() const;
    // From a privilege document's resource; BadValue / FailedToParse for a malformed one.
    static StatusWith<ResourcePattern> fromBSON(const BSONElement& e);
    // For messages: "database test", "collection test.c", "cluster".
    std::string describe() const;

private:
    ResourcePattern(Kind k, std::string db, std::string coll) : _kind(k), _db(std::move(db)), _coll(std::move(coll)) {}
    Kind _kind;
    std::string _db, _coll;
};

struct Privilege {
    ResourcePattern resource;
    ActionSet actions;

    BSONObj toBSON() const;  // {resource: {...}, actions: [...]}
    // {resource, actions}; unknown action names are BadValue ("Unrecognized action privilege string: x").
    static StatusWith<Privilege> fromBSON(const BSONElement& e);
};

using PrivilegeVector = std::vector<Privilege>;

// Adds p to v, merging actions into an entry on the same resource.
void addPrivilege(PrivilegeVector& v, const Privilege& p);
void addPrivileges(PrivilegeVector& v, const PrivilegeVector& more);
// Removes p's actions from v's entry on the same resource (dropping it if none remain).
void removePrivilege(PrivilegeVector& v, const Privilege& p);
// Whether granted covers every action of every required privilege.
bool privilegesCover(const PrivilegeVector& granted, const PrivilegeVector& required);
BSONArray privilegesToBSON(const PrivilegeVector& v);

}  // namespace mongo
