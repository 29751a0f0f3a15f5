#pragma once
// Paths of update operators ("a.b.0", "a.$", "a.$[x]") and their navigation/creation in a
// MutableDocument, with mongod's rules: numeric components index arrays, missing components are
// created as embedded documents (arrays are padded with nulls up to a numeric index), and a
// component that cannot be created fails with PathNotViable. Stateless helpers; thread safe.
#include <string>
#include <string_view>
#include <vector>

#include "mongo/db/update/mutable_document.h"

namespace mongo {

// Splits "a.b.c" on dots; empty components are kept ("a..b" -> "a", "", "b").
std::vector<std::string> splitDottedPath(std::string_view path);
std::string joinPath(const std::vector<std::string>& parts, size_t from = 0, size_t to = std::string::npos);

// A non-empty string of decimal digits that fits in size_t.
bool parseArrayIndex(std::string_view part, size_t* index);
inline bool isPositionalPart(std::string_view part) { return part == "$"; }
// "$[]" or "$[<identifier>]".
inline bool isArrayFilterPart(std::string_view part) {
    return part.size() >= 3 && part[0] == '$' && part[1] == '[' && part.back() == ']';
}

// Order in which update operators visit sibling fields (MongoDB 5.0+): numeric names in numeric
// order, other names lexicographically (numeric names before the others).
struct UpdateFieldNameLess {
    bool operator()(const std::string& a, const std::string& b) const;
};

// Where an update path currently points: the deepest existing element along it, plus the
// components below that element that do not exist (yet).
struct PathCursor {
    MutableElement* existing = nullptr;
    std::vector<std::string> missing;
};

// Moves 'cursor' down through missing components that exist now (created by an earlier
// operator of the same update).
void advanceCursor(PathCursor* cursor);
// The cursor for child 'part' of the position 'cursor' designates.
PathCursor descendCursor(const PathCursor& cursor, const std::string& part);

// Creates 'missing' below 'at' and gives the last component the value 'value'. Throws
// PathNotViable ("Cannot create field 'b' in element {a: 1}") or CannotBackfillArray.
// Returns the first element created.
MutableElement* createPathAt(MutableElement* at, const std::vector<std::string>& missing, const BSONElement& value);

// "name: value" as mongod prints an element in error messages.
std::string describeElement(MutableElement* e);

}  // namespace mongo
