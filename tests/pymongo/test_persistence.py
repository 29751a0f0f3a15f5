"""Durability: data and indexes survive a clean restart; every write acknowledged with
j: true (or followed by fsync) survives kill -9. These tests start their own mongod
(MONGOD_BIN) on their own dbpath."""
import threading
import time

import pymongo
import pytest
from pymongo import WriteConcern
from pymongo.errors import DuplicateKeyError, OperationFailure, PyMongoError


def test_clean_restart_keeps_data_indexes_and_collections(mongod_factory):
    m = mongod_factory()
    with m.client() as c:
        db = c.persist
        db.create_collection("empty_one")
        db.docs.insert_many([{"_id": i, "v": "value %d" % i, "k": i % 10} for i in range(2000)])
        db.docs.create_index("k")
        db.docs.create_index("v", unique=True)
        db.docs.update_many({"k": 3}, {"$set": {"updated": True}})
        db.docs.delete_many({"k": 4})
        c.other_db.x.insert_one({"_id": "x"})
    assert m.stop() == 0, "mongod exits 0 on SIGTERM"
    m.start()
    with m.client() as c:
        db = c.persist
        assert sorted(db.list_collection_names()) == ["docs", "empty_one"]
        assert db.docs.count_documents({}) == 1800
        assert db.docs.count_documents({"updated": True}) == 200
        assert db.docs.count_documents({"k": 4}) == 0
        assert set(db.docs.index_information()) == {"_id_", "k_1", "v_1"}
        assert db.docs.find_one({"_id": 1235})["v"] == "value 1235"  # (1234 has k == 4: deleted)
        with pytest.raises(DuplicateKeyError):
            db.docs.insert_one({"v": "value 5"})
        assert "other_db" in c.list_database_names()
        plan = db.docs.find({"k": 7}).explain()["queryPlanner"]["winningPlan"]
        assert "IXSCAN" in str(plan)
        assert c.persist.command("validate", "docs")["valid"] is True


def test_several_restarts(mongod_factory):
    m = mongod_factory()
    for round_ in range(3):
        with m.client() as c:
            c.persist.c.insert_many([{"round": round_, "i": i} for i in range(100)])
            assert c.persist.c.count_documents({}) == 100 * (round_ + 1)
        m.restart()
    with m.client() as c:
        assert c.persist.c.count_documents({}) == 300


def test_kill9_after_journaled_writes(mongod_factory):
    m = mongod_factory()
    with m.client() as c:
        coll = c.persist.get_collection("j", write_concern=WriteConcern(w=1, j=True))
        for i in range(300):
            coll.insert_one({"_id": i, "v": i})
        coll.update_many({"_id": {"$lt": 100}}, {"$set": {"updated": True}})
        coll.delete_many({"_id": {"$gte": 250}})
        coll.database.create_collection("made_before_kill")
    m.kill9()
    m.start()
    with m.client() as c:
        coll = c.persist.j
        assert coll.count_documents({}) == 250
        assert coll.count_documents({"updated": True}) == 100
        assert "made_before_kill" in c.persist.list_collection_names()
        assert c.persist.command("validate", "j")["valid"] is True


def test_kill9_after_fsync(mongod_factory):
    m = mongod_factory()
    with m.client() as c:
        c.persist.f.insert_many([{"_id": i} for i in range(1000)])
        c.persist.f.create_index("x")
        c.admin.command("fsync")
    m.kill9()
    m.start()
    with m.client() as c:
        assert c.persist.f.count_documents({}) == 1000
        assert "x_1" in c.persist.f.index_information()


def test_kill9_during_writes_keeps_every_acknowledged_write(mongod_factory):
    m = mongod_factory()
    acked = []
    stop = threading.Event()

    def writer():
        c = m.client(serverSelectionTimeoutMS=2000, retryWrites=False)
        coll = c.persist.get_collection("during", write_concern=WriteConcern(w=1, j=True))
        i = 0
        while not stop.is_set():
            try:
                coll.insert_one({"_id": i, "pad": "p" * 200})
                acked.append(i)
            except PyMongoError:
                break
            i += 1
        c.close()

    th = threading.Thread(target=writer)
    th.start()
    deadline = time.time() + 30
    while len(acked) < 300 and time.time() < deadline:
        time.sleep(0.05)
    m.kill9()
    stop.set()
    th.join(60)
    assert len(acked) >= 300, "the writer made progress before the kill"
    m.start()
    with m.client() as c:
        present = set(d["_id"] for d in c.persist.during.find({}, {"_id": 1}))
        missing = [i for i in acked if i not in present]
        assert not missing, "%d acknowledged writes lost, e.g. %r" % (len(missing), missing[:10])
        assert c.persist.command("validate", "during")["valid"] is True


def test_drop_survives_restart(mongod_factory):
    m = mongod_factory()
    with m.client() as c:
        c.gone.c.insert_one({})
        c.persist.keep.insert_one({})
        c.persist.dropme.insert_one({})
        c.drop_database("gone")
        c.persist.drop_collection("dropme")
    m.restart()
    with m.client() as c:
        assert "gone" not in c.list_database_names()
        assert c.persist.list_collection_names() == ["keep"]


def _wiredtiger_open_config(m):
    """The configuration string mongod opened WiredTiger with (log id 22315)."""
    import json
    with open(m.log_path, "rb") as f:
        for line in f:
            if b'"id":22315' in line:
                return json.loads(line)["attr"]["config"]
    raise AssertionError("no 'Opening WiredTiger' line in the log")


@pytest.mark.parametrize("compressor", ["none", "zlib", "zstd"])
def test_journal_compressor_is_used_and_recovers(mongod_factory, compressor):
    """--wiredTigerJournalCompressor reaches WiredTiger's log, and journaled writes survive
    kill -9 whatever it compresses with."""
    m = mongod_factory(["--wiredTigerJournalCompressor", compressor])
    log_cfg = _wiredtiger_open_config(m).split("log=(")[1].split(")")[0]
    if compressor == "none":
        assert "compressor" not in log_cfg
    else:
        assert "compressor=" + compressor in log_cfg
    with m.client() as c:
        opts = c.admin.command("getCmdLineOpts")["parsed"]
        assert opts["storage"]["wiredTiger"]["engineConfig"]["journalCompressor"] == compressor
        coll = c.persist.get_collection("jc", write_concern=WriteConcern(w=1, j=True))
        for i in range(200):
            coll.insert_one({"_id": i, "text": "journal %d " % i * 20})
    m.kill9()
    m.start()
    with m.client() as c:
        assert c.persist.jc.count_documents({}) == 200
        assert c.persist.jc.find_one({"_id": 199})["text"] == "journal 199 " * 20


def test_zstd_compression_level_changes_what_is_stored(mongod_factory):
    """--zstdDefaultCompressionLevel (storage.wiredTiger.engineConfig.zstdCompressionLevel,
    MongoDB's default 6) is the level WiredTiger's zstd runs at: the same data takes less space
    at a high level than at a negative (fast) one."""
    import random
    rng = random.Random(5)
    words = ["w%03d" % rng.randrange(400) for _ in range(4000)]
    docs = [{"_id": i, "t": " ".join(rng.choice(words) for _ in range(300))} for i in range(800)]
    sizes = {}
    for level in (-5, 19):
        m = mongod_factory(["--wiredTigerCollectionBlockCompressor", "zstd", "--zstdDefaultCompressionLevel", str(level)])
        assert "compression_level=%d" % level in _wiredtiger_open_config(m)
        with m.client() as c:
            c.z.docs.insert_many(docs)
            c.admin.command("fsync", 1)
            sizes[level] = c.z.command("collStats", "docs")["storageSize"]
            assert c.z.docs.find_one({"_id": 799}) == docs[799]
        m.stop()
    assert sizes[19] < sizes[-5], sizes


def test_journaled_batch_is_durable_as_a_whole(mongod_factory):
    """j: true covers every statement of a write command, not only the first: an insert_many
    acknowledged with j: true survives a kill -9 right after the reply, all of it."""
    m = mongod_factory()
    with m.client() as c:
        coll = c.persist.get_collection("jbatch", write_concern=WriteConcern(w=1, j=True))
        coll.insert_many([{"_id": i, "pad": "x" * 200} for i in range(2000)], ordered=False)
        coll.update_many({"_id": {"$lt": 1000}}, {"$set": {"u": 1}})
        m.kill9()
    m.start()
    with m.client() as c:
        assert c.persist.jbatch.count_documents({}) == 2000
        assert c.persist.jbatch.count_documents({"u": 1}) == 1000


def test_journaled_ddl_and_user_management_survive_kill9(mongod_factory):
    """j: true on DDL and user management commands is a journal flush before the reply, as on
    the CRUD commands: each survives a kill -9 right after it is acknowledged."""
    m = mongod_factory()
    j = {"w": 1, "j": True}
    with m.client() as c:
        db = c.persist
        db.command("create", "ddl_a", writeConcern=j)
        db.command("create", "ddl_b", writeConcern=j)
        db.command("createIndexes", "ddl_a", indexes=[{"key": {"x": 1}, "name": "x_1"}], writeConcern=j)
        c.admin.command("renameCollection", "persist.ddl_b", to="persist.ddl_c", writeConcern=j)
        db.command("createUser", "journaled", pwd="pw", roles=[], writeConcern=j)
        m.kill9()
    m.start()
    with m.client() as c:
        names = c.persist.list_collection_names()
        assert "ddl_a" in names and "ddl_c" in names and "ddl_b" not in names
        assert "x_1" in c.persist.ddl_a.index_information()
        assert c.persist.command("usersInfo", "journaled")["users"][0]["user"] == "journaled"


def test_bad_write_concern_on_ddl_writes_nothing(mongod_factory):
    """The write concern is checked before the command runs: a DDL command with an invalid
    one fails with MongoDB's code and creates nothing."""
    m = mongod_factory()
    with m.client() as c:
        db = c.persist
        with pytest.raises(OperationFailure) as e:
            db.command("create", "never_a", writeConcern={"w": 2})
        assert e.value.code == 2  # BadValue: w > 1 on a standalone
        with pytest.raises(OperationFailure) as e:
            db.command("create", "never_b", writeConcern={"w": -1})
        assert e.value.code == 9  # FailedToParse
        with pytest.raises(OperationFailure) as e:
            db.command("createUser", "never_u", pwd="pw", roles=[], writeConcern={"w": 3})
        assert e.value.code == 2
        assert not {"never_a", "never_b"} & set(db.list_collection_names())
        assert db.command("usersInfo", "never_u")["users"] == []
