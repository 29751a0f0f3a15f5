#include "mongo/db/repl/initial_sync_progress.h"

namespace mongo {
namespace repl {
namespace {

long long millisBetween(Date_t a, Date_t b) { return b.millis - a.millis; }

void appendTimes(BSONObjBuilder* b, Date_t start, Date_t end, Date_t now) {
    if (start.millis == 0) return;
    b->append("start", start);
    if (end.millis != 0) {
        b->append("end", end);
        b->appendNumber("elapsedMillis", millisBetween(start, end));
    } else {
        b->appendNumber("elapsedMillis", millisBetween(start, now));
    }
}

}  // namespace

void InitialSyncProgress::beginAttempt(Date_t now) {
    if (initialSyncStart.millis == 0) initialSyncStart = now;
    attemptStart = now;
    appliedOps = 0;
    oplogStart = oplogEnd = OpTime();
    databasesListed = false;
    databases.clear();
}

void InitialSyncProgress::endAttempt(Date_t now, const Status& status, const std::string& syncSource, int rollBackId) {
    Attempt a;
    a.durationMillis = millisBetween(attemptStart, now);
    a.status = status.isOK() ? "OK" : status.toString();
    a.syncSource = syncSource;
    a.rollBackId = rollBackId;
    attempts.push_back(a);
    if (!status.isOK()) ++failedAttempts;
}

long long InitialSyncProgress::databasesCloned() const {
    long long n = 0;
    for (const Database& d : databases)
        if (d.end.millis != 0) ++n;
    return n;
}

long long InitialSyncProgress::approxTotalDataSize() const {
    long long n = 0;
    for (const Database& d : databases)
        for (const Collection& c : d.collections) n += c.bytesToCopy;
    return n;
}

long long InitialSyncProgress::approxTotalBytesCopied() const {
    long long n = 0;
    for (const Database& d : databases)
        for (const Collection& c : d.collections) n += c.approxBytesCopied;
    return n;
}

void InitialSyncProgress::append(BSONObjBuilder* b, Date_t now) const {
    b->append("failedInitialSyncAttempts", failedAttempts);
    b->append("maxFailedInitialSyncAttempts", kMaxFailedAttempts);
    if (initialSyncStart.millis != 0) {
        b->append("initialSyncStart", initialSyncStart);
        b->appendNumber("totalInitialSyncElapsedMillis", millisBetween(initialSyncStart, now));
    }
    BSONArrayBuilder arr;
    for (const Attempt& a : attempts) {
        BSONObjBuilder& o = arr.subobjStart();
        o.appendNumber("durationMillis", a.durationMillis);
        o.append("status", a.status);
        o.append("syncSource", a.syncSource);
        o.append("rollBackId", a.rollBackId);
        o.appendNumber("operationsRetried", 0);
        o.appendNumber("totalTimeUnreachableMillis", 0);
        o.doneFast();
    }
    b->appendArray("initialSyncAttempts", arr.arr());
    const long long total = approxTotalDataSize(), copied = approxTotalBytesCopied();
    b->appendNumber("approxTotalDataSize", total);
    b->appendNumber("approxTotalBytesCopied", copied);
    // As MongoDB: the time so far scaled by what is left, once something was copied.
    if (copied > 0 && attemptStart.millis != 0) {
        const double elapsed = double(millisBetween(attemptStart, now));
        b->appendNumber("remainingInitialSyncEstimatedMillis",
                  static_cast<long long>(elapsed * double(total > copied ? total - copied : 0) / double(copied)));
    }
    b->appendNumber("appliedOps", appliedOps);
    if (!oplogStart.isNull()) b->append("initialSyncOplogStart", oplogStart.getTimestamp());
    if (!oplogEnd.isNull()) b->append("initialSyncOplogEnd", oplogEnd.getTimestamp());
    b->appendNumber("totalTimeUnreachableMillis", 0);
    BSONObjBuilder& dbs = b->subobjStart("databases");
    if (databasesListed) dbs.appendNumber("databasesToClone", static_cast<long long>(databases.size()));
    dbs.appendNumber("databasesCloned", databasesCloned());
    for (const Database& d : databases) {
        BSONObjBuilder& db = dbs.subobjStart(d.name);
        db.appendNumber("collections", static_cast<long long>(d.collections.size()));
        db.appendNumber("clonedCollections", d.clonedCollections);
        appendTimes(&db, d.start, d.end, now);
        for (const Collection& c : d.collections) {
            BSONObjBuilder& cb = db.subobjStart(c.ns);
            cb.appendNumber("documentsToCopy", c.documentsToCopy);
            cb.appendNumber("documentsCopied", c.documentsCopied);
            cb.appendNumber("indexes", c.indexes);
            cb.appendNumber("fetchedBatches", c.fetchedBatches);
            cb.appendNumber("bytesToCopy", c.bytesToCopy);
            cb.appendNumber("approxBytesCopied", c.approxBytesCopied);
            appendTimes(&cb, c.start, c.end, now);
            cb.appendNumber("receivedBatches", c.fetchedBatches);
            cb.doneFast();
        }
        db.doneFast();
    }
    dbs.doneFast();
}

}  // namespace repl
}  // namespace mongo
