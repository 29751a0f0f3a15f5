// Index key generation, following the semantics of MongoDB's BtreeKeyGenerator (V1/V2 keys).
#include "mongo/db/catalog/index_key_generator.h"

#include <cstring>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/hash/bson_element_hasher.h"
#include "mongo/db/storage/key_string.h"

namespace mongo {
namespace {

// For a positional path component ({'a.1.b': 1}): the element it designates inside the
// array being expanded, and the path left after it.
struct PositionalInfo {
    BSONElement positionallyIndexedElt;
    const char* remainingPath = "";
    BSONElement dottedElt;
    bool has() const { return !positionallyIndexedElt.eoo(); }
};

std::string_view firstComponent(const char* path) {
    const char* dot = std::strchr(path, '.');
    return dot ? std::string_view(path, dot - path) : std::string_view(path);
}

// Walks path through embedded objects. Stops at an array (returning it, with *path advanced to
// what follows it) or at the end. Returns EOO if the path leads nowhere.
BSONElement extractAtPathOrArrayAlongPath(const BSONObj& obj, const char** path) {
    BSONObj cur = obj;
    while (true) {
        std::string_view part = firstComponent(*path);
        BSONElement e = cur.getField(part);
        const char* rest = *path + part.size();
        if (*rest == '.') ++rest;
        if (e.eoo()) return e;
        if (e.type() == Array) {
            *path = rest;
            return e;
        }
        if (*rest == '\0') {
            *path = rest;
            return e;
        }
        if (e.type() != Object) return BSONElement();
        cur = e.Obj();
        *path = rest;
    }
}

[[noreturn]] void parallelArrays(const BSONElement& a, const BSONElement& b) {
    uasserted(ErrorCodes::CannotIndexParallelArrays, "cannot index parallel arrays [" +
                                                         std::string(a.fieldNameStringData()) + "] [" +
                                                         std::string(b.fieldNameStringData()) + "]");
}

}  // namespace

IndexKeyGenerator::IndexKeyGenerator(const BSONObj& keyPattern, bool sparse, CollatorPtr collator)
    : _keyPattern(keyPattern.getOwned()), _sparse(sparse), _collator(std::move(collator)) {
    for (auto e : _keyPattern) _fieldNames.emplace_back(e.fieldNameStringData());
    BSONObjBuilder n, u;
    n.appendNull(key_string::kMissingFieldName);  // a missing field: null, marked (key_string.h)
    u.appendUndefined("");
    _nullObj = n.obj();
    _undefinedObj = u.obj();
    int i = 0;
    BSONObjBuilder others;
    for (auto e : _keyPattern) {
        if (e.type() == String && e.str() == "hashed") _hashedField = i;
        else others.append(e);
        i++;
    }
    if (_hashedField >= 0 && _keyPattern.nFields() > 1) {
        BSONObj o = others.obj();
        _others = std::make_unique<IndexKeyGenerator>(o, false);
        _othersSparse = std::make_unique<IndexKeyGenerator>(o, true);
    }
}

void IndexKeyGenerator::getHashedKeys(const BSONObj& doc, KeyStringSet* keys, MultikeyPaths* mkPaths) const {
    const std::string& full = _fieldNames[_hashedField];
    const char* rest = full.c_str();
    BSONElement v = extractAtPathOrArrayAlongPath(doc, &rest);
    if (v.type() == Array) {
        // The path up to the array: rest points past its component (and past the dot after it).
        size_t upTo = static_cast<size_t>(rest - full.c_str()) - (*rest ? 1 : 0);
        uasserted(16766, "Error: hashed indexes do not currently support array values. Found array at path: " +
                             full.substr(0, upTo));
    }
    bool missing = v.eoo();
    BSONObjBuilder nb;
    nb.appendNull("");
    BSONObj nullObj = nb.obj();
    // Under a collation the hash is of the string's comparison key (equal strings, one hash).
    BSONObj translated;
    if (_collator && !missing && (v.type() == String || v.type() == Symbol || v.type() == Object)) {
        BSONObjBuilder tb;
        appendComparisonKey(&tb, "", v, _collator.get());
        translated = tb.obj();
        v = translated.firstElement();
    }
    long long hash = hashBSONElement(missing ? nullObj.firstElement() : v);
    if (!_others) {
        if (_sparse && missing) return;
        BSONObjBuilder b;
        b.append("", hash);
        keys->insert(b.obj());
        return;
    }
    // A sparse compound index skips a document only when every key field is missing.
    KeyStringSet sub;
    MultikeyPaths subPaths;
    ((_sparse && missing) ? _othersSparse : _others)->getKeys(doc, &sub, &subPaths);
    for (size_t j = 0; j < subPaths.size(); j++) {
        size_t f = j < static_cast<size_t>(_hashedField) ? j : j + 1;
        (*mkPaths)[f].insert(subPaths[j].begin(), subPaths[j].end());
    }
    for (const BSONObj& k : sub) {
        BSONObjBuilder b;
        int i = 0;
        for (BSONElement e : k) {
            if (i++ == _hashedField) b.append("", hash);
            b.appendAs(e, e.fieldNameStringData());
        }
        if (i == _hashedField) b.append("", hash);
        keys->insert(b.obj());
    }
}

size_t IndexKeyGenerator::arrayComponent(size_t field, const char* pathPos) const {
    const std::string& full = _fieldNames[field];
    size_t consumed = static_cast<size_t>(pathPos - full.c_str());
    // Components before pathPos: every dot before it separates one, and at the end of the path
    // all of them have been consumed.
    size_t comps = 0;
    for (size_t i = 0; i < consumed && i < full.size(); i++) comps += full[i] == '.';
    if (consumed >= full.size()) comps += 1;
    return comps == 0 ? 0 : comps - 1;
}

void IndexKeyGenerator::getKeys(const BSONObj& doc, KeyStringSet* keys, bool* multikey) const {
    MultikeyPaths paths;
    getKeys(doc, keys, &paths);
    if (multikey && anyMultikey(paths)) *multikey = true;
}

void IndexKeyGenerator::getKeys(const BSONObj& doc, KeyStringSet* keys, MultikeyPaths* mkPaths) const {
    if (!_collator) return generate(doc, keys, mkPaths);
    // Keys of an index with a collation hold the collator's comparison keys of strings, so
    // that index order, bounds and uniqueness follow the collation ("a" and "A" are one key at
    // strength 2). Generated plainly, then translated: the translation of equal keys is equal.
    KeyStringSet plain;
    generate(doc, &plain, mkPaths);
    for (const BSONObj& k : plain) keys->insert(toComparisonKeys(k, _collator.get()));
}

void IndexKeyGenerator::generate(const BSONObj& doc, KeyStringSet* keys, MultikeyPaths* mkPaths) const {
    if (mkPaths->size() < _fieldNames.size()) mkPaths->resize(_fieldNames.size());
    if (_hashedField >= 0) return getHashedKeys(doc, keys, mkPaths);
    std::vector<const char*> paths;
    for (auto& f : _fieldNames) paths.push_back(f.c_str());
    struct State {
        const IndexKeyGenerator* self;
        KeyStringSet* keys;
        MultikeyPaths* mkPaths;
        size_t n;
        void run(std::vector<const char*> paths, std::vector<BSONElement> fixed, const BSONObj& obj,
                 size_t numNotFound, const std::vector<PositionalInfo>& positional) {
            BSONElement nullElt = self->_nullObj.firstElement();
            BSONElement arrElt;
            std::vector<size_t> arrIdxs;
            bool mayExpandArrayUnembedded = true;
            for (size_t i = 0; i < n; ++i) {
                if (*paths[i] == '\0') continue;
                // Find the element for the rest of this field's path: in obj, or through the
                // positional element of the array being expanded.
                std::string_view first = firstComponent(paths[i]);
                bool haveObjField = !obj.getField(first).eoo();
                const PositionalInfo* pos = i < positional.size() ? &positional[i] : nullptr;
                uassert(16746,
                        "Ambiguous field name found in array (do not use numeric field names in embedded "
                        "elements in an array), field: '" + std::string(first) + "'",
                        !haveObjField || !(pos && pos->has()));
                bool arrayNestedArray = false;
                BSONElement e;
                if (haveObjField) {
                    e = extractAtPathOrArrayAlongPath(obj, &paths[i]);
                } else if (pos && pos->has()) {
                    arrayNestedArray = pos->positionallyIndexedElt.type() == Array;
                    paths[i] = pos->remainingPath;
                    e = pos->dottedElt;
                }
                if (e.eoo()) {
                    fixed[i] = nullElt;
                    paths[i] = "";
                    ++numNotFound;
                } else if (e.type() == Array) {
                    // paths[i] now points just past the array's component.
                    (*mkPaths)[i].insert(self->arrayComponent(i, paths[i]));
                    arrIdxs.push_back(i);
                    if (arrElt.eoo()) arrElt = e;
                    else if (e.rawdata() != arrElt.rawdata()) parallelArrays(e, arrElt);
                    if (arrayNestedArray) mayExpandArrayUnembedded = false;
                } else {
                    fixed[i] = e;
                    paths[i] = "";
                }
            }
            if (arrElt.eoo()) {
                if (self->_sparse && numNotFound == n) return;
                BSONObjBuilder b;
                for (auto& f : fixed) b.appendAs(f, key_string::isMissingKeyValue(f) ? key_string::kMissingFieldName : "");
                keys->insert(b.obj());
                return;
            }
            BSONObj arr = arrElt.Obj();
            if (arr.isEmpty()) {
                // An empty array is indexed as undefined where the path ends at it, and as
                // null (missing) where the path continues into it.
                expandElement(paths, fixed, self->_undefinedObj.firstElement(), arrElt, arrIdxs, true,
                              numNotFound, {});
                return;
            }
            std::vector<PositionalInfo> sub(n);
            for (size_t i : arrIdxs) {
                if (*paths[i] == '\0') continue;
                std::string_view part = firstComponent(paths[i]);
                sub[i].positionallyIndexedElt = arr.getField(part);
                if (sub[i].positionallyIndexedElt.eoo()) continue;
                sub[i].remainingPath = paths[i];
                sub[i].dottedElt = extractAtPathOrArrayAlongPath(arr, &sub[i].remainingPath);
            }
            for (auto elem : arr)
                expandElement(paths, fixed, elem, arrElt, arrIdxs, mayExpandArrayUnembedded, numNotFound, sub);
        }

        void expandElement(std::vector<const char*> paths, std::vector<BSONElement> fixed, const BSONElement& entry,
                           const BSONElement& arrElt, const std::vector<size_t>& arrIdxs,
                           bool mayExpandArrayUnembedded, size_t numNotFound,
                           const std::vector<PositionalInfo>& positional) {
            for (size_t i : arrIdxs)
                if (*paths[i] == '\0') fixed[i] = mayExpandArrayUnembedded ? entry : arrElt;
            run(std::move(paths), std::move(fixed), entry.type() == Object ? entry.Obj() : BSONObj(), numNotFound,
                positional);
        }
    };
    State st{this, keys, mkPaths, paths.size()};
    st.run(paths, std::vector<BSONElement>(paths.size()), doc, 0, {});
}

}  // namespace mongo
