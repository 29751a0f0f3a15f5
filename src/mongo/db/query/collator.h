#pragma once
// MongoDB's collations over ICU: a parsed collation document and the string comparator it
// defines. Every comparison of strings under a collation (matcher, sort, distinct, index keys)
// goes through one Collator, as the BSON layer's StringComparator (bson/string_comparator.h).
//
// The simple collation (bytewise, {locale: "simple"}) is represented by a null Collator
// pointer everywhere; Collator objects exist only for ICU locales.
//
// Thread safety: a Collator is immutable after construction; compare() and comparisonKey()
// may be called concurrently (ICU's collators are safe for concurrent const use). make() is
// thread safe and returns shared instances from a process-wide cache.
#include <memory>
#include <string>
#include <string_view>

#include "mongo/bson/bsonobj.h"
#include "mongo/bson/string_comparator.h"

struct UCollator;

namespace mongo {

class BSONObjBuilder;

class Collator : public StringComparator {
public:
    // The ICU version MongoDB 7.0 reports in every collation spec.
    static constexpr const char* kVersion = "57.1";

    // Parses a collation document as MongoDB 7.0 does. Returns null for the simple collation
    // ({locale: "simple"} alone). Throws DBException with MongoDB's codes:
    //   40414 locale missing; 14 TypeMismatch for a field of the wrong type; 40415 unknown
    //   field; 51024 strength outside 0..5, BadValue for strength 0 and unknown enumeration
    //   values (caseFirst, alternate, maxVariable); BadValue "Field 'locale' is invalid in:
    //   ..." for a locale ICU has no collation for; FailedToParse for {locale: "simple"} with
    //   other fields; IncompatibleCollationVersion (161) for a version other than "57.1".
    // Options not given take the locale's defaults (e.g. fr_CA has backwards: true).
    static std::shared_ptr<const Collator> make(const BSONObj& spec);

    ~Collator() override;
    int compare(std::string_view a, std::string_view b) const override;
    std::string comparisonKey(std::string_view s) const override;

    // The full form MongoDB reports (listCollections, listIndexes, explain): locale, caseLevel,
    // caseFirst, strength, numericOrdering, alternate, maxVariable, normalization, backwards,
    // version, in that order.
    const BSONObj& spec() const { return _spec; }

    // Collator(const ...) is private: use make().
    Collator(UCollator* c, BSONObj spec);
    Collator(const Collator&) = delete;
    Collator& operator=(const Collator&) = delete;

private:
    UCollator* _collator;
    BSONObj _spec;
};

using CollatorPtr = std::shared_ptr<const Collator>;

// Do two collations (null: simple) compare strings the same way?
bool sameCollation(const Collator* a, const Collator* b);
inline bool sameCollation(const CollatorPtr& a, const CollatorPtr& b) { return sameCollation(a.get(), b.get()); }

// The spec to report for a collation: the collator's full form, or {locale: "simple"}.
BSONObj collationSpecOf(const Collator* c);

// A copy of v with every String and Symbol (at any depth) replaced by the collator's
// comparison key, as MongoDB stores strings in the keys of an index with a collation; field
// names and other types are kept. Returns v itself when c is null.
BSONObj toComparisonKeys(const BSONObj& v, const Collator* c);
// The same for one element, appended to b under name.
void appendComparisonKey(BSONObjBuilder* b, std::string_view name, const BSONElement& e, const Collator* c);

}  // namespace mongo
