#include "mongo/db/auth/privilege.h"

namespace mongo {

namespace {
bool isSystemCollection(const std::string& coll) { return coll.rfind("system.", 0) == 0; }
}  // namespace

ResourcePattern ResourcePattern::forNamespace(const std::string& ns) {
    auto dot = ns.find('.');
    if (dot == std::string::npos) return database(ns);
    return exact(ns.substr(0, dot), ns.substr(dot + 1));
}

bool ResourcePattern::covers(const ResourcePattern& r) const {
    if (_kind == Kind::kAnyResource) return true;
    switch (r._kind) {
        case Kind::kCluster: return _kind == Kind::kCluster;
        case Kind::kDatabase:
            return (_kind == Kind::kDatabase && _db == r._db) || _kind == Kind::kAnyNormal;
        case Kind::kExactNamespace:
            if (_kind == Kind::kExactNamespace) return _db == r._db && _coll == r._coll;
            if (_kind == Kind::kCollectionInAnyDb) return _coll == r._coll;
            if (isSystemCollection(r._coll)) return false;
            return (_kind == Kind::kDatabase && _db == r._db) || _kind == Kind::kAnyNormal;
        default: return *this == r;
    }
}

BSONObj ResourcePattern::toBSON() const {
    BSONObjBuilder b;
    switch (_kind) {
        case Kind::kCluster: b.append("cluster", true); break;
        case Kind::kAnyResource: b.append("anyResource", true); break;
        default:
            b.append("db", _db);
            b.append("collection", _coll);
    }
    return b.obj();
}

StatusWith<ResourcePattern> ResourcePattern::fromBSON(const BSONElement& e) {
    if (e.type() != Object) return Status(ErrorCodes::BadValue, "resource must be an object");
    BSONObj o = e.Obj();
    BSONElement cluster = o["cluster"], any = o["anyResource"], db = o["db"], coll = o["collection"];
    if (!cluster.eoo()) {
        if (o.nFields() != 1 || cluster.type() != Bool || !cluster.boolean())
            return Status(ErrorCodes::BadValue, "resource: {cluster: true} takes no other field");
        return ResourcePattern::cluster();
    }
    if (!any.eoo()) {
        if (o.nFields() != 1 || any.type() != Bool || !any.boolean())
            return Status(ErrorCodes::BadValue, "resource: {anyResource: true} takes no other field");
        return ResourcePattern::anyResource();
    }
    if (db.type() != String || coll.type() != String || o.nFields() != 2)
        return Status(ErrorCodes::BadValue,
                      "resource must be {db: <string>, collection: <string>}, {cluster: true} or {anyResource: true}");
    std::string d = db.str(), c = coll.str();
    if (d.empty() && c.empty()) return anyNormal();
    if (d.empty()) return collectionInAnyDb(c);
    if (c.empty()) return database(d);
    return exact(d, c);
}

std::string ResourcePattern::describe() const {
    switch (_kind) {
        case Kind::kCluster: return "cluster";
        case Kind::kAnyResource: return "any resource";
        case Kind::kAnyNormal: return "any normal resource";
        case Kind::kDatabase: return "database " + _db;
        case Kind::kCollectionInAnyDb: return "collection *." + _coll;
        case Kind::kExactNamespace: return "collection " + _db + "." + _coll;
    }
    return "";
}

BSONObj Privilege::toBSON() const {
    BSONObjBuilder b;
    b.append("resource", resource.toBSON());
    BSONArrayBuilder a;
    for (auto& n : actions.names()) a.append(n);
    b.append("actions", a.arr());
    return b.obj();
}

StatusWith<Privilege> Privilege::fromBSON(const BSONElement& e) {
    if (e.type() != Object) return Status(ErrorCodes::BadValue, "Each privilege must be an object");
    BSONObj o = e.Obj();
    for (BSONElement f : o)
        if (f.fieldNameStringData() != "resource" && f.fieldNameStringData() != "actions")
            return Status(ErrorCodes::BadValue,
                          "BSON field 'privileges." + std::string(f.fieldNameStringData()) + "' is an unknown field.");
    auto r = ResourcePattern::fromBSON(o["resource"]);
    if (!r.isOK()) return r.getStatus();
    BSONElement acts = o["actions"];
    if (acts.type() != Array) return Status(ErrorCodes::BadValue, "privilege actions must be an array of strings");
    Privilege p{r.getValue(), {}};
    for (BSONElement a : acts.Obj()) {
        if (a.type() != String) return Status(ErrorCodes::BadValue, "privilege actions must be strings");
        auto t = parseActionType(a.valueStringData());
        if (!t) return Status(ErrorCodes::BadValue, "Unrecognized action privilege string: " + a.str());
        p.actions.add(*t);
    }
    return p;
}

void addPrivilege(PrivilegeVector& v, const Privilege& p) {
    for (auto& have : v)
        if (have.resource == p.resource) {
            have.actions.add(p.actions);
            return;
        }
    v.push_back(p);
}

void addPrivileges(PrivilegeVector& v, const PrivilegeVector& more) {
    for (auto& p : more) addPrivilege(v, p);
}

void removePrivilege(PrivilegeVector& v, const Privilege& p) {
    for (size_t i = 0; i < v.size(); ++i)
        if (v[i].resource == p.resource) {
            v[i].actions.remove(p.actions);
            if (v[i].actions.empty()) v.erase(v.begin() + i);
            return;
        }
}

bool privilegesCover(const PrivilegeVector& granted, const PrivilegeVector& required) {
    for (const auto& req : required) {
        ActionSet have;
        for (const auto& g : granted)
            if (g.resource.covers(req.resource)) have.add(g.actions);
        if (!have.containsAll(req.actions)) return false;
    }
    return true;
}

BSONArray privilegesToBSON(const PrivilegeVector& v) {
    BSONArrayBuilder a;
    for (auto& p : v) a.append(p.toBSON());
    return a.arr();
}

}  // namespace mongo
