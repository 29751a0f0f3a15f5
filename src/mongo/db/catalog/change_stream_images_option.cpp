#include "mongo/db/catalog/change_stream_images_option.h"

namespace mongo {

Status validateChangeStreamPreAndPostImages(const BSONElement& option, std::string_view cmdName) {
    const std::string path = std::string(cmdName) + ".changeStreamPreAndPostImages";
    if (option.type() != Object)
        return Status(ErrorCodes::TypeMismatch, "BSON field '" + path + "' is the wrong type '" +
                                                    typeName(option.type()) + "', expected type 'object'");
    bool sawEnabled = false;
    for (BSONElement f : option.Obj()) {
        if (f.fieldNameStringData() != "enabled")
            return Status(ErrorCodes::Location40415,
                          "BSON field '" + path + "." + std::string(f.fieldNameStringData()) + "' is an unknown field.");
        if (f.type() != Bool)
            return Status(ErrorCodes::TypeMismatch, "BSON field '" + path + ".enabled' is the wrong type '" +
                                                        typeName(f.type()) + "', expected type 'bool'");
        sawEnabled = true;
    }
    if (!sawEnabled)
        return Status(ErrorCodes::Location40414, "BSON field '" + path + ".enabled' is missing but a required field");
    return Status::OK();
}

}  // namespace mongo
