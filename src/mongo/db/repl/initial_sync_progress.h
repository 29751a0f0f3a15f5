#pragma once
// InitialSyncProgress: what replSetGetStatus shows as initialSyncStatus while a member is in
// initial sync (MongoDB 7.0's fields):
//   {failedInitialSyncAttempts, maxFailedInitialSyncAttempts, initialSyncStart,
//    totalInitialSyncElapsedMillis, initialSyncAttempts: [{durationMillis, status, syncSource,
//    rollBackId, operationsRetried, totalTimeUnreachableMillis}], approxTotalDataSize,
//    approxTotalBytesCopied, remainingInitialSyncEstimatedMillis, appliedOps,
//    initialSyncOplogStart, initialSyncOplogEnd (once the clone ended),
//    totalTimeUnreachableMillis, databases: {databasesToClone, databasesCloned,
//    <db>: {collections, clonedCollections, start, end, elapsedMillis,
//           <ns>: {documentsToCopy, documentsCopied, indexes, fetchedBatches, bytesToCopy,
//                  approxBytesCopied, start, end, elapsedMillis, receivedBatches}}}}
// A plain value: the initial syncer keeps one under its mutex and renders it on request.
#include <string>
#include <vector>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/repl/optime.h"

namespace mongo {
namespace repl {

struct InitialSyncProgress {
    struct Collection {
        std::string ns;
        long long documentsToCopy = 0, documentsCopied = 0;
        long long indexes = 0, fetchedBatches = 0;
        long long bytesToCopy = 0, approxBytesCopied = 0;
        Date_t start, end;  // end: null while copying
    };
    struct Database {
        std::string name;
        std::vector<Collection> collections;  // all of them, once listed
        long long clonedCollections = 0;
        Date_t start, end;
    };
    struct Attempt {
        long long durationMillis = 0;
        std::string status;  // "OK" or the failure
        std::string syncSource;
        int rollBackId = -1;
    };

    static constexpr int kMaxFailedAttempts = 10;  // MongoDB's numInitialSyncAttempts

    int failedAttempts = 0;
    Date_t initialSyncStart;
    std::vector<Attempt> attempts;
    // The current attempt (reset by beginAttempt).
    Date_t attemptStart;
    long long appliedOps = 0;
    OpTime oplogStart, oplogEnd;  // null until known
    bool databasesListed = false;
    std::vector<Database> databases;

    void beginAttempt(Date_t now);
    // The attempt that began last ended (OK or not).
    void endAttempt(Date_t now, const Status& status, const std::string& syncSource, int rollBackId);
    long long databasesCloned() const;
    long long approxTotalDataSize() const;
    long long approxTotalBytesCopied() const;

    void append(BSONObjBuilder* b, Date_t now) const;
};

}  // namespace repl
}  // namespace mongo
