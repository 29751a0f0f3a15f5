"""Tailable and awaitData cursors on capped collections, as MongoDB 7.0 serves them: the cursor
stays open at the end of the collection and later getMores return what was inserted since, in
insertion order; an awaitData getMore at the end waits for an insert (up to its maxTimeMS, 1 s
by default) and returns as soon as one commits; CappedPositionLost (136) when the collection
rolled over past the cursor; QueryPlanKilled (175) when it was dropped; killCursors
(CursorKilled, 237), killOp (Interrupted, 11601), a client hanging up and server shutdown end
a waiting getMore at once.

Timings are asserted only with wide margins: a getMore woken by an insert must return well
before its await time (tens of seconds), not within some tight bound."""
import socket
import threading
import time

import bson
import pymongo
import pytest
from bson import Int64
from pymongo.cursor import CursorType
from pymongo.errors import OperationFailure

import wire
from conftest import URI, host_port

LONG_AWAIT_MS = 30000  # a wait that an event must cut short
EARLY = 15.0           # "well before the await time expired", in seconds


def make_capped(db, name="cap", size=1 << 20, max_docs=None, docs=()):
    opts = {"capped": True, "size": size}
    if max_docs:
        opts["max"] = max_docs
    db.create_collection(name, **opts)
    if docs:
        db[name].insert_many(list(docs))
    return db[name]


def getmore_ops(client, cursor_id):
    return client.admin.command({"currentOp": 1, "command.getMore": Int64(cursor_id)})["inprog"]


def wait_until_getmore_runs(client, cursor_id, timeout=20.0):
    """Blocks until the getMore of cursor_id shows in currentOp (then it is about to wait)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if getmore_ops(client, cursor_id):
            time.sleep(0.2)  # let it reach the wait
            return
        time.sleep(0.02)
    raise AssertionError("the getMore of cursor %d never showed in currentOp" % cursor_id)


class Background:
    """Runs fn in a thread; result() re-raises its exception or returns its value."""

    def __init__(self, fn):
        self._out = {}

        def run():
            t0 = time.time()
            try:
                self._out["value"] = fn()
            except BaseException as e:  # noqa: B902 - handed to the test thread
                self._out["error"] = e
            self._out["elapsed"] = time.time() - t0

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def result(self, timeout=60):
        self._thread.join(timeout)
        assert not self._thread.is_alive(), "the background call did not finish"
        if "error" in self._out:
            raise self._out["error"]
        return self._out["value"]

    @property
    def elapsed(self):
        return self._out["elapsed"]


def test_tailable_cursor_follows_inserts(db):
    c = make_capped(db, docs=[{"_id": i} for i in range(3)])
    cur = c.find(cursor_type=CursorType.TAILABLE, batch_size=2)
    assert [d["_id"] for d in cur] == [0, 1, 2]
    assert cur.alive, "a tailable cursor stays open at the end"
    # Nothing new: the next getMore returns at once with nothing, the cursor still open.
    t0 = time.time()
    assert list(cur) == []
    assert time.time() - t0 < EARLY
    assert cur.alive
    c.insert_one({"_id": 3})
    c.insert_many([{"_id": 4}, {"_id": 5}])
    assert [d["_id"] for d in cur] == [3, 4, 5]
    assert cur.alive
    cur.close()


def test_tailable_filter_projection_skip_limit(db):
    c = make_capped(db, docs=[{"_id": i, "even": i % 2 == 0, "x": i} for i in range(6)])
    cur = c.find({"even": True}, {"x": 1}, cursor_type=CursorType.TAILABLE, skip=1)
    assert list(cur) == [{"_id": 2, "x": 2}, {"_id": 4, "x": 4}]
    c.insert_many([{"_id": 6, "even": True, "x": 6}, {"_id": 7, "even": False, "x": 7}])
    assert list(cur) == [{"_id": 6, "x": 6}]
    cur.close()
    # A limit counts over the cursor's life: once reached, later inserts are not returned.
    cur = c.find(cursor_type=CursorType.TAILABLE, limit=8)
    assert len(list(cur)) == 8
    c.insert_one({"_id": 8})
    assert list(cur) == []
    cur.close()


def test_tailable_open_and_close_rules(db):
    # MongoDB: no cursor on a missing or empty collection (id 0), even with an empty first batch.
    r = db.command("find", "missing", tailable=True, awaitData=True, batchSize=0)
    assert r["cursor"]["id"] == 0 and r["cursor"]["firstBatch"] == []
    make_capped(db, "empty")
    r = db.command("find", "empty", tailable=True)
    assert r["cursor"]["id"] == 0 and r["cursor"]["firstBatch"] == []
    # A filter that matches nothing on a non-empty collection keeps the cursor open.
    make_capped(db, "one", docs=[{"_id": 1}])
    r = db.command("find", "one", filter={"nothing": 1}, tailable=True)
    assert r["cursor"]["id"] != 0 and r["cursor"]["firstBatch"] == []
    db.command("killCursors", "one", cursors=[r["cursor"]["id"]])
    # A batch that reaches the end keeps it open too.
    r = db.command("find", "one", tailable=True)
    assert r["cursor"]["id"] != 0 and [d["_id"] for d in r["cursor"]["firstBatch"]] == [1]
    more = db.command("getMore", r["cursor"]["id"], collection="one")
    assert more["cursor"]["id"] == r["cursor"]["id"] and more["cursor"]["nextBatch"] == []
    db.command("killCursors", "one", cursors=[r["cursor"]["id"]])


def test_tailable_errors(db):
    db.plain.insert_one({"_id": 1})
    make_capped(db, docs=[{"_id": 1}])
    with pytest.raises(OperationFailure) as e:
        list(db.plain.find(cursor_type=CursorType.TAILABLE))
    assert e.value.code == 2
    assert "tailable cursor requested on non capped collection" in str(e.value)
    with pytest.raises(OperationFailure) as e:
        db.command("find", "plain", tailable=True, awaitData=True)
    assert e.value.code == 2
    with pytest.raises(OperationFailure) as e:
        db.command("find", "cap", awaitData=True)
    assert e.value.code == 9 and "Cannot set 'awaitData' without also setting 'tailable'" in str(e.value)
    with pytest.raises(OperationFailure) as e:
        db.command("find", "cap", tailable=True, sort={"_id": 1})
    assert e.value.code == 2 and "cannot use tailable option with a sort other than {$natural: 1}" in str(e.value)
    with pytest.raises(OperationFailure) as e:
        db.command("find", "cap", tailable=True, sort={"$natural": -1})
    assert e.value.code == 2
    with pytest.raises(OperationFailure) as e:
        db.command("find", "cap", tailable=True, singleBatch=True)
    assert e.value.code == 2 and "singleBatch" in str(e.value)
    # {$natural: 1} is the one sort allowed; an index hint changes nothing (no index is used).
    r = db.command("find", "cap", tailable=True, sort={"$natural": 1}, hint={"_id": 1})
    assert [d["_id"] for d in r["cursor"]["firstBatch"]] == [1] and r["cursor"]["id"] != 0
    db.command("killCursors", "cap", cursors=[r["cursor"]["id"]])
    # maxTimeMS on a getMore is only for awaitData cursors.
    r = db.command("find", "cap", tailable=True)
    with pytest.raises(OperationFailure) as e:
        db.command("getMore", r["cursor"]["id"], collection="cap", maxTimeMS=100)
    assert e.value.code == 2 and "non-awaitData cursor" in str(e.value)
    # ...and the cursor survives the refused getMore.
    db.command("getMore", r["cursor"]["id"], collection="cap")
    db.command("killCursors", "cap", cursors=[r["cursor"]["id"]])


def test_await_data_times_out_with_empty_batch(db):
    make_capped(db, docs=[{"_id": 1}])
    r = db.command("find", "cap", tailable=True, awaitData=True)
    cid = r["cursor"]["id"]
    t0 = time.time()
    more = db.command("getMore", cid, collection="cap", maxTimeMS=300)
    waited = time.time() - t0
    assert more["cursor"]["nextBatch"] == [] and more["cursor"]["id"] == cid
    assert waited >= 0.25, "the getMore waited for inserts"
    # Without maxTimeMS it waits MongoDB's default (1 s), then answers, still open.
    t0 = time.time()
    more = db.command("getMore", cid, collection="cap")
    assert more["cursor"]["nextBatch"] == [] and more["cursor"]["id"] == cid
    assert time.time() - t0 >= 0.9
    db.command("killCursors", "cap", cursors=[cid])


def test_await_data_returns_when_an_insert_commits(db, client):
    c = make_capped(db, docs=[{"_id": i} for i in range(3)])
    cur = c.find(cursor_type=CursorType.TAILABLE_AWAIT).max_await_time_ms(LONG_AWAIT_MS)
    assert [cur.next()["_id"] for _ in range(3)] == [0, 1, 2]  # the first batch
    cid = cur.cursor_id
    assert cid

    def insert_later():
        wait_until_getmore_runs(client, cid)
        c.insert_one({"_id": "new"})

    inserter = Background(insert_later)
    t0 = time.time()
    doc = cur.next()  # one getMore, waiting for the insert
    elapsed = time.time() - t0
    inserter.result()
    assert doc == {"_id": "new"}
    assert elapsed < EARLY, "the getMore returned before the await time expired (%.1fs)" % elapsed
    cur.close()


def test_await_data_ignores_inserts_the_filter_rejects(db, client):
    make_capped(db, docs=[{"_id": 0, "x": 0}])
    r = db.command("find", "cap", filter={"x": 1}, tailable=True, awaitData=True)
    cid = r["cursor"]["id"]
    assert cid and r["cursor"]["firstBatch"] == []

    def writer():
        wait_until_getmore_runs(client, cid)
        db.cap.insert_one({"_id": "no", "x": 0})
        time.sleep(0.3)
        assert getmore_ops(client, cid), "a non-matching insert must not end the wait"
        db.cap.insert_one({"_id": "yes", "x": 1})

    w = Background(writer)
    more = db.command("getMore", cid, collection="cap", maxTimeMS=LONG_AWAIT_MS)
    w.result()
    assert more["cursor"]["nextBatch"] == [{"_id": "yes", "x": 1}]
    db.command("killCursors", "cap", cursors=[cid])


def test_capped_position_lost_when_overrun(db):
    c = make_capped(db, max_docs=5, docs=[{"_id": i} for i in range(5)])
    r = db.command("find", "cap", tailable=True, batchSize=2)
    assert [d["_id"] for d in r["cursor"]["firstBatch"]] == [0, 1]
    cid = r["cursor"]["id"]
    c.insert_many([{"_id": i} for i in range(5, 15)])  # rolls over past the cursor
    assert [d["_id"] for d in c.find()] == list(range(10, 15))
    with pytest.raises(OperationFailure) as e:
        db.command("getMore", cid, collection="cap")
    assert e.value.code == 136, e.value.details
    assert "CollectionScan died due to position in capped collection being deleted" in str(e.value)
    # The cursor is gone.
    with pytest.raises(OperationFailure) as e:
        db.command("getMore", cid, collection="cap")
    assert e.value.code == 43
    # pymongo treats the error as the end of a tailable cursor: it is no longer alive.
    cur = c.find(cursor_type=CursorType.TAILABLE, batch_size=2)
    assert [cur.next()["_id"], cur.next()["_id"]] == [10, 11]
    c.insert_many([{"_id": i} for i in range(15, 25)])
    assert list(cur) == []
    assert not cur.alive


def test_tailing_cursor_dies_with_its_collection(db):
    make_capped(db, docs=[{"_id": 1}])
    r = db.command("find", "cap", tailable=True)
    cid = r["cursor"]["id"]
    db.cap.drop()
    make_capped(db, docs=[{"_id": 1}])  # a new collection of the same name is not the cursor's
    with pytest.raises(OperationFailure) as e:
        db.command("getMore", cid, collection="cap")
    assert e.value.code == 175
    with pytest.raises(OperationFailure) as e:
        db.command("getMore", cid, collection="cap")
    assert e.value.code == 43


def test_drop_ends_a_waiting_getmore(db, client):
    make_capped(db, docs=[{"_id": 1}])
    cid = db.command("find", "cap", tailable=True, awaitData=True)["cursor"]["id"]
    g = Background(lambda: db.command("getMore", cid, collection="cap", maxTimeMS=LONG_AWAIT_MS))
    wait_until_getmore_runs(client, cid)
    db.cap.drop()
    with pytest.raises(OperationFailure) as e:
        g.result()
    assert e.value.code == 175
    assert g.elapsed < EARLY


def test_kill_cursors_ends_a_waiting_getmore(db, client):
    make_capped(db, docs=[{"_id": 1}])
    cid = db.command("find", "cap", tailable=True, awaitData=True)["cursor"]["id"]
    g = Background(lambda: db.command("getMore", cid, collection="cap", maxTimeMS=LONG_AWAIT_MS))
    wait_until_getmore_runs(client, cid)
    r = db.command("killCursors", "cap", cursors=[cid])
    assert r["cursorsKilled"] == [cid]
    with pytest.raises(OperationFailure) as e:
        g.result()
    assert e.value.code == 237  # CursorKilled
    assert g.elapsed < EARLY
    with pytest.raises(OperationFailure) as e:
        db.command("getMore", cid, collection="cap")
    assert e.value.code == 43


def test_kill_op_ends_a_waiting_getmore(db, client):
    make_capped(db, docs=[{"_id": 1}])
    cid = db.command("find", "cap", tailable=True, awaitData=True)["cursor"]["id"]
    g = Background(lambda: db.command("getMore", cid, collection="cap", maxTimeMS=LONG_AWAIT_MS))
    wait_until_getmore_runs(client, cid)
    opid = getmore_ops(client, cid)[0]["opid"]
    client.admin.command("killOp", op=opid)
    with pytest.raises(OperationFailure) as e:
        g.result()
    assert e.value.code == 11601  # Interrupted
    assert g.elapsed < EARLY


def test_client_disconnect_ends_a_waiting_getmore(db, client):
    make_capped(db, docs=[{"_id": 1}])
    cid = db.command("find", "cap", tailable=True, awaitData=True)["cursor"]["id"]
    host, port = host_port()
    sock = wire.connect(host, port)
    sock.sendall(wire.op_msg({"getMore": Int64(cid), "collection": "cap", "maxTimeMS": LONG_AWAIT_MS,
                              "$db": db.name}))
    wait_until_getmore_runs(client, cid)
    sock.close()
    t0 = time.time()
    while getmore_ops(client, cid):
        assert time.time() - t0 < EARLY, "the getMore outlived its client"
        time.sleep(0.05)


def test_shutdown_ends_a_waiting_getmore(mongod_factory):
    m = mongod_factory()
    # Short server selection: the clients are closed after the server is gone.
    with m.client(serverSelectionTimeoutMS=500) as c:
        d = c.test
        make_capped(d, docs=[{"_id": 1}])
        cid = d.command("find", "cap", tailable=True, awaitData=True)["cursor"]["id"]
        with m.client(serverSelectionTimeoutMS=500) as waiter_client:
            g = Background(lambda: waiter_client.test.command("getMore", cid, collection="cap",
                                                              maxTimeMS=120000))
            wait_until_getmore_runs(c, cid)
            t0 = time.time()
            assert m.stop() == 0
            assert time.time() - t0 < EARLY, "shutdown waited for the getMore"
            with pytest.raises(pymongo.errors.PyMongoError):
                g.result()


def test_capped_collections_are_not_deduplicated_and_tail_alike(db):
    """Under --dedup too (pymongo_dedup suite): capped collections are stored plain."""
    c = make_capped(db, docs=[{"_id": i, "pad": "x" * 200} for i in range(20)])
    stats = db.command("collStats", "cap")
    assert stats["capped"] is True
    assert "dedup" not in stats, stats.get("dedup")
    cur = c.find(cursor_type=CursorType.TAILABLE, batch_size=7)
    assert [d["_id"] for d in cur] == list(range(20))
    c.insert_one({"_id": 20, "pad": "x" * 200})
    assert [d["_id"] for d in cur] == [20]
    cur.close()
