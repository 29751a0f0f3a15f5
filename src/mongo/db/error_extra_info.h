#pragma once
// A DBException whose error carries fields beyond errmsg/code/codeName, as MongoDB's
// ErrorExtraInfo does (DocumentValidationFailure's errInfo, ...). The command dispatcher appends
// them to an error reply after codeName; write commands put them in the writeErrors entry,
// between code and errmsg.
#include <utility>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobj.h"

namespace mongo {

class DBExceptionWithExtraInfo : public DBException {
public:
    DBExceptionWithExtraInfo(Status status, BSONObj extraInfo)
        : DBException(std::move(status)), _extraInfo(extraInfo.getOwned()) {}
    // The extra fields, e.g. {errInfo: {...}}.
    const BSONObj& extraInfo() const { return _extraInfo; }

private:
    BSONObj _extraInfo;
};

}  // namespace mongo
