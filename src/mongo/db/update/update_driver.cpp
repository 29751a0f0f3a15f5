#include "mongo/db/update/update_driver.h"

#include <algorithm>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/update/array_filters.h"
#include "mongo/db/update/element_format.h"
#include "mongo/db/update/storage_validation.h"
#include "mongo/db/update/update_node.h"
#include "mongo/db/update/write_timestamp.h"

namespace mongo {
namespace {

// The document with its _id (if any) as the first field.
BSONObj withIdFirst(const BSONObj& doc) {
    BSONElement id = doc.getField("_id");
    if (id.eoo() || doc.firstElementFieldName() == "_id") return doc;
    BSONObjBuilder b;
    b.append(id);
    for (BSONElement e : doc)
        if (e.fieldNameStringData() != "_id") b.append(e);
    return b.obj();
}

void checkResultSize(const BSONObj& doc) {
    uassert(17419,
            "Resulting document after update is larger than " + std::to_string(BSONObjMaxUserSize),
            doc.objsize() <= BSONObjMaxUserSize);
}

}  // namespace

struct UpdateDriver::Impl {
    BSONObj update;  // owned: the parsed tree points into it
    bool replacement = false;
    bool bypassEmptyTsReplacement = false;
    std::unique_ptr<ArrayFilters> arrayFilters;
    std::shared_ptr<ObjectUpdateNode> root;

    BSONObj applyReplacement(const BSONObj& doc, bool isInsert) const;
    BSONObj applyOperators(const BSONObj& doc, const std::string& positionalIndex, bool isInsert) const;
};

UpdateDriver::UpdateDriver(const BSONObj& u, const std::vector<BSONObj>& arrayFilters, bool bypassEmptyTsReplacement,
                           CollatorPtr collator)
    : _impl(new Impl) {
    _impl->update = u.getOwned();
    _impl->bypassEmptyTsReplacement = bypassEmptyTsReplacement;
    const BSONObj& update = _impl->update;
    // mongod's rule: an update document is a replacement unless its first field is an operator.
    _impl->replacement = update.isEmpty() || update.firstElementFieldName()[0] != '$';
    if (_impl->replacement) {
        uassert(ErrorCodes::FailedToParse,
                "arrayFilters may not be specified for replacement-style updates",
                arrayFilters.empty());
        return;
    }

    _impl->arrayFilters = std::make_unique<ArrayFilters>(arrayFilters, std::move(collator));
    _impl->root = std::make_shared<ObjectUpdateNode>();
    std::vector<std::string> usedIdentifiers;
    for (BSONElement mod : update) {
        std::string op(mod.fieldNameStringData());
        uassert(ErrorCodes::FailedToParse,
                "Unknown modifier: " + op +
                    ". Expected a valid update modifier or pipeline-style update specified as an array",
                isKnownUpdateOperator(op));
        uassert(ErrorCodes::FailedToParse,
                "Modifiers operate on fields but we found type " + typeName(mod.type()) +
                    " instead. For example: {$mod: {<field>: ...}} not {" + formatElementForError(mod) + "}",
                mod.type() == Object);
        // An empty operator document ({$set: {}}) is a no-op since MongoDB 5.0.
        for (BSONElement field : mod.Obj())
            parseAndMergeModifier(_impl->root.get(), op, field, *_impl->arrayFilters, &usedIdentifiers);
    }
    for (const std::string& id : _impl->arrayFilters->identifiers())
        uassert(ErrorCodes::FailedToParse,
                "The array filter for identifier '" + id + "' was not used in the update " +
                    formatObjectForError(update),
                std::find(usedIdentifiers.begin(), usedIdentifiers.end(), id) != usedIdentifiers.end());
}

UpdateDriver::~UpdateDriver() = default;
UpdateDriver::UpdateDriver(UpdateDriver&&) noexcept = default;

bool UpdateDriver::isReplacement() const { return _impl->replacement; }

BSONObj UpdateDriver::apply(const BSONObj& doc, const std::string& positionalIndex, bool isInsert, bool* changed) const {
    BSONObj result = _impl->replacement ? _impl->applyReplacement(doc, isInsert)
                                        : _impl->applyOperators(doc, positionalIndex, isInsert);
    if (changed) *changed = !result.binaryEqual(doc);
    return result;
}

BSONObj UpdateDriver::Impl::applyReplacement(const BSONObj& doc, bool isInsert) const {
    BSONElement oldId = doc.getField("_id");
    BSONElement newId = update.getField("_id");
    if (!isInsert && oldId.ok() && newId.ok() && oldId.woCompare(newId) != 0)
        uasserted(ErrorCodes::ImmutableField,
                  "After applying the update, the (immutable) field '_id' was found to have been altered to " +
                      formatElementForError(newId));
    BSONObjBuilder b;
    // The replacement keeps the original _id when it has none of its own.
    if (newId.ok())
        b.append(newId);
    else if (oldId.ok())
        b.append(oldId);
    for (BSONElement e : update) {
        if (e.fieldNameStringData() == "_id") continue;
        // As for inserts, a top-level Timestamp(0, 0) stands for "now".
        if (e.type() == bsonTimestamp && e.timestamp().isNull() && !bypassEmptyTsReplacement)
            b.append(e.fieldNameStringData(), nextWriteTimestamp());
        else
            b.append(e);
    }
    BSONObj out = b.obj();
    // A document created by an upsert is validated as an insert.
    uassertStatusOK(validateStorageDocument(out, isInsert));
    checkResultSize(out);
    return out;
}

BSONObj UpdateDriver::Impl::applyOperators(const BSONObj& doc, const std::string& positionalIndex, bool isInsert) const {
    MutableDocument mutableDoc(doc);
    ApplyContext ctx;
    ctx.doc = &mutableDoc;
    ctx.matchedField = positionalIndex;
    ctx.isInsert = isInsert;
    BSONElement id = doc.getField("_id");
    ctx.protectId = !isInsert && id.ok();
    ctx.idDescription = id.ok() ? formatElementForError(id) : "no id";
    ctx.arrayFilters = arrayFilters.get();

    root->apply(&ctx, PathCursor{&mutableDoc.root(), {}});
    if (!ctx.modified) return doc.getOwned();

    BSONObj out = withIdFirst(mutableDoc.toBSON());
    if (!ctx.protectId) {
        BSONElement newId = out.getField("_id");
        if (newId.ok()) uassertStatusOK(validateIdField(newId));
    }
    checkResultSize(out);
    return out;
}

}  // namespace mongo
