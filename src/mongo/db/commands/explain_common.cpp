#include "mongo/db/commands/explain_common.h"

#include <unistd.h>

#include <cstdio>

#include "mongo/db/commands/build_info.h"
#include "mongo/db/query/collator.h"
#include "mongo/db/server_options.h"
#include "mongo/db/server_parameters.h"

namespace mongo {
namespace {

void appendShape(const BSONObj& o, std::string* out) {
    for (BSONElement e : o) {
        out->append(e.fieldNameStringData());
        out->push_back(':');
        if (e.type() == Object || e.type() == Array) {
            out->push_back(e.type() == Object ? '{' : '[');
            appendShape(e.Obj(), out);
            out->push_back(e.type() == Object ? '}' : ']');
        } else {
            out->append(std::to_string(e.canonicalType()));
        }
        out->push_back(',');
    }
}

}  // namespace

void appendServerInfo(BSONObjBuilder& result) {
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    BSONObjBuilder& si = result.subobjStart("serverInfo");
    si.append("host", host);
    si.append("port", serverGlobalParams().port);
    si.append("version", kServerVersion);
    si.append("gitVersion", "0000000000000000000000000000000000000000");
    si.doneFast();
}

void appendServerParameters(BSONObjBuilder& result) {
    // The limits this server has no knob for are MongoDB's defaults, which it applies too
    // (e.g. $addToSet's 100 MB, accumulator.cpp).
    const long long kDefault = 100LL * 1024 * 1024;
    BSONObjBuilder& sp = result.subobjStart("serverParameters");
    sp.appendNumber("internalQueryFacetBufferSizeBytes", kDefault);
    sp.appendNumber("internalQueryFacetMaxOutputDocSizeBytes", kDefault);
    sp.appendNumber("internalLookupStageIntermediateDocumentMaxSizeBytes", kDefault);
    sp.appendNumber("internalDocumentSourceGroupMaxMemoryBytes", internalDocumentSourceGroupMaxMemoryBytes());
    sp.appendNumber("internalQueryMaxBlockingSortMemoryUsageBytes", internalQueryMaxBlockingSortMemoryUsageBytes());
    sp.append("internalQueryProhibitBlockingMergeOnMongoS", 0);
    sp.appendNumber("internalQueryMaxAddToSetBytes", kDefault);
    sp.appendNumber("internalDocumentSourceSetWindowFieldsMaxMemoryBytes", kDefault);
    sp.append("internalQueryFrameworkControl", "trySbeRestricted");
    sp.doneFast();
}

std::string queryShapeHash(const CanonicalQuery& cq) {
    std::string shape;
    appendShape(serializeMatchExpression(*cq.matcher().root()), &shape);
    shape += "|" + cq.request().sort.toString() + "|" + cq.request().projection.toString();
    uint32_t h = 2166136261u;  // FNV-1a
    for (unsigned char c : shape) h = (h ^ c) * 16777619u;
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08X", h);
    return buf;
}

void appendQueryPlanner(BSONObjBuilder& result, const NamespaceString& nss, const PlanExecutor& exec,
                        const BSONObj& extra, const std::function<BSONObj(const BSONObj&)>& wrap) {
    auto wrapped = [&](const BSONObj& plan) { return wrap ? wrap(plan) : plan; };
    const CanonicalQuery& cq = exec.query();
    BSONObjBuilder& qp = result.subobjStart("queryPlanner");
    qp.append("namespace", nss.ns());
    qp.append("indexFilterSet", false);
    qp.append("parsedQuery", serializeMatchExpression(*cq.matcher().root()));
    if (cq.collator()) qp.append("collation", cq.collator()->spec());
    qp.append("queryHash", queryShapeHash(cq));
    qp.appendElements(extra);
    qp.append("maxIndexedOrSolutionsReached", false);
    qp.append("maxIndexedAndSolutionsReached", false);
    qp.append("maxScansToExplodeReached", false);
    qp.append("winningPlan", wrapped(exec.winningPlan()));
    BSONArrayBuilder rejected;
    for (BSONElement r : exec.rejectedPlans()) rejected.append(wrapped(r.Obj()));
    qp.append("rejectedPlans", rejected.arr());
    qp.doneFast();
}

}  // namespace mongo
