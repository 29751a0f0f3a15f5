#include "mongo/db/query/index_entry.h"

#include <map>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/storage/key_string.h"

namespace mongo {

size_t pathComponents(std::string_view path) {
    size_t n = 1;
    for (char c : path) n += c == '.';
    return n;
}

size_t sharedComponents(std::string_view a, std::string_view b) {
    size_t n = 0, ia = 0, ib = 0;
    while (true) {
        size_t ea = a.find('.', ia), eb = b.find('.', ib);
        std::string_view pa = a.substr(ia, ea == std::string_view::npos ? std::string_view::npos : ea - ia);
        std::string_view pb = b.substr(ib, eb == std::string_view::npos ? std::string_view::npos : eb - ib);
        if (pa != pb) return n;
        n++;
        if (ea == std::string_view::npos || eb == std::string_view::npos) return n;
        ia = ea + 1;
        ib = eb + 1;
    }
}

bool isPathPrefixOf(std::string_view prefix, std::string_view path) {
    if (path.size() < prefix.size() || path.substr(0, prefix.size()) != prefix) return false;
    return path.size() == prefix.size() || path[prefix.size()] == '.';
}

int IndexEntry::fieldIndex(std::string_view path) const {
    for (size_t i = 0; i < fields.size(); i++)
        if (fields[i] == path) return static_cast<int>(i);
    return -1;
}

bool IndexEntry::keyFieldsIndependent() const {
    if (hashedField >= 0 || collator) return false;
    for (size_t i = 0; i < fields.size(); i++)
        for (size_t j = 0; j < fields.size(); j++)
            if (i != j && isPathPrefixOf(fields[i], fields[j])) return false;
    return true;
}

IndexEntry IndexEntry::make(OperationContext* opCtx, const Collection* coll, const IndexDescriptor* desc) {
    IndexEntry e;
    IndexCatalog* ic = coll->getIndexCatalog();
    e.desc = desc;
    e.name = desc->name;
    e.ident = desc->ident;
    e.keyPattern = desc->keyPattern;
    for (BSONElement f : desc->keyPattern) {
        if (f.type() == String && f.str() == "hashed") e.hashedField = static_cast<int>(e.fields.size());
        e.fields.emplace_back(f.fieldNameStringData());
        e.directions.push_back(f.isNumber() && f.numberDouble() < 0 ? -1 : 1);
    }
    e.multikeyPaths = ic->getMultikeyPaths(opCtx, desc);
    e.multikeyPaths.resize(e.fields.size());
    e.multikey = anyMultikey(e.multikeyPaths);
    e.unique = desc->unique;
    e.sparse = desc->sparse;
    e.hidden = desc->hidden;
    e.collator = desc->collator.get();
    if (const Matcher* pf = ic->partialFilter(desc)) e.partialFilter = pf->root();
    return e;
}

std::vector<IndexEntry> indexEntriesOf(OperationContext* opCtx, const Collection* coll) {
    std::vector<IndexEntry> out;
    for (const IndexDescriptor* d : coll->getIndexCatalog()->getAllIndexes()) out.push_back(IndexEntry::make(opCtx, coll, d));
    return out;
}

namespace {
// A tree of path components, to nest dotted key fields into documents in key-pattern order.
struct Node {
    std::vector<std::string> names;
    std::vector<Node> kids;
    BSONElement value;
    bool leaf = false;
    Node& child(const std::string& name) {
        for (size_t i = 0; i < names.size(); i++)
            if (names[i] == name) return kids[i];
        names.push_back(name);
        kids.emplace_back();
        return kids.back();
    }
    void build(BSONObjBuilder& b) const {
        for (size_t i = 0; i < names.size(); i++) {
            if (kids[i].leaf) {
                b.appendAs(kids[i].value, names[i]);
            } else {
                BSONObjBuilder& sub = b.subobjStart(names[i]);
                kids[i].build(sub);
                sub.doneFast();
            }
        }
    }
};
}  // namespace

BSONObj keyToDocument(const IndexEntry& entry, const BSONObj& key) {
    Node root;
    size_t i = 0;
    for (BSONElement v : key) {
        if (i >= entry.fields.size()) break;
        if (key_string::isMissingKeyValue(v)) {  // the document has no value there
            i++;
            continue;
        }
        Node* n = &root;
        std::string_view path = entry.fields[i];
        size_t start = 0;
        while (true) {
            size_t dot = path.find('.', start);
            n = &n->child(std::string(path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start)));
            if (dot == std::string_view::npos) break;
            start = dot + 1;
        }
        n->leaf = true;
        n->value = v;
        i++;
    }
    BSONObjBuilder b;
    root.build(b);
    return b.obj();
}

BSONObj keyWithFieldNames(const BSONObj& keyPattern, const BSONObj& key) {
    BSONObjBuilder b;
    BSONObjIterator names(keyPattern);
    for (BSONElement v : key) {
        if (!names.more()) break;
        b.appendAs(v, names.next().fieldNameStringData());
    }
    return b.obj();
}

}  // namespace mongo
