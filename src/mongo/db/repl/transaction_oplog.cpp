#include "mongo/db/repl/transaction_oplog.h"

#include <algorithm>
#include <string>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {

bool isPartialTransactionEntry(const OplogEntry& entry) {
    return entry.isApplyOps() && entry.o["partialTxn"].trueValue();
}

namespace {
void appendOps(const BSONObj& applyOpsObject, std::vector<BSONObj>* out) {
    BSONElement ops = applyOpsObject["applyOps"];
    uassert(ErrorCodes::FailedToParse, "applyOps entry without an array of operations", ops.type() == Array);
    for (BSONElement op : ops.embeddedObject()) {
        uassert(ErrorCodes::FailedToParse, "applyOps entry with an operation that is not an object",
                op.type() == Object);
        out->push_back(op.embeddedObject().getOwned());
    }
}
}  // namespace

std::vector<BSONObj> transactionOperations(const OplogEntry& commit,
                                           const std::function<std::optional<BSONObj>(const OpTime&)>& readEntry) {
    // Newest first while walking back, then reversed.
    std::vector<BSONObj> chain;  // the applyOps objects
    chain.push_back(commit.o);
    OpTime prev = commit.prevOpTime;
    while (!prev.isNull()) {
        std::optional<BSONObj> doc = readEntry(prev);
        uassert(ErrorCodes::NoSuchKey,
                "an earlier oplog entry of the transaction at " + prev.toString() + " is not in the oplog", doc);
        auto parsed = OplogEntry::parse(*doc);
        uassertStatusOK(parsed.getStatus());
        const OplogEntry& e = parsed.getValue();
        uassert(ErrorCodes::FailedToParse, "the oplog entry at " + prev.toString() + " is not of the same transaction",
                isPartialTransactionEntry(e) && e.txnNumber == commit.txnNumber &&
                    e.lsid["id"].valuesEqual(commit.lsid["id"]));
        chain.push_back(e.o.getOwned());
        prev = e.prevOpTime;
    }
    std::reverse(chain.begin(), chain.end());
    std::vector<BSONObj> ops;
    for (const BSONObj& o : chain) appendOps(o, &ops);
    if (BSONElement count = commit.o["count"]; count.isNumber())
        uassert(ErrorCodes::FailedToParse, "the transaction's entries hold fewer operations than its count",
                static_cast<long long>(ops.size()) == count.numberLong());
    return ops;
}

std::vector<BSONObj> applyOpsObjects(const std::vector<BSONObj>& ops, size_t maxBytes) {
    std::vector<std::vector<BSONObj>> groups(1);
    size_t bytes = 0;
    for (const BSONObj& op : ops) {
        // As an array element: its bytes, a type byte and its index as a field name.
        const size_t size = op.objsize() + 1 + std::to_string(groups.back().size()).size() + 1;
        if (!groups.back().empty() && bytes + size > maxBytes) {
            groups.emplace_back();
            bytes = 0;
        }
        groups.back().push_back(op);
        bytes += size;
    }
    std::vector<BSONObj> out;
    for (size_t i = 0; i < groups.size(); ++i) {
        BSONArrayBuilder arr;
        for (const BSONObj& op : groups[i]) arr.append(op);
        BSONObjBuilder b;
        b.append("applyOps", arr.arr());
        if (groups.size() > 1) {
            if (i + 1 < groups.size())
                b.append("partialTxn", true);
            else
                b.append("count", static_cast<long long>(ops.size()));
        }
        out.push_back(b.obj());
    }
    return out;
}

}  // namespace repl
}  // namespace mongo
