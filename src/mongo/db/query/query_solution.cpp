#include "mongo/db/query/query_solution.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/multikey_paths.h"

namespace mongo {

const char* stageTypeName(StageType t) {
    switch (t) {
        case StageType::kEOF: return "EOF";
        case StageType::kCollScan: return "COLLSCAN";
        case StageType::kIdHack: return "IDHACK";
        case StageType::kIxScan: return "IXSCAN";
        case StageType::kFetch: return "FETCH";
        case StageType::kOr: return "OR";
        case StageType::kSort: return "SORT";
        case StageType::kSkip: return "SKIP";
        case StageType::kLimit: return "LIMIT";
        case StageType::kProjectionSimple: return "PROJECTION_SIMPLE";
        case StageType::kProjectionDefault: return "PROJECTION_DEFAULT";
        case StageType::kProjectionCovered: return "PROJECTION_COVERED";
        case StageType::kReturnKey: return "RETURN_KEY";
        case StageType::kCountScan: return "COUNT_SCAN";
        case StageType::kDistinctScan: return "DISTINCT_SCAN";
    }
    return "UNKNOWN";
}

bool SolutionNode::fetched() const {
    switch (type) {
        case StageType::kCollScan:
        case StageType::kIdHack:
        case StageType::kFetch: return true;
        case StageType::kIxScan:
        case StageType::kCountScan:
        case StageType::kDistinctScan:
        case StageType::kEOF: return false;
        case StageType::kOr: {
            for (const auto& c : children)
                if (!c->fetched()) return false;
            return true;
        }
        default: return !children.empty() && children[0]->fetched();
    }
}

BSONObj filterToBSON(const std::vector<const MatchExpression*>& clauses) {
    if (clauses.empty()) return BSONObj();
    if (clauses.size() == 1) return serializeMatchExpression(*clauses[0]);
    BSONObjBuilder b;
    BSONArrayBuilder& arr = b.subarrayStart("$and");
    for (const MatchExpression* c : clauses) arr.append(serializeMatchExpression(*c));
    arr.doneFast();
    return b.obj();
}

namespace {
void appendIndexInfo(BSONObjBuilder& b, const IndexEntry& idx) {
    b.append("keyPattern", idx.keyPattern);
    b.append("indexName", idx.name);
    b.append("isMultiKey", idx.multikey);
    b.append("multiKeyPaths", multikeyPathsForExplain(idx.keyPattern, idx.multikeyPaths));
    b.append("isUnique", idx.unique);
    b.append("isSparse", idx.sparse);
    b.append("isPartial", idx.partialFilter != nullptr);
    b.append("indexVersion", 2);
    if (idx.collator) b.append("collation", idx.collator->spec());
}
}  // namespace

BSONObj SolutionNode::toBSON() const {
    BSONObjBuilder b;
    b.append("stage", stageTypeName(type));
    switch (type) {
        case StageType::kCollScan:
            if (!filter.empty()) b.append("filter", filterToBSON(filter));
            b.append("direction", forward ? "forward" : "backward");
            break;
        case StageType::kFetch:
            if (!filter.empty()) b.append("filter", filterToBSON(filter));
            break;
        case StageType::kIxScan:
            if (!filter.empty()) b.append("filter", filterToBSON(filter));
            appendIndexInfo(b, index);
            b.append("direction", forward ? "forward" : "backward");
            if (rangeScan) {
                b.append("indexBounds", BSONObj());
            } else {
                b.append("indexBounds", bounds.toBSON(index.keyPattern, forward, index.collator != nullptr));
            }
            break;
        case StageType::kCountScan:
            appendIndexInfo(b, index);
            b.append("indexBounds", BSONObjBuilder()
                                        .append("startKey", keyWithFieldNames(index.keyPattern, startKey))
                                        .append("startKeyInclusive", true)
                                        .append("endKey", keyWithFieldNames(index.keyPattern, endKey))
                                        .append("endKeyInclusive", endKeyInclusive)
                                        .obj());
            break;
        case StageType::kDistinctScan:
            appendIndexInfo(b, index);
            b.append("direction", forward ? "forward" : "backward");
            b.append("indexBounds", bounds.toBSON(index.keyPattern, forward, index.collator != nullptr));
            break;
        case StageType::kSort:
            b.append("sortPattern", sortPattern);
            b.append("memLimit", 104857600);
            if (limit > 0) b.appendNumber("limitAmount", limit);
            b.append("type", children.empty() || children[0]->fetched() ? "simple" : "default");
            break;
        case StageType::kSkip: b.appendNumber("skipAmount", skip); break;
        case StageType::kLimit: b.appendNumber("limitAmount", limit); break;
        case StageType::kProjectionSimple:
        case StageType::kProjectionDefault: b.append("transformBy", projection); break;
        case StageType::kProjectionCovered: b.append("transformBy", projection); break;
        default: break;
    }
    if (children.size() == 1) {
        b.append("inputStage", children[0]->toBSON());
    } else if (children.size() > 1) {
        BSONArrayBuilder& arr = b.subarrayStart("inputStages");
        for (const auto& c : children) arr.append(c->toBSON());
        arr.doneFast();
    }
    return b.obj();
}

}  // namespace mongo
