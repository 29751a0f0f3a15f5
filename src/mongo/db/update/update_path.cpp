#include "mongo/db/update/update_path.h"

#include "mongo/base/status.h"
#include "mongo/db/update/element_format.h"

namespace mongo {
namespace {
// mongod refuses to pad an array with more nulls than this to reach a numeric index.
constexpr size_t kMaxPaddingAllowed = 1500000;

bool isAllDigits(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}
}  // namespace

std::vector<std::string> splitDottedPath(std::string_view path) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        size_t dot = path.find('.', start);
        if (dot == std::string_view::npos) {
            parts.emplace_back(path.substr(start));
            break;
        }
        parts.emplace_back(path.substr(start, dot - start));
        start = dot + 1;
    }
    return parts;
}

std::string joinPath(const std::vector<std::string>& parts, size_t from, size_t to) {
    std::string out;
    to = std::min(to, parts.size());
    for (size_t i = from; i < to; i++) {
        if (i > from) out += '.';
        out += parts[i];
    }
    return out;
}

bool parseArrayIndex(std::string_view part, size_t* index) {
    if (part.empty()) return false;
    size_t v = 0;
    for (char c : part) {
        if (c < '0' || c > '9') return false;
        size_t next = v * 10 + static_cast<size_t>(c - '0');
        if (next / 10 != v) return false;  // overflow
        v = next;
    }
    *index = v;
    return true;
}

bool UpdateFieldNameLess::operator()(const std::string& a, const std::string& b) const {
    // A strict weak order: numeric names first, in numeric order; then the others.
    bool an = isAllDigits(a), bn = isAllDigits(b);
    if (an != bn) return an;
    if (an) {
        std::string_view sa(a), sb(b);
        sa.remove_prefix(std::min(sa.find_first_not_of('0'), sa.size()));
        sb.remove_prefix(std::min(sb.find_first_not_of('0'), sb.size()));
        if (sa.size() != sb.size()) return sa.size() < sb.size();
        if (sa != sb) return sa < sb;
    }
    return a < b;
}

void advanceCursor(PathCursor* cursor) {
    while (!cursor->missing.empty()) {
        MutableElement* c = cursor->existing->childForPathPart(cursor->missing.front());
        if (!c) return;
        cursor->existing = c;
        cursor->missing.erase(cursor->missing.begin());
    }
}

PathCursor descendCursor(const PathCursor& cursor, const std::string& part) {
    PathCursor out = cursor;
    if (out.missing.empty()) {
        if (MutableElement* c = out.existing->childForPathPart(part)) {
            out.existing = c;
            return out;
        }
    }
    out.missing.push_back(part);
    return out;
}

std::string describeElement(MutableElement* e) {
    return e->fieldName() + ": " + formatElementForError(e->value(), false);
}

MutableElement* createPathAt(MutableElement* at, const std::vector<std::string>& missing, const BSONElement& value) {
    invariant(!missing.empty());
    auto notViable = [&]() {
        uasserted(ErrorCodes::PathNotViable,
                  "Cannot create field '" + missing[0] + "' in element {" + describeElement(at) + "}");
    };
    MutableElement* first = nullptr;
    MutableElement* cur = at;
    for (size_t i = 0; i < missing.size(); i++) {
        bool last = i + 1 == missing.size();
        MutableElement* created = nullptr;
        if (cur->type() == Object) {
            created = last ? cur->appendChild(missing[i], value) : cur->appendContainerChild(missing[i], Object);
        } else if (cur->type() == Array) {
            size_t idx;
            if (!parseArrayIndex(missing[i], &idx)) notViable();
            size_t size = cur->numChildren();
            if (idx > size && idx - size > kMaxPaddingAllowed)
                uasserted(ErrorCodes::CannotBackfillArray,
                          "can't backfill more than " + std::to_string(kMaxPaddingAllowed) + " elements");
            static const BSONObj kNull = fromjson("{\"\": null}");
            while (cur->numChildren() < idx) cur->appendChild(std::string(), kNull.firstElement());
            created = last ? cur->appendChild(std::string(), value) : cur->appendContainerChild(std::string(), Object);
        } else {
            notViable();
        }
        if (!first) first = created;
        cur = created;
    }
    return first;
}

}  // namespace mongo
