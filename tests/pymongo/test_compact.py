"""The compact command: it gives the free space inside a collection's files (record store and
indexes) back to the file system and answers {bytesFreed: <long>, ok: 1}, with MongoDB 7.0's
errors for bad arguments and missing namespaces.

The space tests start a mongod of their own (MONGOD_BIN) so that they can also look at the
data files in its dbpath."""
import os
import random

import pytest
from bson import Int64
from pymongo.errors import OperationFailure

MB = 1024 * 1024


def fill(coll, megabytes, doc_bytes=1000):
    """Inserts about `megabytes` MB of incompressible documents {_id, i, r, p}."""
    per_batch = 1000
    n = 0
    for _ in range(megabytes * MB // (doc_bytes * per_batch)):
        coll.insert_many([{"_id": n + k, "i": n + k, "r": random.random(), "p": os.urandom(doc_bytes)}
                          for k in range(per_batch)])
        n += per_batch
    return n


def data_files_size(dbpath):
    return sum(os.path.getsize(os.path.join(dbpath, f)) for f in os.listdir(dbpath) if f.endswith(".wt"))


def storage(db, name):
    s = db.command("collStats", name)
    return s["storageSize"], s["totalIndexSize"]


def test_compact_after_deleting_every_document_shrinks_the_files(mongod_factory):
    m = mongod_factory()
    with m.client() as c:
        db = c.compact_test
        fill(db.big, 24)
        db.big.create_index("i")
        c.admin.command("fsync")
        size_full, index_full = storage(db, "big")
        files_full = data_files_size(m.dbpath)
        assert size_full > 20 * MB, "the documents are incompressible: the file holds them all"

        db.big.delete_many({})
        c.admin.command("fsync")
        size_deleted, _ = storage(db, "big")
        assert size_deleted >= size_full * 0.9, "deleting keeps the space inside the file"

        reply = db.command("compact", "big")
        assert reply["ok"] == 1
        assert set(reply) == {"bytesFreed", "ok"}
        assert isinstance(reply["bytesFreed"], (int, Int64))
        assert reply["bytesFreed"] > 20 * MB, reply
        size_after, index_after = storage(db, "big")
        assert size_after < size_full / 20, (size_full, size_after)
        assert index_after <= index_full
        files_after = data_files_size(m.dbpath)
        assert files_after < files_full - 20 * MB, (files_full, files_after)
        assert reply["bytesFreed"] <= size_deleted + index_full

        # The collection is as usable as before, also after a restart.
        assert db.big.count_documents({}) == 0
        db.big.insert_many([{"_id": i, "i": i} for i in range(100)])
        assert db.command("validate", "big")["valid"] is True
    m.restart()
    with m.client() as c:
        assert c.compact_test.big.count_documents({}) == 100
        assert c.compact_test.big.find_one({"i": 42})["_id"] == 42


def test_compact_after_deleting_most_documents_keeps_the_rest(mongod_factory):
    m = mongod_factory()
    with m.client() as c:
        db = c.compact_test
        n = fill(db.most, 12)
        db.most.create_index("r")
        c.admin.command("fsync")
        assert storage(db, "most")[0] > 10 * MB
        kept = {d["_id"]: d["p"] for d in db.most.find({"r": {"$gte": 0.9}})}
        db.most.delete_many({"r": {"$lt": 0.9}})
        c.admin.command("fsync")
        size_before, _ = storage(db, "most")

        # About 11 MB free is below the default freeSpaceTargetMB of 20: the files stay as they are...
        reply = db.command("compact", "most")
        assert reply["ok"] == 1
        assert reply["bytesFreed"] < 1 * MB, reply
        assert storage(db, "most")[0] > size_before * 0.9
        # ...with a target of 1 MB the file shrinks to about what is left.
        reply = db.command({"compact": "most", "freeSpaceTargetMB": 1, "force": True})
        assert reply["ok"] == 1
        assert reply["bytesFreed"] > 8 * MB, reply
        size_after, _ = storage(db, "most")
        assert size_after < size_before / 3, (size_before, size_after)

        # Every surviving document is intact and found through both indexes.
        assert db.most.count_documents({}) == len(kept)
        for d in db.most.find():
            assert kept[d["_id"]] == d["p"]
        assert db.most.count_documents({"r": {"$gte": 0.9}}) == len(kept)
        assert len(list(db.most.find({"_id": {"$lt": n}}, {"_id": 1}).hint("_id_"))) == len(kept)
        v = db.command("validate", "most", full=True)
        assert v["valid"] is True and v["nrecords"] == len(kept)


def test_compact_of_a_small_collection_frees_nothing(db):
    db.small.insert_many([{"_id": i} for i in range(10)])
    reply = db.command("compact", "small")
    assert reply["ok"] == 1
    assert reply["bytesFreed"] == 0
    assert db.small.count_documents({}) == 10


def check_error(db, cmd, code, code_name):
    with pytest.raises(OperationFailure) as e:
        db.command(cmd)
    assert e.value.code == code, e.value.details
    assert e.value.details["codeName"] == code_name
    return e.value.details


def test_compact_errors(db):
    # A missing collection (in an existing database, then in a missing one).
    db.present.insert_one({"_id": 1})
    details = check_error(db, {"compact": "missing"}, 26, "NamespaceNotFound")
    assert details["errmsg"] == "collection does not exist"
    check_error(db.client["pytest_compact_no_such_db"], {"compact": "c"}, 26, "NamespaceNotFound")
    # Bad collection names.
    check_error(db, {"compact": ""}, 73, "InvalidNamespace")
    check_error(db, {"compact": 5}, 73, "InvalidNamespace")
    check_error(db, {"compact": "a\0b"}, 73, "InvalidNamespace")
    # Unknown fields and wrongly typed arguments.
    details = check_error(db, {"compact": "present", "nosuch": 1}, 40415, "Location40415")
    assert details["errmsg"] == "BSON field 'compact.nosuch' is an unknown field."
    check_error(db, {"compact": "present", "force": 1}, 14, "TypeMismatch")
    check_error(db, {"compact": "present", "force": "yes"}, 14, "TypeMismatch")
    check_error(db, {"compact": "present", "freeSpaceTargetMB": "x"}, 14, "TypeMismatch")
    check_error(db, {"compact": "present", "freeSpaceTargetMB": 0}, 2, "BadValue")
    check_error(db, {"compact": "present", "freeSpaceTargetMB": -5}, 2, "BadValue")
    # Valid arguments and generic ones are accepted.
    reply = db.command({"compact": "present", "force": False, "freeSpaceTargetMB": Int64(1), "comment": "c",
                        "maxTimeMS": 60000})
    assert reply["ok"] == 1 and reply["bytesFreed"] >= 0
    assert db.present.find_one() == {"_id": 1}
