#include "mongo/db/auth/auth_store.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "mongo/db/auth/builtin_roles.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/ops/write_ops.h"

namespace mongo::auth {

namespace {

std::atomic<uint64_t> gGeneration{1};

const NamespaceString kUsers("admin", "system.users");
const NamespaceString kRoles("admin", "system.roles");

// Every document of nss (at most limit, 0: all), in record order.
std::vector<BSONObj> scan(OperationContext* opCtx, const NamespaceString& nss, size_t limit = 0) {
    std::vector<BSONObj> out;
    CatalogReadLock lk;
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, nss);
    if (!c) return out;
    auto cursor = c->getCursor(opCtx, true);
    while (auto r = cursor->next()) {
        out.push_back(r->doc.getOwned());
        if (limit && out.size() >= limit) break;
    }
    return out;
}

// The document of nss whose _id is "<db>.<name>": one lookup in the _id index (saslStart and
// hello ask for a user on every authentication).
std::optional<BSONObj> findById(OperationContext* opCtx, const NamespaceString& nss, const std::string& id) {
    CatalogReadLock lk;
    Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, nss);
    if (!c) return std::nullopt;
    BSONObjBuilder key;
    key.append("_id", id);
    BSONObj k = key.obj();
    auto r = findDocumentById(opCtx, c, k.firstElement());
    if (!r) return std::nullopt;
    return r->doc;
}

std::string docId(const std::string& db, const std::string& name) { return db + "." + name; }

void insertDoc(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& doc) {
    std::vector<WriteError> errors;
    insertDocuments(opCtx, nss, {doc}, true, &errors);
    bumpAuthGeneration();
    if (!errors.empty()) throw DBException(errors.front().status);
}

bool replaceDoc(OperationContext* opCtx, const NamespaceString& nss, const std::string& id, const BSONObj& doc) {
    BSONObjBuilder q;
    q.append("_id", id);
    BSONObj qo = q.obj();
    BSONObjBuilder holder;
    holder.append("u", doc);
    BSONObj h = holder.obj();
    UpdateStatement s;
    s.q = qo;
    s.u = h["u"];
    UpdateResult r = performUpdate(opCtx, nss, s, false);
    bumpAuthGeneration();
    return r.nMatched > 0;
}

long long removeDocs(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& q) {
    long long n = performDelete(opCtx, nss, q, false, BSONObj(), BSONObj(), nullptr);
    bumpAuthGeneration();
    return n;
}

BSONObj dbAndName(const char* nameField, const std::string& db, const std::optional<std::string>& name) {
    BSONObjBuilder b;
    b.append("db", db);
    if (name) b.append(nameField, *name);
    return b.obj();
}

}  // namespace

BSONObj RoleName::toBSON() const {
    BSONObjBuilder b;
    b.append("role", role);
    b.append("db", db);
    return b.obj();
}

BSONArray roleNamesToBSON(const std::vector<RoleName>& v) {
    BSONArrayBuilder a;
    for (auto& r : v) a.append(r.toBSON());
    return a.arr();
}

RoleName parseRoleName(const BSONElement& e, const std::string& defaultDb) {
    if (e.type() == String) return {e.str(), defaultDb};
    uassert(ErrorCodes::BadValue, "Role names must be either strings or objects", e.type() == Object);
    BSONObj o = e.Obj();
    BSONElement r = o["role"], d = o["db"];
    uassert(ErrorCodes::BadValue, "Role name objects must have a 'role' string field", r.type() == String);
    uassert(ErrorCodes::BadValue, "Role name objects must have a 'db' string field", d.type() == String);
    uassert(ErrorCodes::BadValue, "Role name objects must contain only 'role' and 'db'", o.nFields() == 2);
    uassert(ErrorCodes::BadValue, "Role names must not be empty", !r.valueStringData().empty());
    return {r.str(), d.str()};
}

std::vector<RoleName> parseRoleNames(const BSONElement& arr, const std::string& defaultDb, const char* field) {
    uassert(ErrorCodes::TypeMismatch,
            std::string("BSON field '") + field + "' is the wrong type '" + typeName(arr.type()) +
                "', expected type 'array'",
            arr.type() == Array);
    std::vector<RoleName> out;
    for (BSONElement e : arr.Obj()) out.push_back(parseRoleName(e, defaultDb));
    return out;
}

uint64_t authGeneration() { return gGeneration.load(); }
void bumpAuthGeneration() { gGeneration.fetch_add(1); }

std::optional<BSONObj> findUserDocument(OperationContext* opCtx, const std::string& user, const std::string& db) {
    return findById(opCtx, kUsers, docId(db, user));
}

void noteWriteToAuthCollection(OperationContext* opCtx, const NamespaceString& nss) {
    if (nss.db() == "admin" && (nss.coll() == "system.users" || nss.coll() == "system.roles"))
        opCtx->recoveryUnit()->onCommit([] { bumpAuthGeneration(); });
}

std::vector<BSONObj> listUserDocuments(OperationContext* opCtx, const std::optional<std::string>& db) {
    std::vector<BSONObj> out;
    for (auto& d : scan(opCtx, kUsers))
        if (!db || (d["db"].type() == String && d["db"].valueStringData() == *db)) out.push_back(d);
    std::sort(out.begin(), out.end(), [](const BSONObj& a, const BSONObj& b) { return a["_id"].str() < b["_id"].str(); });
    return out;
}

bool anyUserExists(OperationContext* opCtx) { return !scan(opCtx, kUsers, 1).empty(); }

void insertUserDocument(OperationContext* opCtx, const BSONObj& doc) {
    std::string user = doc["user"].str(), db = doc["db"].str();
    uassert(51003, "User \"" + user + "@" + db + "\" already exists", !findUserDocument(opCtx, user, db));
    insertDoc(opCtx, kUsers, doc);
}

bool replaceUserDocument(OperationContext* opCtx, const std::string& user, const std::string& db, const BSONObj& doc) {
    return replaceDoc(opCtx, kUsers, docId(db, user), doc);
}

long long removeUserDocuments(OperationContext* opCtx, const std::string& db, const std::optional<std::string>& user) {
    return removeDocs(opCtx, kUsers, dbAndName("user", db, user));
}

std::optional<BSONObj> findRoleDocument(OperationContext* opCtx, const RoleName& r) {
    return findById(opCtx, kRoles, docId(r.db, r.role));
}

std::vector<BSONObj> listRoleDocuments(OperationContext* opCtx, const std::optional<std::string>& db) {
    std::vector<BSONObj> out;
    for (auto& d : scan(opCtx, kRoles))
        if (!db || (d["db"].type() == String && d["db"].valueStringData() == *db)) out.push_back(d);
    std::sort(out.begin(), out.end(), [](const BSONObj& a, const BSONObj& b) { return a["_id"].str() < b["_id"].str(); });
    return out;
}

void insertRoleDocument(OperationContext* opCtx, const BSONObj& doc) {
    RoleName r{doc["role"].str(), doc["db"].str()};
    uassert(51002, "Role \"" + r.fullName() + "\" already exists", !findRoleDocument(opCtx, r));
    insertDoc(opCtx, kRoles, doc);
}

bool replaceRoleDocument(OperationContext* opCtx, const RoleName& r, const BSONObj& doc) {
    return replaceDoc(opCtx, kRoles, docId(r.db, r.role), doc);
}

long long removeRoleDocuments(OperationContext* opCtx, const std::string& db, const std::optional<std::string>& role) {
    return removeDocs(opCtx, kRoles, dbAndName("role", db, role));
}

std::vector<RoleName> rolesOfDocument(const BSONObj& doc) {
    std::vector<RoleName> out;
    BSONElement roles = doc["roles"];
    if (roles.type() != Array) return out;
    for (BSONElement e : roles.Obj()) {
        if (e.type() != Object) continue;
        BSONElement r = e.Obj()["role"], d = e.Obj()["db"];
        if (r.type() == String && d.type() == String) out.push_back({r.str(), d.str()});
    }
    return out;
}

namespace {
BSONObj withRoles(const BSONObj& doc, const std::vector<RoleName>& roles) {
    BSONObjBuilder b;
    for (BSONElement e : doc)
        if (e.fieldNameStringData() == "roles") b.append("roles", roleNamesToBSON(roles));
        else b.append(e);
    return b.obj();
}
}  // namespace

void removeRoleReferences(OperationContext* opCtx, const RoleName& r) {
    for (auto& d : listUserDocuments(opCtx, std::nullopt)) {
        auto roles = rolesOfDocument(d);
        auto it = std::remove(roles.begin(), roles.end(), r);
        if (it == roles.end()) continue;
        roles.erase(it, roles.end());
        replaceDoc(opCtx, kUsers, d["_id"].str(), withRoles(d, roles));
    }
    for (auto& d : listRoleDocuments(opCtx, std::nullopt)) {
        auto roles = rolesOfDocument(d);
        auto it = std::remove(roles.begin(), roles.end(), r);
        if (it == roles.end()) continue;
        roles.erase(it, roles.end());
        replaceDoc(opCtx, kRoles, d["_id"].str(), withRoles(d, roles));
    }
}

std::optional<RoleDefinition> roleDefinition(OperationContext* opCtx, const RoleName& r) {
    if (auto p = builtinRolePrivileges(r.role, r.db)) return RoleDefinition{*p, {}, true};
    auto doc = findRoleDocument(opCtx, r);
    if (!doc) return std::nullopt;
    RoleDefinition def;
    if (doc->hasField("privileges") && (*doc)["privileges"].type() == Array)
        for (BSONElement p : (*doc)["privileges"].Obj()) {
            auto priv = Privilege::fromBSON(p);
            if (priv.isOK()) addPrivilege(def.privileges, priv.getValue());
        }
    def.roles = rolesOfDocument(*doc);
    return def;
}

bool roleExists(OperationContext* opCtx, const RoleName& r) {
    return isBuiltinRole(r.role, r.db) || findRoleDocument(opCtx, r).has_value();
}

void uassertRolesExist(OperationContext* opCtx, const std::vector<RoleName>& roles) {
    for (auto& r : roles)
        uassert(ErrorCodes::RoleNotFound, "Could not find role: " + r.fullName(), roleExists(opCtx, r));
}

ResolvedRoles resolveRoles(OperationContext* opCtx, const std::vector<RoleName>& direct) {
    // Stored roles are read once per resolution (the collection is small).
    std::map<RoleName, BSONObj> stored;
    bool loaded = false;
    ResolvedRoles out;
    std::set<RoleName> seen;
    std::deque<RoleName> todo(direct.begin(), direct.end());
    while (!todo.empty()) {
        RoleName r = todo.front();
        todo.pop_front();
        if (!seen.insert(r).second) continue;
        if (auto p = builtinRolePrivileges(r.role, r.db)) {
            addPrivileges(out.privileges, *p);
            out.roles.push_back(r);
            continue;
        }
        if (!loaded) {
            for (auto& d : listRoleDocuments(opCtx, std::nullopt)) stored[{d["role"].str(), d["db"].str()}] = d;
            loaded = true;
        }
        auto it = stored.find(r);
        if (it == stored.end()) continue;
        out.roles.push_back(r);
        BSONElement privs = it->second["privileges"];
        if (privs.type() == Array)
            for (BSONElement p : privs.Obj()) {
                auto priv = Privilege::fromBSON(p);
                if (priv.isOK()) addPrivilege(out.privileges, priv.getValue());
            }
        if (BSONElement ar = it->second["authenticationRestrictions"]; ar.type() == Array && !ar.Obj().isEmpty())
            out.restrictions.push_back(ar.Obj().getOwned());
        for (auto& sub : rolesOfDocument(it->second)) todo.push_back(sub);
    }
    std::sort(out.roles.begin(), out.roles.end());
    return out;
}

}  // namespace mongo::auth
