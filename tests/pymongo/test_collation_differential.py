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

import pytest
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
        # The count command (count_documents is an aggregate, refused under a collation here).
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
