"""Wire compression with pymongo: snappy, zlib and zstd each negotiated in the handshake,
CRUD through a compressing client, and the server's compression counters in serverStatus."""
import pymongo
import pytest

from conftest import URI

COMPRESSORS = ["snappy", "zlib", "zstd"]


def compression_stats(client):
    return client.admin.command("serverStatus").get("network", {}).get("compression", {})


@pytest.mark.parametrize("compressor", COMPRESSORS)
def test_crud_through_compressed_connection(compressor, client):
    before = compression_stats(client)
    c = pymongo.MongoClient(URI, compressors=compressor, serverSelectionTimeoutMS=10000)
    try:
        coll = c["pytest_compression"]["c_" + compressor]
        coll.drop()
        text = "compressible text " * 200
        coll.insert_many([{"_id": i, "text": text, "i": i} for i in range(200)])
        assert coll.count_documents({}) == 200
        docs = list(coll.find({"i": {"$gte": 100}}).sort("_id", 1))
        assert [d["_id"] for d in docs] == list(range(100, 200))
        assert all(d["text"] == text for d in docs)
        coll.update_many({}, {"$set": {"flag": compressor}})
        assert coll.count_documents({"flag": compressor}) == 200
        assert coll.delete_many({"i": {"$lt": 50}}).deleted_count == 50
        # The handshake on this client offered only `compressor`.
        hello = c.admin.command("hello")
        assert hello["ok"] == 1.0
        coll.drop()
    finally:
        c.close()
    after = compression_stats(client)
    assert compressor in after, "serverStatus.network.compression should report %s: %r" % (compressor, after)
    got_in = after[compressor]["decompressor"]["bytesIn"] - before.get(compressor, {}).get("decompressor", {}).get("bytesIn", 0)
    got_out = after[compressor]["compressor"]["bytesOut"] - before.get(compressor, {}).get("compressor", {}).get("bytesOut", 0)
    assert got_in > 0, "the server decompressed %s messages from the client" % compressor
    assert got_out > 0, "the server compressed its replies with %s" % compressor
    # Compressible payloads shrink on the wire.
    s = after[compressor]["decompressor"]
    assert s["bytesOut"] > s["bytesIn"], "decompressed size exceeds compressed size: %r" % s


def test_all_compressors_offered_picks_the_first(client):
    c = pymongo.MongoClient(URI, compressors="zstd,zlib,snappy", serverSelectionTimeoutMS=10000)
    try:
        before = compression_stats(client).get("zstd", {}).get("decompressor", {}).get("bytesIn", 0)
        c["pytest_compression"]["multi"].insert_many([{"x": "y" * 1000} for _ in range(50)])
        after = compression_stats(client)["zstd"]["decompressor"]["bytesIn"]
        assert after > before
        c["pytest_compression"]["multi"].drop()
    finally:
        c.close()


def test_zlib_compression_level(client):
    c = pymongo.MongoClient(URI, compressors="zlib", zlibCompressionLevel=9, serverSelectionTimeoutMS=10000)
    try:
        coll = c["pytest_compression"]["zlib9"]
        coll.insert_one({"_id": 1, "v": "z" * 10000})
        assert coll.find_one({"_id": 1})["v"] == "z" * 10000
        coll.drop()
    finally:
        c.close()
