#include "mongo/db/commands/read_concern_check.h"

#include <set>
#include <string>

#include "mongo/base/status.h"

namespace mongo {

void checkReadConcernArgument(const BSONObj& commandBody, bool replSet) {
    BSONElement rc = commandBody["readConcern"];
    if (rc.eoo()) return;
    if (rc.type() != Object)
        uasserted(ErrorCodes::TypeMismatch, "BSON field 'readConcern' is the wrong type '" + typeName(rc.type()) +
                                                "', expected type 'object'");
    static const std::set<std::string> kFields = {"level", "afterOpTime", "afterClusterTime", "atClusterTime",
                                                  "provenance"};
    std::string level;
    for (BSONElement e : rc.Obj()) {
        const std::string name = e.fieldName();
        if (!kFields.count(name)) uasserted(ErrorCodes::InvalidOptions, "Unrecognized option in readConcern: " + name);
        if (name != "level") continue;
        if (e.type() != String)
            uasserted(ErrorCodes::TypeMismatch, "BSON field 'readConcern.level' is the wrong type '" +
                                                    typeName(e.type()) + "', expected type 'string'");
        level = e.str();
        if (level != "local" && level != "majority" && level != "linearizable" && level != "available" &&
            level != "snapshot")
            uasserted(ErrorCodes::FailedToParse,
                      "readConcern.level must be either 'local', 'majority', 'linearizable', 'available', or "
                      "'snapshot'");
    }
    if (replSet) return;
    if (level == "snapshot")
        uasserted(ErrorCodes::NotAReplicaSet, "node needs to be a replica set member to use readConcern: snapshot");
    if (level == "linearizable")
        uasserted(ErrorCodes::NotAReplicaSet, "node needs to be a replica set member to use read concern");
    for (const char* name : {"afterClusterTime", "atClusterTime"})
        if (rc.Obj().hasField(name))
            uasserted(ErrorCodes::IllegalOperation,
                      std::string("Cannot specify ") + name + " readConcern without replication enabled");
}

}  // namespace mongo
