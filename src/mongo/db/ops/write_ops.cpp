#include "mongo/db/ops/write_ops.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection_validator.h"
#include "mongo/db/pipeline/pipeline.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/plan_executor.h"
#include "mongo/db/repl/retryable_write.h"
#include "mongo/db/storage/duplicate_key_error.h"
#include "mongo/db/storage/write_admission.h"
#include "mongo/db/update/element_format.h"
#include "mongo/db/update/storage_validation.h"
#include "mongo/db/update/update_driver.h"
#include "mongo/db/update/write_timestamp.h"
#include "mongo/db/views/view_catalog.h"

namespace mongo {

namespace {
// Top-level fields other than _id holding Timestamp(0, 0) take the write's timestamp, as
// mongod's insert path does ("empty timestamp replacement").
BSONObj replaceEmptyTopLevelTimestamps(const BSONObj& doc) {
    bool any = false;
    for (BSONElement e : doc)
        if (e.type() == bsonTimestamp && e.timestamp().isNull() && e.fieldNameStringData() != "_id") any = true;
    if (!any) return doc;
    BSONObjBuilder b;
    for (BSONElement e : doc) {
        if (e.type() == bsonTimestamp && e.timestamp().isNull() && e.fieldNameStringData() != "_id")
            b.append(e.fieldNameStringData(), nextWriteTimestamp());
        else
            b.append(e);
    }
    return b.obj();
}
}  // namespace

namespace {
// Between the units of work of a long write: lets waiting background writes (the dedup
// write-backs, write_admission.h) take the write lock. Documents found before the yield are
// read again in the next unit of work, as the update and delete loops do anyway.
void yieldToBackgroundWrites(OperationContext* opCtx, CollectionWriteLock& lock) {
    if (backgroundWriteLockWaiters().load(std::memory_order_relaxed) == 0) return;
    opCtx->noteYield();
    lock.yieldWrites([&] { admitWrite(opCtx); });
}

// A write outside a transaction that conflicts with an open transaction's uncommitted write
// (WriteConflict) waits for it to end and tries again, with the write lock released meanwhile
// so that the transaction can commit (MongoDB's writeConflictRetry). A transaction's own
// writes are not retried: the conflict fails its command.
template <typename F>
auto retryOnWriteConflict(OperationContext* opCtx, CollectionWriteLock& lock, F&& f) {
    for (int attempt = 0;; ++attempt) {
        try {
            return f();
        } catch (const DBException& e) {
            if (e.code() != int(ErrorCodes::WriteConflict) || opCtx->inMultiDocumentTransaction()) throw;
            opCtx->noteYield();
            lock.yieldWrites([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(std::min(attempt + 1, 100)));
                opCtx->checkForInterrupt();
            });
        }
    }
}

// MongoDB 7.0 refuses a transaction's writes to a capped collection (their order of insertion
// would have to be the order of commit).
void checkWritableInTransaction(OperationContext* opCtx, const Collection* coll) {
    if (coll && opCtx->inMultiDocumentTransaction() && coll->options().capped)
        uasserted(ErrorCodes::OperationNotSupportedInTransaction,
                  "Collection '" + coll->ns().ns() +
                      "' is a capped collection. Writes in transactions are not allowed on capped collections.");
}
}  // namespace

Collection* getOrCreateCollectionForWrite(OperationContext* opCtx, const NamespaceString& nss,
                                          std::unique_ptr<CollectionWriteLock>* lock) {
    uassertStatusOK(NamespaceString::validateUserWritable(nss.db(), nss.coll()));
    while (true) {
        admitWrite(opCtx);
        *lock = std::make_unique<CollectionWriteLock>();
        if (Collection* c = CollectionCatalog::get()->lookupCollection(opCtx, nss)) {
            checkWritableInTransaction(opCtx, c);
            return c;
        }
        lock->reset();
        retryDDLOnWriteConflict(opCtx, [&] {
            CatalogDDLLock ddl;
            if (!CollectionCatalog::get()->lookupCollection(opCtx, nss)) {
                // Under the lock every create takes: no view of this name can appear between
                // the check and the implicit creation. Views are read-only.
                ViewCatalog::uassertNotView(opCtx, nss);
                CollectionOptions opts;
                CollectionCatalog::get()->createCollection(opCtx, nss, opts);
            }
        });
    }
}

BSONObj prepareDocumentForInsert(const BSONObj& doc, bool replaceEmptyTimestamps) {
    if (doc.objsize() > BSONObjMaxUserSize)
        uasserted(ErrorCodes::BSONObjectTooLarge, "object to insert too large. size in bytes: " +
                                                      std::to_string(doc.objsize()) + ", max size: " +
                                                      std::to_string(BSONObjMaxUserSize));
    BSONElement id = doc["_id"];
    // mongod's insert path (fixDocumentForInsert) reports these as BadValue.
    if (id.type() == Array) uasserted(ErrorCodes::BadValue, "can't use an array for _id");
    if (id.type() == RegEx) uasserted(ErrorCodes::BadValue, "can't use a regex for _id");
    if (id.type() == Undefined) uasserted(ErrorCodes::BadValue, "can't use a undefined for _id");
    BSONObj out;
    if (id.eoo()) {
        BSONObjBuilder b;
        b.append("_id", OID::gen());
        b.appendElements(doc);
        out = b.obj();
    } else if (doc.firstElementFieldName() != "_id") {
        BSONObjBuilder b;
        b.append(id);
        for (BSONElement e : doc)
            if (e.fieldNameStringData() != "_id") b.append(e);
        out = b.obj();
    } else {
        out = doc.getOwned();
    }
    if (replaceEmptyTimestamps) out = replaceEmptyTopLevelTimestamps(out);
    uassertStatusOK(validateStorageDocument(out));
    if (out.objsize() > BSONObjMaxUserSize + 16 * 1024)
        uasserted(ErrorCodes::BSONObjectTooLarge, "object to insert too large");
    return out;
}

WriteError makeWriteError(int index, const DBException& e) {
    // A statement that failed because this node stopped being primary fails the whole
    // command, as in MongoDB (whose step-down interrupts the operation): a retryable error a
    // driver retries on the new primary, where the statements that did commit are answered
    // from the retryable-write record.
    if (e.code() == int(ErrorCodes::NotWritablePrimary) || e.code() == int(ErrorCodes::InterruptedDueToReplStateChange))
        uassertStatusOK(e.toStatus());
    // In a transaction, a write conflict fails the command (TransientTransactionError: the
    // driver runs the whole transaction again), as in MongoDB.
    const OperationContext* op = currentOperationOnThisThread();
    if (op && op->inMultiDocumentTransaction() && e.code() == int(ErrorCodes::WriteConflict))
        uassertStatusOK(e.toStatus());
    WriteError we{index, e.toStatus(), BSONObj()};
    if (auto* dup = dynamic_cast<const DuplicateKeyException*>(&e)) {
        we.extra = dup->info();
    } else if (auto* info = dynamic_cast<const DBExceptionWithExtraInfo*>(&e)) {
        we.extra = info->extraInfo();  // errInfo of a DocumentValidationFailure
    }
    return we;
}

BSONObj writeErrorToBSON(const WriteError& e) {
    BSONObjBuilder b;
    b.append("index", e.index);
    b.append("code", e.status.code());
    b.appendElements(e.extra);
    b.append("errmsg", e.status.reason());
    return b.obj();
}

long long insertDocuments(OperationContext* opCtx, const NamespaceString& nss, const std::vector<BSONObj>& docs,
                          bool ordered, std::vector<WriteError>* errors, bool bypassEmptyTsReplacement) {
    if (docs.empty()) return 0;
    // Check the documents before taking locks: a bad one is a per-document error.
    std::vector<std::optional<BSONObj>> prepared(docs.size());
    for (size_t i = 0; i < docs.size(); i++) {
        try {
            prepared[i] = prepareDocumentForInsert(docs[i], !bypassEmptyTsReplacement);
        } catch (const DBException& e) {
            errors->push_back(makeWriteError(static_cast<int>(i), e));
            if (ordered) {
                prepared.resize(i);
                break;
            }
        }
    }
    // Nothing to insert (every document was refused): no implicit collection creation.
    if (std::none_of(prepared.begin(), prepared.end(), [](const auto& d) { return d.has_value(); })) return 0;
    std::unique_ptr<CollectionWriteLock> lock;
    Collection* coll;
    try {
        coll = getOrCreateCollectionForWrite(opCtx, nss, &lock);
    } catch (const DBException& e) {
        if (e.code() != int(ErrorCodes::CommandNotSupportedOnView)) throw;
        // A view is read-only: each document that got this far fails with it, in statement
        // order among the documents refused earlier (an ordered insert reports only its first).
        for (size_t i = 0; i < prepared.size(); i++)
            if (prepared[i]) errors->push_back(WriteError{static_cast<int>(i), e.toStatus(), BSONObj()});
        std::stable_sort(errors->begin(), errors->end(),
                         [](const WriteError& a, const WriteError& b) { return a.index < b.index; });
        if (ordered) errors->resize(1);
        return 0;
    }
    // Each document is checked once, when its turn comes (the lock keeps the validator stable):
    // an ordered insert stops at its first failing statement whatever the reason, a batch that
    // is retried one document at a time does not check (or log a "warn") twice.
    DocumentValidator validator(coll, opCtx->bypassDocumentValidation);
    std::vector<std::optional<BSONObj>> violations(prepared.size());
    std::vector<bool> checked(prepared.size());
    auto insertOne = [&](size_t j) {
        // A retryable write: document j's entry carries its statement's stmtId.
        if (opCtx->retryableWrite) opCtx->retryableWrite->setCurrentBatchIndex(j);
        if (validator.active() && !checked[j]) {
            checked[j] = true;
            violations[j] = validator.violation(*prepared[j], nullptr);
            if (violations[j] && validator.warnOnly()) validator.enforce(*prepared[j], *violations[j]);  // logs
        }
        if (violations[j] && !validator.warnOnly()) validator.enforce(*prepared[j], *violations[j]);  // throws
        coll->insertDocument(opCtx, *prepared[j]);
    };
    long long n = 0;
    // Batches of documents share one unit of work; on any error the batch is retried one
    // document at a time so that exactly the failing documents are reported.
    // In a transaction, one document per unit (a failed unit's writes stay in the transaction,
    // which the failure aborts), and the first failure ends the command, ordered or not.
    const bool inTransaction = opCtx->inMultiDocumentTransaction();
    const size_t kBatch = inTransaction ? 1 : 64;
    size_t i = 0;
    while (i < prepared.size()) {
        opCtx->checkForInterrupt();
        if (i > 0) yieldToBackgroundWrites(opCtx, *lock);
        size_t end = std::min(prepared.size(), i + kBatch);
        bool batchOk = true;
        if (end - i > 1) {
            try {
                WriteUnitOfWork wuow(opCtx);
                long long k = 0;
                for (size_t j = i; j < end; j++)
                    if (prepared[j]) {
                        insertOne(j);
                        k++;
                    }
                // A retryable write records its session once per unit of work.
                if (opCtx->retryableWrite) opCtx->retryableWrite->writeDeferredRecord(opCtx);
                wuow.commit();
                n += k;
            } catch (const DBException&) {
                batchOk = false;
            }
        } else {
            batchOk = false;
        }
        if (!batchOk) {
            for (size_t j = i; j < end; j++) {
                if (!prepared[j]) continue;
                try {
                    retryOnWriteConflict(opCtx, *lock, [&] {
                        WriteUnitOfWork wuow(opCtx);
                        insertOne(j);
                        if (opCtx->retryableWrite) opCtx->retryableWrite->writeDeferredRecord(opCtx);
                        wuow.commit();
                    });
                    n++;
                } catch (const DBException& e) {
                    errors->push_back(makeWriteError(static_cast<int>(j), e));
                    if (ordered || inTransaction) return n;
                }
            }
        }
        i = end;
    }
    std::sort(errors->begin(), errors->end(), [](const WriteError& a, const WriteError& b) { return a.index < b.index; });
    return n;
}

namespace {

// The stages of a pipeline-style update, checked (only the stages an update may use).
std::vector<BSONObj> updatePipelineStages(const BSONObj& stagesArr) {
    std::vector<BSONObj> stages;
    for (BSONElement s : stagesArr) {
        if (s.type() != Object) uasserted(ErrorCodes::TypeMismatch, "Each element of the 'pipeline' array must be an object");
        std::string_view name = s.Obj().firstElementFieldName();
        if (name != "$addFields" && name != "$set" && name != "$project" && name != "$unset" &&
            name != "$replaceRoot" && name != "$replaceWith")
            uasserted(ErrorCodes::InvalidOptions, "Invalid pipeline stage for update: " + std::string(name));
        stages.push_back(s.Obj());
    }
    return stages;
}

// Applies a pipeline-style update ([{$set: ...}, ...]) to one document.
// collator: the update's collation, under which the pipeline's expressions compare.
// stages: updatePipelineStages of the statement's pipeline (checked once per statement).
BSONObj applyPipelineUpdate(const BSONObj& doc, const std::vector<BSONObj>& stages, const BSONObj& letVars,
                            const CollatorPtr& collator) {
    PipelineContext ctx;
    ctx.letVars = letVars;
    ctx.collator = collator;
    Pipeline p(stages, std::move(ctx));
    bool given = false;
    p.setSource([&]() -> std::optional<BSONObj> {
        if (given) return std::nullopt;
        given = true;
        return doc;
    });
    auto out = p.getNext();
    if (!out) uasserted(ErrorCodes::BadValue, "pipeline update produced no document");
    BSONElement oldId = doc["_id"], newId = (*out)["_id"];
    if (newId.eoo() && !oldId.eoo()) {
        BSONObjBuilder b;
        b.append(oldId);
        b.appendElements(*out);
        return b.obj();
    }
    if (!oldId.eoo() && oldId.woCompare(newId) != 0)
        uasserted(ErrorCodes::ImmutableField,
                  "Performing an update on the path '_id' would modify the immutable field '_id'");
    return prepareDocumentForInsert(*out);
}

// Record ids of the documents matching q, in plan order (all of them first, so that updates
// which move documents within an index are never seen twice).
std::vector<RecordId> findMatching(OperationContext* opCtx, const Collection* coll, const NamespaceString& nss,
                                   const BSONObj& q, const BSONObj& hint, const BSONObj& sort, long long limit,
                                   const CollationOption& collation) {
    QueryRequest qr;
    qr.filter = q;
    qr.collation = collation;
    qr.hint = hint;
    qr.sort = sort;
    qr.limit = limit;
    PlanExecutor exec(opCtx->getClient(), coll, nss, qr, PlanPurpose::kWrite, "", opCtx);
    std::vector<RecordId> ids;
    RecordId id;
    while (exec.getNext(opCtx, &id)) ids.push_back(id);
    return ids;
}

}  // namespace


UpdateResult performUpdate(OperationContext* opCtx, const NamespaceString& nss, const UpdateStatement& stmt,
                           bool wantImages) {
    bool isPipeline = stmt.u.type() == Array;
    if (!isPipeline && stmt.u.type() != Object)
        uasserted(ErrorCodes::FailedToParse, "Update argument must be either an object or an array");
    std::optional<UpdateDriver> driver;
    if (!isPipeline) driver.emplace(stmt.u.Obj(), stmt.arrayFilters, stmt.bypassEmptyTsReplacement);
    // A pipeline is checked and parsed before anything is read, as MongoDB's: a bad one fails
    // also when no document matches.
    std::vector<BSONObj> pipelineStages;
    if (isPipeline) {
        pipelineStages = updatePipelineStages(stmt.u.Obj());
        PipelineContext ctx;
        ctx.letVars = stmt.letVars;
        Pipeline check(pipelineStages, std::move(ctx));
    }
    if (stmt.multi && driver && driver->isReplacement() && !stmt.u.Obj().isEmpty())
        uasserted(ErrorCodes::FailedToParse, "multi update is not supported for replacement-style update");
    Matcher matcher(stmt.q, stmt.collation.collator);  // parse errors before anything is written

    std::unique_ptr<CollectionWriteLock> lock;
    Collection* coll;
    if (stmt.upsert) {
        coll = getOrCreateCollectionForWrite(opCtx, nss, &lock);
    } else {
        admitWrite(opCtx);
        lock = std::make_unique<CollectionWriteLock>();
        coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
        if (!coll) ViewCatalog::uassertNotView(opCtx, nss);  // under the lock: views are read-only
        checkWritableInTransaction(opCtx, coll);
    }
    UpdateResult res;
    DocumentValidator validator(coll, opCtx->bypassDocumentValidation);
    CollatorPtr collator = resolveCollation(stmt.collation, coll);
    if (collator && !stmt.collation.given) matcher = Matcher(stmt.q, collator);
    // The operators that compare values ($addToSet, $pull, $min ...) and arrayFilters follow
    // the collation too.
    if (collator && driver) driver.emplace(stmt.u.Obj(), stmt.arrayFilters, stmt.bypassEmptyTsReplacement, collator);
    if (coll) {
        auto ids = findMatching(opCtx, coll, nss, stmt.q, stmt.hint, stmt.sort, stmt.multi ? 0 : 1, stmt.collation);
        for (RecordId id : ids) {
            opCtx->checkForInterrupt();
            yieldToBackgroundWrites(opCtx, *lock);
            BSONObj before, after;
            bool modified = false;
            const bool matched = retryOnWriteConflict(opCtx, *lock, [&] {
                WriteUnitOfWork wuow(opCtx);
                auto doc = coll->findDoc(opCtx, id);
                MatchDetails md;
                md.requestElemMatchKey = true;
                if (!doc || !matcher.matches(*doc, &md)) return false;  // changed since it was found
                bool changed = true;
                BSONObj newDoc;
                if (isPipeline) {
                    newDoc = applyPipelineUpdate(*doc, pipelineStages, stmt.letVars, collator);
                    changed = !newDoc.binaryEqual(*doc);
                } else {
                    newDoc = driver->apply(*doc, md.hasElemMatchKey ? md.elemMatchKey : std::string(), false, &changed);
                }
                if (changed) {
                    if (newDoc.objsize() > BSONObjMaxUserSize)
                        uasserted(ErrorCodes::BSONObjectTooLarge, "Resulting document after update is larger than 16777216");
                    uassertStatusOK(validateStorageDocument(newDoc));
                    validator.check(newDoc, &*doc);
                    coll->updateDocument(opCtx, id, *doc, newDoc);
                }
                wuow.commit();
                modified = changed;
                before = *doc;
                after = newDoc;
                return true;
            });
            if (!matched) continue;
            res.nMatched++;
            if (modified) res.nModified++;
            if (wantImages && res.nMatched == 1) {
                res.preImage = before;
                res.postImage = after;
            }
            if (!stmt.multi) break;
        }
    }
    if (res.nMatched == 0 && stmt.upsert) {
        BSONObj newDoc;
        if (isPipeline) {
            newDoc = applyPipelineUpdate(UpdateDriver::seedUpsertDocument(stmt.q), pipelineStages, stmt.letVars, collator);
        } else {
            BSONObj seed = UpdateDriver::seedUpsertDocument(stmt.q);
            bool changed;
            if (driver->isReplacement())
                newDoc = driver->apply(seed.hasField("_id") ? seed["_id"].wrap() : BSONObj(), "", true, &changed);
            else
                newDoc = driver->apply(seed, "", true, &changed);
            // The _id the query fixed by equality cannot be replaced or extended by the update
            // ($setOnInsert or $set of _id or of a field inside it), as in MongoDB.
            BSONElement fixedId = seed["_id"], newId = newDoc["_id"];
            if (!fixedId.eoo() && newId.eoo())
                uasserted(ErrorCodes::ImmutableField,
                          "After applying the update, the (immutable) field '_id' was found to have been removed --" +
                              formatObjectForError(seed));
            if (!fixedId.eoo() && fixedId.woCompare(newId, false) != 0)
                uasserted(ErrorCodes::ImmutableField,
                          "After applying the update, the (immutable) field '_id' was found to have been altered to " +
                              formatElementForError(newId));
        }
        newDoc = prepareDocumentForInsert(newDoc);
        validator.check(newDoc, nullptr);
        retryOnWriteConflict(opCtx, *lock, [&] {
            WriteUnitOfWork wuow(opCtx);
            coll->insertDocument(opCtx, newDoc);
            wuow.commit();
        });
        res.upsertedId = newDoc["_id"].wrap("_id");
        if (wantImages) res.postImage = newDoc;
    }
    return res;
}

namespace {
// The delete path: at most limit (0: all) documents matching q, in plan order.
long long deleteMatching(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& q, long long limit,
                         const BSONObj& hint, const BSONObj& sort, BSONObj* deletedDoc,
                         const CollationOption& collation) {
    Matcher matcher(q, collation.collator);  // parse errors first
    admitWrite(opCtx);
    CollectionWriteLock lock;
    Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx, nss);
    if (!coll) {
        ViewCatalog::uassertNotView(opCtx, nss);  // under the lock: views are read-only
        return 0;
    }
    checkWritableInTransaction(opCtx, coll);
    if (CollatorPtr c = resolveCollation(collation, coll); c != collation.collator) matcher = Matcher(q, c);
    long long n = 0;
    for (RecordId id : findMatching(opCtx, coll, nss, q, hint, sort, limit, collation)) {
        opCtx->checkForInterrupt();
        yieldToBackgroundWrites(opCtx, lock);
        std::optional<BSONObj> doc = retryOnWriteConflict(opCtx, lock, [&]() -> std::optional<BSONObj> {
            WriteUnitOfWork wuow(opCtx);
            auto found = coll->findDoc(opCtx, id);
            if (!found || !matcher.matches(*found)) return std::nullopt;
            coll->deleteDocument(opCtx, id);
            wuow.commit();
            return found;
        });
        if (!doc) continue;
        if (deletedDoc && n == 0) *deletedDoc = *doc;
        n++;
        if (limit && n >= limit) break;
    }
    return n;
}
}  // namespace

long long performDelete(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& q, bool justOne,
                        const BSONObj& hint, const BSONObj& sort, BSONObj* deletedDoc,
                        const CollationOption& collation) {
    return deleteMatching(opCtx, nss, q, justOne ? 1 : 0, hint, sort, deletedDoc, collation);
}

long long deleteMatchingDocuments(OperationContext* opCtx, const NamespaceString& nss, const BSONObj& q,
                                  const BSONObj& hint, long long maxDocs) {
    return deleteMatching(opCtx, nss, q, maxDocs, hint, BSONObj(), nullptr, CollationOption());
}

bool updateWouldModify(const UpdateStatement& stmt, const BSONObj& doc) {
    MatchDetails md;
    md.requestElemMatchKey = true;
    Matcher(stmt.q, stmt.collation.collator).matches(doc, &md);
    if (stmt.u.type() == Array)
        return !applyPipelineUpdate(doc, updatePipelineStages(stmt.u.Obj()), stmt.letVars, stmt.collation.collator)
                    .binaryEqual(doc);
    UpdateDriver driver(stmt.u.Obj(), stmt.arrayFilters, stmt.bypassEmptyTsReplacement, stmt.collation.collator);
    bool changed = false;
    driver.apply(doc, md.hasElemMatchKey ? md.elemMatchKey : std::string(), false, &changed);
    return changed;
}

}  // namespace mongo
