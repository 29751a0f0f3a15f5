#pragma once
// The privileges of commands whose needs depend on their arguments (several namespaces,
// upserts, bypassDocumentValidation, aggregation stages), as MongoDB asks for them. Each
// command's requiredPrivileges() calls the one for it. Never throws: a malformed request
// asks for the privileges of its well-formed parts (the command then reports the error).
// Pure functions: thread safe.
#include "mongo/db/auth/required_privileges.h"

namespace mongo::auth {

RequiredPrivileges insertPrivileges(const OpMsgRequest& req);         // insert (+bypassDocumentValidation)
RequiredPrivileges updatePrivileges(const OpMsgRequest& req);         // update (+insert for upserts)
RequiredPrivileges findAndModifyPrivileges(const OpMsgRequest& req);  // find + update/remove (+insert)
RequiredPrivileges getMorePrivileges(const OpMsgRequest& req);        // find on <db>.<collection>
RequiredPrivileges createPrivileges(const OpMsgRequest& req);         // createCollection (+find on viewOn)
RequiredPrivileges renameCollectionPrivileges(const OpMsgRequest& req);
RequiredPrivileges dataSizePrivileges(const OpMsgRequest& req);  // find on the "db.coll" it names
// find on the input and every collection a stage reads ($lookup, $graphLookup, $unionWith,
// $facet), insert + remove on $out/$merge targets, inprog for $currentOp, collStats for
// $collStats, indexStats for $indexStats, listSessions for $listSessions.
RequiredPrivileges aggregatePrivileges(const OpMsgRequest& req);

}  // namespace mongo::auth
