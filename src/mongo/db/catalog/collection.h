#pragma once
// Collection and its indexes: what the command and query layers use to read and write
// documents. Implemented over the storage engine API (db/storage); the dedup layer later sits
// between Collection and the record store, so nothing here may assume stored bytes == BSON.
//
// Concurrency: callers hold the locks of db/catalog/catalog_lock.h. A Collection* is valid
// while the caller holds at least a shared catalog lock.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/catalog/multikey_paths.h"
#include "mongo/db/namespace_string.h"
#include "mongo/db/operation_context.h"
#include "mongo/db/query/collator.h"
#include "mongo/db/storage/record_id.h"

namespace mongo {

class BSONObjBuilder;
class CappedInsertNotifier;
class Matcher;

struct Record {
    RecordId id;
    BSONObj doc;  // owned, the logical document
};

// Iterates a collection's documents in RecordId order. Not thread safe.
class RecordCursor {
public:
    virtual ~RecordCursor() = default;
    virtual std::optional<Record> next() = 0;
    // Positions on id (or returns nullopt if absent); next() continues after it.
    virtual std::optional<Record> seekExact(RecordId id) = 0;
    // Releases storage resources (snapshot, WT cursor) between batches; restore() repositions
    // after the last returned record. restore() returns false if the collection is gone.
    virtual void save() = 0;
    virtual bool restore() = 0;
};

// One index entry: the key values (a BSONObj with empty field names, e.g. {"": 5, "": "x"})
// and the record it points at.
struct IndexKeyEntry {
    BSONObj key;
    RecordId loc;
};

// Iterates one index in key order (then RecordId order). Not thread safe.
class IndexCursor {
public:
    virtual ~IndexCursor() = default;
    // Positions on the first entry >= key (forward cursor) or <= key (reverse cursor); with
    // inclusive=false, strictly after/before it. key has as many values as the index has
    // fields; use MinKey/MaxKey values to fill trailing fields.
    virtual std::optional<IndexKeyEntry> seek(const BSONObj& key, bool inclusive) = 0;
    virtual std::optional<IndexKeyEntry> next() = 0;
    virtual void save() = 0;
    virtual bool restore() = 0;
};

struct IndexDescriptor {
    std::string name;
    BSONObj keyPattern;  // {a: 1, b: -1}
    BSONObj infoObj;     // the full spec as listIndexes shows it: {v: 2, key, name, unique, ...}
    bool unique = false;
    bool sparse = false;
    bool partial = false;  // has a partialFilterExpression
    // The index's table: unique over the server's life, so a plan can tell an index that was
    // dropped and recreated (perhaps at the same address) from the one it planned with.
    std::string ident;
    bool hidden = false;   // {hidden: true} in the spec (collMod): the planner must not use it
    // The index's collation (null: simple): its keys hold the collator's comparison keys of
    // strings, so only a query with the same collation may use it for string predicates (others
    // may for numbers, dates, ...: query/planner_ixselect.h comparesCollatableValues).
    CollatorPtr collator;
    bool isIdIndex() const { return name == "_id_"; }
};

class IndexCatalog {
public:
    virtual ~IndexCatalog() = default;
    virtual std::vector<const IndexDescriptor*> getAllIndexes() const = 0;
    virtual const IndexDescriptor* findIndexByName(const std::string& name) const = 0;
    virtual const IndexDescriptor* findIndexByKeyPattern(const BSONObj& keyPattern) const = 0;
    // Validates spec (CannotCreateIndex / InvalidIndexSpecificationOption / IndexOptionsConflict /
    // IndexKeySpecsConflict as MongoDB), builds it over existing documents (DuplicateKey if a
    // unique index does not hold), and persists it. Returns false if an identical index existed.
    virtual bool createIndex(OperationContext* opCtx, const BSONObj& spec) = 0;
    virtual void dropIndex(OperationContext* opCtx, const std::string& name) = 0;
    // Replaces the spec of an existing index (collMod: expireAfterSeconds, hidden) in memory and
    // in the durable catalog. Only options that do not change the index's keys may differ.
    // REQUIRES: a unit of work (undone with it) and the exclusive catalog lock.
    virtual void updateIndexSpec(OperationContext* opCtx, const std::string& name, const BSONObj& spec) = 0;
    virtual std::unique_ptr<IndexCursor> newCursor(OperationContext* opCtx, const IndexDescriptor* desc,
                                                   bool forward) const = 0;
    // True once some document produced more than one key (an array along the key's path).
    virtual bool isMultikey(OperationContext* opCtx, const IndexDescriptor* desc) const = 0;
    // Which components of each key path held an array (see multikey_paths.h). Includes the
    // additions of writes not yet committed, so that a plan made after a snapshot opened is
    // never less multikey than the data the snapshot can see.
    virtual MultikeyPaths getMultikeyPaths(OperationContext* opCtx, const IndexDescriptor* desc) const = 0;
    // The index's partialFilterExpression, parsed (null for a full index). Lives as long as the
    // descriptor.
    virtual const Matcher* partialFilter(const IndexDescriptor* desc) const = 0;
    virtual long long indexSize(OperationContext* opCtx, const IndexDescriptor* desc) const = 0;
    // Number of entries, for validate.
    virtual long long numKeys(OperationContext* opCtx, const IndexDescriptor* desc) const = 0;
};

struct CollectionOptions {
    BSONObj raw;  // the create options as given (shown by listCollections "options")
    bool capped = false;
    long long cappedSize = 0;
    long long cappedMaxDocs = 0;
    bool dedup = true;  // create: {dedup: false} opts out of deduplication
    BSONObj validator;
    std::string validationLevel = "strict";
    std::string validationAction = "error";
    // The collection's default collation (create {collation}); null: simple. raw holds its
    // full form (collator.h), which is what listCollections shows and what parse reads back.
    CollatorPtr collator;
    static StatusWith<CollectionOptions> parse(const BSONObj& createCmd);  // from a create command
};

class Collection {
public:
    virtual ~Collection() = default;
    virtual const NamespaceString& ns() const = 0;
    virtual const std::string& uuid() const = 0;  // 16 random bytes, as hex
    virtual const CollectionOptions& options() const = 0;
    virtual IndexCatalog* getIndexCatalog() const = 0;
    // Replaces the collection's options (collMod) in memory and in the durable catalog.
    // REQUIRES: a unit of work (undone with it) and the exclusive catalog lock.
    virtual void updateOptions(OperationContext* opCtx, const CollectionOptions& options) = 0;

    // Inserts doc (which must already have _id first) and its index keys. Throws DuplicateKey
    // (11000) with MongoDB's message, keyPattern and keyValue on unique index violations.
    // REQUIRES: inside a WriteUnitOfWork.
    virtual RecordId insertDocument(OperationContext* opCtx, const BSONObj& doc) = 0;
    // Replaces the document at id; index keys are updated.
    virtual void updateDocument(OperationContext* opCtx, RecordId id, const BSONObj& oldDoc,
                                const BSONObj& newDoc) = 0;
    virtual void deleteDocument(OperationContext* opCtx, RecordId id) = 0;
    virtual std::optional<BSONObj> findDoc(OperationContext* opCtx, RecordId id) const = 0;
    virtual std::unique_ptr<RecordCursor> getCursor(OperationContext* opCtx, bool forward = true) const = 0;
    // Removes every document and index entry.
    virtual void truncate(OperationContext* opCtx) = 0;

    virtual long long numRecords(OperationContext* opCtx) const = 0;
    virtual long long dataSize(OperationContext* opCtx) const = 0;     // logical BSON bytes
    virtual long long storageSize(OperationContext* opCtx) const = 0;  // bytes on disk (table files)
    // The storage layer between the collection and the engine (dedup): its statistics ({} if
    // none) and its part of validate.
    virtual BSONObj storageLayerStats(OperationContext* opCtx) const = 0;
    virtual void validateStorageLayer(OperationContext* opCtx, bool full, std::vector<std::string>* errors,
                                      std::vector<std::string>* warnings, BSONObjBuilder* result) const = 0;
    // Capped collections: signalled when an insert commits and when the collection is dropped
    // or renamed, for awaitData cursors (capped_insert_notifier.h). Null for other collections.
    virtual std::shared_ptr<CappedInsertNotifier> cappedInsertNotifier() const { return nullptr; }
};

// The set of databases and collections, persisted by the storage engine.
class CollectionCatalog {
public:
    virtual ~CollectionCatalog() = default;
    static CollectionCatalog* get();  // the process-wide instance (set at startup)
    static void set(CollectionCatalog* catalog);

    // A collection a multi-document transaction created is visible to that transaction only
    // (operations on its recovery unit) until it commits, as in MongoDB 7.0.
    virtual Collection* lookupCollection(OperationContext* opCtx, const NamespaceString& nss) const = 0;
    // Creates the collection and its _id index. NamespaceExists if it exists. In a
    // multi-document transaction the creation is part of the transaction (gone if it aborts);
    // while a transaction's creation of nss is uncommitted, creating nss elsewhere is a
    // WriteConflict (retryDDLOnWriteConflict waits for it outside transactions).
    virtual Collection* createCollection(OperationContext* opCtx, const NamespaceString& nss,
                                         const CollectionOptions& options) = 0;
    // WriteConflict while another transaction's creation of nss is uncommitted (NamespaceExists
    // for the creating transaction itself); for what else takes a collection's name (views).
    virtual void uassertNotBeingCreated(OperationContext* opCtx, const NamespaceString& nss) const {}
    virtual void dropCollection(OperationContext* opCtx, const NamespaceString& nss) = 0;
    virtual void dropDatabase(OperationContext* opCtx, const std::string& db) = 0;
    virtual void renameCollection(OperationContext* opCtx, const NamespaceString& from,
                                  const NamespaceString& to, bool dropTarget) = 0;
    virtual std::vector<std::string> listDatabases(OperationContext* opCtx) const = 0;
    virtual std::vector<NamespaceString> listCollections(OperationContext* opCtx, const std::string& db) const = 0;
    // Bytes on disk of everything in db (collections + indexes).
    virtual long long databaseSizeOnDisk(OperationContext* opCtx, const std::string& db) const = 0;
};

}  // namespace mongo
