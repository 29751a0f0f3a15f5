// insert, update, delete: batches of statements with per-statement write errors.
#include "mongo/db/auth/command_privileges.h"
#include "mongo/db/commands/command.h"
#include "mongo/db/pipeline/document_source.h"
#include "mongo/db/commands/server_status_counters.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/pipeline/command_let.h"
#include "mongo/db/query/collation_spec.h"
#include "mongo/db/query/find_request.h"
#include "mongo/db/repl/retryable_write.h"

namespace mongo {


namespace {

// The statements of a write command: the document sequence (OP_MSG kind 1) or the array in
// the body; MongoDB rejects both at once.
std::vector<BSONObj> statements(const OpMsgRequest& req, const char* field) {
    const std::vector<BSONObj>* seq = req.sequence(field);
    BSONElement inBody = req.body[field];
    if (seq && !inBody.eoo())
        uasserted(ErrorCodes::BadValue, std::string("duplicate field '") + field + "' in body and document sequence");
    if (seq) return *seq;
    if (inBody.eoo())
        uasserted(ErrorCodes::Location40414,
                  "BSON field '" + req.commandName() + "." + field + "' is missing but a required field");
    if (inBody.type() != Array)
        uasserted(ErrorCodes::TypeMismatch, "BSON field '" + req.commandName() + "." + field + "' is the wrong type '" +
                                                typeName(inBody.type()) + "', expected type 'array'");
    std::vector<BSONObj> out;
    for (BSONElement e : inBody.Obj()) {
        if (e.type() != Object)
            uasserted(ErrorCodes::TypeMismatch, "BSON field '" + req.commandName() + "." + field + "." +
                                                    std::string(e.fieldNameStringData()) + "' is the wrong type '" +
                                                    typeName(e.type()) + "', expected type 'object'");
        out.push_back(e.Obj());
    }
    return out;
}

void checkBatchSize(size_t n) {
    if (n == 0) uasserted(ErrorCodes::InvalidLength, "Write batch sizes must be between 1 and 100000. Got 0 operations.");
    if (n > 100000)
        uasserted(ErrorCodes::InvalidLength,
                  "Write batch sizes must be between 1 and 100000. Got " + std::to_string(n) + " operations.");
}

bool orderedArg(const OpMsgRequest& req) {
    BSONElement o = req.body["ordered"];
    return o.eoo() ? true : parseBoolArg(o, req.commandName().c_str());
}

void appendWriteErrors(BSONObjBuilder& result, const std::vector<WriteError>& errors) {
    if (errors.empty()) return;
    BSONArrayBuilder arr;
    for (auto& e : errors) arr.append(writeErrorToBSON(e));
    result.append("writeErrors", arr.arr());
}

// What insert, update and delete share: the target, the statements (checked for count) and
// ordered. The command's other fields are checked by the dispatcher (command_args.cpp); the
// write concern (journal flush, replication wait) is the service entry point's, once per command.
struct WriteCommandArgs {
    NamespaceString nss;
    std::vector<BSONObj> stmts;
    bool ordered;
};

// The end of every write command: its write errors and, for a retry, the statements answered
// from their records. The write concern (journal flush, replication wait) is the service entry
// point's, once per command.
void finishWriteCommand(OperationContext* opCtx, BSONObjBuilder& result, const std::vector<WriteError>& errors) {
    appendWriteErrors(result, errors);
    if (repl::RetryableWrite* rw = repl::RetryableWrite::get(opCtx)) rw->appendRetriedStmtIds(&result);
}

WriteCommandArgs parseWriteCommand(OperationContext* opCtx, const OpMsgRequest& req, const char* field) {
    WriteCommandArgs a{commandTargetNamespace(req), {}, true};
    // As MongoDB: a namespace clients may not write fails the whole command, before any statement.
    uassertStatusOK(NamespaceString::validateUserWritable(a.nss.db(), a.nss.coll()));
    a.ordered = orderedArg(req);
    if (BSONElement b = req.body["bypassDocumentValidation"]; !b.eoo())
        opCtx->bypassDocumentValidation = parseBoolArg(b, req.commandName().c_str());
    a.stmts = statements(req, field);
    checkBatchSize(a.stmts.size());
    return a;
}

bool optionalBool(const OpMsgRequest& req, const char* field) {
    BSONElement e = req.body[field];
    return !e.eoo() && parseBoolArg(e, req.commandName().c_str());
}

// The command's 'let', computed once for all its statements (errors fail the command).
CommandLetVariables commandLet(const OpMsgRequest& req) {
    return CommandLetVariables::parse(parseObjectArg(req.body["let"], req.commandName().c_str()));
}

// A retryable insert: documents whose statement already executed count as inserted and are
// not inserted again (MongoDB answers them from the session's history); the others are
// inserted, each entry carrying its stmtId. Errors keep the command's indexes.
long long insertRetryable(OperationContext* opCtx, repl::RetryableWrite* rw, const WriteCommandArgs& args,
                          std::vector<WriteError>* errors, bool bypassEmptyTs) {
    std::vector<BSONObj> toInsert;
    std::vector<size_t> indexOf;  // toInsert's index -> the command's
    std::vector<int> stmtIds;
    std::vector<size_t> retried;
    for (size_t i = 0; i < args.stmts.size(); i++) {
        int stmtId = rw->stmtIdAt(i);
        if (rw->checkStatementExecuted(stmtId)) {
            retried.push_back(i);
            continue;
        }
        toInsert.push_back(args.stmts[i]);
        indexOf.push_back(i);
        stmtIds.push_back(stmtId);
    }
    long long n = static_cast<long long>(retried.size());
    if (toInsert.empty()) return n;
    rw->setBatchStmtIds(std::move(stmtIds));
    std::vector<WriteError> sub;
    n += insertDocuments(opCtx, args.nss, toInsert, args.ordered, &sub, bypassEmptyTs);
    for (WriteError& e : sub) {
        e.index = static_cast<int>(indexOf[e.index]);
        errors->push_back(e);
    }
    // An ordered insert stops at its first error: statements after it are not reported done.
    if (args.ordered && !errors->empty())
        for (size_t i : retried)
            if (static_cast<int>(i) > errors->front().index) n--;
    return n;
}

class InsertCmd : public Command {
public:
    InsertCmd() : Command("insert") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return auth::insertPrivileges(req); }
    std::string help() const override { return "insert documents"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        auto args = parseWriteCommand(opCtx, req, "documents");
        bool bypassEmptyTs = optionalBool(req, "bypassEmptyTsReplacement");
        std::vector<WriteError> errors;
        long long n = 0;
        // On a view every document fails with CommandNotSupportedOnView (insertDocuments).
        if (repl::RetryableWrite* rw = repl::RetryableWrite::get(opCtx))
            n = insertRetryable(opCtx, rw, args, &errors, bypassEmptyTs);
        else
            n = insertDocuments(opCtx, args.nss, args.stmts, args.ordered, &errors, bypassEmptyTs);
        globalOpCounters().gotInsert(static_cast<long long>(args.stmts.size()));
        result.appendNumber("n", n);
        finishWriteCommand(opCtx, result, errors);
    }
};
InsertCmd insertCmd;

// One update statement as MongoDB's UpdateOpEntry parses it: unknown fields, missing q/u and
// wrong types fail the whole command (before any statement runs), as an IDL parse error does.
struct ParsedUpdateStatement {
    UpdateStatement stmt;
    BSONElement collation;
    BSONObj constants;  // c
    bool hasConstants = false;
};

ParsedUpdateStatement parseUpdateStatement(const BSONObj& o) {
    const char* kPath = "update.updates";
    checkStrictFields(o, kPath, {"q", "u", "c", "upsert", "multi", "arrayFilters", "hint", "collation"});
    ParsedUpdateStatement p;
    UpdateStatement& s = p.stmt;
    for (BSONElement e : o) {
        std::string_view f = e.fieldNameStringData();
        if (f == "q") s.q = parseObjectArg(e, kPath);
        else if (f == "u") {
            if (e.type() != Object && e.type() != Array)
                uasserted(ErrorCodes::FailedToParse, "Update argument must be either an object or an array");
            s.u = e;
            // An unknown stage fails the whole command, as MongoDB's parse of the statement;
            // a known stage an update may not use fails the statement (write_ops.cpp).
            if (e.type() == Array)
                for (BSONElement stage : e.Obj())
                    if (stage.type() == Object && !stage.Obj().isEmpty() &&
                        !isRegisteredStage(stage.Obj().firstElementFieldName()))
                        uasserted(40324, "Unrecognized pipeline stage name: '" +
                                             std::string(stage.Obj().firstElementFieldName()) + "'");
        } else if (f == "c") {
            p.constants = parseObjectArg(e, kPath);
            p.hasConstants = true;
        }
        else if (f == "upsert") s.upsert = parseBoolArg(e, kPath);
        else if (f == "multi") s.multi = parseBoolArg(e, kPath);
        else if (f == "arrayFilters") {
            if (e.type() != Array)
                uasserted(ErrorCodes::TypeMismatch, "BSON field 'update.updates.arrayFilters' is the wrong type '" +
                                                        typeName(e.type()) + "', expected type 'array'");
            for (BSONElement af : e.Obj()) {
                if (af.type() != Object) uasserted(ErrorCodes::TypeMismatch, "arrayFilters entries must be objects");
                s.arrayFilters.push_back(af.Obj());
            }
        } else if (f == "hint") s.hint = parseHint(e);
        else if (f == "collation") p.collation = e;
    }
    if (!o.hasField("q")) uasserted(ErrorCodes::Location40414, "BSON field 'update.updates.q' is missing but a required field");
    if (!o.hasField("u")) uasserted(ErrorCodes::Location40414, "BSON field 'update.updates.u' is missing but a required field");
    return p;
}

class UpdateCmd : public Command {
public:
    UpdateCmd() : Command("update") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return auth::updatePrivileges(req); }
    std::string help() const override { return "update documents"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        auto args = parseWriteCommand(opCtx, req, "updates");
        const NamespaceString& nss = args.nss;
        std::vector<ParsedUpdateStatement> stmts;
        for (const BSONObj& o : args.stmts) stmts.push_back(parseUpdateStatement(o));
        CommandLetVariables let = commandLet(req);
        bool bypassEmptyTs = optionalBool(req, "bypassEmptyTsReplacement");
        long long n = 0, nModified = 0;
        BSONArrayBuilder upserted;
        std::vector<WriteError> errors;
        repl::RetryableWrite* rw = repl::RetryableWrite::get(opCtx);
        for (size_t i = 0; i < stmts.size(); i++) {
            globalOpCounters().gotUpdate(1);
            const int stmtId = rw ? rw->stmtIdAt(i) : -1;
            if (rw) {
                // Executed before under this txnNumber: answered from its oplog entry.
                if (auto done = rw->checkStatementExecuted(stmtId)) {
                    if (done->op == 'i') {
                        n++;
                        BSONObjBuilder u;
                        u.append("index", static_cast<int>(i));
                        u.append(done->upsertedId.firstElement());
                        upserted.append(u.obj());
                    } else if (done->op == 'u') {
                        n++;
                        nModified++;
                    } else {
                        uasserted(40638, std::string("update retry request is not compatible with previous write in "
                                                     "the transaction of type: ") + done->op +
                                             ", oplogTs: " + done->opTime.toString());
                    }
                    continue;
                }
            }
            try {
                if (rw) {
                    uassert(ErrorCodes::InvalidOptions, "Cannot use (or request) retryable writes with multi=true",
                            !stmts[i].stmt.multi);
                    rw->setCurrentStatement(stmtId);
                }
                UpdateStatement s = stmts[i].stmt;
                s.collation = parseCollationOption(stmts[i].collation, "update.updates.collation");
                // Constants ('c') are variables of a pipeline update, beside the command's 'let'.
                if (stmts[i].hasConstants && s.u.type() != Array)
                    uasserted(51198, "Constant values may only be specified for pipeline updates");
                s.q = let.bindInFilter(s.q);
                s.letVars = let.withConstants(stmts[i].constants).asExpressions();
                s.bypassEmptyTsReplacement = bypassEmptyTs;
                UpdateResult r = performUpdate(opCtx, nss, s, false);
                n += r.nMatched;
                nModified += r.nModified;
                if (r.upsertedId) {
                    n++;
                    BSONObjBuilder u;
                    u.append("index", static_cast<int>(i));
                    u.append((*r.upsertedId).firstElement());
                    upserted.append(u.obj());
                }
            } catch (const DBException& e) {
                errors.push_back(makeWriteError(static_cast<int>(i), e));
                if (args.ordered) break;
            }
        }
        result.appendNumber("n", n);
        result.appendNumber("nModified", nModified);
        if (upserted.arrSize()) result.append("upserted", upserted.arr());
        finishWriteCommand(opCtx, result, errors);
    }
};
UpdateCmd updateCmd;

// One delete statement as MongoDB's DeleteOpEntry parses it (errors fail the whole command).
struct ParsedDeleteStatement {
    BSONObj q;
    bool justOne = false;
    BSONObj hint;
    BSONElement collation;
};

ParsedDeleteStatement parseDeleteStatement(const BSONObj& o) {
    const char* kPath = "delete.deletes";
    checkStrictFields(o, kPath, {"q", "limit", "collation", "hint"});
    ParsedDeleteStatement p;
    if (!o.hasField("q")) uasserted(ErrorCodes::Location40414, "BSON field 'delete.deletes.q' is missing but a required field");
    p.q = parseObjectArg(o["q"], kPath);
    BSONElement lim = o["limit"];
    if (lim.eoo()) uasserted(ErrorCodes::Location40414, "BSON field 'delete.deletes.limit' is missing but a required field");
    long long limit = parseIntegerArg(lim, kPath);
    if (limit != 0 && limit != 1)
        uasserted(ErrorCodes::FailedToParse, "The limit field in delete objects must be 0 or 1. Got " + std::to_string(limit));
    p.justOne = limit == 1;
    p.hint = parseHint(o["hint"]);
    p.collation = o["collation"];
    return p;
}

class DeleteCmd : public Command {
public:
    DeleteCmd() : Command("delete") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest& req) const override { return RequiredPrivileges::onCommandNamespace(req, {ActionType::remove}); }
    std::string help() const override { return "delete documents"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        auto args = parseWriteCommand(opCtx, req, "deletes");
        std::vector<ParsedDeleteStatement> stmts;
        for (const BSONObj& o : args.stmts) stmts.push_back(parseDeleteStatement(o));
        CommandLetVariables let = commandLet(req);
        long long n = 0;
        std::vector<WriteError> errors;
        repl::RetryableWrite* rw = repl::RetryableWrite::get(opCtx);
        for (size_t i = 0; i < stmts.size(); i++) {
            const int stmtId = rw ? rw->stmtIdAt(i) : -1;
            if (rw && rw->checkStatementExecuted(stmtId)) {
                n++;  // executed before under this txnNumber (MongoDB counts it as one)
                continue;
            }
            try {
                if (rw) {
                    uassert(ErrorCodes::InvalidOptions, "Cannot use (or request) retryable writes with limit=0",
                            stmts[i].justOne);
                    rw->setCurrentStatement(stmtId);
                }
                CollationOption collation = parseCollationOption(stmts[i].collation, "delete.deletes.collation");
                long long d = performDelete(opCtx, args.nss, let.bindInFilter(stmts[i].q), stmts[i].justOne,
                                            stmts[i].hint, BSONObj(), nullptr, collation);
                globalOpCounters().gotDelete(1);
                n += d;
            } catch (const DBException& e) {
                errors.push_back(makeWriteError(static_cast<int>(i), e));
                if (args.ordered) break;
            }
        }
        result.appendNumber("n", n);
        finishWriteCommand(opCtx, result, errors);
    }
};
DeleteCmd deleteCmd;

}  // namespace
}  // namespace mongo
