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
    plan = db.c.find({"a": 42}).explain()["queryPlanner"]["winningPlan"]
    assert plan["stage"] == "FETCH" and plan["inputStage"]["indexName"] == "a_hashed"
    assert plan["inputStage"]["indexBounds"] == {"a": ["[%d, %d]" % (CHECK_42, CHECK_42)]}


def test_refusals(db):
    with pytest.raises(pymongo.errors.OperationFailure) as e:
        db.c.create_index([("a", pymongo.HASHED)], unique=True)
    assert e.value.code == 16764
    db.c.create_index([("a", pymongo.HASHED), ("b", 1)])
    with pytest.raises(pymongo.errors.WriteError) as e:
        db.c.insert_one({"a": {"x": 1}, "b": [1]}) and db.c.insert_one({"a": [1]})
    assert e.value.code == 16766
    # The compound index may be multikey on its other field.
    assert db.c.count_documents({"a": {"x": 1}}) == 1
    assert db.c.find_one({"a": {"x": 1}, "b": 1})["b"] == [1]
