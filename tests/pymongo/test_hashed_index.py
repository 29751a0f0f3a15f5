"""Hashed indexes (issue 14): keys are MongoDB's hashes (the value MongoDB's own hasher checks
itself against at start-up: 42 hashes to -944302157085130861), equal numbers of every type
share a key, and lookups through the index give what a collection scan gives."""
import pymongo
import pytest
from bson.decimal128 import Decimal128
from bson.int64 import Int64

CHECK_42 = -944302157085130861


def test_keys_are_mongodbs_hashes(db):
    db.c.create_index([("a", pymongo.HASHED)])
    db.c.insert_many([{"_id": 1, "a": 42}, {"_id": 2, "a": 42.0}, {"_id": 3, "a": Int64(42)},
                      {"_id": 4, "a": Decimal128("42.00")}, {"_id": 5, "a": 42.7}, {"_id": 6, "a": "42"}])
    got = [d for d in db.c.find({}, hint="a_hashed", return_key=True)]
    assert all(set(d) == {"a"} for d in got), got
    values = sorted(d["a"] for d in got)
    assert values.count(CHECK_42) == 5, values  # 42, 42.0, 42L, 42.00 and 42.7 (truncated)
    assert all(isinstance(v, int) for v in values)
    assert sorted(d["_id"] for d in db.c.find({"a": 42})) == [1, 2, 3, 4]
    assert [d["_id"] for d in db.c.find({"a": 42.7})] == [5]
    assert [d["_id"] for d in db.c.find({"a": {"$in": ["42", 43]}})] == [6]
    # An equality scans exactly the value's hash, one point, whatever the number's type: every
    # value equal to it hashes alike (42.7 is equal only to 42.7s, which hash as 42).
    for q in (42, 42.0, Int64(42), Decimal128("42.00"), 42.7, Decimal128("42.7")):
        ex = db.c.find({"a": q}).explain()
        plan = ex["queryPlanner"]["winningPlan"]
        assert plan["stage"] == "FETCH" and plan["inputStage"]["stage"] == "IXSCAN", (q, plan)
        assert plan["inputStage"]["indexName"] == "a_hashed"
        assert plan["inputStage"]["indexBounds"] == {"a": ["[%d, %d]" % (CHECK_42, CHECK_42)]}, q
        assert plan["filter"] == {"a": {"$eq": q}}, plan  # hashes collide: the value is checked
    stats = db.c.find({"a": 42.7}).explain()["executionStats"]
    assert (stats["nReturned"], stats["totalKeysExamined"], stats["totalDocsExamined"]) == (1, 5, 5)


def test_refusals(db):
    with pytest.raises(pymongo.errors.OperationFailure) as e:
        db.c.create_index([("a", pymongo.HASHED)], unique=True)
    assert e.value.code == 16764
    db.c.create_index([("a", pymongo.HASHED), ("b", 1)])
    # An array on the other field is fine; on the hashed one it is refused.
    db.c.insert_one({"a": {"x": 1}, "b": [1]})
    with pytest.raises(pymongo.errors.WriteError) as e:
        db.c.insert_one({"a": [1]})
    assert e.value.code == 16766
    assert db.c.count_documents({"a": [1]}) == 0
    # The compound index may be multikey on its other field.
    assert db.c.count_documents({"a": {"x": 1}}) == 1
    assert db.c.find_one({"a": {"x": 1}, "b": 1})["b"] == [1]
    # ... and both fields bound a lookup: the hash of a's value, b's point.
    [key] = list(db.c.find({}, hint="a_hashed_b_1", return_key=True))
    assert key == {"a": key["a"], "b": 1} and isinstance(key["a"], int)
    plan = db.c.find({"a": {"x": 1}, "b": 1}).explain()["queryPlanner"]["winningPlan"]
    assert plan["stage"] == "FETCH" and plan["inputStage"]["stage"] == "IXSCAN"
    assert plan["inputStage"]["indexName"] == "a_hashed_b_1"
    assert plan["inputStage"]["indexBounds"] == {"a": ["[%d, %d]" % (key["a"], key["a"])], "b": ["[1, 1]"]}
