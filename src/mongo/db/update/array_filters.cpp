#include "mongo/db/update/array_filters.h"

#include <set>

#include "mongo/base/status.h"
#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/matcher.h"

namespace mongo {
namespace {

bool isValidIdentifier(const std::string& id) {
    if (id.empty() || id[0] < 'a' || id[0] > 'z') return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    return true;
}

// Collects the first path component of every field path the filter tests, looking through
// the logical operators that combine whole sub-filters.
void collectTopLevelNames(const BSONObj& filter, std::set<std::string>* names, std::vector<std::string>* ordered) {
    for (BSONElement e : filter) {
        std::string_view name = e.fieldNameStringData();
        if (!name.empty() && name[0] == '$') {
            if ((name == "$and" || name == "$or" || name == "$nor") && e.type() == Array) {
                for (BSONElement clause : e.Obj())
                    if (clause.type() == Object) collectTopLevelNames(clause.Obj(), names, ordered);
            }
            continue;
        }
        std::string first(name.substr(0, name.find('.')));
        if (names->insert(first).second) ordered->push_back(first);
    }
}

}  // namespace

ArrayFilters::ArrayFilters(const std::vector<BSONObj>& filters, CollatorPtr collator) : _collator(std::move(collator)) {
    for (const BSONObj& raw : filters) {
        BSONObj filter = raw.getOwned();
        std::set<std::string> names;
        std::vector<std::string> ordered;
        collectTopLevelNames(filter, &names, &ordered);
        if (ordered.empty())
            uasserted(ErrorCodes::FailedToParse,
                      "Cannot use an expression without a top-level field name in arrayFilters");
        if (ordered.size() > 1)
            uasserted(ErrorCodes::FailedToParse,
                      "Error parsing array filter :: caused by :: Expected a single top-level field name, found '" +
                          ordered[0] + "' and '" + ordered[1] + "'");
        const std::string& id = ordered[0];
        if (!isValidIdentifier(id))
            uasserted(ErrorCodes::BadValue,
                      "Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric "
                      "string beginning with a lowercase letter, found '" +
                          id + "'");
        if (_matchers.count(id))
            uasserted(ErrorCodes::FailedToParse,
                      "Found multiple array filters with the same top-level field name " + id);
        std::unique_ptr<Matcher> matcher;
        try {
            matcher = std::make_unique<Matcher>(filter, _collator);
        } catch (const DBException& ex) {
            uasserted(ex.code(), "Error parsing array filter :: caused by :: " + ex.reason());
        }
        _owned.push_back(filter);
        _matchers.emplace(id, std::move(matcher));
    }
}

ArrayFilters::~ArrayFilters() = default;

std::vector<std::string> ArrayFilters::identifiers() const {
    std::vector<std::string> out;
    for (auto& [id, m] : _matchers) out.push_back(id);
    return out;
}

bool ArrayFilters::matches(const std::string& identifier, const BSONElement& value) const {
    BSONObjBuilder b;
    b.appendAs(value, identifier);
    return _matchers.at(identifier)->matches(b.obj());
}

}  // namespace mongo
