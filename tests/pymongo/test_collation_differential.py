"""Collations never let an index change a query's answer: a randomized differential test.

A collection of random strings (case, accents, digits, spaces, punctuation), numbers, dates,
arrays and sub-documents gets indexes under several collations (and the simple one), single
field on "s" and compound on "n" (numbers, dates, null, booleans, some strings) then "s";
random filters ($eq, $in, $ne, $nin, ranges, regexes, $elemMatch, $exists, $type on strings
and on numbers, and both fields together) and sorts then run under each collation, also
against indexes of another collation: MongoDB 7.0 bounds such an index only with predicates
collations cannot affect (numbers, dates, null, ..., not strings, objects or arrays), filters
the rest on the documents, and takes a sort from it only on fields whose bounds hold no
strings. Every answer must equal the same find hinted {$natural: 1} (a collection scan) under
the same collation: as sets of _ids without a sort, and in order with a sort (ties broken by
_id). count and distinct are compared the same way, and explain may show an index of another
collation only for a filter with a collation-free predicate on its leading field.
Seeds: FIXED_SEEDS plus one fresh seed per run (printed in failures); COLLATION_DIFF_SEED=n
reproduces one.
"""
import datetime
import os
import random

import bson
import pymongo
import pytest
from bson.raw_bson import RawBSONDocument
from pymongo import ASCENDING, DESCENDING

FIXED_SEEDS = [1, 2]
FRESH_SEED = int(os.environ.get("COLLATION_DIFF_SEED") or random.SystemRandom().randrange(1, 10 ** 9))
SEEDS = FIXED_SEEDS + [FRESH_SEED]

COLLATIONS = [
    None,  # simple
    {"locale": "en", "strength": 1},
    {"locale": "en", "strength": 2},
    {"locale": "en", "strength": 3, "caseFirst": "upper"},
    {"locale": "en", "numericOrdering": True},
    {"locale": "en", "alternate": "shifted"},
    {"locale": "fr_CA"},
    {"locale": "de@collation=phonebook", "strength": 2},
]
INDEXED = [c for c in COLLATIONS if c][:4]  # collations that get indexes on "s"
WORDS = ["abc", "ABC", "Abc", "ábc", "abd", "b", "B", "b9", "B10", "b 1", "b-1", "côte", "coté", "Müller",
         "Mull", "", "z", "Z", "10", "9", "e", "é", "E"]


DATES = [datetime.datetime(2020, 1, d) for d in (1, 2, 3)]


def rand_value(rng):
    r = rng.random()
    if r < 0.6:
        return rng.choice(WORDS)
    if r < 0.72:
        return rng.choice([1, 2.5, -3, 10])
    if r < 0.75:
        return rng.choice(DATES)
    if r < 0.88:
        return [rng.choice(WORDS + [1, 10]) for _ in range(rng.randrange(0, 3))]
    if r < 0.93:
        return {"x": rng.choice(WORDS)}
    return None


def rand_n(rng):
    """The compound index's leading field: mostly values collations cannot affect, never an
    array (so that an index may give a sort on it)."""
    r = rng.random()
    if r < 0.55:
        return rng.randrange(0, 6)
    if r < 0.65:
        return rng.choice(DATES)
    if r < 0.75:
        return rng.choice([None, True, False])
    if r < 0.92:
        return rng.choice(WORDS)
    if r < 0.96:
        return {"x": rng.choice(WORDS)}
    return None if rng.random() < 0.5 else 2.5


def string_filter(rng):
    w = lambda: rng.choice(WORDS)
    kind = rng.randrange(9)
    if kind == 0:
        return {"s": w()}
    if kind == 1:
        return {"s": {"$in": [w() for _ in range(rng.randrange(1, 4))]}}
    if kind == 2:
        return {"s": {"$ne": w()}}
    if kind == 3:
        return {"s": {"$nin": [w(), w()]}}
    if kind == 4:
        lo, hi = sorted([w(), w()])
        return {"s": {"$gte": lo, "$lt": hi}}
    if kind == 5:
        return {"s": {rng.choice(["$gt", "$lte"]): w()}}
    if kind == 6:
        return {"s": {"$regex": "^" + rng.choice(["a", "b", "A", "c"])}}
    if kind == 7:
        return {"s": {"$elemMatch": {"$gte": w()}}}
    return {"s": {"x": w()}}


def insensitive_filter(rng, field):
    """A predicate collations cannot affect (or one mixing such values with strings)."""
    num = lambda: rng.choice([0, 1, 2, 2.5, 3, 10, -3])
    kind = rng.randrange(11)
    if kind == 0:
        return {field: num()}
    if kind == 1:
        return {field: {rng.choice(["$gt", "$gte", "$lt", "$lte"]): num()}}
    if kind == 2:
        lo, hi = sorted([num(), num()])
        return {field: {"$gte": lo, "$lte": hi}}
    if kind == 3:
        return {field: {"$in": [num(), num(), None]}}
    if kind == 4:
        return {field: rng.choice([None, True, DATES[1]])}
    if kind == 5:
        return {field: {"$gt": DATES[0]}}
    if kind == 6:
        return {field: {"$exists": rng.choice([True, False])}}
    if kind == 7:
        return {field: {"$type": rng.choice(["string", "number", "date", "array"])}}
    if kind == 8:
        return {field: {"$ne": num()}}
    if kind == 9:
        return {field: {"$elemMatch": {"$gt": num()}}}
    return {field: {"$in": [num(), rng.choice(WORDS)]}}  # one string: collation-sensitive


def rand_filter(rng):
    r = rng.random()
    if r < 0.45:
        return string_filter(rng)
    if r < 0.65:
        return insensitive_filter(rng, "s")
    if r < 0.8:
        return insensitive_filter(rng, "n")
    return {"$and": [insensitive_filter(rng, "n"), string_filter(rng)]}


def collation_free_on(filt, field):
    """Whether filt has a top-level predicate on field that a differently collated index may
    bound (a necessary condition for such an index to narrow the scan)."""
    sensitive = lambda v: isinstance(v, (str, list, dict))
    conjuncts = filt["$and"] if "$and" in filt else [filt]
    for c in conjuncts:
        if field not in c:
            continue
        v = c[field]
        if not isinstance(v, dict):
            if not sensitive(v):
                return True
            continue
        for op, arg in v.items():
            if op in ("$in", "$nin") and not any(sensitive(x) for x in arg):
                return True
            if op in ("$exists", "$type", "$regex", "$elemMatch") or (op.startswith("$") and not sensitive(arg)):
                return True
    return False


def assert_sorted_like(got, asc, desc, where):
    """got is in sort order: asc and desc are the scan's order with ties broken by _id up and
    down, so tied documents form the same runs in both, reversed; got may order a run any way."""
    group, seen_asc, seen_desc, g = {}, set(), set(), 0
    for a, d in zip(asc, desc):
        seen_asc.add(a)
        seen_desc.add(d)
        group[a] = g
        if seen_asc == seen_desc:  # the end of a run of ties
            g += 1
    assert sorted(got) == sorted(asc), where
    ranks = [group[x] for x in got]
    assert ranks == sorted(ranks), where + " got=%r asc=%r" % (got, asc)


def index_names(plan):
    """The indexes a plan tree scans."""
    if isinstance(plan, list):
        return [n for p in plan for n in index_names(p)]
    if not isinstance(plan, dict):
        return []
    own = [plan["indexName"]] if "indexName" in plan else []
    return own + [n for v in plan.values() for n in index_names(v)]


def same_collation(a, b):
    a, b = a or {}, b or {}
    return all(a.get(f) == b.get(f) for f in set(a) | set(b))


def ids(cursor):
    return [d["_id"] for d in cursor]


@pytest.mark.parametrize("seed", SEEDS)
def test_collated_indexes_never_change_answers(db, seed):
    rng = random.Random(seed)
    coll = db["colldiff"]
    docs = [{"_id": i, "s": rand_value(rng), "n": rand_n(rng)} for i in range(150)]
    coll.insert_many(docs[:75])
    names, collations = [], {}
    for k, c in enumerate(INDEXED):
        names.append("s_c%d" % k)
        coll.create_index([("s", ASCENDING if k % 2 == 0 else DESCENDING)], name=names[-1], collation=c)
        names.append("ns_c%d" % k)
        coll.create_index([("n", ASCENDING), ("s", ASCENDING)], name=names[-1], collation=c)
        collations[names[-2]] = collations[names[-1]] = c
    coll.create_index([("s", ASCENDING)], name="s_simple")
    coll.create_index([("n", DESCENDING), ("s", ASCENDING)], name="ns_simple")
    collations["s_simple"] = collations["ns_simple"] = None
    coll.insert_many(docs[75:])  # half before the builds, half after
    for q in range(50):
        filt = rand_filter(rng)
        collation = rng.choice(COLLATIONS)
        kw = {"collation": collation} if collation else {}
        where = "seed=%d query=%d filter=%r collation=%r" % (seed, q, filt, collation)
        reference = set(ids(coll.find(filt, hint=[("$natural", 1)], **kw)))
        assert set(ids(coll.find(filt, **kw))) == reference, where
        for name in names:
            # A hinted index answers the same whatever its collation.
            assert set(ids(coll.find(filt, hint=name, **kw))) == reference, where + " hint=" + name
        # The count command.
        assert db.command("count", coll.name, query=filt, **kw)["n"] == len(reference), where
        # A sort under the collation (ties broken by _id): the same order as over a scan.
        direction = rng.choice([1, -1])
        sort = [(rng.choice(["s", "n"]), direction), ("_id", 1)]
        ref = ids(coll.find(filt, sort=sort, hint=[("$natural", 1)], **kw))
        assert ids(coll.find(filt, sort=sort, **kw)) == ref, where + " sort=%r" % sort
        for name in names:
            assert ids(coll.find(filt, sort=sort, hint=name, **kw)) == ref, where + " sort=%r hint=%s" % (sort, name)
        # A sort on one field alone (an index may give it: after an equality on n, s in the
        # compound indexes): any order of ties is right.
        one = [(rng.choice(["s", "n"]), direction)]
        asc = ids(coll.find(filt, sort=one + [("_id", 1)], hint=[("$natural", 1)], **kw))
        desc = ids(coll.find(filt, sort=one + [("_id", -1)], hint=[("$natural", 1)], **kw))
        assert_sorted_like(ids(coll.find(filt, sort=one, **kw)), asc, desc, where + " sort=%r" % one)
        for name in names:
            got = ids(coll.find(filt, sort=one, hint=name, **kw))
            assert_sorted_like(got, asc, desc, where + " sort=%r hint=%s" % (one, name))
        # distinct: values equal under the collation count once, the same as over a scan's docs.
        got_distinct = coll.distinct("s", filt, **kw)
        assert len(got_distinct) == len(coll.distinct("s", {"_id": {"$in": sorted(reference)}}, **kw)), where
        # Explain: an index of another collation than the query's narrows the scan only through
        # a collation-free predicate on its leading field.
        plan = db.command("explain", {"find": coll.name, "filter": filt, **kw}, verbosity="queryPlanner")
        for name in index_names(plan["queryPlanner"]["winningPlan"]):
            if not same_collation(collations[name], collation):
                assert collation_free_on(filt, "s" if name.startswith("s") else "n"), where + " plan=%s" % name
    # Writes under a collation match as the scan does.
    for q in range(6):
        filt = rand_filter(rng)
        collation = rng.choice(COLLATIONS[1:])
        expected = set(ids(coll.find(filt, hint=[("$natural", 1)], collation=collation)))
        res = coll.update_many(filt, {"$inc": {"u": 1}}, collation=collation)
        assert res.matched_count == len(expected), "seed=%d filter=%r collation=%r" % (seed, filt, collation)
        res = coll.delete_many(filt, collation=collation)
        assert res.deleted_count == len(expected), "seed=%d filter=%r collation=%r" % (seed, filt, collation)


def test_a_collated_index_serves_collation_free_predicates(db):
    """MongoDB 7.0's plans: an index with a collation bounds the predicates of a query under
    another collation that collations cannot affect, filters the others on the documents, and
    gives a sort only on fields whose bounds hold no strings."""
    coll = db["collfree"]
    coll.create_index([("score", ASCENDING), ("price", ASCENDING), ("category", ASCENDING)], collation={"locale": "fr"})
    coll.insert_many([{"_id": i, "score": i % 7, "price": (i * 13) % 17 if i % 5 else "p%d" % i,
                       "category": ["cafe", "café", "Cafe"][i % 3]} for i in range(70)])

    def plan(filt, **kw):
        return db.command("explain", {"find": coll.name, "filter": filt, **kw})["queryPlanner"]["winningPlan"]

    def ixscan(node):
        while node["stage"] != "IXSCAN":
            node = node["inputStage"]
        return node
    p = plan({"score": 5}, sort={"price": 1})
    assert p["stage"] == "SORT" and ixscan(p)["indexBounds"] == {
        "score": ["[5, 5]"], "price": ["[MinKey, MaxKey]"], "category": ["[MinKey, MaxKey]"]}, p
    p = plan({"score": 5, "category": "cafe"})
    assert p["stage"] == "FETCH" and p["filter"] == {"category": {"$eq": "cafe"}}, p
    assert ixscan(p)["indexBounds"]["score"] == ["[5, 5]"]
    assert ixscan(p)["indexBounds"]["category"] == ["[MinKey, MaxKey]"]
    # Numbers only in price's bounds: the index gives the order.
    p = plan({"score": 5, "price": {"$gt": 3}}, sort={"price": 1})
    assert p["stage"] == "FETCH" and ixscan(p)["indexBounds"]["price"] == ["(3, inf.0]"], p
    # A string predicate alone on the leading field: no index.
    assert plan({"score": "5"})["stage"] == "COLLSCAN"
    for filt, sort in [({"score": 5}, [("price", 1)]), ({"score": 5, "category": "cafe"}, None),
                       ({"score": 5, "price": {"$gt": 3}}, [("price", 1)])]:
        kw = {"sort": sort + [("_id", 1)]} if sort else {}
        got = [d["_id"] for d in coll.find(filt, **kw)]
        ref = [d["_id"] for d in coll.find(filt, hint=[("$natural", 1)], **kw)]
        assert (got if sort else sorted(got)) == (ref if sort else sorted(ref)), filt


def strings_only():
    """Documents whose s is a string (not an array holding one)."""
    return {"$and": [{"s": {"$type": "string"}}, {"s": {"$not": {"$type": "array"}}}]}


@pytest.mark.parametrize("seed", SEEDS)
def test_aggregation_follows_the_collation(db, seed):
    """Aggregation under a collation (the command's or the collection's default) against
    independent answers: the query path (find/count/distinct hinted to a collection scan, whose
    matcher and sort compare BSON) and the same pipeline over an unindexed copy."""
    rng = random.Random(seed)
    coll, plain = db["aggdiff"], db["aggdiff_plain"]
    docs = [{"_id": i, "s": rand_value(rng)} for i in range(100)]
    coll.insert_many(docs)
    plain.insert_many(docs)
    for k, c in enumerate(INDEXED):
        coll.create_index([("s", ASCENDING)], name="s_c%d" % k, collation=c)
    strings = strings_only()
    for q in range(25):
        filt = rand_filter(rng)
        collation = rng.choice(COLLATIONS)
        kw = {"collation": collation} if collation else {}
        where = "seed=%d query=%d filter=%r collation=%r" % (seed, q, filt, collation)
        scan = lambda f, **extra: ids(coll.find(f, hint=[("$natural", 1)], **kw, **extra))
        # $match (through the planner and its collated indexes) and $sort.
        direction = rng.choice([1, -1])
        pipeline = [{"$match": filt}, {"$sort": {"s": direction, "_id": 1}}, {"$project": {"_id": 1}}]
        ref = scan(filt, sort=[("s", direction), ("_id", 1)])
        assert ids(coll.aggregate(pipeline, **kw)) == ref, where
        assert ids(plain.aggregate(pipeline, **kw)) == ref, where
        assert coll.count_documents(filt, **kw) == len(ref), where
        # $group on strings: one group per value distinct under the collation, each counting
        # the documents equal to its key.
        group = [{"$match": {"$and": [filt, strings]}}, {"$group": {"_id": "$s", "n": {"$sum": 1}}}]
        groups = list(coll.aggregate(group, **kw))
        assert len(groups) == len(plain.distinct("s", {"$and": [filt, strings]}, **kw)), where
        for g in groups:
            n = db.command("count", coll.name, query={"$and": [filt, strings, {"s": g["_id"]}]}, hint={"$natural": 1}, **kw)["n"]
            assert g["n"] == n, where + " group=%r" % g
        # (Which of a group's equal strings names it depends on the order documents arrive in,
        # which an index may change: compare the counts.)
        assert sorted(g["n"] for g in groups) == sorted(g["n"] for g in plain.aggregate(group, **kw)), where
        # $min/$max accumulators: equal, under the collation, to the first and last strings of
        # the sorted scan.
        ordered = list(coll.find({"$and": [filt, strings]}, sort=[("s", 1), ("_id", 1)], hint=[("$natural", 1)], **kw))
        mm = list(coll.aggregate([{"$match": {"$and": [filt, strings]}},
                                  {"$group": {"_id": None, "mn": {"$min": "$s"}, "mx": {"$max": "$s"},
                                              "set": {"$addToSet": "$s"}}}], **kw))
        if ordered:
            assert coll.count_documents({"_id": ordered[0]["_id"], "s": mm[0]["mn"]}, **kw) == 1, where
            assert coll.count_documents({"_id": ordered[-1]["_id"], "s": mm[0]["mx"]}, **kw) == 1, where
            assert len(mm[0]["set"]) == len(groups), where
        # $expr comparisons on strings agree with the query operators.
        w = rng.choice(WORDS)
        for op in ["$eq", "$lt", "$gte"]:
            query_ids = set(scan({"$and": [filt, strings, {"s": {op: w}}]}))
            expr = {"$and": [filt, strings, {"$expr": {op: ["$s", w]}}]}
            assert set(ids(coll.find(expr, **kw))) == query_ids, where + " " + op
            assert set(ids(coll.aggregate([{"$match": expr}], **kw))) == query_ids, where + " " + op
    # A collection default collation applies when the command gives none.
    for c in COLLATIONS[1:4]:
        db.drop_collection("aggdefault")
        dc = db.create_collection("aggdefault", collation=c)
        dc.insert_many(docs)
        pipeline = [{"$sort": {"s": 1, "_id": 1}}, {"$project": {"_id": 1}}]
        assert ids(dc.aggregate(pipeline)) == ids(coll.aggregate(pipeline, collation=c)), "seed=%d default=%r" % (seed, c)
        assert ids(dc.aggregate(pipeline, collation={"locale": "simple"})) == ids(coll.aggregate(pipeline)), c


def test_duplicate_key_on_a_collated_index_is_reported_in_hex(db):
    """A unique collated index holds collation keys (bytes, not text): MongoDB 7.0 reports the
    duplicate's key in hex (keyValue bare, "0x..." in the message), marks the encoded fields in
    hexEncoded and names the index's collation; a string that is not valid UTF-8 is hex-encoded
    the same way in an index without a collation."""
    coll = db["dupcoll"]
    en = {"locale": "en", "strength": 2}
    coll.create_index([("s", ASCENDING), ("n", ASCENDING)], unique=True, collation=en, name="s_n")
    coll.insert_one({"s": "abc", "n": 1})
    reply = db.command("insert", coll.name, documents=[{"s": "ABC", "n": 1}])
    err = reply["writeErrors"][0]
    full = coll.index_information()["s_n"]["collation"]
    assert list(err) == ["index", "code", "keyPattern", "keyValue", "hexEncoded", "collation", "errmsg"], err
    assert err["keyPattern"] == {"s": 1, "n": 1}
    hexkey = err["keyValue"]["s"]
    assert hexkey and all(ch in "0123456789abcdef" for ch in hexkey), err
    assert err["keyValue"]["n"] == 1 and err["hexEncoded"] == [True, False]
    assert err["collation"] == full and full["version"] == "57.1"
    assert err["errmsg"] == (
        'E11000 duplicate key error collection: %s index: s_n collation: { locale: "en", caseLevel: false, '
        'caseFirst: "off", strength: 2, numericOrdering: false, alternate: "non-ignorable", maxVariable: "punct", '
        'normalization: false, backwards: false, version: "57.1" } dup key: { s: "0x%s", n: 1 }'
        % (coll.full_name, hexkey))
    # The same details in a command's error reply (findAndModify's upsert).
    with pytest.raises(pymongo.errors.DuplicateKeyError) as e:
        coll.find_one_and_update({"s": "zzz"}, {"$set": {"s": "Abc", "n": 1}}, upsert=True)
    assert e.value.details["keyValue"] == {"s": hexkey, "n": 1} and e.value.details["collation"] == full
    # Invalid UTF-8 in an index without a collation.
    raw = db["dupraw"]
    raw.create_index("b", unique=True)
    def invalid_utf8(_id):  # {_id, b: "x\xff"}, which a Python str cannot hold
        return RawBSONDocument(bson.encode({"_id": _id, "b": "x?"}).replace(b"x?", b"x\xff"))
    db.command("insert", raw.name, documents=[invalid_utf8(1)])
    reply = db.command("insert", raw.name, documents=[invalid_utf8(2)])
    err = reply["writeErrors"][0]
    assert err["keyValue"] == {"b": "78ff"} and err["hexEncoded"] == [True] and "collation" not in err, err
    assert err["errmsg"].endswith('index: b_1 dup key: { b: "0x78ff" }'), err
