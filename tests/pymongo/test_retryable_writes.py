"""Retryable writes on a one-member replica set (issue 10, item 5), as MongoDB 7.0 has them:
a statement retried with the same lsid, txnNumber and stmtId is answered from its record and never
applied twice (insert, update with upsert, delete, findAndModify with its pre/post image from
config.image_collection); the oplog entries carry lsid/txnNumber/stmtId/prevOpTime;
config.transactions holds {_id: {id, uid}, txnNum, lastWriteOpTime, lastWriteDate} and survives a
restart; TransactionTooOld (225), InvalidOptions for multi/limit 0, IllegalOperation (20) on a
standalone; RetryableWriteError labels drive pymongo's own retry; expired sessions' records are
reaped. One member for the whole file (module fixture), plus a standalone for one check.
Commands with an explicit lsid and txnNumber are sent over a plain socket (wire.py): pymongo
would replace the lsid with its own session's, and a retry must be exactly a resend."""

import contextlib
import time
import uuid

import pymongo
import pytest
from bson import Int64, Timestamp
from bson.binary import Binary

import wire
from replset_helpers import one_member_set

SET = "rsretry"


def code_of(fn):
    with pytest.raises(pymongo.errors.PyMongoError) as e:
        fn()
    return getattr(e.value, "code", None) or (getattr(e.value, "details", None) or {}).get("code")


class CommandFailed(Exception):
    def __init__(self, reply):
        super().__init__(reply)
        self.code = reply.get("code")
        self.details = reply


def raw(port, db, cmd):
    """Runs cmd on db as it is (lsid and txnNumber untouched); raises CommandFailed on ok: 0."""
    with contextlib.closing(wire.connect("127.0.0.1", port)) as s:
        _, reply, _, _ = wire.command(s, dict(cmd, **{"$db": db}))
    if not reply.get("ok"):
        raise CommandFailed(reply)
    return reply


def raw_code(port, db, cmd):
    with pytest.raises(CommandFailed) as e:
        raw(port, db, cmd)
    return e.value.code


def new_lsid():
    return {"id": Binary(uuid.uuid4().bytes, 4)}


def strip(reply):
    """A reply without the fields that differ between two answers ($clusterTime, operationTime)."""
    return {k: v for k, v in reply.items() if k not in ("$clusterTime", "operationTime")}


def as_retry(first, stmt_ids):
    """What a retry answers, as MongoDB 6.0+: the first reply plus the statements it did not run
    again (retriedStmtIds for insert/update/delete, retriedStmtId for findAndModify)."""
    out = strip(first)
    if "lastErrorObject" in out:
        out["retriedStmtId"] = stmt_ids[0]
    else:
        out["retriedStmtIds"] = stmt_ids
    return out


def wait_primary(m, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with m.client(serverSelectionTimeoutMS=1000) as c:
                if c.admin.command("hello").get("isWritablePrimary"):
                    return
        except pymongo.errors.PyMongoError:
            pass
        time.sleep(0.1)
    raise AssertionError("no primary:\n" + m.tail())


@pytest.fixture(scope="module")
def member(tmp_path_factory):
    # Records of expired sessions may be reaped at once (the test of the reaper asks for it).
    yield from one_member_set(tmp_path_factory, SET, ["--setParameter", "TransactionRecordMinimumLifetimeMinutes=0"])


@pytest.fixture
def c(member):
    with member.client() as client:
        yield client


def entries(c, ns, **query):
    return list(c.local["oplog.rs"].find(dict(query, ns=ns)).sort("$natural", 1))


def record(c, lsid):
    return c.config.transactions.find_one({"_id.id": lsid["id"]})


def test_insert_retry_answers_from_the_record(member, c):
    run = lambda cmd: raw(member.port, "test", cmd)
    lsid = new_lsid()
    c.test.drop_collection("ins")
    cmd = {"insert": "ins", "documents": [{"_id": 10}, {"_id": 30}], "ordered": False, "lsid": lsid,
           "txnNumber": Int64(34)}
    first = run(cmd)
    assert first["n"] == 2
    n_entries = len(entries(c, "test.ins", op="i"))
    retry = run(cmd)
    assert strip(retry) == as_retry(first, [0, 1])
    assert c.test.ins.count_documents({}) == 2
    assert len(entries(c, "test.ins", op="i")) == n_entries  # nothing written again
    # A retried batch with one new statement: only the new one is inserted, n counts all three.
    r = run(dict(cmd, documents=[{"_id": 10}, {"_id": 30}, {"_id": 50}]))
    assert r["n"] == 3 and "writeErrors" not in r and r["retriedStmtIds"] == [0, 1]
    assert sorted(d["_id"] for d in c.test.ins.find()) == [10, 30, 50]

    # The oplog entries: lsid {id, uid}, txnNumber, stmtIds 0.., and the prevOpTime chain.
    es = entries(c, "test.ins", op="i")
    assert [e["stmtId"] for e in es] == [0, 1, 2]
    assert all(e["lsid"]["id"] == lsid["id"] and len(e["lsid"]["uid"]) == 32 for e in es)
    assert all(e["txnNumber"] == 34 for e in es)
    assert es[0]["prevOpTime"] == {"ts": Timestamp(0, 0), "t": -1}
    assert es[1]["prevOpTime"] == {"ts": es[0]["ts"], "t": es[0]["t"]}
    assert es[2]["prevOpTime"] == {"ts": es[1]["ts"], "t": es[1]["t"]}
    # config.transactions: the session's newest entry of txnNum 34.
    rec = record(c, lsid)
    assert set(rec) == {"_id", "txnNum", "lastWriteOpTime", "lastWriteDate"}
    assert set(rec["_id"]) == {"id", "uid"} and rec["_id"]["uid"] == es[0]["lsid"]["uid"]
    assert rec["txnNum"] == 34
    assert rec["lastWriteOpTime"] == {"ts": es[2]["ts"], "t": es[2]["t"]}
    assert rec["lastWriteDate"] == es[2]["wall"]
    # The record is local bookkeeping: no oplog entry of its own (as in MongoDB).
    assert entries(c, "config.transactions", op={"$in": ["i", "u"]}) == []

    # A batch spanning several units of work (64 documents each): one chain, one record.
    c.test.drop_collection("ins2")
    big = {"insert": "ins2", "documents": [{"_id": i} for i in range(150)], "lsid": new_lsid(), "txnNumber": Int64(1)}
    assert run(big)["n"] == 150
    retry = run(big)
    assert retry["n"] == 150 and retry["retriedStmtIds"] == list(range(150))
    es = entries(c, "test.ins2", op="i")
    assert [e["stmtId"] for e in es] == list(range(150))
    assert all(es[k]["prevOpTime"] == {"ts": es[k - 1]["ts"], "t": es[k - 1]["t"]} for k in range(1, 150))
    assert record(c, big["lsid"])["lastWriteOpTime"] == {"ts": es[-1]["ts"], "t": es[-1]["t"]}


def test_update_retry_reports_n_nmodified_and_upserted(member, c):
    run = lambda cmd: raw(member.port, "test", cmd)
    lsid = new_lsid()
    c.test.drop_collection("upd")
    c.test.upd.insert_many([{"_id": 10}, {"_id": 30}])
    cmd = {"update": "upd", "lsid": lsid, "txnNumber": Int64(35), "ordered": False,
           "updates": [{"q": {"_id": 10}, "u": {"$inc": {"x": 1}}},
                       {"q": {"_id": 20}, "u": {"$inc": {"y": 1}}, "upsert": True},
                       {"q": {"_id": 30}, "u": {"z": 1}}]}
    first = run(cmd)
    assert first["n"] == 3 and first["nModified"] == 2 and first["upserted"] == [{"index": 1, "_id": 20}]
    before = len(entries(c, "test.upd"))
    assert "retriedStmtIds" not in first
    retry = run(cmd)
    assert strip(retry) == as_retry(first, [0, 1, 2])
    assert len(entries(c, "test.upd")) == before
    assert list(c.test.upd.find().sort("_id", 1)) == [{"_id": 10, "x": 1}, {"_id": 20, "y": 1}, {"_id": 30, "z": 1}]
    # The upsert is an insert entry of its statement.
    assert [(e["op"], e["stmtId"]) for e in entries(c, "test.upd", txnNumber=35)] == [("u", 0), ("i", 1), ("u", 2)]


def test_delete_retry(member, c):
    run = lambda cmd: raw(member.port, "test", cmd)
    lsid = new_lsid()
    c.test.drop_collection("del")
    c.test["del"].insert_many([{"_id": 40, "x": 1}, {"_id": 41, "x": 1}, {"_id": 50, "y": 1}, {"_id": 51, "y": 1}])
    cmd = {"delete": "del", "deletes": [{"q": {"x": 1}, "limit": 1}, {"q": {"y": 1}, "limit": 1}],
           "ordered": False, "lsid": lsid, "txnNumber": Int64(36)}
    first = run(cmd)
    assert first["n"] == 2
    retry = run(cmd)
    assert strip(retry) == as_retry(first, [0, 1])
    assert c.test["del"].count_documents({}) == 2  # one of each left: not deleted again
    assert len(entries(c, "test.del", op="d")) == 2


def test_find_and_modify_retry_returns_the_stored_image(member, c):
    run = lambda cmd: raw(member.port, "test", cmd)
    lsid = new_lsid()
    c.test.drop_collection("fam")
    fam = lambda txn, **kw: dict({"findAndModify": "fam", "lsid": lsid, "txnNumber": Int64(txn)}, **kw)
    cases = [
        (fam(37, query={"_id": 60}, update={"$inc": {"x": 1}}, new=True, upsert=True), {"_id": 60, "x": 1}),
        (fam(38, query={"_id": 60}, update={"$inc": {"x": 1}}, new=False), {"_id": 60, "x": 2}),
        (fam(39, query={"_id": 60}, update={"$inc": {"x": 1}}, new=True), {"_id": 60, "x": 3}),
    ]
    replies = []
    for cmd, after in cases:
        first = run(cmd)
        n = len(entries(c, "test.fam"))
        retry = run(cmd)
        assert "retriedStmtId" not in first
        assert strip(retry) == as_retry(first, [0]), cmd
        assert c.test.fam.find_one({"_id": 60}) == after  # applied once
        assert len(entries(c, "test.fam")) == n
        replies.append(first)
    assert replies[0]["lastErrorObject"] == {"n": 1, "updatedExisting": False, "upserted": 60}
    assert replies[0]["value"] == {"_id": 60, "x": 1}
    assert replies[1]["value"] == {"_id": 60, "x": 1}  # the pre-image
    assert replies[2]["value"] == {"_id": 60, "x": 3}  # the post-image
    # The image lives in config.image_collection; the entry says which one it is.
    img = c.config.image_collection.find_one({"_id.id": lsid["id"]})
    last = entries(c, "test.fam", txnNumber=39)[0]
    assert last["needsRetryImage"] == "postImage" and last["stmtId"] == 0
    assert img["txnNum"] == 39 and img["ts"] == last["ts"] and img["imageKind"] == "postImage"
    assert img["image"] == {"_id": 60, "x": 3} and img["invalidated"] is False
    # remove: the deleted document comes back on a retry.
    c.test.fam.insert_many([{"_id": 70, "f": 1}, {"_id": 80, "f": 1}])
    rm = fam(40, query={"f": 1}, remove=True)
    first = run(rm)
    retry = run(rm)
    assert strip(retry) == as_retry(first, [0]) and first["value"]["_id"] in (70, 80)
    assert c.test.fam.count_documents({"f": 1}) == 1
    # A retry that is a different kind of write than the original: MongoDB's 40606 (an update
    # retried against a remove), 40608 (a plain update retried against an upsert's insert).
    assert raw_code(member.port, "test", fam(40, query={"f": 1}, update={"$set": {"g": 1}})) == 40606
    run(fam(41, query={"_id": 90}, update={"$set": {"u": 1}}, upsert=True))
    assert raw_code(member.port, "test", fam(41, query={"_id": 90}, update={"$set": {"u": 1}})) == 40608
    # A retry asking for the other image than the one stored: 40611 (wants the post-image, the
    # pre-image is stored) and 40612 (wants the pre-image, the post-image is stored); nothing applied.
    run(fam(42, query={"_id": 60}, update={"$inc": {"x": 1}}, new=False))
    assert raw_code(member.port, "test", fam(42, query={"_id": 60}, update={"$inc": {"x": 1}}, new=True)) == 40611
    run(fam(43, query={"_id": 60}, update={"$inc": {"x": 1}}, new=True))
    assert raw_code(member.port, "test", fam(43, query={"_id": 60}, update={"$inc": {"x": 1}}, new=False)) == 40612
    assert c.test.fam.find_one({"_id": 60}) == {"_id": 60, "x": 5}


def test_txn_number_rules_and_refused_statements(member, c):
    run = lambda cmd: raw(member.port, "test", cmd)
    code = lambda cmd: raw_code(member.port, "test", cmd)
    lsid = new_lsid()
    c.test.drop_collection("rules")
    assert run({"insert": "rules", "documents": [{"_id": 1}], "lsid": lsid, "txnNumber": Int64(5)})["n"] == 1
    # An older txnNumber on the session: TransactionTooOld (225).
    assert code({"insert": "rules", "documents": [{"_id": 2}], "lsid": lsid, "txnNumber": Int64(4)}) == 225
    # multi: true and limit: 0 are not retryable: only those statements fail (InvalidOptions).
    c.test.rules.insert_many([{"_id": 3, "x": 1}, {"_id": 4, "y": 1}])
    r = run({"update": "rules", "lsid": lsid, "txnNumber": Int64(6),
             "updates": [{"q": {"_id": 3}, "u": {"$set": {"a": 1}}},
                         {"q": {"x": 1}, "u": {"$set": {"b": 1}}, "multi": True}]})
    assert r["nModified"] == 1 and [(e["index"], e["code"]) for e in r["writeErrors"]] == [(1, 72)]
    assert r["writeErrors"][0]["errmsg"] == "Cannot use (or request) retryable writes with multi=true"
    r = run({"delete": "rules", "lsid": lsid, "txnNumber": Int64(7), "ordered": False,
             "deletes": [{"q": {"_id": 4}, "limit": 1}, {"q": {"y": 1}, "limit": 0}]})
    assert r["n"] == 1 and [(e["index"], e["code"]) for e in r["writeErrors"]] == [(1, 72)]
    # The local database is not replicated, so never recorded: its statements are refused.
    r = raw(member.port, "local", {"insert": "rw", "documents": [{"_id": 1}, {"_id": 2}], "ordered": False,
                                   "lsid": lsid, "txnNumber": Int64(10)})
    assert [(e["index"], e["code"]) for e in r["writeErrors"]] == [(0, 20), (1, 20)] and r["n"] == 0
    assert r["writeErrors"][0]["errmsg"] == "retryable writes is not supported for unreplicated ns: local.rw"
    assert raw_code(member.port, "local", {"findAndModify": "rw", "query": {}, "update": {"$set": {"a": 1}},
                                           "upsert": True, "lsid": lsid, "txnNumber": Int64(11)}) == 20
    # txnNumber on a command that is not a retryable write; txnNumber without lsid.
    assert code({"find": "rules", "lsid": lsid, "txnNumber": Int64(12)}) == 50768
    assert code({"insert": "rules", "documents": [{}], "txnNumber": Int64(13)}) == 72
    # serverStatus counts the retries.
    t = c.admin.command("serverStatus")["transactions"]
    assert t["retriedCommandsCount"] >= 1 and t["retriedStatementsCount"] >= 2
    assert t["transactionsCollectionWriteCount"] >= 1


def test_standalone_refuses_txn_numbers(mongod_factory):
    m = mongod_factory()
    with pytest.raises(CommandFailed) as e:
        raw(m.port, "test", {"insert": "s", "documents": [{"x": 1}], "lsid": new_lsid(), "txnNumber": Int64(1)})
    assert e.value.code == 20
    assert e.value.details["errmsg"] == "Transaction numbers are only allowed on a replica set member or mongos"
    with m.client() as c:
        assert c.test.s.count_documents({}) == 0


def test_pymongo_retries_a_write_whose_reply_failed(member):
    # The write is applied, then its write concern "fails" with ShutdownInProgress (91): the reply
    # carries the RetryableWriteError label, pymongo retries with the same txnNumber, and the
    # retry is answered from the record: the document is inserted once, no duplicate key error.
    with pymongo.MongoClient("mongodb://127.0.0.1:%d/?replicaSet=%s" % (member.port, SET),
                             serverSelectionTimeoutMS=10000, heartbeatFrequencyMS=500) as rc:
        rc.test.drop_collection("auto")
        retried = lambda: rc.admin.command("serverStatus")["transactions"]["retriedStatementsCount"]
        before = retried()
        rc.admin.command("configureFailPoint", "failCommand", mode={"times": 1},
                         data={"failCommands": ["insert"], "writeConcernError": {"code": 91, "errmsg": "x"}})
        try:
            rc.test.auto.insert_one({"_id": 1})
        finally:
            rc.admin.command("configureFailPoint", "failCommand", mode="off")
        assert rc.test.auto.count_documents({}) == 1
        assert retried() == before + 1  # the retry was answered from the record
        es = entries(rc, "test.auto", op="i")
        assert len(es) == 1 and es[0]["stmtId"] == 0
        # An error before the write (a NotWritablePrimary injected): labelled, retried, applied once.
        rc.admin.command("configureFailPoint", "failCommand", mode={"times": 1},
                         data={"failCommands": ["findAndModify"], "errorCode": 10107})
        try:
            doc = rc.test.auto.find_one_and_update({"_id": 1}, {"$inc": {"n": 1}},
                                                   return_document=pymongo.ReturnDocument.AFTER)
        finally:
            rc.admin.command("configureFailPoint", "failCommand", mode="off")
        assert doc == {"_id": 1, "n": 1}


def test_records_survive_a_restart(member):
    run = lambda cmd: raw(member.port, "test", cmd)
    lsid, lsid2 = new_lsid(), new_lsid()
    ins = {"insert": "rs", "documents": [{"_id": 1}, {"_id": 2}], "lsid": lsid, "txnNumber": Int64(3)}
    fam = {"findAndModify": "rs", "query": {"_id": 1}, "update": {"$inc": {"x": 1}}, "new": True,
           "lsid": lsid, "txnNumber": Int64(4)}
    ins2 = {"insert": "rs", "documents": [{"_id": 3}], "lsid": lsid2, "txnNumber": Int64(1)}
    with member.client() as c:
        c.test.drop_collection("rs")
    assert run(ins)["n"] == 2
    first_fam = run(fam)  # txnNumber 4 supersedes 3
    assert run(ins2)["n"] == 1
    member.restart()
    wait_primary(member)
    with member.client() as c:
        assert record(c, lsid)["txnNum"] == 4
        assert strip(run(fam)) == as_retry(first_fam, [0])  # from the record and the image
        assert c.test.rs.find_one({"_id": 1}) == {"_id": 1, "x": 1}
        assert raw_code(member.port, "test", ins) == 225
        r = run(ins2)
        assert r["n"] == 1 and "writeErrors" not in r  # answered, not a duplicate key
        assert c.test.rs.count_documents({}) == 3


def test_expired_sessions_records_are_reaped(member, c):
    run = lambda cmd: raw(member.port, "test", cmd)
    ended, live = new_lsid(), new_lsid()
    for lsid in (ended, live):
        run({"insert": "reap", "documents": [{}], "lsid": lsid, "txnNumber": Int64(1)})
    c.admin.command("refreshLogicalSessionCacheNow")  # both in config.system.sessions
    raw(member.port, "admin", {"endSessions": [ended]})
    c.admin.command("refreshLogicalSessionCacheNow")  # the ended one's session record goes
    assert c.config.system.sessions.find_one({"_id.id": ended["id"]}) is None
    assert c.config.system.sessions.find_one({"_id.id": live["id"]}) is not None
    assert record(c, ended) is not None
    c.admin.command("reapLogicalSessionCacheNow")
    assert record(c, ended) is None  # its retryable-write history is gone with it
    assert record(c, live) is not None
    # The reaper's delete is replicated (the only config.transactions entries in the oplog).
    deleted = [e["o"]["_id"]["id"] for e in entries(c, "config.transactions", op="d")]
    assert ended["id"] in deleted and live["id"] not in deleted
    # With the history gone the same txnNumber starts afresh: the statement runs again.
    r = run({"insert": "reap", "documents": [{"_id": "again"}], "lsid": ended, "txnNumber": Int64(1)})
    assert r["n"] == 1 and c.test.reap.find_one({"_id": "again"}) is not None
