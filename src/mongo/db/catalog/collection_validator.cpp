#include "mongo/db/catalog/collection_validator.h"

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/query/doc_validation_error.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/query/schema/json_schema.h"
#include "mongo/util/log.h"

namespace mongo {
namespace {

BSONObj wrapErrInfo(const BSONObj& errInfo) {
    BSONObjBuilder b;
    b.append("errInfo", errInfo);
    return b.obj();
}

// The operators a validator may not use, wherever the filter language would accept them:
// top level and inside $and/$or/$nor for $where/$text, in a field's operators (also under
// $not and $elemMatch) for the geo-near family.
Status checkRestrictedOperators(const BSONObj& filter, int depth) {
    if (depth > 200) return Status::OK();  // the parser reports over-deep filters itself
    for (BSONElement e : filter) {
        std::string_view name = e.fieldNameStringData();
        if (name == "$where") return Status(ErrorCodes::BadValue, "$where is not allowed in this context");
        if (name == "$text") return Status(ErrorCodes::BadValue, "$text is not allowed in this context");
        if ((name == "$and" || name == "$or" || name == "$nor") && e.type() == Array) {
            for (BSONElement sub : e.Obj())
                if (sub.type() == Object)
                    if (Status s = checkRestrictedOperators(sub.Obj(), depth + 1); !s.isOK()) return s;
            continue;
        }
        if (name.empty() || name[0] == '$' || e.type() != Object) continue;
        for (BSONElement op : e.Obj()) {
            std::string_view opName = op.fieldNameStringData();
            if (opName == "$near" || opName == "$nearSphere" || opName == "$geoNear")
                return Status(ErrorCodes::BadValue, "$geoNear, $near, and $nearSphere are not allowed in this context");
            if ((opName == "$not" || opName == "$elemMatch") && op.type() == Object) {
                // Either more operators of this field or, for $elemMatch, a filter.
                BSONObjBuilder wrapped;
                wrapped.append(e.fieldNameStringData(), op.Obj());
                if (Status s = checkRestrictedOperators(wrapped.obj(), depth + 1); !s.isOK()) return s;
                if (opName == "$elemMatch")
                    if (Status s = checkRestrictedOperators(op.Obj(), depth + 1); !s.isOK()) return s;
            }
        }
    }
    return Status::OK();
}

std::unique_ptr<Matcher> parseValidator(const BSONObj& validator) {
    uassertStatusOK(checkRestrictedOperators(validator, 0));
    ParsingCollectionValidatorScope validatorKeywords;
    return std::make_unique<Matcher>(validator);
}

}  // namespace

DocumentValidationException::DocumentValidationException(const BSONObj& errInfo)
    : DBExceptionWithExtraInfo(Status(ErrorCodes::DocumentValidationFailure, "Document failed validation"),
                               wrapErrInfo(errInfo)) {}

Status validateValidatorExpression(const BSONObj& validator) {
    try {
        parseValidator(validator);
    } catch (const DBException& e) {
        return e.toStatus();
    }
    return Status::OK();
}

Status checkValidatorAllowedOn(const NamespaceString& nss) {
    if (nss.isSystem())
        return Status(ErrorCodes::InvalidOptions, "Document validators not allowed on system collection " + nss.ns());
    if (nss.db() == "admin" || nss.db() == "local" || nss.db() == "config")
        return Status(ErrorCodes::InvalidOptions, "Document validators are not allowed on collection " + nss.ns() +
                                                      " in the " + nss.db() + " internal database");
    return Status::OK();
}

DocumentValidator::DocumentValidator(const Collection* coll, bool bypass) {
    if (!coll || bypass) return;
    const CollectionOptions& o = coll->options();
    if (o.validator.isEmpty() || o.validationLevel == "off") return;
    _validator = o.validator;
    _nss = coll->ns();
    _moderate = o.validationLevel == "moderate";
    _warn = o.validationAction == "warn";
    _matcher = parseValidator(_validator);
}

DocumentValidator::~DocumentValidator() = default;

bool DocumentValidator::matches(const BSONObj& doc) const {
    try {
        return _matcher->matches(doc);
    } catch (const DBException&) {
        return false;  // e.g. an $expr that cannot be evaluated on this document
    }
}

void DocumentValidator::check(const BSONObj& newDoc, const BSONObj* oldDoc) const {
    if (auto errInfo = violation(newDoc, oldDoc)) enforce(newDoc, *errInfo);
}

std::optional<BSONObj> DocumentValidator::violation(const BSONObj& newDoc, const BSONObj* oldDoc) const {
    if (!_matcher) return std::nullopt;
    // moderate: an update of a document that did not pass before is not checked.
    if (_moderate && oldDoc && !matches(*oldDoc)) return std::nullopt;
    if (matches(newDoc)) return std::nullopt;
    return generateDocValidationErrInfo(_validator, newDoc);
}

void DocumentValidator::enforce(const BSONObj& newDoc, const BSONObj& errInfo) const {
    if (_warn) {
        LOGV2_WARNING(20294, Storage, "Document would fail validation",
                      logv2::attrs("namespace", _nss.ns(), "document", newDoc, "errInfo", errInfo));
        return;
    }
    throw DocumentValidationException(errInfo);
}

}  // namespace mongo
