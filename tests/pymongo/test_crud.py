"""CRUD through pymongo: type round-trips, the single and multi document helpers, and the
results they report."""
import datetime
import uuid

import bson
import pymongo
import pytest
from bson import Binary, Code, Decimal128, Int64, MaxKey, MinKey, ObjectId, Regex, Timestamp
from bson.codec_options import CodecOptions
from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError, OperationFailure, WriteError


def test_server_identifies_as_mongodb_7_0(client):
    info = client.server_info()
    assert info["version"].startswith("7.0.")
    assert client.admin.command("hello")["maxWireVersion"] == 21


def test_every_bson_type_round_trips(db):
    coll = db.get_collection("types", codec_options=CodecOptions(uuid_representation=bson.binary.UuidRepresentation.STANDARD))
    u = uuid.UUID("12345678-1234-5678-1234-567812345678")
    doc = {
        "_id": "all",
        "double": 3.25,
        "string": "héllo wörld ✓ 日本",
        "empty": "",
        "doc": {"a": {"b": {"c": 1}}},
        "array": [1, "two", {"three": 3}, [4]],
        "bin": Binary(b"\x00\x01\x02\xff", 0),
        "bin_user": Binary(b"user", 128),
        "uuid": u,
        "oid": ObjectId("5f1d7a2e9d3b2c0011223344"),
        "true": True,
        "false": False,
        "date": datetime.datetime(2021, 3, 4, 5, 6, 7, 891000),
        "null": None,
        "regex": Regex("^ab+c", "im"),
        "code": Code("function() { return 1; }"),
        "int32": 42,
        "ts": Timestamp(1600000000, 7),
        "int64": Int64(2 ** 40),
        "dec": Decimal128("123.4500"),
        "min": MinKey(),
        "max": MaxKey(),
        "nan": float("nan"),
        "inf": float("inf"),
        "negzero": -0.0,
    }
    coll.insert_one(doc)
    back = coll.find_one({"_id": "all"})
    assert list(back.keys()) == list(doc.keys()), "field order is preserved"
    for k, v in doc.items():
        if k == "nan":
            assert back[k] != back[k]
        elif isinstance(v, Binary) and v.subtype == 0:
            assert back[k] == bytes(v), k  # pymongo decodes subtype 0 as bytes
        else:
            assert back[k] == v, k
    assert isinstance(back["int64"], Int64)
    assert isinstance(back["int32"], int) and not isinstance(back["int32"], Int64)
    assert str(back["dec"]) == "123.4500", "Decimal128 keeps its exponent"
    assert back["bin_user"].subtype == 128


def test_raw_bson_is_preserved_byte_for_byte(db):
    raw = bson.encode({"_id": 1, "b": {"y": 2, "x": 1}, "a": [3, 2, 1], "d": 1.5})
    db.raw.insert_one(bson.decode(raw))
    got = db.get_collection("raw", codec_options=CodecOptions(document_class=bson.raw_bson.RawBSONDocument)).find_one()
    assert got.raw == raw


def test_insert_one_and_many_results(db):
    r = db.c.insert_one({"a": 1})
    assert r.acknowledged and isinstance(r.inserted_id, ObjectId)
    r = db.c.insert_many([{"_id": i} for i in range(10)])
    assert r.inserted_ids == list(range(10))
    with pytest.raises(DuplicateKeyError) as e:
        db.c.insert_one({"_id": 3})
    assert e.value.code == 11000
    assert e.value.details["keyValue"] == {"_id": 3}
    assert db.c.count_documents({}) == 11


def test_find_helpers(db):
    db.c.insert_many([{"_id": i, "g": i % 3, "s": "v%02d" % i} for i in range(30)])
    assert db.c.find_one({"_id": 7})["s"] == "v07"
    assert db.c.find_one({"_id": 99}) is None
    assert [d["_id"] for d in db.c.find({"g": 1}).sort("_id", -1).limit(3)] == [28, 25, 22]
    assert [d["_id"] for d in db.c.find({}, skip=27).sort("_id")] == [27, 28, 29]
    assert list(db.c.find({"_id": 3}, {"s": 1, "_id": 0})) == [{"s": "v03"}]
    assert db.c.count_documents({"g": 2}) == 10
    assert db.c.count_documents({"g": 2}, limit=4) == 4
    assert db.c.estimated_document_count() == 30
    assert sorted(db.c.distinct("g")) == [0, 1, 2]
    assert sorted(db.c.distinct("g", {"_id": {"$lt": 2}})) == [0, 1]
    assert [d["_id"] for d in db.c.find({"s": {"$regex": "^v1"}}).sort("_id")] == list(range(10, 20))


def test_update_helpers_and_results(db):
    db.c.insert_many([{"_id": i, "n": i} for i in range(5)])
    r = db.c.update_one({"_id": 1}, {"$inc": {"n": 10}})
    assert (r.matched_count, r.modified_count, r.upserted_id) == (1, 1, None)
    r = db.c.update_many({"n": {"$lt": 5}}, {"$set": {"small": True}})
    assert (r.matched_count, r.modified_count) == (4, 4)
    r = db.c.update_many({"n": {"$lt": 5}}, {"$set": {"small": True}})
    assert (r.matched_count, r.modified_count) == (4, 0)
    r = db.c.update_one({"_id": 100}, {"$set": {"n": 100}}, upsert=True)
    assert r.upserted_id == 100 and r.matched_count == 0
    r = db.c.replace_one({"_id": 2}, {"replaced": True})
    assert r.modified_count == 1
    assert db.c.find_one({"_id": 2}) == {"_id": 2, "replaced": True}
    r = db.c.update_one({"_id": 3}, [{"$set": {"double": {"$multiply": ["$n", 2]}}}])
    assert db.c.find_one({"_id": 3})["double"] == 6
    with pytest.raises(WriteError) as e:
        db.c.update_one({"_id": 4}, {"$set": {"_id": 5}})
    assert e.value.code == 66
    with pytest.raises(WriteError) as e:
        db.c.update_one({"_id": 4}, {"$inc": {"n": "x"}})
    assert e.value.code == 14


def test_find_and_modify_helpers(db):
    db.c.insert_many([{"_id": i, "n": i} for i in range(3)])
    before = db.c.find_one_and_update({"_id": 1}, {"$inc": {"n": 1}})
    assert before == {"_id": 1, "n": 1}
    after = db.c.find_one_and_update({"_id": 1}, {"$inc": {"n": 1}}, return_document=ReturnDocument.AFTER)
    assert after == {"_id": 1, "n": 3}
    up = db.c.find_one_and_update({"_id": 9}, {"$set": {"n": 9}}, upsert=True, return_document=ReturnDocument.AFTER)
    assert up == {"_id": 9, "n": 9}
    top = db.c.find_one_and_update({}, {"$set": {"top": True}}, sort=[("n", -1)], projection={"_id": 1})
    assert top == {"_id": 9}
    assert db.c.find_one_and_replace({"_id": 0}, {"r": 1}, return_document=ReturnDocument.AFTER) == {"_id": 0, "r": 1}
    assert db.c.find_one_and_delete({"_id": 2}) == {"_id": 2, "n": 2}
    assert db.c.find_one_and_delete({"_id": 2}) is None


def test_delete_helpers(db):
    db.c.insert_many([{"_id": i, "g": i % 2} for i in range(10)])
    assert db.c.delete_one({"g": 0}).deleted_count == 1
    assert db.c.delete_many({"g": 1}).deleted_count == 5
    assert db.c.delete_many({"g": 7}).deleted_count == 0
    assert db.c.count_documents({}) == 4
    assert db.c.delete_many({}).deleted_count == 4


def test_command_errors_raise_operation_failure(db):
    with pytest.raises(OperationFailure) as e:
        db.command("noSuchCommand")
    assert e.value.code == 59
    assert e.value.details["codeName"] == "CommandNotFound"
    with pytest.raises(OperationFailure) as e:
        list(db.c.find({"a": {"$nosuchop": 1}}))
    assert e.value.code == 2


def test_collection_and_database_management(client, db):
    db.create_collection("made")
    assert "made" in db.list_collection_names()
    db.made.rename("renamed")
    assert db.list_collection_names() == ["renamed"]
    db.drop_collection("renamed")
    assert db.list_collection_names() == []
    db.x.insert_one({})
    assert db.name in client.list_database_names()
    client.drop_database(db.name)
    assert db.name not in client.list_database_names()


def test_unicode_and_dotted_keys(db):
    db.c.insert_one({"_id": 1, "ключ": "значение", "nested": {"a.b": 1, "$c": 2}})
    got = db.c.find_one({"ключ": "значение"})
    assert got["nested"] == {"a.b": 1, "$c": 2}
