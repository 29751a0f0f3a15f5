"""bulk_write (ordered and unordered, with BulkWriteError details) and cursor iteration
over many batches, including exhaust cursors and killCursors."""
import pymongo
import pytest
from pymongo import DeleteMany, DeleteOne, InsertOne, ReplaceOne, UpdateMany, UpdateOne
from pymongo.cursor import CursorType
from pymongo.errors import BulkWriteError, OperationFailure


def test_bulk_write_mixed_operations(db):
    r = db.c.bulk_write([
        InsertOne({"_id": 1, "v": 1}),
        InsertOne({"_id": 2, "v": 2}),
        InsertOne({"_id": 3, "v": 3}),
        UpdateOne({"_id": 1}, {"$set": {"v": 10}}),
        UpdateMany({"v": {"$gte": 2}}, {"$inc": {"v": 100}}),
        ReplaceOne({"_id": 2}, {"v": "replaced"}),
        UpdateOne({"_id": 4}, {"$set": {"v": 4}}, upsert=True),
        DeleteOne({"_id": 3}),
        DeleteMany({"v": {"$type": "string"}}),
    ])
    assert r.inserted_count == 3
    assert r.matched_count == 1 + 3 + 1
    assert r.modified_count == 1 + 3 + 1
    assert r.upserted_count == 1 and r.upserted_ids == {6: 4}
    assert r.deleted_count == 2
    assert sorted(d["_id"] for d in db.c.find()) == [1, 4]


def test_bulk_write_ordered_error_details(db):
    with pytest.raises(BulkWriteError) as e:
        db.c.bulk_write([
            InsertOne({"_id": 1}),
            InsertOne({"_id": 1}),
            InsertOne({"_id": 2}),
        ], ordered=True)
    d = e.value.details
    assert d["nInserted"] == 1
    assert len(d["writeErrors"]) == 1
    we = d["writeErrors"][0]
    assert we["index"] == 1 and we["code"] == 11000
    assert we["op"] == {"_id": 1}
    assert "E11000" in we["errmsg"]
    assert db.c.count_documents({}) == 1


def test_bulk_write_unordered_error_details(db):
    db.c.insert_one({"_id": "s", "n": "string"})
    with pytest.raises(BulkWriteError) as e:
        db.c.bulk_write([
            InsertOne({"_id": 1}),
            InsertOne({"_id": 1}),
            UpdateOne({"_id": "s"}, {"$inc": {"n": 1}}),
            UpdateOne({"_id": 1}, {"$set": {"ok": True}}),
            UpdateOne({"_id": 5}, {"$set": {"up": True}}, upsert=True),
            DeleteOne({"_id": 1}),
        ], ordered=False)
    d = e.value.details
    assert d["nInserted"] == 1
    assert d["nMatched"] == 1 and d["nModified"] == 1
    assert d["nUpserted"] == 1 and d["upserted"] == [{"index": 4, "_id": 5}]
    assert d["nRemoved"] == 1
    assert [(w["index"], w["code"]) for w in d["writeErrors"]] == [(1, 11000), (2, 14)]


def test_bulk_larger_than_max_write_batch_size(db):
    n = 100001
    r = db.c.insert_many(({"_id": i} for i in range(n)), ordered=False)
    assert len(r.inserted_ids) == n
    assert db.c.estimated_document_count() == n
    assert db.c.delete_many({"_id": {"$gte": 50000}}).deleted_count == n - 50000


def test_cursor_many_small_batches(db):
    db.c.insert_many([{"_id": i, "pad": "p" * 50} for i in range(20000)])
    seen = [d["_id"] for d in db.c.find({}, batch_size=7).sort("_id", 1)]
    assert seen == list(range(20000))
    assert sum(1 for _ in db.c.find({"_id": {"$gte": 19990}})) == 10
    # Default batching (101 then 16MB batches) with a projection.
    assert sum(1 for _ in db.c.find({}, {"_id": 1})) == 20000


def test_cursor_large_batches_split_at_16mb(db):
    blob = "x" * (1024 * 1024)
    db.c.insert_many([{"_id": i, "blob": blob} for i in range(40)])
    got = [d["_id"] for d in db.c.find({}).sort("_id", 1)]
    assert got == list(range(40)), "40 MB of documents come back over several batches"


def test_exhaust_cursor(db):
    db.c.insert_many([{"_id": i} for i in range(1000)])
    cur = db.c.find({}, batch_size=10, cursor_type=CursorType.EXHAUST).sort("_id", 1)
    assert [d["_id"] for d in cur] == list(range(1000))


def test_cursor_close_kills_the_server_cursor(db, client):
    db.c.insert_many([{"_id": i} for i in range(100)])
    cur = db.c.find({}, batch_size=5)
    next(cur)
    cursor_id = cur.cursor_id
    assert cursor_id
    cur.close()
    r = db.command("killCursors", "c", cursors=[cursor_id])
    assert r["cursorsNotFound"] == [cursor_id], "the cursor was already killed by close()"
    with pytest.raises(OperationFailure) as e:
        db.command("getMore", cursor_id, collection="c")
    assert e.value.code == 43


def test_open_cursors_are_counted(db, client):
    db.c.insert_many([{"_id": i} for i in range(50)])
    before = client.admin.command("serverStatus")["metrics"]["cursor"]["open"]["total"]
    cur = db.c.find({}, batch_size=2)
    next(cur)
    during = client.admin.command("serverStatus")["metrics"]["cursor"]["open"]["total"]
    assert during == before + 1
    cur.close()
    after = client.admin.command("serverStatus")["metrics"]["cursor"]["open"]["total"]
    assert after == before


def test_sort_limit_skip_with_many_documents(db):
    db.c.insert_many([{"_id": i, "k": (i * 7919) % 10007} for i in range(10007)])
    top = [d["k"] for d in db.c.find().sort("k", -1).limit(5)]
    assert top == [10006, 10005, 10004, 10003, 10002]
    page = [d["k"] for d in db.c.find().sort("k", 1).skip(5000).limit(3)]
    assert page == [5000, 5001, 5002]
