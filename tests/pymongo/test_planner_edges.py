"""The planner across getMores and at its edges: an index that becomes multikey or is dropped
and recreated between batches, partial filters MongoDB refuses, $type implication, numeric
paths inside $elemMatch, very long $in lists. Each answer is compared with a collection scan.
"""
import pytest
from bson import Decimal128, Int64
from pymongo.errors import OperationFailure

NATURAL = [("$natural", 1)]


def ids(cursor):
    return sorted(d["_id"] for d in cursor)


def drain_after(cursor, first, action):
    """The first `first` documents, then action(), then the rest of the cursor."""
    got = [next(cursor) for _ in range(first)]
    action()
    return got + list(cursor)


@pytest.mark.parametrize("filt", [{"a": {"$ne": 5}}, {"a": {"$nin": [5, 6]}}, {"a": {"$not": {"$gt": 3, "$lt": 7}}}])
def test_index_becoming_multikey_between_batches_returns_no_non_match(db, filt):
    db.c.insert_many([{"_id": i, "a": i} for i in range(10)])
    db.c.create_index("a")
    cur = db.c.find(filt, batch_size=2)
    out = drain_after(cur, 2, lambda: (db.c.update_one({"_id": 9}, {"$set": {"a": [5, 100]}}),
                                       db.c.insert_one({"_id": 50, "a": [5, 100]})))
    # No document changes after it is read: each returned one must match the filter now.
    assert len(out) == len({d["_id"] for d in out})
    for d in out:
        assert db.c.count_documents({"$and": [{"_id": d["_id"]}, filt]}, hint=NATURAL) == 1, d


def test_null_equality_after_index_becomes_multikey(db):
    db.c.insert_many([{"_id": i, "a": {"b": None}} for i in range(4)])
    db.c.create_index("a.b")
    cur = db.c.find({"a.b": None}, batch_size=2)
    out = drain_after(cur, 2, lambda: db.c.insert_many([{"_id": 10, "a": [1, {"b": 2}]}, {"_id": 11, "a": []},
                                                         {"_id": 12, "a": [5]}]))
    expected = set(ids(db.c.find({"a.b": None}, hint=NATURAL)))
    assert {d["_id"] for d in out} <= expected


def test_covered_cursor_survives_index_becoming_multikey(db):
    db.c.insert_many([{"_id": i, "a": i + 1} for i in range(6)])
    db.c.create_index("a")
    cur = db.c.find({"a": {"$gt": 0}}, {"a": 1, "_id": 0}, batch_size=2)
    out = drain_after(cur, 2, lambda: db.c.insert_one({"_id": 100, "a": [100, 101]}))
    values = [d["a"] for d in out]
    assert values[:2] == [1, 2]
    for v in values[2:]:
        assert isinstance(v, list) or v in range(1, 7), values


def test_dropped_and_recreated_index_kills_the_cursor(db):
    db.c.insert_many([{"_id": i, "a": i} for i in range(20)])
    db.c.create_index("a")
    cur = db.c.find({"a": {"$lt": 10}}, batch_size=2)
    next(cur), next(cur)

    def recreate():
        db.c.drop_index("a_1")
        db.c.update_many({}, {"$inc": {"a": 1000}})
        db.c.insert_one({"_id": 99, "a": 5})
        db.c.create_index("a")

    recreate()
    with pytest.raises(OperationFailure) as e:
        list(cur)
    assert e.value.code == 175  # QueryPlanKilled


def test_type_partial_filter_is_not_implied_by_equality(db):
    db.c.insert_many([{"_id": 1, "a": 5}, {"_id": 2, "a": 5.0}, {"_id": 3, "a": Int64(5)},
                      {"_id": 4, "a": Decimal128("5")}, {"_id": 5, "a": [5.0]}, {"_id": 6}, {"_id": 7, "a": None}])
    db.c.create_index("a", partialFilterExpression={"a": {"$type": "int"}})
    assert ids(db.c.find({"a": 5})) == [1, 2, 3, 4, 5]
    assert db.c.count_documents({"a": 5}) == 5
    db.c.drop_indexes()
    db.c.create_index("a", partialFilterExpression={"a": {"$type": "null"}})
    assert ids(db.c.find({"a": None})) == [6, 7]


def test_numeric_path_inside_elem_match_is_not_bounded_by_a_positional_index(db):
    db.c.insert_many([{"_id": 1, "a": [[5], [7]]}, {"_id": 2, "a": [[5, 6], [7, 8]]}])
    for key in ["a.0", "a.0.0"]:
        db.c.create_index(key)
    for filt in [{"a": {"$elemMatch": {"0": 7}}}, {"a": {"$elemMatch": {"0": {"$gte": 7}}}}]:
        assert ids(db.c.find(filt)) == ids(db.c.find(filt, hint=NATURAL)) == [1, 2], filt


@pytest.mark.parametrize("bad", [{"a": {"$not": {"$gt": 3}}}, {"a": {"$ne": 5}}, {"$nor": [{"a": 1}]},
                                 {"a": {"$exists": False}}, {"a": {"$regex": "x"}}])
def test_partial_filters_mongodb_refuses(db, bad):
    with pytest.raises(OperationFailure) as e:
        db.c.create_index("a", partialFilterExpression=bad)
    assert e.value.code == 67  # CannotCreateIndex
    assert "Expression not supported in partial index" in str(e.value)


def test_long_in_lists(db):
    db.c.insert_many([{"_id": i, "a": i} for i in range(2000)])
    db.c.create_index("a")
    values = list(range(0, 40000, 2))
    assert db.c.count_documents({"a": {"$in": values}}) == 1000
    assert len(list(db.c.find({"a": {"$in": values, "$nin": values[:100]}}))) == 900
    assert len(list(db.c.find({"$and": [{"a": {"$in": values}}, {"a": {"$in": values[::3]}}]}))) == 334


def test_update_keeps_the_key_a_null_and_a_missing_field_share(db):
    # The elements {d: null} and {} give the keys (null, 1) and (missing, 1): one index entry.
    # Updating the document to keep only {} must leave that entry in place.
    db.c.create_index([("a.d", 1), ("b", 1)])
    db.c.insert_one({"_id": 1, "a": [{"d": None}, {}], "b": 1})
    db.c.update_one({"_id": 1}, {"$set": {"a": [{}]}})
    assert db.c.count_documents({}, hint="a.d_1_b_1") == 1
    assert ids(db.c.find({"a.d": None}, hint="a.d_1_b_1")) == [1]
    db.c.update_one({"_id": 1}, {"$set": {"a": [{"d": None}, {}]}})
    db.c.update_one({"_id": 1}, {"$set": {"a": [{"d": None}]}})
    assert ids(db.c.find({"a.d": None}, hint="a.d_1_b_1")) == [1]
