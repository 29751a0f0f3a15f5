#pragma once
// The write path shared by insert/update/delete/findAndModify: implicit collection creation,
// _id generation, document checks, index maintenance through Collection, per-statement
// errors. Each statement is its own unit of work (as MongoDB outside transactions).
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/query/collation_spec.h"

namespace mongo {

struct WriteError {
    int index;
    Status status;
    BSONObj extra;  // keyPattern / keyValue for duplicate keys
};

struct UpdateStatement {
    BSONObj q;
    BSONElement u;  // object (replacement/operators) or array (pipeline)
    bool upsert = false;
    bool multi = false;
    std::vector<BSONObj> arrayFilters;
    BSONObj hint;
    BSONObj sort;  // findAndModify only
    // Variables of a pipeline update: {name: <expression>} (the command's 'let' and the
    // statement's constants 'c'; see pipeline/command_let.h). q must already see them.
    BSONObj letVars;
    bool bypassEmptyTsReplacement = false;  // keep Timestamp(0, 0) in a replacement
    // The statement's collation (absent: the collection's default): the query, arrayFilters,
    // the operators that compare values ($addToSet, $pull, $pullAll, $push's $sort, $min,
    // $max) and a pipeline update's expressions compare strings under it.
    CollationOption collation;
};

struct UpdateResult {
    long long nMatched = 0;
    long long nModified = 0;
    std::optional<BSONObj> upsertedId;  // {_id: value}
    BSONObj preImage, postImage;        // of the first document (findAndModify)
};

// Returns the collection, creating it first if needed. The caller must NOT hold catalog or
// write locks; on return the caller's CollectionWriteLock (passed in) is held.
class CollectionWriteLock;
Collection* getOrCreateCollectionForWrite(OperationContext* opCtx, const NamespaceString& nss,
                                          std::unique_ptr<CollectionWriteLock>* lock);

// The document as it will be stored: _id first (generated ObjectId if absent); throws for
// invalid documents (size, _id type, field names). replaceEmptyTimestamps: top-level fields
// other than _id holding Timestamp(0, 0) get the write's timestamp (what the insert command
// does unless bypassEmptyTsReplacement).
BSONObj prepareDocumentForInsert(const BSONObj& doc, bool replaceEmptyTimestamps = false);

// Inserts docs; stops at the first error when ordered. Returns the number inserted. The
// collection is created implicitly only when some document gets as far as being inserted: a
// batch whose documents are all refused leaves no trace, as in MongoDB.
long long insertDocuments(OperationContext* opCtx, const NamespaceString& nss, const std::vector<BSONObj>& docs,
                          bool ordered, std::vector<WriteError>* errors, bool bypassEmptyTsReplacement = true);

// One update statement. Throws DBException on error.
UpdateResult performUpdate(OperationContext* opCtx, const NamespaceString& nss, const UpdateStatement& stmt,
                           bool wantImages);

// One delete statement (limit 0 = all, 1 = first). Returns the number deleted; *deletedDoc gets
// the first deleted document when requested. sort only for findAndModify.
// collation: the statement's (absent: the collection's default).
long long performDelete(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& q, bool justOne,
                        const BSONObj& hint, const BSONObj& sort, BSONObj* deletedDoc,
                        const CollationOption& collation = CollationOption());

// explain of an update: would stmt change doc? (The update is applied in memory only.)
bool updateWouldModify(const UpdateStatement& stmt, const BSONObj& doc);

// Deletes at most maxDocs (0: no limit) documents matching q, in the order of hint's index,
// each in its own unit of work through Collection::deleteDocument: the delete command's own
// path, so that the storage layers below (dedup chains and reference counts) see the same
// calls. Takes the collection write lock for the duration; for background deleters (TTL).
long long deleteMatchingDocuments(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& q,
                                  const BSONObj& hint, long long maxDocs);

// writeErrors entry as MongoDB reports it: {index, code, codeName?, errmsg, keyPattern, keyValue}.
BSONObj writeErrorToBSON(const WriteError& e);
// Extra fields of a duplicate key error (keyPattern/keyValue) from the exception. Throws
// instead when the statement failed because this node stopped being primary: that fails the
// whole command (a retryable error, as MongoDB's interrupted operation).
WriteError makeWriteError(int index, const DBException& e);

}  // namespace mongo
