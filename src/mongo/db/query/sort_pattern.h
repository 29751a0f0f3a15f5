#pragma once
// A sort specification ({a: 1, "b.c": -1}) and the comparison of documents under it, with
// MongoDB's rules: missing sorts as null; for an array value the ascending key is its smallest
// element and the descending key its largest; ties keep no particular order.
#include <string>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

class SortPattern {
public:
    // Throws BadValue (2) / Location15974 style errors for bad specs ("$sort key ordering must
    // be 1 (for ascending) or -1 (for descending)"). {$meta: ...} is rejected.
    explicit SortPattern(const BSONObj& spec);
    int compare(const BSONObj& a, const BSONObj& b) const;  // <0, 0, >0
    bool operator()(const BSONObj& a, const BSONObj& b) const { return compare(a, b) < 0; }
    // The sort key of doc: one value per field, as {"": v1, "": v2}.
    BSONObj extractKey(const BSONObj& doc) const;
    int compareKeys(const BSONObj& ka, const BSONObj& kb) const;
    const BSONObj& spec() const { return _spec; }
    struct Part {
        std::string path;
        bool ascending;
    };
    const std::vector<Part>& parts() const { return _parts; }

private:
    BSONObj _spec;
    std::vector<Part> _parts;
};

}  // namespace mongo
