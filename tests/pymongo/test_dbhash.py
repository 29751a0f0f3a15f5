"""dbHash (issue 14): each collection's MD5 over its documents' BSON in _id order and the
database md5 over those hex digests in name order, as MongoDB 7.0 computes them, checked
against hashes computed here from the BSON the client sent; and with --dedup the hashes equal
those of the same data stored plain (documents read back byte-identical)."""
import datetime
import hashlib
import os

import bson
import pytest
from bson.son import SON
from dedup_helpers import history, wait_settled


def expected_hash(docs):
    """MongoDB's per-collection hash of docs (dicts with _id), from the client's own encoding."""
    m = hashlib.md5()
    for d in sorted(docs, key=lambda d: d["_id"]):
        m.update(bson.encode(d))
    return m.hexdigest()


def mixed_docs():
    docs = []
    for i in range(60):
        docs.append(SON([("_id", 1000 - i * 7), ("n", i), ("f", i / 3.0), ("s", "text %d " % i * (i % 5 + 1)),
                         ("when", datetime.datetime(2024, 1, 1) + datetime.timedelta(seconds=i)),
                         ("arr", [i, {"x": str(i)}, None]), ("sub", SON([("z", 1), ("a", bson.Int64(i))]))]))
    return docs


def test_hashes_are_md5_of_bson_in_id_order(db):
    docs = mixed_docs()
    db.c.insert_many(docs)
    db.e.insert_one({"_id": "only"})
    db.e.delete_one({"_id": "only"})
    r = db.command("dbHash")
    assert r["collections"]["c"] == expected_hash(docs)
    assert r["collections"]["e"] == hashlib.md5(b"").hexdigest()
    names = sorted(r["collections"])
    assert names == ["c", "e"]
    assert r["md5"] == hashlib.md5("".join(r["collections"][n] for n in names).encode()).hexdigest()
    assert r["capped"] == []
    assert set(r["uuids"]) == {"c", "e"}
    infos = {c["name"]: c["info"]["uuid"] for c in db.list_collections()}
    assert r["uuids"] == infos
    assert isinstance(r["host"], str) and r["timeMillis"] >= 0


def test_collections_filter_and_errors(db):
    db.a.insert_one({"_id": 1})
    db.b.insert_one({"_id": 2})
    r = db.command("dbHash", collections=["b", "missing"])
    assert list(r["collections"]) == ["b"]
    assert r["md5"] == hashlib.md5(r["collections"]["b"].encode()).hexdigest()
    with pytest.raises(Exception) as e:
        db.command("dbHash", collections=["a", 1])
    assert e.value.code == 2 and "collections entries have to be strings" in str(e.value)


@pytest.mark.skipif(os.environ.get("RESMOKE_SUITE") == "pymongo_dedup",
                    reason="starts its own --dedup server; run once, in the pymongo suite")
def test_dedup_hash_equals_plain_hash(mongod_factory):
    """The hashes of deduplicated collections are those of the data itself: what a plain server
    reports (test_hashes_are_md5_of_bson_in_id_order shows that equals expected_hash)."""
    server = mongod_factory(["--dedup"])
    client = server.client()
    hist = [history(a, 20, seed=11) for a in range(4)]
    docs = [h[v] for v in range(20) for h in hist]
    coll = client.dh.c
    for i in range(0, len(docs), 20):
        coll.insert_many(docs[i:i + 20])
    # Updates and deletes of records others decode through.
    coll.update_one({"_id": "a0-v3"}, {"$set": {"body": "rewritten"}})
    coll.delete_one({"_id": "a1-v5"})
    status = wait_settled(client)
    assert status["recordsEncoded"] > len(docs) // 2, status
    kept = [d for d in docs if d["_id"] != "a1-v5"]
    for d in kept:
        if d["_id"] == "a0-v3":
            d["body"] = "rewritten"
    r = client.dh.command("dbHash")
    assert r["collections"] == {"c": expected_hash(kept)}
    assert r["md5"] == hashlib.md5(expected_hash(kept).encode()).hexdigest()
