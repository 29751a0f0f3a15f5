#pragma once
// Collection validators: the "validator", "validationLevel" and "validationAction" options of
// create and collMod, and their enforcement on writes, as MongoDB 7.0 does them.
//
//   - A validator is a filter ({a: {$gt: 0}}, {$jsonSchema: {...}}, {$expr: ...}) parsed as
//     MongoDB parses validators: $where, $text, $near/$nearSphere/$geoNear are refused
//     ("... is not allowed in this context", BadValue); $jsonSchema may use encrypt.
//   - validationLevel: "strict" (every insert and update), "moderate" (updates of documents
//     that did not satisfy the validator before are not checked), "off".
//   - validationAction: "error" (the write fails with DocumentValidationFailure (121)
//     "Document failed validation" and errInfo {failingDocumentId, details}), or "warn" (the
//     write succeeds and mongod logs warning 20294 "Document would fail validation").
//   - bypassDocumentValidation on a command skips all of it.
// Validation happens before a document reaches the storage layer (dedup included).
#include <memory>
#include <optional>
#include <string>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/error_extra_info.h"
#include "mongo/db/namespace_string.h"

namespace mongo {

class Collection;
class Matcher;

// DocumentValidationFailure with its errInfo ({failingDocumentId, details}).
class DocumentValidationException : public DBExceptionWithExtraInfo {
public:
    explicit DocumentValidationException(const BSONObj& errInfo);
    BSONObj errInfo() const { return extraInfo()["errInfo"].Obj(); }
};

// Whether 'validator' is acceptable as a collection validator (create, collMod): the parse
// errors of the filter language, plus the operators validators may not use.
Status validateValidatorExpression(const BSONObj& validator);

// InvalidOptions for collections that cannot have a validator (system.* collections, the
// admin, local and config databases).
Status checkValidatorAllowedOn(const NamespaceString& nss);

// Validation of the writes of one operation to one collection. The validator is parsed when
// the operation starts (so $$NOW is the operation's). Not thread safe; one per operation.
class DocumentValidator {
public:
    // coll's current options; bypass: the command's bypassDocumentValidation.
    DocumentValidator(const Collection* coll, bool bypass);
    ~DocumentValidator();
    DocumentValidator(const DocumentValidator&) = delete;
    DocumentValidator& operator=(const DocumentValidator&) = delete;

    // Checks a document about to be stored; oldDoc is the stored version it replaces (null for
    // inserts and upserts). Throws DocumentValidationException (action "error"); logs a
    // warning (action "warn").
    void check(const BSONObj& newDoc, const BSONObj* oldDoc) const;
    bool active() const { return _matcher != nullptr; }

    // check() in two steps, for callers that write a document later than they check it:
    // the errInfo of a document the validator rejects (none if it passes or is exempt), then
    // the action (throw for "error", log for "warn").
    std::optional<BSONObj> violation(const BSONObj& newDoc, const BSONObj* oldDoc) const;
    void enforce(const BSONObj& newDoc, const BSONObj& errInfo) const;
    bool warnOnly() const { return _warn; }

private:
    bool matches(const BSONObj& doc) const;  // a validator that throws is not satisfied

    std::unique_ptr<Matcher> _matcher;
    BSONObj _validator;
    NamespaceString _nss;
    bool _moderate = false;
    bool _warn = false;
};

}  // namespace mongo
