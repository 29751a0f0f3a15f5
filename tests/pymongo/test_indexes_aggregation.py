"""Indexes and aggregation through pymongo."""
import pymongo
import pytest
from pymongo import ASCENDING, DESCENDING, IndexModel
from pymongo.errors import DuplicateKeyError, OperationFailure


def test_create_list_drop_indexes(db):
    assert db.c.create_index([("a", ASCENDING)]) == "a_1"
    assert db.c.create_index([("b", DESCENDING), ("c", ASCENDING)], name="bc") == "bc"
    names = db.c.create_indexes([IndexModel([("d", 1)], unique=True), IndexModel([("e", 1)], sparse=True)])
    assert names == ["d_1", "e_1"]
    info = db.c.index_information()
    assert set(info) == {"_id_", "a_1", "bc", "d_1", "e_1"}
    assert info["bc"]["key"] == [("b", -1), ("c", 1)]
    assert info["d_1"]["unique"] is True
    assert info["e_1"]["sparse"] is True
    db.c.drop_index("a_1")
    db.c.drop_index("bc")  # by key spec pymongo would send the generated name b_-1_c_1
    assert set(db.c.index_information()) == {"_id_", "d_1", "e_1"}
    db.c.drop_indexes()
    assert list(db.c.index_information()) == ["_id_"]
    with pytest.raises(OperationFailure) as e:
        db.c.drop_index("nosuch")
    assert e.value.code == 27


def test_unique_violation_details(db):
    db.c.create_index("email", unique=True)
    db.c.insert_one({"email": "a@x"})
    with pytest.raises(DuplicateKeyError) as e:
        db.c.insert_one({"email": "a@x"})
    assert e.value.code == 11000
    assert e.value.details["keyPattern"] == {"email": 1}
    assert e.value.details["keyValue"] == {"email": "a@x"}
    assert "E11000 duplicate key error collection: %s.c index: email_1 dup key: { email: \"a@x\" }" % db.name \
        in e.value.details["errmsg"]


def test_ttl_and_partial_index_options_are_kept(db):
    db.c.create_index("created", expireAfterSeconds=3600)
    db.c.create_index("p", partialFilterExpression={"p": {"$gt": 5}})
    idx = {i["name"]: i for i in db.c.list_indexes()}
    assert idx["created_1"]["expireAfterSeconds"] == 3600
    assert idx["p_1"]["partialFilterExpression"] == {"p": {"$gt": 5}}


def test_index_is_used_and_results_match(db):
    db.c.insert_many([{"_id": i, "k": i % 100, "v": i} for i in range(5000)])
    expected = sorted(d["_id"] for d in db.c.find({"k": 42}))
    db.c.create_index("k")
    plan = db.c.find({"k": 42}).explain()["queryPlanner"]["winningPlan"]
    assert "IXSCAN" in str(plan)
    assert sorted(d["_id"] for d in db.c.find({"k": 42})) == expected
    assert len(expected) == 50


def test_aggregation_pipeline(db):
    db.orders.insert_many([
        {"_id": i, "cust": "c%d" % (i % 7), "amount": i, "items": ["x", "y"] if i % 2 else ["z"]} for i in range(700)
    ])
    db.customers.insert_many([{"_id": "c%d" % i, "name": "Customer %d" % i} for i in range(7)])
    out = list(db.orders.aggregate([
        {"$match": {"amount": {"$gte": 100}}},
        {"$group": {"_id": "$cust", "total": {"$sum": "$amount"}, "n": {"$sum": 1}}},
        {"$sort": {"total": -1}},
        {"$lookup": {"from": "customers", "localField": "_id", "foreignField": "_id", "as": "c"}},
        {"$unwind": "$c"},
        {"$project": {"_id": 0, "name": "$c.name", "total": 1, "n": 1}},
    ]))
    assert len(out) == 7
    assert sum(o["n"] for o in out) == 600
    assert sum(o["total"] for o in out) == sum(range(100, 700))
    assert [o["total"] for o in out] == sorted((o["total"] for o in out), reverse=True)
    assert all(o["name"].startswith("Customer ") for o in out)

    counts = {d["_id"]: d["n"] for d in db.orders.aggregate([{"$unwind": "$items"}, {"$group": {"_id": "$items", "n": {"$sum": 1}}}])}
    assert counts == {"x": 350, "y": 350, "z": 350}

    assert list(db.orders.aggregate([{"$match": {"_id": {"$lt": 10}}}, {"$count": "n"}])) == [{"n": 10}]
    assert list(db.orders.aggregate([{"$match": {"_id": 5}}, {"$replaceRoot": {"newRoot": {"id": "$_id"}}}])) == [{"id": 5}]


def test_aggregation_cursor_batches_and_allow_disk_use(db):
    db.c.insert_many([{"_id": i} for i in range(3000)])
    cur = db.c.aggregate([{"$sort": {"_id": -1}}], batchSize=50, allowDiskUse=True)
    ids = [d["_id"] for d in cur]
    assert ids == list(range(2999, -1, -1))


def test_aggregation_errors(db):
    db.c.insert_one({"a": 1})
    with pytest.raises(OperationFailure) as e:
        list(db.c.aggregate([{"$nosuchstage": {}}]))
    assert e.value.code == 40324
    with pytest.raises(OperationFailure) as e:
        list(db.c.aggregate([{"$group": {"n": {"$sum": 1}}}]))
    assert e.value.code == 15955
