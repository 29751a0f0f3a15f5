// insert, update, delete: batches of statements with per-statement write errors.
#include "mongo/db/commands/command.h"
#include "mongo/db/commands/server_status_counters.h"
#include "mongo/db/commands/command_helpers.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/query/find_request.h"

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

// Durable commits for j:true / fsync:true write concerns.
void applyWriteConcern(OperationContext* opCtx, const OpMsgRequest& req) {
    if (parseWriteConcernIsDurable(req.body)) opCtx->recoveryUnit()->setDurableCommit(true);
}

// What insert, update and delete share: the target, the statements (checked for count) and
// ordered; a j:true write concern makes the commits durable.
struct WriteCommandArgs {
    NamespaceString nss;
    std::vector<BSONObj> stmts;
    bool ordered;
};

WriteCommandArgs parseWriteCommand(OperationContext* opCtx, const OpMsgRequest& req, const char* field,
                                   std::initializer_list<std::string_view> known) {
    WriteCommandArgs a{commandTargetNamespace(req), {}, true};
    checkKnownFields(req, known);
    a.ordered = orderedArg(req);
    if (BSONElement b = req.body["bypassDocumentValidation"]; !b.eoo())
        opCtx->bypassDocumentValidation = parseBoolArg(b, req.commandName().c_str());
    a.stmts = statements(req, field);
    checkBatchSize(a.stmts.size());
    applyWriteConcern(opCtx, req);
    return a;
}

class InsertCmd : public Command {
public:
    InsertCmd() : Command("insert") {}
    std::string help() const override { return "insert documents"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        auto args = parseWriteCommand(opCtx, req, "documents",
                                      {"documents", "ordered", "bypassDocumentValidation", "stmtId", "stmtIds"});
        std::vector<WriteError> errors;
        long long n = insertDocuments(opCtx, args.nss, args.stmts, args.ordered, &errors);
        globalOpCounters().gotInsert(static_cast<long long>(args.stmts.size()));
        result.appendNumber("n", n);
        appendWriteErrors(result, errors);
    }
};
InsertCmd insertCmd;

class UpdateCmd : public Command {
public:
    UpdateCmd() : Command("update") {}
    std::string help() const override { return "update documents"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        auto args = parseWriteCommand(opCtx, req, "updates",
                                      {"updates", "ordered", "bypassDocumentValidation", "let", "stmtId", "stmtIds"});
        const NamespaceString& nss = args.nss;
        const auto& stmts = args.stmts;
        bool ordered = args.ordered;
        long long n = 0, nModified = 0;
        BSONArrayBuilder upserted;
        std::vector<WriteError> errors;
        for (size_t i = 0; i < stmts.size(); i++) {
            globalOpCounters().gotUpdate(1);
            try {
                UpdateStatement s = parseStatement(stmts[i]);
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
                if (ordered) break;
            }
        }
        result.appendNumber("n", n);
        result.appendNumber("nModified", nModified);
        if (upserted.arrSize()) result.append("upserted", upserted.arr());
        appendWriteErrors(result, errors);
    }

private:
    static UpdateStatement parseStatement(const BSONObj& o) {
        UpdateStatement s;
        for (BSONElement e : o) {
            std::string_view f = e.fieldNameStringData();
            if (f == "q") s.q = parseObjectArg(e, "update.updates");
            else if (f == "u") s.u = e;
            else if (f == "upsert") s.upsert = parseBoolArg(e, "update.updates");
            else if (f == "multi") s.multi = parseBoolArg(e, "update.updates");
            else if (f == "arrayFilters") {
                if (e.type() != Array) uasserted(ErrorCodes::TypeMismatch, "arrayFilters must be an array");
                for (BSONElement af : e.Obj()) {
                    if (af.type() != Object) uasserted(ErrorCodes::TypeMismatch, "arrayFilters entries must be objects");
                    s.arrayFilters.push_back(af.Obj());
                }
            } else if (f == "hint") s.hint = parseHint(e);
            else if (f == "collation" || f == "upsertSupplied" || f == "c" || f == "sort") {
            } else uasserted(ErrorCodes::Location40415, "BSON field 'UpdateOpEntry." + std::string(f) + "' is an unknown field.");
        }
        if (!o.hasField("q")) uasserted(ErrorCodes::Location40414, "BSON field 'UpdateOpEntry.q' is missing but a required field");
        if (!o.hasField("u")) uasserted(ErrorCodes::Location40414, "BSON field 'UpdateOpEntry.u' is missing but a required field");
        return s;
    }
};
UpdateCmd updateCmd;

class DeleteCmd : public Command {
public:
    DeleteCmd() : Command("delete") {}
    std::string help() const override { return "delete documents"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        auto args = parseWriteCommand(opCtx, req, "deletes", {"deletes", "ordered", "let", "stmtId", "stmtIds"});
        const NamespaceString& nss = args.nss;
        const auto& stmts = args.stmts;
        bool ordered = args.ordered;
        long long n = 0;
        std::vector<WriteError> errors;
        for (size_t i = 0; i < stmts.size(); i++) {
            try {
                const BSONObj& s = stmts[i];
                BSONObj q = parseObjectArg(s["q"], "delete.deletes");
                if (!s.hasField("q")) uasserted(ErrorCodes::Location40414, "BSON field 'DeleteOpEntry.q' is missing but a required field");
                BSONElement lim = s["limit"];
                if (lim.eoo()) uasserted(ErrorCodes::Location40414, "BSON field 'DeleteOpEntry.limit' is missing but a required field");
                long long limit = parseIntegerArg(lim, "delete.deletes");
                if (limit != 0 && limit != 1)
                    uasserted(ErrorCodes::FailedToParse, "The limit field in delete objects must be 0 or 1. Got " + std::to_string(limit));
                long long d = performDelete(opCtx, nss, q, limit == 1, parseHint(s["hint"]), BSONObj(), nullptr);
                globalOpCounters().gotDelete(1);
                n += d;
            } catch (const DBException& e) {
                errors.push_back(makeWriteError(static_cast<int>(i), e));
                if (ordered) break;
            }
        }
        result.appendNumber("n", n);
        appendWriteErrors(result, errors);
    }
};
DeleteCmd deleteCmd;

}  // namespace
}  // namespace mongo
