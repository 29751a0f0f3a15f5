#pragma once
// The `collation` option of commands and statements (find, aggregate, count, distinct, update
// and delete statements, findAndModify, create, index specs): parsing it the same way
// everywhere, and deciding which collation an operation runs with.
// Stateless; thread safe.
#include <string_view>

#include "mongo/bson/bsonobj.h"
#include "mongo/db/query/collator.h"

namespace mongo {

class Collection;

// A command's collation option as given.
struct CollationOption {
    // False when absent or {} (MongoDB's "no collation" for operations): the collection's
    // default collation applies. True for any other document, including {locale: "simple"},
    // which overrides a collection default with the simple collation.
    bool given = false;
    CollatorPtr collator;  // when given: null for the simple collation
};

// Parses the option. Refuses, with MongoDB's errors: a value that is not a document
// (TypeMismatch (14), "BSON field '<path>' is the wrong type '<type>', expected type
// 'object'"), and every error of Collator::make (collator.h). path names the option in
// messages, e.g. "FindCommandRequest.collation".
CollationOption parseCollationOption(const BSONElement& collation, std::string_view path);

// The collation an operation on coll (null: the collection does not exist) runs with: the
// given one, else the collection's default (null: simple).
CollatorPtr resolveCollation(const CollationOption& option, const Collection* coll);

// A read through a view runs under the view's collation; asking for another one fails with
// OptionNotSupportedOnView (167), "Cannot override a view's default collation", as in
// MongoDB. viewCollator: the view's (null: simple).
void uassertViewCollation(const CollationOption& option, const Collator* viewCollator);

}  // namespace mongo
