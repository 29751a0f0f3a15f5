#include "mongo/db/query/matcher.h"

#include "mongo/db/query/match_expression.h"

namespace mongo {

// The filter is owned so that the tree's BSONElements (pointing into it) stay valid.
Matcher::Matcher(const BSONObj& filter, CollatorPtr collator)
    : _filter(filter.getOwned()), _collator(std::move(collator)), _root(parseMatchExpression(_filter, _collator.get())) {}

Matcher::~Matcher() = default;
Matcher::Matcher(Matcher&&) noexcept = default;
Matcher& Matcher::operator=(Matcher&&) noexcept = default;

bool Matcher::matches(const BSONObj& doc, MatchDetails* details) const {
    if (details) {
        details->hasElemMatchKey = false;
        details->elemMatchKey.clear();
    }
    return _root->matches(doc, details);
}

bool Matcher::matchesElement(const BSONElement& value, MatchDetails* details) const {
    if (details) {
        details->hasElemMatchKey = false;
        details->elemMatchKey.clear();
    }
    return _root->matchesValueAsRoot(value, details);
}

bool Matcher::matchesEverything() const { return _root->isAlwaysTrue(); }

}  // namespace mongo
