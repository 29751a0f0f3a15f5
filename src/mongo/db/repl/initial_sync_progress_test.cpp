// initialSyncStatus as MongoDB 7.0 shows it (initial_sync_progress.h).
#include "mongo/db/repl/initial_sync_progress.h"

#include <gtest/gtest.h>

namespace mongo {
namespace repl {
namespace {

BSONObj render(const InitialSyncProgress& p, long long nowMillis) {
    BSONObjBuilder b;
    p.append(&b, Date_t::fromMillis(nowMillis));
    return b.obj();
}

TEST(InitialSyncProgress, FieldsOfAnAttemptInProgress) {
    InitialSyncProgress p;
    p.beginAttempt(Date_t::fromMillis(1000));
    p.oplogStart = OpTime(Timestamp{50, 1}, 1);
    InitialSyncProgress::Database db;
    db.name = "app";
    db.start = Date_t::fromMillis(1100);
    InitialSyncProgress::Collection c;
    c.ns = "app.people";
    c.documentsToCopy = 100;
    c.documentsCopied = 40;
    c.bytesToCopy = 1000;
    c.approxBytesCopied = 400;
    c.indexes = 3;
    c.fetchedBatches = 2;
    c.start = Date_t::fromMillis(1100);
    db.collections.push_back(c);
    InitialSyncProgress::Collection v;
    v.ns = "app.system.views";
    db.collections.push_back(v);
    p.databases.push_back(db);
    p.databasesListed = true;

    BSONObj s = render(p, 3000);
    EXPECT_EQ(s["failedInitialSyncAttempts"].numberInt(), 0);
    EXPECT_EQ(s["maxFailedInitialSyncAttempts"].numberInt(), 10);
    EXPECT_EQ(s["initialSyncStart"].date().millis, 1000);
    EXPECT_EQ(s["totalInitialSyncElapsedMillis"].numberLong(), 2000);
    EXPECT_TRUE(s["initialSyncAttempts"].embeddedObject().isEmpty());
    EXPECT_EQ(s["approxTotalDataSize"].numberLong(), 1000);
    EXPECT_EQ(s["approxTotalBytesCopied"].numberLong(), 400);
    // 2000 ms for 400 bytes: 3000 ms for the 600 left.
    EXPECT_EQ(s["remainingInitialSyncEstimatedMillis"].numberLong(), 3000);
    EXPECT_EQ(s["appliedOps"].numberLong(), 0);
    EXPECT_EQ(s["initialSyncOplogStart"].timestamp().secs, 50u);
    EXPECT_TRUE(s["initialSyncOplogEnd"].eoo());
    BSONObj dbs = s["databases"].embeddedObject();
    EXPECT_EQ(dbs["databasesToClone"].numberLong(), 1);
    EXPECT_EQ(dbs["databasesCloned"].numberLong(), 0);
    BSONObj app = dbs["app"].embeddedObject();
    EXPECT_EQ(app["collections"].numberLong(), 2);
    EXPECT_EQ(app["clonedCollections"].numberLong(), 0);
    EXPECT_EQ(app["elapsedMillis"].numberLong(), 1900);
    BSONObj people = app["app.people"].embeddedObject();
    EXPECT_EQ(people["documentsToCopy"].numberLong(), 100);
    EXPECT_EQ(people["documentsCopied"].numberLong(), 40);
    EXPECT_EQ(people["indexes"].numberLong(), 3);
    EXPECT_EQ(people["fetchedBatches"].numberLong(), 2);
    EXPECT_EQ(people["receivedBatches"].numberLong(), 2);
    EXPECT_EQ(people["bytesToCopy"].numberLong(), 1000);
    EXPECT_TRUE(people["end"].eoo());
    // Not started yet: counts only.
    EXPECT_TRUE(app["app.system.views"].embeddedObject()["start"].eoo());
}

TEST(InitialSyncProgress, AttemptsAreRecordedAndANewAttemptStartsAfresh) {
    InitialSyncProgress p;
    p.beginAttempt(Date_t::fromMillis(1000));
    p.appliedOps = 7;
    p.endAttempt(Date_t::fromMillis(1500), Status(ErrorCodes::HostUnreachable, "gone"), "h:1", 3);
    p.beginAttempt(Date_t::fromMillis(2000));
    BSONObj s = render(p, 2500);
    EXPECT_EQ(s["failedInitialSyncAttempts"].numberInt(), 1);
    EXPECT_EQ(s["initialSyncStart"].date().millis, 1000);  // the first attempt's start
    EXPECT_EQ(s["appliedOps"].numberLong(), 0);
    EXPECT_TRUE(s["databases"].embeddedObject()["databasesToClone"].eoo());  // not listed yet
    BSONObj a = s["initialSyncAttempts"].embeddedObject().firstElement().embeddedObject();
    EXPECT_EQ(a["durationMillis"].numberLong(), 500);
    EXPECT_EQ(a["status"].str(), "HostUnreachable: gone");
    EXPECT_EQ(a["syncSource"].str(), "h:1");
    EXPECT_EQ(a["rollBackId"].numberInt(), 3);
    EXPECT_EQ(a["operationsRetried"].numberLong(), 0);
    EXPECT_EQ(a["totalTimeUnreachableMillis"].numberLong(), 0);
    p.endAttempt(Date_t::fromMillis(3000), Status::OK(), "h:2", 1);
    EXPECT_EQ(p.failedAttempts, 1);
    EXPECT_EQ(p.attempts.back().status, "OK");
}

}  // namespace
}  // namespace repl
}  // namespace mongo
