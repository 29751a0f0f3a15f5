#pragma once
// OpObserverImpl: the replica-set member's observer. Each observed change becomes one oplog
// entry in MongoDB 7.0's form, appended through LocalOplog in the change's own unit of work:
//   insert  {op: 'i', ns, ui, o: <doc>, o2: {_id}}
//   update  {op: 'u', ns, ui, o: {$v: 2, diff} or the replacement document, o2: {_id}}
//   delete  {op: 'd', ns, ui, o: {_id}}
//   create  {op: 'c', ns: '<db>.$cmd', ui, o: {create: <coll>, <options>..., idIndex}}
//   drop    {op: 'c', ns: '<db>.$cmd', ui, o: {drop: <coll>}}
//   dropDatabase {op: 'c', ns: '<db>.$cmd', o: {dropDatabase: 1}}
//   createIndexes {op: 'c', ns: '<db>.$cmd', ui, o: {createIndexes: <coll>, <spec>...}}
//   dropIndexes {op: 'c', ns: '<db>.$cmd', ui, o: {dropIndexes: <coll>, index: <name>}, o2: <spec>}
//   renameCollection {op: 'c', ns: '<db>.$cmd', ui, o: {renameCollection: 'db.from', to:
//                    'db.to', stayTemp: false, dropTarget?: <uuid>}}
// Not observed, as in MongoDB: the local database and system.profile collections; nothing is
// written while the oplog is disabled (before replSetInitiate).
// Thread safety: see op_observer.h.
#include "mongo/db/repl/op_observer.h"

namespace mongo {
namespace repl {

class OpObserverImpl : public OpObserver {
public:
    // Whether changes to nss are written to the oplog.
    static bool isReplicated(const NamespaceString& nss);

    void onInsert(OperationContext* opCtx, const Collection& coll, const BSONObj& doc) override;
    void onUpdate(OperationContext* opCtx, const Collection& coll, const BSONObj& pre, const BSONObj& post) override;
    void onDelete(OperationContext* opCtx, const Collection& coll, const BSONObj& deleted) override;
    void onCreateCollection(OperationContext* opCtx, const Collection& coll, const BSONObj& idIndexSpec) override;
    void onDropCollection(OperationContext* opCtx, const NamespaceString& nss, const std::string& uuid) override;
    void onDropDatabase(OperationContext* opCtx, const std::string& db) override;
    void onCreateIndex(OperationContext* opCtx, const Collection& coll, const BSONObj& spec) override;
    void onDropIndex(OperationContext* opCtx, const Collection& coll, const std::string& name,
                     const BSONObj& spec) override;
    void onRenameCollection(OperationContext* opCtx, const NamespaceString& from, const NamespaceString& to,
                            const std::string& uuid, const std::string& dropTargetUuid) override;
};

}  // namespace repl
}  // namespace mongo
