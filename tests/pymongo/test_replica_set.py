"""A single-node replica set (issue 10, milestone 1): --replSet, replSetInitiate with and without a
config, hello's replica-set fields, replSetGetStatus / replSetGetConfig, a driver discovering the
primary with replicaSet=<name>, and local.oplog.rs: one entry per write in MongoDB 7.0's format,
in the writes' order, readable by a tailable awaitData cursor, surviving restarts and kill -9, with
and without --dedup. Errors as MongoDB 7.0: NotYetInitialized (94), NotWritablePrimary (10107),
NoReplicationEnabled (76), AlreadyInitialized (23), InvalidReplicaSetConfig (93), NodeNotFound (74)."""

import threading
import time

import pymongo
import pytest
from bson import Int64, ObjectId, Timestamp

SET = "rs0"


def start_member(mongod_factory, *extra):
    return mongod_factory(["--replSet", SET, "--oplogSize", "16"] + list(extra))


def initiate(m):
    with m.client() as c:
        c.admin.command("replSetInitiate", {"_id": SET, "members": [{"_id": 0, "host": "127.0.0.1:%d" % m.port}]})
    return m


def rs_client(m, **kw):
    kw.setdefault("serverSelectionTimeoutMS", 10000)
    return pymongo.MongoClient("mongodb://127.0.0.1:%d/?replicaSet=%s" % (m.port, SET), **kw)


def code_of(fn):
    # NotWritablePrimary reaches pymongo as NotPrimaryError, which carries no .code.
    with pytest.raises(pymongo.errors.PyMongoError) as e:
        fn()
    return getattr(e.value, "code", None) or (getattr(e.value, "details", None) or {}).get("code")


def oplog(c, **query):
    return list(c.local["oplog.rs"].find(query).sort("$natural", 1))


def test_before_initiate(mongod_factory):
    m = start_member(mongod_factory)
    # No retry of the refused writes (a retry would wait for a primary that never comes).
    with m.client(retryWrites=False, serverSelectionTimeoutMS=2000) as c:
        hello = c.admin.command("hello")
        assert hello["isWritablePrimary"] is False and hello["secondary"] is False
        assert hello["isreplicaset"] is True
        assert hello["info"] == "Does not have a valid replica set config"
        assert "setName" not in hello
        assert code_of(lambda: c.admin.command("replSetGetStatus")) == 94
        assert code_of(lambda: c.admin.command("replSetGetConfig")) == 94
        c.local.scratch.insert_one({"x": 1})  # the local database is always writable
    # A NotPrimaryError makes pymongo forget the server for a while: one client per refusal.
    for write in (lambda c: c.test.c.insert_one({"x": 1}), lambda c: c.test.command("create", "c"),
                  lambda c: c.test.c.create_index("x")):
        with m.client(retryWrites=False, serverSelectionTimeoutMS=2000) as c:
            assert code_of(lambda: write(c)) == 10107
    # Reads too, as MongoDB: without secondaryOk 13435, with it 13436 (STARTUP serves no reads).
    with m.client(serverSelectionTimeoutMS=2000) as c:
        find = {"find": "c", "$readPreference": {"mode": "primary"}}
        assert code_of(lambda: c.test.command(find)) == 13435
    with m.client(serverSelectionTimeoutMS=2000) as c:
        find = {"find": "c", "$readPreference": {"mode": "primaryPreferred"}}
        assert code_of(lambda: c.test.command(find)) == 13436
    with m.client(serverSelectionTimeoutMS=2000) as c:
        assert code_of(lambda: c.test.c.find_one()) == 13436  # pymongo sends primaryPreferred directly
    with m.client() as c:
        assert c.local.scratch.find_one()["x"] == 1  # the local database is always readable
        assert "oplog.rs" not in c.local.list_collection_names()


def test_standalone_has_no_replication(mongod_factory):
    m = mongod_factory()
    with m.client() as c:
        assert code_of(lambda: c.admin.command("replSetGetStatus")) == 76
        assert code_of(lambda: c.admin.command("replSetGetConfig")) == 76
        assert code_of(lambda: c.admin.command("replSetInitiate")) == 76


def test_initiate_with_default_config(mongod_factory):
    m = start_member(mongod_factory)
    with m.client() as c:
        r = c.admin.command("replSetInitiate")
        me = "localhost:%d" % m.port  # bound to the loopback only, as MongoDB since 3.6
        assert r["info2"] == "no configuration specified. Using a default configuration for the set"
        assert r["me"] == me
        assert isinstance(r["operationTime"], Timestamp) and "$clusterTime" in r
        assert code_of(lambda: c.admin.command("replSetInitiate")) == 23
        hello = c.admin.command("hello")
        assert hello["setName"] == SET and hello["setVersion"] == 1
        assert hello["isWritablePrimary"] is True and hello["secondary"] is False
        assert hello["hosts"] == [me] and hello["primary"] == me and hello["me"] == me
        assert hello["electionId"] == ObjectId("7fffffff0000000000000001")
        lw = hello["lastWrite"]
        assert set(lw) == {"opTime", "lastWriteDate", "majorityOpTime", "majorityWriteDate"}
        assert lw["opTime"]["t"] == 1 and lw["majorityOpTime"] == lw["opTime"]
        assert set(hello["topologyVersion"]) == {"processId", "counter"}
        legacy = c.admin.command("isMaster")
        assert legacy["ismaster"] is True and "isWritablePrimary" not in legacy


def test_config_validation_errors(mongod_factory):
    m = start_member(mongod_factory)
    host = "127.0.0.1:%d" % m.port
    with m.client() as c:
        def init(cfg):
            return code_of(lambda: c.admin.command("replSetInitiate", cfg))
        assert init({"_id": "other", "members": [{"_id": 0, "host": host}]}) == 93
        assert init({"_id": SET, "members": []}) == 93
        assert init({"_id": SET, "members": [{"_id": 0, "host": "elsewhere.example:27017"}]}) == 74
        assert init({"_id": SET, "members": [{"_id": 0, "host": host}, {"_id": 0, "host": "h:1"}]}) == 93
        assert init({"_id": SET, "protocolVersion": 0, "members": [{"_id": 0, "host": host}]}) == 93
        assert init({"_id": SET, "members": [{"_id": 0, "host": host, "priority": 0}]}) == 93
        assert init({"_id": SET, "members": [{"_id": 0, "host": host, "hidden": True}]}) == 93
        # More than one member needs replication between members: not built yet, refused.
        assert init({"_id": SET, "members": [{"_id": 0, "host": host}, {"_id": 1, "host": "h:1"}]}) == 93
        assert init({"_id": 5, "members": [{"_id": 0, "host": host}]}) == 14  # TypeMismatch
        assert init({"_id": SET, "members": [{"_id": 0, "host": host, "votes": 2}]}) == 2
        assert code_of(lambda: c.test.command("replSetInitiate", {"_id": SET})) == 13  # admin only
        # Nothing was initiated by the failures.
        assert code_of(lambda: c.admin.command("replSetGetStatus")) == 94


def test_status_and_config_shape(mongod_factory):
    m = initiate(start_member(mongod_factory))
    host = "127.0.0.1:%d" % m.port
    with m.client() as c:
        cfg = c.admin.command("replSetGetConfig")["config"]
        assert cfg["_id"] == SET and cfg["version"] == 1 and cfg["term"] == 1
        assert cfg["protocolVersion"] == 1 and cfg["writeConcernMajorityJournalDefault"] is True
        assert cfg["members"] == [{"_id": 0, "host": host, "arbiterOnly": False, "buildIndexes": True,
                                   "hidden": False, "priority": 1, "tags": {}, "secondaryDelaySecs": 0,
                                   "votes": 1}]
        s = cfg["settings"]
        assert s["electionTimeoutMillis"] == 10000 and s["heartbeatIntervalMillis"] == 2000
        assert s["chainingAllowed"] is True and s["catchUpTimeoutMillis"] == -1
        assert isinstance(s["replicaSetId"], ObjectId)
        assert c.admin.command("replSetGetConfig", commitmentStatus=True)["commitmentStatus"] is True
        st = c.admin.command("replSetGetStatus")
        assert st["set"] == SET and st["myState"] == 1 and st["term"] == 1
        assert st["majorityVoteCount"] == 1 and st["writeMajorityCount"] == 1
        assert st["optimes"]["appliedOpTime"] == st["optimes"]["lastCommittedOpTime"]
        [me] = st["members"]
        assert me["name"] == host and me["stateStr"] == "PRIMARY" and me["self"] is True and me["health"] == 1
        assert me["optime"] == st["optimes"]["appliedOpTime"]
        assert st["operationTime"] == me["optime"]["ts"]


def test_driver_discovers_primary_and_oplog_records_writes(mongod_factory):
    m = initiate(start_member(mongod_factory))
    with rs_client(m) as c:
        coll = c.test.things
        coll.insert_one({"_id": 1, "a": "x" * 40, "n": 1})
        coll.update_one({"_id": 1}, {"$inc": {"n": 5}})
        coll.replace_one({"_id": 1}, {"b": 2})
        coll.delete_one({"_id": 1})
        coll.create_index("b")
        coll.drop_index("b_1")
        coll.rename("things2")
        c.test.things2.drop()
        assert c.primary == ("127.0.0.1", m.port)
        entries = oplog(c)
        assert [e["o"].get("msg") for e in entries[:2]] == ["initiating set", "new primary"]
        assert entries[0]["t"] == -1 and entries[1]["t"] == 1
        # (config.transactions / config.image_collection are created by the first retryable write)
        ops = [e for e in entries[2:] if not e["ns"].startswith("config.")]
        ts = [e["ts"] for e in entries]
        assert ts == sorted(ts) and len(set(ts)) == len(ts)
        summary = [(e["op"], e["ns"], next(iter(e["o"])) if e["op"] == "c" else None) for e in ops]
        assert summary == [("c", "test.$cmd", "create"), ("i", "test.things", None), ("u", "test.things", None),
                           ("u", "test.things", None), ("d", "test.things", None),
                           ("c", "test.$cmd", "createIndexes"), ("c", "test.$cmd", "dropIndexes"),
                           ("c", "test.$cmd", "renameCollection"), ("c", "test.$cmd", "drop")]
        ins, upd, rep, dele = ops[1:5]
        # pymongo's writes are retryable writes: the session fields frame the entry, as in 7.0.
        assert list(ins) == ["lsid", "txnNumber", "op", "ns", "ui", "o", "o2", "stmtId", "ts", "t", "v", "wall",
                             "prevOpTime"]
        assert ins["o"] == {"_id": 1, "a": "x" * 40, "n": 1} and ins["o2"] == {"_id": 1}
        assert ins["v"] == 2 and ins["t"] == 1
        assert upd["o"] == {"$v": 2, "diff": {"u": {"n": 6}}} and upd["o2"] == {"_id": 1}
        assert rep["o"] == {"_id": 1, "b": 2}  # the whole document when a diff would not be smaller
        assert dele["o"] == {"_id": 1}
        assert ins["ui"] == upd["ui"] == ops[0]["ui"]
        assert ops[7]["o"]["renameCollection"] == "test.things" and ops[7]["o"]["to"] == "test.things2"
        assert ops[8]["o"] == {"drop": "things2"}
        # Reads of the oplog by ts range work like any capped collection.
        assert len(list(c.local["oplog.rs"].find({"ts": {"$gt": ins["ts"]}}))) == len(ops) - 2


def test_tailable_await_cursor_sees_new_entries_in_order(mongod_factory):
    m = initiate(start_member(mongod_factory))
    with rs_client(m) as c:
        c.test.t.insert_one({"_id": 0})
        last = oplog(c)[-1]["ts"]
        cursor = c.local["oplog.rs"].find({"ts": {"$gt": last}}, cursor_type=pymongo.CursorType.TAILABLE_AWAIT)
        cursor.max_await_time_ms(300)
        seen = []

        def writer():
            for i in range(1, 21):
                c.test.t.insert_one({"_id": i})

        th = threading.Thread(target=writer)
        th.start()
        deadline = time.time() + 10
        while len(seen) < 20 and time.time() < deadline and cursor.alive:
            for e in cursor:
                seen.append(e)
        th.join()
        assert [e["o"]["_id"] for e in seen] == list(range(1, 21))
        assert all(e["op"] == "i" and e["ns"] == "test.t" for e in seen)


def test_oplog_and_config_survive_restart_and_kill9(mongod_factory):
    m = initiate(start_member(mongod_factory))
    with rs_client(m) as c:
        c.test.p.insert_many([{"_id": i} for i in range(5)])
        before = oplog(c)
    m.restart()
    with rs_client(m) as c:
        after = oplog(c)
        assert after[:len(before)] == before
        # A new term, announced by a no-op, and writes accepted again.
        assert after[len(before)]["o"] == {"msg": "new primary"} and after[len(before)]["t"] == 2
        assert c.admin.command("hello")["electionId"] == ObjectId("7fffffff0000000000000002")
        c.test.p.insert_one({"_id": 5})
        acknowledged = oplog(c)
    m.kill9()
    m.start()
    with rs_client(m) as c:
        assert oplog(c)[:len(acknowledged)] == acknowledged
        assert c.admin.command("replSetGetStatus")["term"] == 3
        assert c.admin.command("replSetGetConfig")["config"]["term"] == 3
        assert sorted(d["_id"] for d in c.test.p.find()) == list(range(6))
        ts = [e["ts"] for e in oplog(c)]
        assert ts == sorted(ts)


def test_writes_under_dedup_are_in_the_oplog(mongod_factory):
    m = initiate(start_member(mongod_factory, "--dedup"))
    with rs_client(m) as c:
        base = {"text": "lorem ipsum dolor sit amet " * 40}
        docs = [dict(base, _id=i, n=i) for i in range(30)]
        c.test.dd.insert_many(docs)
        c.test.dd.update_many({}, {"$set": {"flag": True}})
        entries = oplog(c, ns="test.dd")
        assert [e["op"] for e in entries] == ["i"] * 30 + ["u"] * 30
        assert [e["o"] for e in entries[:30]] == docs  # whole documents, never dedup's deltas
        assert all(e["o"] == {"$v": 2, "diff": {"i": {"flag": True}}} for e in entries[30:])
        assert c.test.dd.find_one({"_id": 7}) == dict(docs[7], flag=True)


def test_retried_write_is_never_applied_twice(mongod_factory):
    m = initiate(start_member(mongod_factory))
    with rs_client(m) as c:
        lsid = {"id": c.start_session().session_id["id"]}
        cmd = {"insert": "r", "documents": [{"x": 1}], "lsid": lsid, "txnNumber": Int64(1)}
        assert c.test.command(cmd)["n"] == 1
        assert c.test.command(cmd)["n"] == 1  # answered from config.transactions, not applied
        cmd["txnNumber"] = Int64(0)
        assert code_of(lambda: c.test.command(cmd)) == 225  # TransactionTooOld
        assert c.test.r.count_documents({}) == 1
        assert code_of(lambda: c.test.command({"find": "r", "lsid": lsid, "txnNumber": Int64(5)})) == 50768


def test_write_concern_on_a_one_member_set(mongod_factory):
    m = initiate(start_member(mongod_factory))
    with rs_client(m) as c:
        db = c.test
        # w: majority (and with a wtimeout) is satisfied by the one member: no writeConcernError,
        # and a majority read sees the write at once (the member is the majority).
        for doc, wc in (({"_id": 1}, {"w": "majority"}), ({"_id": 4}, {"w": "majority", "wtimeout": 1}),
                        ({"_id": 2}, {"w": 1, "j": True})):
            r = db.command({"insert": "w", "documents": [doc], "writeConcern": wc})
            assert r["n"] == 1 and r["ok"] == 1.0, r
            assert "writeConcernError" not in r and "writeErrors" not in r, r
            seen = db.command({"find": "w", "filter": doc, "readConcern": {"level": "majority",
                                                                            "afterClusterTime": r["operationTime"]}})
            assert seen["cursor"]["firstBatch"] == [doc], (wc, seen)
        # w: 2 cannot be satisfied by one data-bearing member: the command fails before writing.
        with pytest.raises(pymongo.errors.OperationFailure) as ei:
            db.command({"insert": "w", "documents": [{"_id": 3}], "writeConcern": {"w": 2}})
        assert ei.value.code == 100 and ei.value.details["codeName"] == "UnsatisfiableWriteConcern"
        assert ei.value.details["errmsg"] == "Not enough data-bearing nodes"
        assert sorted(d["_id"] for d in db.w.find()) == [1, 2, 4]
        # The live oplog can be neither dropped nor renamed (IllegalOperation), as in MongoDB.
        assert code_of(lambda: c.local.drop_collection("oplog.rs")) == 20
        assert code_of(lambda: c.admin.command("renameCollection", "local.oplog.rs", to="local.x")) == 20
        rw = c.admin.command("getDefaultRWConcern")
        assert rw["defaultWriteConcern"]["w"] == "majority"
