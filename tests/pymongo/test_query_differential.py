"""An index must never change a query's answer: a randomized differential test of the planner.

For each index shape (single field, compound over sibling paths of one array, array plus
scalar, array prefix plus its path, descending, sparse, partial, unique, hidden, _id) a
collection of random documents with real data's shapes (query_diff_gen) gets the index, half
of the documents before the build and half after, and random queries then run through every
command that plans: find with and without a hint, with sort/skip/limit/projection, count,
distinct, aggregate, update_many/delete_many. Each answer is compared with a collection scan
of the same data:
  * find: the same find hinted {$natural: 1}. Without a sort, as multisets of documents (raw
    BSON, so 1 and 1.0 differ); with skip/limit but no sort only the count and containment.
    With a sort, the reference is sorted by the spec plus _id ascending and plus _id
    descending: two documents are tied under the spec exactly when their order differs
    between the two, and position i of the answer must hold reference i's document or one
    tied with it (so any order of ties is accepted and nothing else).
  * count, distinct, aggregate, update_many, delete_many: the same command on an index-free
    twin collection holding the same documents (the twin's state after writes too).
Expected differences that MongoDB has and documents: a hinted sparse index answers from the
keys it holds, so a sparse index is hinted only when the filter has a top-level predicate on a
key field that fails wherever the field is absent; a hinted partial index the query does not
imply is refused with BadValue (2); a hinted hidden index is refused with BadValue (2).
Explain checks: multiKeyPaths/isMultiKey/isSparse/isPartial/isUnique of every index against
the data, hidden indexes never in a winning plan; fixed cases for covered plans
(PROJECTION_COVERED over IXSCAN, totalDocsExamined 0) and a sparse index with a sort.

Seeds: FIXED_SEEDS plus one fresh seed per run (printed in failures). Environment:
  QUERY_DIFF_SEED=n     the fresh seed (to reproduce a failure)
  QUERY_DIFF_SCALE=x    multiplies the queries per shape and seed (default 1)
  QUERY_DIFF_ONLY_SEED=1  run only the fresh seed (with QUERY_DIFF_SEED: one failing case)
  QUERY_DIFF_DOCS=lo,hi documents per collection (default 100,160)
  QUERY_DIFF_DUMP=file  append every mismatch as extended JSON lines to file (for reduction)
The minimal reproductions of the bugs this test found are kept at the end as regression tests.
The checks live in query_diff_case.py, the random documents and queries in query_diff_gen.py.
"""
import collections
import json
import os
import random

import pytest
from bson import Decimal128, Int64
from pymongo import ASCENDING
from pymongo.errors import OperationFailure

from query_diff_case import (NATURAL, Case, dumps, find_stage, index_names, summarize_plan,
                             winning_plan)

FIXED_SEEDS = [1, 2, 3]
FRESH_SEED = int(os.environ.get("QUERY_DIFF_SEED") or random.SystemRandom().randrange(1, 10 ** 9))
SEEDS = [FRESH_SEED] if os.environ.get("QUERY_DIFF_ONLY_SEED") else FIXED_SEEDS + [FRESH_SEED]
SCALE = float(os.environ.get("QUERY_DIFF_SCALE", "1"))
QUERIES = 10          # random queries per shape and seed (times SCALE)
WRITES = 2            # write rounds (each followed by 2 queries) per shape and seed (times SCALE)
DOCS = tuple(int(x) for x in os.environ.get("QUERY_DIFF_DOCS", "100,160").split(","))  # per collection
DUMP = os.environ.get("QUERY_DIFF_DUMP")


class Shape:
    def __init__(self, name, indexes, mixed_ids=False, implying=()):
        self.name = name
        self.indexes = indexes  # [(keys, options)]
        self.mixed_ids = mixed_ids
        # Filters that imply a partial index's filter: ANDed into some queries so that the
        # partial index is eligible (random filters rarely imply it).
        self.implying = list(implying)

    @property
    def fields(self):
        return list(dict.fromkeys(k for keys, _ in self.indexes for k, _ in keys)) or ["_id"]


def _ix(*keys, **opts):
    return (list(keys), opts)


SHAPES = [
    Shape("a_d", [_ix(("a.d", 1))]),
    Shape("a_b_c", [_ix(("a.b.c", 1))]),
    Shape("ad_ae", [_ix(("a.d", 1), ("a.e", 1))]),
    Shape("ae_ad", [_ix(("a.e", 1), ("a.d", 1))]),
    Shape("ad_ae_b", [_ix(("a.d", 1), ("a.e", 1), ("b", 1))]),
    Shape("ad_b", [_ix(("a.d", 1), ("b", 1))]),
    Shape("b_ad_desc", [_ix(("b", 1), ("a.d", -1))]),
    Shape("a_ad", [_ix(("a", 1), ("a.d", 1))]),
    Shape("a_whole", [_ix(("a", 1))]),
    Shape("a_0_d", [_ix(("a.0.d", 1))]),
    Shape("arr_0", [_ix(("arr.0", 1))]),
    Shape("b_desc", [_ix(("b", -1))]),
    Shape("arr", [_ix(("arr", 1))]),
    Shape("n", [_ix(("n", 1))]),
    Shape("s_n_desc", [_ix(("s", 1), ("n", -1))]),
    Shape("items", [_ix(("items.sku", 1), ("items.qty", -1))]),
    Shape("scores", [_ix(("scores.level", 1), ("scores.score", 1))]),
    Shape("tags", [_ix(("tags.attrs.color", 1)), _ix(("tags", 1))]),
    Shape("sparse_ad", [_ix(("a.d", 1), sparse=True)]),
    Shape("sparse_b_n", [_ix(("b", 1), ("n", 1), sparse=True)]),
    Shape("partial_gt", [_ix(("n", 1), partialFilterExpression={"n": {"$gt": 2}})],
          implying=[{"n": {"$gt": 2}}, {"n": {"$gte": 5}}, {"n": 7}, {"n": {"$in": [3, 5, 2.5]}}, {"n": {"$gt": 3, "$lt": 1e300}}]),
    Shape("partial_exists", [_ix(("a.d", 1), partialFilterExpression={"a.d": {"$exists": True}})],
          implying=[{"a.d": {"$exists": True}}, {"a.d": 1}, {"a.d": {"$gt": "a"}}, {"a.d": {"$in": [1, "ab"]}}]),
    Shape("partial_type", [_ix(("b", 1), partialFilterExpression={"b": {"$type": "string"}})],
          implying=[{"b": {"$type": "string"}}, {"b": "ab"}, {"b": ""}]),
    Shape("partial_eq", [_ix(("s", 1), ("n", 1), partialFilterExpression={"s": "a"})],
          implying=[{"s": "a"}, {"s": {"$in": ["a"]}}]),
    Shape("partial_and", [_ix(("n", -1), ("b", 1), partialFilterExpression={
        "$and": [{"n": {"$gte": 0}}, {"b": {"$exists": True}}]})],
          implying=[{"n": {"$gte": 0}, "b": {"$exists": True}}, {"n": {"$gt": 1}, "b": 3}, {"n": 5, "b": {"$gte": "a"}}]),
    Shape("partial_or_in", [_ix(("n", 1), ("s", 1), partialFilterExpression={
        "$or": [{"n": {"$lt": 0}}, {"s": {"$in": ["a", "b"]}}]})],
          implying=[{"n": {"$lt": -1}}, {"s": "a"}, {"s": {"$in": ["b"]}}, {"$or": [{"n": -5}, {"s": "b"}]}]),
    Shape("unique_u", [_ix(("u", 1), unique=True)]),
    Shape("hidden_b", [_ix(("b", 1), hidden=True), _ix(("n", 1), ("b", 1), hidden=True)]),
    # Hashed indexes: equality and $in through hashes of values of every numeric type and
    # edge (NaN, infinities, 2^63, fractions), ranges never; never covering, sorting or distinct.
    Shape("n_hashed", [_ix(("n", "hashed"))]),
    Shape("s_n_hashed", [_ix(("s", 1), ("n", "hashed"))]),
    Shape("b_hashed_n", [_ix(("b", "hashed"), ("n", -1))]),
    Shape("sparse_n_hashed", [_ix(("n", "hashed"), sparse=True), _ix(("u", "hashed"))]),
    Shape("id", [], mixed_ids=True),
    Shape("many", [_ix(("a.d", 1)), _ix(("b", 1)), _ix(("n", 1), ("b", -1)), _ix(("a.e", 1), ("a.d", 1)),
                   _ix(("s", 1), sparse=True), _ix(("b", 1), ("n", 1), partialFilterExpression={"n": {"$lt": 3}}),
                   _ix(("arr", -1))], implying=[{"n": {"$lt": 3}}, {"n": 1}]),
]

# QUERY_DIFF_STATS=1: count the winning plans' stage shapes (printed with pytest -s).
STATS = collections.Counter() if os.environ.get("QUERY_DIFF_STATS") else None


# ---------------------------------------------------------------------------------------------
# The randomized test, one per shape; every seed inside.

@pytest.mark.parametrize("shape", SHAPES, ids=[s.name for s in SHAPES])
def test_index_never_changes_answers(db, shape):
    failures = []
    checked = 0
    for seed in SEEDS:
        case = Case(db, shape, seed, DOCS, None, STATS, DUMP)
        case.run(max(1, int(QUERIES * SCALE)), max(1, int(WRITES * SCALE)))
        checked += case.checked
        if case.failures:
            failures.append(case.report())
        case.c.drop()
        case.r.drop()
    assert checked > 0
    if STATS is not None:
        print("\n%s plans: %s" % (shape.name, dict(STATS.most_common())))
        STATS.clear()
    assert not failures, "\n".join(failures)


# ---------------------------------------------------------------------------------------------
# Explain: fixed cases.

def _plan(db, cmd, verbosity="executionStats"):
    return db.command("explain", cmd, verbosity=verbosity)


def test_covered_queries_examine_no_documents(db):
    db.c.insert_many([{"_id": i, "b": i % 7, "a": {"d": i % 5, "e": i}, "x": [i]} for i in range(60)])
    db.c.create_index("b")
    db.c.create_index([("a.d", 1), ("a.e", 1)])
    for filt, proj in [({"b": {"$gt": 3}}, {"b": 1, "_id": 0}),
                       ({"a.d": 2}, {"a.d": 1, "_id": 0}),
                       ({"a.d": {"$in": [1, 2]}, "a.e": {"$lt": 30}}, {"a.e": 1, "a.d": 1, "_id": 0})]:
        ex = _plan(db, {"find": "c", "filter": filt, "projection": proj})
        plan = ex["queryPlanner"]["winningPlan"]
        assert plan["stage"] == "PROJECTION_COVERED", summarize_plan(plan)
        assert plan["inputStage"]["stage"] == "IXSCAN", summarize_plan(plan)
        assert ex["executionStats"]["totalDocsExamined"] == 0
        assert ex["executionStats"]["nReturned"] == len(list(db.c.find(filt, proj, hint=NATURAL)))
        assert sorted(map(str, db.c.find(filt, proj))) == sorted(map(str, db.c.find(filt, proj, hint=NATURAL)))
    # A field holding arrays cannot cover its projection: the keys are its elements.
    db.c.insert_one({"_id": 100, "b": [1, 5], "a": {"d": 2, "e": 1}})
    ex = _plan(db, {"find": "c", "filter": {"b": {"$gt": 3}}, "projection": {"b": 1, "_id": 0}})
    assert find_stage(ex["queryPlanner"]["winningPlan"], "FETCH") is not None
    assert ex["executionStats"]["totalDocsExamined"] > 0
    assert sorted(map(str, db.c.find({"b": {"$gt": 3}}, {"b": 1, "_id": 0}))) == \
        sorted(map(str, db.c.find({"b": {"$gt": 3}}, {"b": 1, "_id": 0}, hint=NATURAL)))


def _ixscan(db, filt, hint):
    ex = _plan(db, {"find": "c", "filter": filt, "hint": hint}, "queryPlanner")
    return find_stage(ex["queryPlanner"]["winningPlan"], "IXSCAN")


def test_multikey_paths_follow_the_data(db):
    db.c.create_index([("a.b.c", 1), ("a.d", 1)])
    db.c.create_index([("x", 1)])
    db.c.insert_one({"a": {"b": {"c": 1}, "d": 1}, "x": 1})
    ix = _ixscan(db, {}, "a.b.c_1_a.d_1")
    assert ix["isMultiKey"] is False
    assert ix["multiKeyPaths"] == {"a.b.c": [], "a.d": []}
    db.c.insert_one({"a": {"b": [{"c": 1}], "d": 2}})
    ix = _ixscan(db, {}, "a.b.c_1_a.d_1")
    assert ix["isMultiKey"] is True
    assert ix["multiKeyPaths"] == {"a.b.c": ["a.b"], "a.d": []}
    db.c.insert_one({"a": [{"b": {"c": [1, 2]}, "d": 3}]})
    ix = _ixscan(db, {}, "a.b.c_1_a.d_1")
    assert ix["multiKeyPaths"] == {"a.b.c": ["a", "a.b", "a.b.c"], "a.d": ["a"]}
    # An update that makes a field an array makes its index multikey.
    assert _ixscan(db, {}, "x_1")["multiKeyPaths"] == {"x": []}
    db.c.update_one({"x": 1}, {"$set": {"x": [1, 2]}})
    ix = _ixscan(db, {}, "x_1")
    assert ix["isMultiKey"] is True and ix["multiKeyPaths"] == {"x": ["x"]}


def test_sparse_partial_unique_flags_in_explain(db):
    db.c.insert_many([{"_id": i, "a": i, "b": i % 3} for i in range(10)])
    db.c.create_index("a", sparse=True, unique=True)
    db.c.create_index("b", partialFilterExpression={"b": {"$gt": 0}})
    ix = _ixscan(db, {"a": 3}, "a_1")
    assert (ix["isSparse"], ix["isPartial"], ix["isUnique"]) == (True, False, True)
    ix = _ixscan(db, {"b": 2}, "b_1")
    assert (ix["isSparse"], ix["isPartial"], ix["isUnique"]) == (False, True, False)


def test_hidden_index_never_wins(db):
    db.c.insert_many([{"_id": i, "b": i % 10} for i in range(100)])
    db.command({"createIndexes": "c", "indexes": [{"key": {"b": 1}, "name": "b_1", "hidden": True}]})
    for filt, sort in [({"b": 3}, None), ({"b": {"$gt": 5}}, {"b": 1}), ({}, {"b": -1})]:
        cmd = {"find": "c", "filter": filt}
        if sort:
            cmd["sort"] = sort
        plan = _plan(db, cmd, "queryPlanner")["queryPlanner"]["winningPlan"]
        assert "b_1" not in set(index_names(plan)), summarize_plan(plan)
    with pytest.raises(OperationFailure) as e:
        list(db.c.find({"b": 3}, hint="b_1"))
    assert e.value.code == 2
    # The same index not hidden is used (collMod, to unhide in place, is not implemented).
    db.d.insert_many([{"_id": i, "b": i % 10} for i in range(100)])
    db.d.create_index("b")
    plan = _plan(db, {"find": "d", "filter": {"b": 3}}, "queryPlanner")["queryPlanner"]["winningPlan"]
    assert "b_1" in set(index_names(plan)), summarize_plan(plan)


def test_sort_with_sparse_index_returns_every_document(db):
    db.c.insert_many([{"_id": i, "x": i % 4} if i % 3 else {"_id": i} for i in range(30)])
    db.c.create_index("x", sparse=True)
    got = list(db.c.find().sort("x", ASCENDING))
    assert len(got) == 30
    assert [d.get("x") for d in got] == sorted((d.get("x") for d in got), key=lambda v: -1 if v is None else v)
    got = list(db.c.find({}, {"x": 1, "_id": 0}).sort("x", -1))
    assert len(got) == 30
    # Hinted, a sparse index answers from what it holds (MongoDB documents this).
    assert len(list(db.c.find().sort("x", 1).hint("x_1"))) == 20


# ---------------------------------------------------------------------------------------------
# Minimal reproductions of the bugs the randomized test found (all fixed): regression tests.

def _ids(cursor):
    return [d["_id"] for d in cursor]


def test_regression_covered_projection_drops_id(db):
    db.c.insert_many([{"_id": 1, "b": 1, "x": 1}, {"_id": 2, "b": 2, "x": 2}])
    db.c.create_index("b")
    assert list(db.c.find({"b": 2}, {"b": 1}, hint=NATURAL)) == [{"_id": 2, "b": 2}]
    assert list(db.c.find({"b": 2}, {"b": 1})) == [{"_id": 2, "b": 2}]


def test_regression_exclude_id_projection_answers_index_keys(db):
    db.c.insert_many([{"_id": 1, "b": 1, "x": 1}, {"_id": 2, "b": 2, "x": 2}])
    db.c.create_index("b")
    assert list(db.c.find({"b": 1}, {"_id": 0}, hint=NATURAL)) == [{"b": 1, "x": 1}]
    assert list(db.c.find({"b": 1}, {"_id": 0})) == [{"b": 1, "x": 1}]


def test_regression_multikey_sort_ignores_bounds_on_sibling_field(db):
    # Sorting descending by a.e uses each document's largest a.e (5 for _id 1, 3 for _id 2);
    # the scan of {a.e: 1, a.d: 1} within a.d == 2 meets _id 1 only at its element {d: 2, e: 1}.
    db.c.insert_many([{"_id": 1, "a": [{"d": 1, "e": 5}, {"d": 2, "e": 1}]}, {"_id": 2, "a": [{"d": 2, "e": 3}]}])
    assert _ids(db.c.find({"a.d": 2}, sort=[("a.e", -1)], hint=NATURAL)) == [1, 2]
    db.c.create_index([("a.e", 1), ("a.d", 1)])
    assert _ids(db.c.find({"a.d": 2}, sort=[("a.e", -1)])) == [1, 2]


def test_regression_positional_path_null_matches_element(db):
    db.c.insert_many([{"_id": 1, "a": [{"d": 1}]}, {"_id": 2, "arr": [{"x": 1}]}])
    db.c.create_index("a.0.d")
    db.c.create_index("arr.0")
    for filt in [{"a.0.d": None}, {"a.0.d": {"$in": [None, 7]}}, {"arr.0": None}]:
        assert _ids(db.c.find(filt)) == _ids(db.c.find(filt, hint=NATURAL)), filt


def test_regression_elem_match_on_positional_index_path(db):
    # As MongoDB's own match_numeric_components.js: {arr: [["b"], ["c"]]} has one key ["b"] in
    # an index on arr.0, so bounds ["b", "b"] from the $elemMatch miss it.
    db.c.insert_one({"_id": 1, "arr": [["b"], ["c"]], "f": [[3, 5], [5, 7]]})
    for filt in [{"arr.0": {"$elemMatch": {"$in": ["b"]}}}, {"f.0": {"$elemMatch": {"$eq": 5}}}]:
        assert _ids(db.c.find(filt)) == [1], filt
    db.c.create_index("arr.0")
    db.c.create_index("f.0")
    for filt in [{"arr.0": {"$elemMatch": {"$in": ["b"]}}}, {"f.0": {"$elemMatch": {"$eq": 5}}}]:
        assert _ids(db.c.find(filt)) == [1], filt


def test_regression_sort_on_positional_path_holding_array(db):
    # MongoDB builds sort keys as it builds index keys, so the index order is likely the right one.
    db.c.insert_many([{"_id": 1, "arr": [{"x": 1}]}, {"_id": 2, "arr": [[None]]}, {"_id": 3, "arr": [[5, 0]]},
                      {"_id": 4, "arr": [3]}])
    blocking = _ids(db.c.find({}, sort=[("arr.0", 1)], hint=NATURAL))  # [2, 3, 4, 1]
    db.c.create_index("arr.0")
    assert _ids(db.c.find({}, sort=[("arr.0", 1)])) == blocking


def test_regression_mixed_numeric_types_compare_exactly(db):
    # MongoDB compares int, long, double and decimal by their exact values.
    db.c.insert_many([{"_id": 1, "n": Int64(2 ** 53)}, {"_id": 2, "n": Decimal128(str(2 ** 53 + 1))},
                      {"_id": 3, "n": float("inf")}, {"_id": 4, "n": Decimal128("1E+400")},
                      {"_id": 5, "n": 0.1}, {"_id": 6, "n": Decimal128("0.1")}])
    assert _ids(db.c.find({"n": Int64(2 ** 53)})) == [1]
    assert _ids(db.c.find({"n": float("inf")})) == [3]
    assert _ids(db.c.find({"n": {"$lt": float("inf"), "$gt": 1e300}})) == [4]
    assert _ids(db.c.find({"n": 0.1})) == [5]
    assert len(db.c.distinct("n")) == 6


def test_regression_sparse_index_bounds_from_predicate_matching_missing(db):
    # {$gte: null} matches _id 1 through the element without d, {$lt: 9} through d: 5; the
    # sparse index holds only the key 5 for it, and the scan reads [undefined, null].
    db.c.insert_one({"_id": 1, "a": [{"d": 5}, {"e": 1}]})
    db.c.create_index("a.d", sparse=True)
    for filt in [{"a.d": {"$gte": None, "$lt": 9}}, {"$and": [{"a.d": None}, {"a.d": 5}]},
                 {"$and": [{"a.d": {"$in": [None, 7]}}, {"a.d": 5}]}]:
        assert _ids(db.c.find(filt, hint=NATURAL)) == [1], filt
        assert _ids(db.c.find(filt)) == [1], filt


def test_regression_sparse_multikey_index_provides_sort(db):
    # _id 1 sorts by min(5, null) = null: first. The sparse index holds only its key 5.
    db.c.insert_many([{"_id": 1, "a": [{"d": 5}, {"e": 1}]}, {"_id": 2, "a": [{"d": 3}]}])
    filt = {"a.d": {"$exists": True}}
    assert _ids(db.c.find(filt, sort=[("a.d", 1)], hint=NATURAL)) == [1, 2]
    db.c.create_index("a.d", sparse=True)
    assert _ids(db.c.find(filt, sort=[("a.d", 1)])) == [1, 2]
