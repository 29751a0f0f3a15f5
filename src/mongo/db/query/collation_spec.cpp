#include "mongo/db/query/collation_spec.h"

#include <string>

#include "mongo/base/status.h"
#include "mongo/db/catalog/collection.h"

namespace mongo {

CollationOption parseCollationOption(const BSONElement& collation, std::string_view path) {
    CollationOption out;
    if (collation.eoo()) return out;
    if (collation.type() != Object)
        uasserted(ErrorCodes::TypeMismatch, "BSON field '" + std::string(path) + "' is the wrong type '" +
                                                typeName(collation.type()) + "', expected type 'object'");
    BSONObj spec = collation.Obj();
    if (spec.isEmpty()) return out;
    out.given = true;
    out.collator = Collator::make(spec);
    return out;
}

CollatorPtr resolveCollation(const CollationOption& option, const Collection* coll) {
    if (option.given || !coll) return option.collator;
    return coll->options().collator;
}

void uassertViewCollation(const CollationOption& option, const Collator* viewCollator) {
    uassert(ErrorCodes::OptionNotSupportedOnView, "Cannot override a view's default collation",
            !option.given || sameCollation(option.collator.get(), viewCollator));
}

}  // namespace mongo
