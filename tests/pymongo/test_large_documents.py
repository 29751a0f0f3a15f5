"""Documents at and beyond the 16 MB BSON limit."""
import struct

import bson
import pytest
from pymongo.errors import DocumentTooLarge, OperationFailure, WriteError

import wire
from conftest import host_port

MAX = 16 * 1024 * 1024


def doc_of_size(size, _id=1):
    # {_id: int32, s: string}: 4 + (1+4+4) + (1+2+4+len+1) + 1 = len + 22 bytes.
    d = {"_id": _id, "s": "x" * (size - 22)}
    assert len(bson.encode(d)) == size
    return d


def test_document_of_exactly_16mb_round_trips(db):
    d = doc_of_size(MAX)
    db.c.insert_one(d)
    back = db.c.find_one({"_id": 1})
    assert len(bson.encode(back)) == MAX
    assert back["s"] == d["s"]
    # Several maximal documents in one collection, read back one batch at a time.
    db.c.insert_one(doc_of_size(MAX, 2))
    assert [x["_id"] for x in db.c.find({}, {"_id": 1}).sort("_id", 1)] == [1, 2]
    assert sum(len(x["s"]) for x in db.c.find()) == 2 * (MAX - 22)


def test_documents_over_16mb_are_refused(db):
    # pymongo leaves acknowledged inserts of large documents to the server, which refuses them
    # with BSONObjectTooLarge (10334), as mongod does.
    with pytest.raises((DocumentTooLarge, WriteError)) as info:
        db.c.insert_one(doc_of_size(MAX + 1))
    if isinstance(info.value, WriteError):
        assert info.value.code == 10334
    assert db.c.count_documents({}) == 0


def test_server_refuses_documents_over_16mb_sent_raw(db):
    host, port = host_port()
    with wire.connect(host, port, timeout=60) as s:
        big = doc_of_size(MAX + 1)
        _, reply, _, _ = wire.command(s, {"insert": "c", "$db": db.name}, sequences=[("documents", [big])])
        if reply["ok"] == 1.0:
            assert reply["n"] == 0
            assert reply["writeErrors"][0]["code"] in (2, 10334), reply["writeErrors"]
        else:
            assert reply["code"] in (2, 10334), reply
    assert db.c.count_documents({}) == 0


def test_update_that_grows_past_16mb_fails(db):
    db.c.insert_one({"_id": 1, "a": "a" * (10 * 1024 * 1024)})
    with pytest.raises((WriteError, OperationFailure)) as e:
        db.c.update_one({"_id": 1}, {"$set": {"b": "b" * (7 * 1024 * 1024)}})
    assert e.value.code in (17419, 10334, 2), e.value.details
    assert "b" not in db.c.find_one({"_id": 1}, {"a": 0})


def test_many_mid_sized_documents(db):
    payload = "y" * (512 * 1024)
    db.c.insert_many([{"_id": i, "p": payload} for i in range(64)])
    assert db.c.count_documents({}) == 64
    assert all(d["p"] == payload for d in db.c.find())
