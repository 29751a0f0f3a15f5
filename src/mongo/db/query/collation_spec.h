#pragma once
// Collations. This server compares strings by their bytes (MongoDB's "simple" collation) and has
// no ICU, so it cannot honour a collation of any other locale. Every place that takes a
// collation (find, aggregate, count, distinct, update and delete statements, findAndModify,
// create, index specs) goes through checkSimpleCollation, so that they all refuse the same way
// instead of some of them ignoring the option.
// Stateless; thread safe.
#include <string_view>

#include "mongo/bson/bsonobj.h"

namespace mongo {

// Accepts an absent collation, an empty document (MongoDB's "no collation" for operations) and
// {locale: "simple"}. Refuses, with what MongoDB answers for a malformed or unknown collation:
//   - a value that is not a document: TypeMismatch (14), "BSON field '<path>' is the wrong
//     type '<type>', expected type 'object'";
//   - a document without locale: 40414; a locale that is not a string: TypeMismatch;
//   - any other locale, or options besides locale: BadValue (2), the error MongoDB gives for a
//     locale it does not know; the message says that only the simple collation is supported.
// path names the option in messages, e.g. "FindCommandRequest.collation".
void checkSimpleCollation(const BSONElement& collation, std::string_view path);

}  // namespace mongo
