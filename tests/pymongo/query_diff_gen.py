"""Random documents, filters, query options and updates for test_query_differential.py, plus
the pure-Python pieces its checks need: MongoDB's equality of BSON values (canon) and the
multikey paths an index must report for given documents (expected_multikey_paths).

Everything draws from a random.Random passed in, so one seed gives one sequence of cases.

The documents have the shapes real data has, over a fixed set of field names so that every
index shape in the test meets all of them:
  a      missing, null, a scalar, a subdocument {b: {c}, d, e}, or an array of such
         subdocuments mixed with scalars, nulls, empty and nested arrays. In one document at
         most one of d, e and b.c ever holds an array, so compound indexes over sibling paths
         of `a` never meet parallel arrays (MongoDB refuses those with error 171).
  b      a scalar of any type, or missing; never an array (it is compounded with `a.*`)
  arr    an array of mixed scalars, subdocuments and nested arrays, or a scalar, or missing
  n      numbers of every type, close to or equal to each other, NaN and infinities
  s      strings for regexes (and a few non-strings)
  u      unique over the collection, of mixed types
  items  order lines [{sku, qty, price}]
  scores [{level, score}]
  tags   strings and {name, attrs: {color, size}}
"""
import datetime
import math

from bson import Binary, Decimal128, Int64, MaxKey, MinKey, ObjectId, Regex, Timestamp

OIDS = [ObjectId("5f1d7a3b2c9e4a0001000001"), ObjectId("5f1d7a3b2c9e4a0001000002"), ObjectId("65aa00000000000000000000")]
DATES = [datetime.datetime(1969, 12, 31, 23, 59, 59), datetime.datetime(1970, 1, 1),
         datetime.datetime(2020, 5, 17, 12, 0, 0), datetime.datetime(2024, 2, 29)]

TWO53 = 2 ** 53
NUMBERS = [
    0, 1, -1, 2, 3, 5, 7, 1.0, Int64(1), Decimal128("1.0"), Decimal128("1"), 1.5, 2.5, -0.0,
    0.1, Decimal128("0.1"), 0.30000000000000004, Decimal128("0.3"),
    TWO53 - 1, TWO53, TWO53 + 1, float(TWO53), Decimal128(str(TWO53 + 1)), Int64(TWO53 + 2),
    2 ** 31 - 1, 2 ** 31, -2 ** 31, Int64(-5), 1e308, 5e-324,
    float("nan"), Decimal128("NaN"), float("inf"), float("-inf"), Decimal128("-Infinity"),
    Decimal128("1E+400"), Int64(2 ** 63 - 1), float(2 ** 63), Int64(-2 ** 63), -float(2 ** 63),
]
STRINGS = ["", "a", "A", "ab", "abc", "abd", "b", "ba", "a.b", "a\nb", "\u00e9t\u00e9", "zz", "1", "null", "a*"]
OTHERS = [True, False, None] + DATES + OIDS + [
    {}, {"x": 1}, {"x": 1, "y": 2}, {"y": 2, "x": 1}, {"x": {"y": 1}}, {"x": None},
    Regex("^a"), MinKey(), MaxKey(), Timestamp(1, 1), Binary(b"\x01"), Binary(b""), Binary(b"\x01", 4),
]
ARRAYS = [[], [1], [1, 2], [2, 1], [None], [[1]], [1, [2, 3]], ["a", 1], [{"x": 1}], [[]]]
SKUS = ["apple", "apricot", "banana", "cherry", "Apple", ""]
LEVELS = ["easy", "hard", "medium", 1, 2, None]
COLORS = ["red", "green", "blue", "Red", None, 1]


def scalar(rng):
    """A non-array value: mostly numbers and strings, some of every other type."""
    r = rng.random()
    if r < 0.5:
        return rng.choice(NUMBERS)
    if r < 0.75:
        return rng.choice(STRINGS)
    return rng.choice(OTHERS)


def any_value(rng):
    return rng.choice(ARRAYS) if rng.random() < 0.15 else scalar(rng)


def _maybe(rng, p=0.8):
    return rng.random() < p


def _sub(rng, array_field):
    """{b: {c}, d, e} with some fields missing; only array_field may hold an array."""
    doc = {}
    for f in ("b", "d", "e"):
        if not _maybe(rng):
            continue
        if f == "b":
            if rng.random() < 0.15:
                doc["b"] = scalar(rng)
            else:
                doc["b"] = {"c": rng.choice(ARRAYS) if array_field == "b.c" and rng.random() < 0.4 else scalar(rng)} \
                    if _maybe(rng, 0.9) else {}
        else:
            doc[f] = rng.choice(ARRAYS) if array_field == f and rng.random() < 0.4 else scalar(rng)
    return doc


def gen_a(rng):
    array_field = rng.choice(["d", "e", "b.c", None])
    r = rng.random()
    if r < 0.08:
        return _MISSING
    if r < 0.12:
        return None
    if r < 0.2:
        return scalar(rng)
    if r < 0.45:
        return _sub(rng, array_field)
    if r < 0.5:
        return []
    out = []
    for _ in range(rng.randint(1, 4)):
        q = rng.random()
        if q < 0.8:
            out.append(_sub(rng, array_field))
        elif q < 0.88:
            out.append(scalar(rng))
        elif q < 0.94:
            out.append([_sub(rng, None)])  # nested array of subdocuments
        else:
            out.append([])
    return out


_MISSING = object()


def gen_doc(rng, i, id_value=None):
    doc = {"_id": i if id_value is None else id_value}
    a = gen_a(rng)
    if a is not _MISSING:
        doc["a"] = a
    if _maybe(rng, 0.85):
        doc["b"] = scalar(rng)
    if _maybe(rng, 0.7):
        r = rng.random()
        doc["arr"] = [any_value(rng) for _ in range(rng.randint(0, 4))] if r < 0.8 else scalar(rng)
    if _maybe(rng, 0.85):
        doc["n"] = rng.choice(NUMBERS) if rng.random() < 0.9 else scalar(rng)
    if _maybe(rng, 0.85):
        doc["s"] = rng.choice(STRINGS) if rng.random() < 0.85 else scalar(rng)
    doc["u"] = unique_value(i)
    if _maybe(rng, 0.6):
        doc["items"] = [{"sku": rng.choice(SKUS), "qty": rng.choice([0, 1, 2, 5, 1.0, Int64(2), None]),
                         "price": rng.choice([Decimal128("9.99"), 9.99, 10, Decimal128("0.1"), 0.1])}
                        for _ in range(rng.randint(0, 3))]
    if _maybe(rng, 0.5):
        doc["scores"] = [{"level": rng.choice(LEVELS), "score": rng.choice(NUMBERS[:20])}
                         for _ in range(rng.randint(0, 3))]
    if _maybe(rng, 0.5):
        tags = []
        for _ in range(rng.randint(0, 3)):
            if rng.random() < 0.4:
                tags.append(rng.choice(["red", "sale", "new"]))
            else:
                tag = {"name": rng.choice(["size", "color", "brand"])}
                if _maybe(rng):
                    tag["attrs"] = {"color": rng.choice(COLORS), "size": rng.choice([1, 2, "L", None])}
                tags.append(tag)
        doc["tags"] = tags
    return doc


def unique_value(i):
    """Distinct under MongoDB's equality for distinct i (numbers of each type in disjoint ranges)."""
    k = i % 5
    if k == 0:
        return i
    if k == 1:
        return "u%d" % i
    if k == 2:
        return Int64(10 ** 6 + i)
    if k == 3:
        return i + 0.5
    return Decimal128("%d.25" % i)


def mixed_id(i):
    """_id values of mixed types for the _id index shape (arrays are not allowed in _id)."""
    k = i % 6
    return [i, "id%03d" % i, ObjectId("%024x" % (0x5f0000000000000000000000 + i)), {"k": i}, i + 0.5,
            datetime.datetime(2000, 1, 1) + datetime.timedelta(days=i)][k]


# ---------------------------------------------------------------------------------------------
# Filters

# Paths the filters use; positional ones included. Index fields are added by the caller.
PATHS = ["a", "a.b", "a.b.c", "a.d", "a.e", "a.0", "a.0.d", "a.1.e", "a.d.0", "b", "arr", "arr.0", "arr.x",
         "n", "s", "u", "_id", "items.sku", "items.qty", "items.price", "items.0.qty", "scores.level",
         "scores.score", "tags", "tags.name", "tags.attrs.color", "nosuch"]
# Array-of-documents paths for $elemMatch over objects, with the relative paths below them.
ELEM_OBJECT = {
    "a": ["d", "e", "b.c", "b", "d.0"],
    "items": ["sku", "qty", "price"],
    "scores": ["level", "score"],
    "tags": ["name", "attrs.color", "attrs.size", "attrs"],
    "a.b": ["c"],
}
TYPE_NAMES = ["double", "string", "object", "array", "bool", "date", "null", "int", "long", "decimal", "number",
              "objectId", "timestamp", "regex", "minKey", "maxKey", "binData", 1, 2, 16, 18]
REGEXES = [("^a", ""), ("^ab", ""), ("a", ""), ("b$", ""), ("^A", "i"), ("^a.b", ""), ("^a\\.b", ""),
           ("^(a|b)", ""), ("^a|^b", ""), ("\\Aab", ""), ("^\u00e9", ""), ("^a*", ""), ("^ab?", ""),
           ("^$", ""), (".", "s"), ("^b", "m"), ("^a b", "x"), ("^ab+", ""), ("^apple", ""), ("^r", "")]


def value_for(rng, path):
    """A comparison value, biased to what the path holds."""
    last = path.rsplit(".", 1)[-1]
    if last in ("sku",) or path == "s":
        return rng.choice(SKUS + STRINGS) if rng.random() < 0.8 else scalar(rng)
    if last in ("level", "color", "name"):
        return rng.choice(LEVELS + COLORS + ["size", "color"]) if rng.random() < 0.8 else scalar(rng)
    r = rng.random()
    if r < 0.1:
        return rng.choice(ARRAYS)
    if r < 0.15:
        return rng.choice([{"d": 1}, {"c": 1}, {"x": 1}, {"d": 1, "e": 2}, {}])
    return scalar(rng)


def regex_value(rng):
    pat, opts = rng.choice(REGEXES)
    return pat, opts


def leaf(rng, path, depth=0):
    """{path: <predicate>}"""
    op = rng.choices(
        ["eq", "eqnull", "range", "range2", "in", "nin", "ne", "exists", "type", "not", "regex", "size", "all",
         "elemval", "mod", "elemobj"],
        [18, 3, 16, 8, 8, 4, 5, 6, 4, 6, 6, 2, 3, 3, 1, 5])[0]
    if op == "elemobj" and depth < 2:
        return elem_match_object(rng, depth)
    return {path: predicate(rng, path, op, depth)}


def predicate(rng, path, op, depth=0):
    v = lambda: value_for(rng, path)  # noqa: E731
    if op in ("eq", "elemobj"):
        val = v()
        return val if (rng.random() < 0.5 and not isinstance(val, dict)) else {"$eq": val}
    if op == "eqnull":
        return None if rng.random() < 0.5 else {"$eq": None}
    if op == "range":
        return {rng.choice(["$gt", "$gte", "$lt", "$lte"]): v()}
    if op == "range2":
        return {rng.choice(["$gt", "$gte"]): v(), rng.choice(["$lt", "$lte"]): v()}
    if op in ("in", "nin"):
        vals = [v() for _ in range(rng.randint(0, 4) if rng.random() < 0.85 else rng.randint(5, 25))]
        if rng.random() < 0.3:
            vals.append(None)
        if rng.random() < 0.25:
            vals.append(Regex(*regex_value(rng)))
        return {"$" + op: vals}
    if op == "ne":
        return {"$ne": v()}
    if op == "exists":
        return {"$exists": rng.random() < 0.5}
    if op == "type":
        t = rng.choice(TYPE_NAMES)
        return {"$type": t if rng.random() < 0.8 else [t, rng.choice(TYPE_NAMES)]}
    if op == "not":
        inner = rng.choice(["eq", "range", "in", "regex", "exists", "type", "size", "elemval"])
        p = predicate(rng, path, inner, depth + 1)
        if isinstance(p, Regex):
            return {"$not": p}
        if not isinstance(p, dict) or not p or not all(k.startswith("$") for k in p):
            p = {"$eq": p}
        if "$regex" in p:  # $not takes a regex object, not $regex
            pat = p["$regex"].pattern if isinstance(p["$regex"], Regex) else p["$regex"]
            return {"$not": Regex(pat, p.get("$options", ""))}
        return {"$not": p}
    if op == "regex":
        pat, opts = regex_value(rng)
        r = rng.random()
        if r < 0.4:
            return Regex(pat, opts)
        if r < 0.7 or not opts:
            return {"$regex": pat} if not opts else {"$regex": pat, "$options": opts}
        return {"$regex": Regex(pat), "$options": opts}
    if op == "size":
        return {"$size": rng.randint(0, 3)}
    if op == "all":
        if rng.random() < 0.2 and depth < 2:
            return {"$all": [{"$elemMatch": predicate(rng, path, "range2", depth + 1)}]}
        return {"$all": [v() for _ in range(rng.randint(1, 3))]}
    if op == "elemval":
        r = rng.random()
        if r < 0.5:
            return {"$elemMatch": predicate(rng, path, "range2", depth + 1)}
        if r < 0.7:
            return {"$elemMatch": {"$in": [v() for _ in range(rng.randint(1, 3))]}}
        if r < 0.85:
            return {"$elemMatch": {"$ne": v()}}
        return {"$elemMatch": {"$eq": v()}}
    if op == "mod":
        return {"$mod": rng.choice([[2, 0], [3, 1], [2, 1]])}
    raise AssertionError(op)


def elem_match_object(rng, depth=0):
    root = rng.choice(list(ELEM_OBJECT))
    subs = ELEM_OBJECT[root]
    clauses = []
    for _ in range(rng.randint(1, 3)):
        sub = rng.choice(subs)
        r = rng.random()
        if r < 0.1 and depth < 2 and root == "a":
            clauses.append({"d": {"$elemMatch": predicate(rng, "a.d", "range2", depth + 1)}})
        elif r < 0.2 and depth < 2:
            clauses.append({"$or": [leaf_rel(rng, root, rng.choice(subs), depth), leaf_rel(rng, root, rng.choice(subs), depth)]})
        else:
            clauses.append(leaf_rel(rng, root, sub, depth))
    body = clauses[0] if len(clauses) == 1 else ({"$and": clauses} if rng.random() < 0.5 else _merge(clauses))
    return {root: {"$elemMatch": body}}


def leaf_rel(rng, root, sub, depth):
    op = rng.choices(["eq", "eqnull", "range", "range2", "in", "ne", "exists", "not", "regex", "type"],
                     [20, 3, 15, 10, 6, 3, 4, 3, 3, 2])[0]
    return {sub: predicate(rng, root + "." + sub, op, depth + 1)}


def _merge(clauses):
    """Clauses as one document where their fields differ ({d: .., e: ..}), else $and."""
    out = {}
    for c in clauses:
        k, = c.keys()
        if k in out or k.startswith("$"):
            return {"$and": clauses}
        out[k] = c[k]
    return out


def gen_filter(rng, focus, depth=0):
    """A random filter; focus lists paths (the index's fields) to prefer."""
    def path():
        return rng.choice(focus) if focus and rng.random() < 0.65 else rng.choice(PATHS)

    clauses = []
    for _ in range(rng.choices([0, 1, 2, 3], [1, 10, 6, 2])[0]):
        r = rng.random()
        if r < 0.1 and depth < 2:
            kids = [gen_filter(rng, focus, depth + 1) for _ in range(rng.randint(1, 3))]
            clauses.append({"$or": [k or {"_id": {"$exists": True}} for k in kids]})
        elif r < 0.13 and depth < 2:
            clauses.append({"$nor": [gen_filter(rng, focus, depth + 1) or {"nosuch": 1} for _ in range(rng.randint(1, 2))]})
        elif r < 0.16 and depth < 2:
            clauses.append({"$and": [gen_filter(rng, focus, depth + 1) or {} for _ in range(rng.randint(1, 2))]})
        else:
            clauses.append(leaf(rng, path(), depth))
    if not clauses:
        return {}
    if len(clauses) == 1:
        return clauses[0]
    return _merge(clauses) if rng.random() < 0.6 else {"$and": clauses}


# ---------------------------------------------------------------------------------------------
# Query options

def gen_sort(rng, fields):
    """A sort over the index's fields and others (both directions, compound), or None. Sort
    paths are kept out of parallel arrays (MongoDB's sort refuses those)."""
    r = rng.random()
    if r < 0.4:
        return None
    pool = list(dict.fromkeys(fields + ["b", "n", "s", "u", "_id"]))
    keys = []
    for _ in range(rng.choices([1, 2, 3], [6, 3, 1])[0]):
        f = rng.choice(pool) if rng.random() < 0.85 else rng.choice(["a.d", "a.e", "arr", "items.qty"])
        root = f.split(".")[0]
        if any(k.split(".")[0] != root and k.split(".")[0] in ("a", "arr", "items", "scores", "tags")
               and root in ("a", "arr", "items", "scores", "tags") for k, _ in keys):
            continue
        if f not in [k for k, _ in keys]:
            keys.append((f, rng.choice([1, -1])))
    return keys or None


def gen_projection(rng, fields):
    r = rng.random()
    if r < 0.55:
        return None
    if r < 0.8:
        # Candidates for covering: index fields only, _id excluded.
        chosen = [f for f in fields if rng.random() < 0.7] or fields[:1]
        proj = {f: 1 for f in chosen}
        if _prefix_collision(chosen):
            proj = {fields[0]: 1}
        if rng.random() < 0.7:
            proj["_id"] = 0
        return proj
    return rng.choice([{"a.d": 1}, {"b": 0}, {"a": 0, "items": 0}, {"n": 1, "s": 1}, {"_id": 1},
                       {"a.d": 1, "a.e": 1, "_id": 0}, {"b": 1, "_id": 0}, {"arr": {"$slice": 1}},
                       {"a": {"$elemMatch": {"d": {"$gte": 1}}}}, {"u": 1, "b": 1}])


def _prefix_collision(paths):
    for p in paths:
        for q in paths:
            if p != q and q.startswith(p + "."):
                return True
    return False


# ---------------------------------------------------------------------------------------------
# Updates (applied to the indexed collection and its index-free twin)

def gen_update(rng):
    """An update that cannot fail on any document of these shapes (an error would stop
    update_many part way, at a point that depends on the plan's order)."""
    r = rng.random()
    if r < 0.25:
        return {"$set": {"a": gen_a_present(rng)}}
    if r < 0.4:
        return {"$set": {"b": scalar(rng)}}
    if r < 0.5:
        return {"$unset": {rng.choice(["a", "b", "a.d", "a.e", "arr", "n", "s", "items"]): ""}}
    if r < 0.6:
        return {"$set": {"arr": [any_value(rng) for _ in range(rng.randint(0, 3))]}}
    if r < 0.7:
        return {"$set": {"n": rng.choice(NUMBERS), "s": rng.choice(STRINGS)}}
    if r < 0.8:
        return {"$set": {"items": [{"sku": rng.choice(SKUS), "qty": rng.choice([1, 2.0, None])}]}}
    return {"$set": {"b": scalar(rng), "a": gen_a_present(rng)}}


def gen_a_present(rng):
    while True:
        a = gen_a(rng)
        if a is not _MISSING:
            return a


# ---------------------------------------------------------------------------------------------
# MongoDB's equality of values, for comparing distinct() and $group answers whose
# representative of equal values (1 vs 1.0 vs Decimal128("1.0")) depends on scan order.

def canon(v):
    """A hashable key equal for values MongoDB may treat as equal. Numbers go through double,
    which is coarser than MongoDB's exact comparison (Decimal128("0.1") != 0.1 there), so the
    test never depends on which of equal numbers a scan met first."""
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, Int64, float, Decimal128)):
        f = float(v.to_decimal()) if isinstance(v, Decimal128) else float(v)
        return ("num", "nan") if math.isnan(f) else ("num", f + 0.0)
    if isinstance(v, dict):
        return ("obj", tuple((k, canon(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return ("arr", tuple(canon(x) for x in v))
    if isinstance(v, Regex):
        return ("re", v.pattern, v.flags)
    if isinstance(v, datetime.datetime):
        return ("date", v.isoformat())
    return (type(v).__name__, repr(v))


# ---------------------------------------------------------------------------------------------
# Multikey paths an index on `path` must report for these documents.

def expected_multikey_components(docs, path):
    """Components (0-based) of a dotted path without positional parts at which some document
    holds an array, following MongoDB's key generation: arrays are expanded one level at each
    component (elements that are arrays themselves are not descended into below the leaf)."""
    comps = path.split(".")
    out = set()

    def walk(value, i):
        # value sits at component i of the path.
        if isinstance(value, list):
            out.add(i)
            if i + 1 < len(comps):
                for e in value:
                    if isinstance(e, dict) and comps[i + 1] in e:
                        walk_after(e[comps[i + 1]], i + 1)
        elif isinstance(value, dict) and i + 1 < len(comps) and comps[i + 1] in value:
            walk(value[comps[i + 1]], i + 1)

    def walk_after(value, i):
        walk(value, i)

    for d in docs:
        if comps[0] in d:
            walk(d[comps[0]], 0)
    return out


def multikey_paths_for_explain(path, components):
    parts = path.split(".")
    return sorted(".".join(parts[:c + 1]) for c in components)
