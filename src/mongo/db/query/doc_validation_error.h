#pragma once
// Why a document fails a collection validator, in the shape MongoDB 7.0 reports it in a
// DocumentValidationFailure's errInfo:
//   {failingDocumentId: <_id>, details: {operatorName: "$and", clausesNotSatisfied: [
//        {index: 1, details: {operatorName: "$gt", specifiedAs: {a: {$gt: 5}},
//                             reason: "comparison failed", consideredValue: 3}}]}}
// A validator with one clause reports that clause directly; several top-level clauses (or
// several operators on one field) report as an implicit $and. $or/$nor/$not and $nor's
// "clausesSatisfied" invert the reasons as MongoDB does ("comparison succeeded"); $jsonSchema
// clauses report the schema's own rules (JsonSchema::explainFailure); $expr reports its result,
// or the error it raised. Lists of considered values are cut at 10 entries, and an error that
// would exceed 12 MB or nest too deeply is replaced by a truncated one, as MongoDB does.
//
// The validator is re-read clause by clause (each clause re-parsed to evaluate it alone), so
// this costs nothing until a document actually fails. Thread safety: stateless, reentrant.
#include "mongo/bson/bsonobj.h"

namespace mongo {

// The errInfo for doc, which must have failed 'validator' (a filter document that parsed).
// Never throws: should generation itself fail, a minimal errInfo is returned.
BSONObj generateDocValidationErrInfo(const BSONObj& validator, const BSONObj& doc);

// The "details" part alone (for tests).
BSONObj explainValidatorFailure(const BSONObj& validator, const BSONObj& doc);

}  // namespace mongo
