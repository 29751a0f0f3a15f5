"""Collations never let an index change a query's answer: a randomized differential test.

A collection of random strings (case, accents, digits, spaces, punctuation), numbers, arrays
and sub-documents gets indexes under several collations (and the simple one); random filters
($eq, $in, $ne, $nin, ranges, regexes, $elemMatch) and sorts then run under each collation.
Every answer must equal the same find hinted {$natural: 1} (a collection scan) under the same
collation: as sets of _ids without a sort, and in order with a sort (ties broken by _id).
count and distinct are compared the same way, and
explain must show the collated index only when the query's collation is the index's.
Seeds: FIXED_SEEDS plus one fresh seed per run (printed in failures); COLLATION_DIFF_SEED=n
reproduces one.
"""
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


def rand_value(rng):
    r = rng.random()
    if r < 0.65:
        return rng.choice(WORDS)
    if r < 0.75:
        return rng.choice([1, 2.5, -3, 10])
    if r < 0.9:
        return [rng.choice(WORDS) for _ in range(rng.randrange(0, 3))]
    if r < 0.95:
        return {"x": rng.choice(WORDS)}
    return None


def rand_filter(rng):
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


def ids(cursor):
    return [d["_id"] for d in cursor]


@pytest.mark.parametrize("seed", SEEDS)
def test_collated_indexes_never_change_answers(db, seed):
    rng = random.Random(seed)
    coll = db["colldiff"]
    docs = [{"_id": i, "s": rand_value(rng)} for i in range(120)]
    coll.insert_many(docs[:60])
    names = {}
    for k, c in enumerate(INDEXED):
        names[k] = "s_c%d" % k
        coll.create_index([("s", ASCENDING if k % 2 == 0 else DESCENDING)], name=names[k], collation=c)
    coll.create_index([("s", ASCENDING)], name="s_simple")
    coll.insert_many(docs[60:])  # half before the builds, half after
    for q in range(40):
        filt = rand_filter(rng)
        collation = rng.choice(COLLATIONS)
        kw = {"collation": collation} if collation else {}
        where = "seed=%d query=%d filter=%r collation=%r" % (seed, q, filt, collation)
        reference = set(ids(coll.find(filt, hint=[("$natural", 1)], **kw)))
        assert set(ids(coll.find(filt, **kw))) == reference, where
        for k, c in enumerate(INDEXED):
            # A hinted index answers the same whatever its collation (scanned whole if another).
            assert set(ids(coll.find(filt, hint=names[k], **kw))) == reference, where + " hint=" + names[k]
        # The count command.
        assert db.command("count", coll.name, query=filt, **kw)["n"] == len(reference), where
        # A sort under the collation (ties broken by _id): the same order as over a scan.
        direction = rng.choice([1, -1])
        sort = [("s", direction), ("_id", 1)]
        ref = ids(coll.find(filt, sort=sort, hint=[("$natural", 1)], **kw))
        assert ids(coll.find(filt, sort=sort, **kw)) == ref, where
        for k, c in enumerate(INDEXED):
            assert ids(coll.find(filt, sort=sort, hint=names[k], **kw)) == ref, where + " hint=" + names[k]
        # distinct: values equal under the collation count once, the same as over a scan's docs.
        got_distinct = coll.distinct("s", filt, **kw)
        assert len(got_distinct) == len(coll.distinct("s", {"_id": {"$in": sorted(reference)}}, **kw)), where
        # Explain: the collated index is used only under its own collation.
        plan = str(db.command("explain", {"find": coll.name, "filter": filt, **({"collation": collation} if collation else {})},
                              verbosity="queryPlanner")["queryPlanner"]["winningPlan"])
        for k, c in enumerate(INDEXED):
            if names[k] in plan:
                assert collation is not None and all(collation.get(f) == v for f, v in c.items()) and \
                    len(collation) == len(c), where + " plan=" + plan
    # Writes under a collation match as the scan does.
    for q in range(6):
        filt = rand_filter(rng)
        collation = rng.choice(COLLATIONS[1:])
        expected = set(ids(coll.find(filt, hint=[("$natural", 1)], collation=collation)))
        res = coll.update_many(filt, {"$inc": {"n": 1}}, collation=collation)
        assert res.matched_count == len(expected), "seed=%d filter=%r collation=%r" % (seed, filt, collation)
        res = coll.delete_many(filt, collation=collation)
        assert res.deleted_count == len(expected), "seed=%d filter=%r collation=%r" % (seed, filt, collation)


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
        assert sorted(map(repr, groups)) == sorted(map(repr, plain.aggregate(group, **kw))), where
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
