#include "mongo/db/query/collation_spec.h"

#include <string>

#include "mongo/base/status.h"

namespace mongo {

void checkSimpleCollation(const BSONElement& collation, std::string_view path) {
    if (collation.eoo()) return;
    if (collation.type() != Object)
        uasserted(ErrorCodes::TypeMismatch, "BSON field '" + std::string(path) + "' is the wrong type '" +
                                                typeName(collation.type()) + "', expected type 'object'");
    BSONObj spec = collation.Obj();
    if (spec.isEmpty()) return;
    BSONElement locale = spec["locale"];
    if (locale.eoo())
        uasserted(ErrorCodes::Location40414, "BSON field '" + std::string(path) +
                                                 ".locale' is missing but a required field");
    if (locale.type() != String)
        uasserted(ErrorCodes::TypeMismatch, "BSON field '" + std::string(path) + ".locale' is the wrong type '" +
                                                typeName(locale.type()) + "', expected type 'string'");
    if (locale.str() != "simple" || spec.nFields() != 1)
        uasserted(ErrorCodes::BadValue, "Unsupported collation " + spec.toString() +
                                            ": this server only supports the simple collation {locale: \"simple\"}");
}

}  // namespace mongo
