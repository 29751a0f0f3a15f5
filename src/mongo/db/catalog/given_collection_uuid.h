#pragma once
// GivenCollectionUuid: while one is in scope on a thread, a collection that thread creates takes
// the given UUID instead of a new one. A secondary applying a create entry gives the entry's ui,
// an initial sync the source's listCollections info.uuid: a collection then has one UUID on every
// member, as in MongoDB (drivers and tools read it from listCollections, the oplog's ui names it,
// and MongoDB's replica-set checks compare listCollections across members).
// Scopes nest; an empty UUID gives none (a new one is made).
#include <string>

namespace mongo {

class GivenCollectionUuid {
public:
    explicit GivenCollectionUuid(std::string uuidHex);
    ~GivenCollectionUuid();
    GivenCollectionUuid(const GivenCollectionUuid&) = delete;
    GivenCollectionUuid& operator=(const GivenCollectionUuid&) = delete;

    // The UUID (32 hex digits) of the innermost scope on this thread, "" if none.
    static const std::string& current();

private:
    std::string _uuidHex;
    const GivenCollectionUuid* _prev;
};

}  // namespace mongo
