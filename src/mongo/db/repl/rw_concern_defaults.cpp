#include "mongo/db/repl/rw_concern_defaults.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/catalog/find_by_id.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/repl/coordinator.h"
#include "mongo/base/status.h"

namespace mongo {
namespace repl {
namespace {

const NamespaceString kSettings("config", "settings");
constexpr const char* kId = "ReadWriteConcernDefaults";

void checkReadConcern(const BSONElement& e) {
    uassert(ErrorCodes::TypeMismatch,
            "BSON field 'setDefaultRWConcern.defaultReadConcern' is the wrong type '" + typeName(e.type()) +
                "', expected type 'object'",
            e.type() == Object);
    for (BSONElement f : e.embeddedObject()) {
        const std::string name = f.fieldName();
        if (name == "level") {
            uassert(ErrorCodes::TypeMismatch, "readConcern.level must be a string", f.type() == String);
            const std::string level = f.str();
            uassert(ErrorCodes::FailedToParse,
                    "readConcern.level must be either 'local', 'majority', 'linearizable', 'available', or 'snapshot'",
                    level == "local" || level == "majority" || level == "linearizable" || level == "available" ||
                        level == "snapshot");
            uassert(ErrorCodes::BadValue, level + " read concern not permitted as the default read concern",
                    level == "local" || level == "majority" || level == "available");
        } else if (name == "afterClusterTime" || name == "afterOpTime" || name == "atClusterTime") {
            uasserted(ErrorCodes::BadValue, "'" + name + "' is not permitted in the default read concern");
        } else {
            uasserted(ErrorCodes::InvalidOptions, "Unrecognized option in readConcern: " + name);
        }
    }
}

void checkWriteConcern(const BSONElement& e, bool hadOne) {
    uassert(ErrorCodes::TypeMismatch,
            "BSON field 'setDefaultRWConcern.defaultWriteConcern' is the wrong type '" + typeName(e.type()) +
                "', expected type 'object'",
            e.type() == Object);
    const BSONObj wc = e.embeddedObject();
    uassert(ErrorCodes::IllegalOperation, "The global default write concern cannot be unset once it is set",
            !(wc.isEmpty() && hadOne));
    for (BSONElement f : wc) {
        const std::string name = f.fieldName();
        if (name == "w") {
            if (f.isNumber()) {
                uassert(ErrorCodes::FailedToParse, "w has to be a non-negative number and not greater than 50",
                        f.numberLong() >= 0 && f.numberLong() <= 50);
                uassert(ErrorCodes::BadValue, "Unacknowledged write concern is not allowed as the default write concern",
                        f.numberLong() > 0);
            } else {
                uassert(ErrorCodes::FailedToParse, "w has to be a number or a string", f.type() == String);
                uassert(ErrorCodes::UnknownReplWriteConcern,
                        "No write concern mode named '" + f.str() + "' found in replica set configuration",
                        f.str() == "majority");
            }
        } else if (name == "j" || name == "fsync") {
            uassert(ErrorCodes::TypeMismatch, "'" + name + "' must be a boolean or a number",
                    f.type() == Bool || f.isNumber());
        } else if (name == "wtimeout") {
            uassert(ErrorCodes::TypeMismatch, "'wtimeout' must be a number", f.isNumber());
        } else {
            uasserted(ErrorCodes::FailedToParse, "unrecognized write concern field: " + name);
        }
    }
}

}  // namespace

RWConcernDefaults& RWConcernDefaults::get() {
    static RWConcernDefaults d;
    return d;
}

RWConcernDefaults::Defaults RWConcernDefaults::load(OperationContext* opCtx) {
    Defaults d;
    d.localUpdateWallClockTime = Date_t::now();
    CollectionCatalog* catalog = CollectionCatalog::get();
    if (!catalog) return d;  // no storage (command unit tests): the implicit defaults
    CatalogReadLock lock;
    Collection* coll = catalog->lookupCollection(opCtx, kSettings);
    if (!coll) return d;
    BSONObjBuilder idb;
    idb.append("_id", kId);
    BSONObj id = idb.obj();
    std::optional<Record> r = findDocumentById(opCtx, coll, id.firstElement());
    opCtx->recoveryUnit()->abandonSnapshot();
    if (!r) return d;
    const BSONObj doc = r->doc.getOwned();
    if (doc["defaultReadConcern"].type() == Object) d.readConcern = doc["defaultReadConcern"].embeddedObject().getOwned();
    if (doc["defaultWriteConcern"].type() == Object)
        d.writeConcern = doc["defaultWriteConcern"].embeddedObject().getOwned();
    if (doc["updateOpTime"].type() == bsonTimestamp) d.updateOpTime = doc["updateOpTime"].timestamp();
    if (doc["updateWallClockTime"].type() == Date) d.updateWallClockTime = doc["updateWallClockTime"].date();
    return d;
}

RWConcernDefaults::Defaults RWConcernDefaults::current(OperationContext* opCtx) {
    {
        std::lock_guard<std::mutex> lk(_mutex);
        if (_cached && std::chrono::steady_clock::now() - _loadedAt < std::chrono::milliseconds(kRefreshMillis))
            return *_cached;
    }
    Defaults d = load(opCtx);
    std::lock_guard<std::mutex> lk(_mutex);
    _cached = d;
    _loadedAt = std::chrono::steady_clock::now();
    return d;
}

void RWConcernDefaults::set(OperationContext* opCtx, const BSONObj& cmd) {
    BSONElement rc = cmd["defaultReadConcern"];
    BSONElement wc = cmd["defaultWriteConcern"];
    uassert(ErrorCodes::BadValue,
            "At least one of the \"defaultReadConcern\" or \"defaultWriteConcern\" fields must be present",
            !rc.eoo() || !wc.eoo());
    const Defaults before = load(opCtx);
    if (!rc.eoo()) checkReadConcern(rc);
    if (!wc.eoo()) checkWriteConcern(wc, !before.writeConcern.isEmpty());

    BSONObjBuilder doc;
    doc.append("_id", kId);
    // A field given replaces the stored one ({} unsets the read concern); a field not given
    // keeps it.
    const BSONObj newRc = rc.eoo() ? before.readConcern : rc.embeddedObject();
    BSONObj newWc = wc.eoo() ? before.writeConcern : wc.embeddedObject();
    if (!newWc.isEmpty() && !newWc.hasField("wtimeout")) {  // stored with wtimeout 0, as MongoDB
        BSONObjBuilder b;
        b.appendElements(newWc);
        b.appendInt("wtimeout", 0);
        newWc = b.obj();
    }
    if (!newRc.isEmpty()) doc.append("defaultReadConcern", newRc);
    if (!newWc.isEmpty()) doc.append("defaultWriteConcern", newWc);
    doc.append("updateOpTime", ReplicationCoordinator::get()->lastApplied().getTimestamp());
    doc.append("updateWallClockTime", Date_t::now());
    BSONObjBuilder holder;
    holder.append("u", doc.obj());
    BSONObj u = holder.obj();
    BSONObjBuilder q;
    q.append("_id", kId);
    UpdateStatement stmt;
    stmt.q = q.obj();
    stmt.u = u["u"];
    stmt.upsert = true;
    performUpdate(opCtx, kSettings, stmt, false);
    std::lock_guard<std::mutex> lk(_mutex);
    _cached.reset();  // this member reads the new document at its next use
}

void RWConcernDefaults::appendReply(const Defaults& d, BSONObjBuilder* result) {
    if (!d.readConcern.isEmpty()) {
        result->append("defaultReadConcern", d.readConcern);
    } else {
        BSONObjBuilder rc;
        rc.append("level", "local");
        result->append("defaultReadConcern", rc.obj());
    }
    if (!d.writeConcern.isEmpty()) {
        result->append("defaultWriteConcern", d.writeConcern);
    } else {
        BSONObjBuilder wc;
        wc.append("w", "majority");
        wc.appendInt("wtimeout", 0);
        result->append("defaultWriteConcern", wc.obj());
    }
    if (d.updateOpTime) result->append("updateOpTime", *d.updateOpTime);
    if (d.updateWallClockTime) result->append("updateWallClockTime", *d.updateWallClockTime);
    result->append("defaultWriteConcernSource", d.writeConcern.isEmpty() ? "implicit" : "global");
    result->append("defaultReadConcernSource", d.readConcern.isEmpty() ? "implicit" : "global");
    result->append("localUpdateWallClockTime", d.localUpdateWallClockTime);
}

}  // namespace repl
}  // namespace mongo
