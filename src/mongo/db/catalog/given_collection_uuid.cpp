#include "mongo/db/catalog/given_collection_uuid.h"

namespace mongo {
namespace {
thread_local const GivenCollectionUuid* tCurrent = nullptr;
const std::string kNone;
}  // namespace

GivenCollectionUuid::GivenCollectionUuid(std::string uuidHex) : _uuidHex(std::move(uuidHex)), _prev(tCurrent) {
    tCurrent = this;
}

GivenCollectionUuid::~GivenCollectionUuid() { tCurrent = _prev; }

const std::string& GivenCollectionUuid::current() { return tCurrent ? tCurrent->_uuidHex : kNone; }

}  // namespace mongo
