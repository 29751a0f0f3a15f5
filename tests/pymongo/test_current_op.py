"""$currentOp and the currentOp command as MongoDB 7.0 shows running operations (issue 14),
killOp ending one with Interrupted (11601) at its next interrupt check, and the stage's
placement rules and error codes."""
import hashlib
import threading
import time

import bson
import pymongo
import pytest

from conftest import URI

FP = "waitInFindBeforeMakingBatch"


def code_of(fn):
    with pytest.raises(pymongo.errors.OperationFailure) as ei:
        fn()
    return ei.value.code


def current_ops(client, spec=None, match=None):
    pipeline = [{"$currentOp": spec or {}}]
    if match:
        pipeline.append({"$match": match})
    return list(client.admin.aggregate(pipeline))


def wait_for_op(client, match, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        ops = current_ops(client, match=match)
        if ops:
            return ops[0]
        time.sleep(0.02)
    raise AssertionError("no operation matching %r" % match)


class Background:
    """Runs fn in a thread; .result holds its value or .code its OperationFailure code."""

    def __init__(self, fn):
        self.result, self.code, self.elapsed = None, None, None
        self._fn = fn
        self._t = threading.Thread(target=self._run)
        self._t.start()

    def _run(self):
        start = time.time()
        try:
            self.result = self._fn()
        except pymongo.errors.OperationFailure as e:
            self.code = e.code
        self.elapsed = time.time() - start

    def join(self, timeout=20):
        self._t.join(timeout)
        assert not self._t.is_alive(), "operation still running"


@pytest.fixture
def hanging_find(client, db):
    """Finds on db.c wait before their first batch while the fail point is on."""
    client.admin.command("configureFailPoint", FP, mode="alwaysOn", data={"nss": db.c.full_name})
    yield
    client.admin.command("configureFailPoint", FP, mode="off")


def test_running_find_is_reported_and_killed(client, db, hanging_find):
    db.c.insert_many([{"x": i} for i in range(10)])
    db.c.create_index("x")
    other = pymongo.MongoClient(URI, appname="currentOpTest",
                                directConnection=True)
    try:
        s = other.start_session()
        bg = Background(lambda: list(other[db.name].c.find({"x": {"$gte": 3}}, session=s, comment="watched")))
        op = wait_for_op(client, {"command.comment": "watched"})
        assert op["type"] == "op" and op["active"] is True
        assert op["op"] == "query" and op["ns"] == db.c.full_name
        assert op["command"]["find"] == "c" and op["command"]["filter"] == {"x": {"$gte": 3}}
        assert op["appName"] == "currentOpTest" and op["clientMetadata"]["application"] == {"name": "currentOpTest"}
        assert op["desc"] == "conn%d" % op["connectionId"] and isinstance(op["connectionId"], int)
        host, port = op["client"].rsplit(":", 1)
        assert host == "127.0.0.1" and int(port) > 0
        assert op["lsid"]["id"] == s.session_id["id"] and len(op["lsid"]["uid"]) == 32
        assert op["planSummary"] == "IXSCAN { x: 1 }"
        assert op["waitingForLock"] is False and op["numYields"] == 0
        assert isinstance(op["opid"], int) and isinstance(op["secs_running"], int)
        assert isinstance(op["microsecs_running"], int) and op["microsecs_running"] > 0
        # The currentOp command shows the same operation ({inprog: [...]}, its other fields a filter).
        inprog = client.admin.command({"currentOp": 1, "command.comment": "watched"})["inprog"]
        assert [o["opid"] for o in inprog] == [op["opid"]]
        assert inprog[0]["planSummary"] == "IXSCAN { x: 1 }"
        r = client.admin.command("killOp", op=op["opid"])
        assert r["info"] == "attempting to kill op"
        bg.join()
        assert bg.code == 11601 and bg.result is None
        assert current_ops(client, match={"opid": op["opid"]}) == []
        s.end_session()
    finally:
        other.close()


def test_kill_op_interrupts_a_long_collection_scan(client, db):
    db.c.insert_many([{"i": i} for i in range(3000)])
    # Each document costs a 20000-step $reduce and none matches: a scan of many seconds.
    slow = {"$expr": {"$lt": [{"$reduce": {"input": {"$range": [0, 20000]}, "initialValue": 0,
                                             "in": {"$add": ["$$value", 1]}}}, 0]}}
    bg = Background(lambda: list(db.c.find(slow, comment="scan")))
    op = wait_for_op(client, {"command.comment": "scan"})
    assert op["planSummary"] == "COLLSCAN" and op["op"] == "query"
    killed_at = time.time()
    client.admin.command("killOp", op=op["opid"])
    bg.join()
    assert bg.code == 11601
    assert time.time() - killed_at < 5  # at the scan's next document, not at its end


def test_kill_op_ends_an_await_data_get_more(client, db):
    db.create_collection("capped", capped=True, size=4096)
    db.capped.insert_one({"x": 1})
    reply = db.command("find", "capped", tailable=True, awaitData=True, batchSize=10)
    cid = reply["cursor"]["id"]
    bg = Background(lambda: db.command("getMore", cid, collection="capped", maxTimeMS=60000, comment="await"))
    op = wait_for_op(client, {"command.comment": "await"})
    assert op["op"] == "getmore" and op["ns"] == db.capped.full_name
    client.admin.command("killOp", op=op["opid"])
    bg.join()
    assert bg.code == 11601 and bg.elapsed < 10


def test_waiting_for_lock(client, db, hanging_find):
    db.c.insert_one({"x": 1})
    # The hanging find holds the shared catalog lock; a create waits for the exclusive one.
    finder = Background(lambda: list(db.c.find({}, comment="holder")))
    wait_for_op(client, {"command.comment": "holder"})
    creator = Background(lambda: db.command("create", "newcoll", comment="waiter"))
    op = wait_for_op(client, {"command.comment": "waiter", "waitingForLock": True})
    assert op["command"]["create"] == "newcoll" and op["ns"] == db.name + ".newcoll"
    client.admin.command("configureFailPoint", FP, mode="off")
    finder.join()
    creator.join()
    assert finder.result == [{"_id": finder.result[0]["_id"], "x": 1}] and creator.code is None
    assert "newcoll" in db.list_collection_names()


def test_idle_connections_and_cursors(client, db):
    idle = pymongo.MongoClient(URI, appname="idleOne", directConnection=True)
    try:
        idle.admin.command("ping")
        # The client's pooled connection is idle; its monitor's connection waits in a streaming
        # hello, an active operation.
        conns = [o for o in current_ops(client, {"idleConnections": True}) if o.get("appName") == "idleOne"]
        idle_docs = [o for o in conns if not o["active"]]
        assert idle_docs and all(set(o) == {"type", "host", "desc", "connectionId", "client", "appName",
                                            "clientMetadata", "active", "currentOpTime"} for o in idle_docs)
        assert all(o["desc"] == "conn%d" % o["connectionId"] and o["type"] == "op" for o in idle_docs)
        active = [o for o in current_ops(client) if o.get("appName") == "idleOne"]
        assert all(o["active"] and "hello" in o["command"] for o in active), active
    finally:
        idle.close()
    db.c.insert_many([{"i": i} for i in range(7)])
    db.c.create_index("i")
    cur = db.c.find({}, batch_size=2)
    next(cur)
    cid = cur.cursor_id
    idle_cursors = current_ops(client, {"idleCursors": True}, {"type": "idleCursor"})
    mine = [o for o in idle_cursors if o["cursor"]["cursorId"] == cid]
    assert len(mine) == 1 and mine[0]["ns"] == db.c.full_name and mine[0]["cursor"]["nDocsReturned"] == 2
    assert current_ops(client, {}, {"type": "idleCursor"}) == []
    cur.close()
    # MongoDB 7.0's fields: the session with its owner's digest (the empty string's SHA-256
    # without authentication), the plan, and the cursor's history and originating command.
    with client.start_session() as session:
        cur = db.c.find({"i": {"$gte": 1}}, batch_size=2, session=session)
        next(cur)
        next(cur)
        next(cur)  # a getMore: a second batch
        [idle] = current_ops(client, {"idleCursors": True}, {"cursor.cursorId": cur.cursor_id})
        assert list(idle) == ["type", "host", "ns", "lsid", "planSummary", "cursor"], idle
        assert idle["lsid"]["id"] == session.session_id["id"]
        assert idle["lsid"]["uid"] == hashlib.sha256(b"").digest()
        assert idle["planSummary"] == "IXSCAN { i: 1 }"
        c = idle["cursor"]
        assert list(c) == ["cursorId", "createdDate", "lastAccessDate", "nDocsReturned", "nBatchesReturned",
                           "noCursorTimeout", "tailable", "awaitData", "originatingCommand"], c
        assert c["nDocsReturned"] == 4 and c["nBatchesReturned"] == 2
        assert c["createdDate"] <= c["lastAccessDate"]
        orig = c["originatingCommand"]
        assert orig["find"] == "c" and orig["filter"] == {"i": {"$gte": 1}} and orig["batchSize"] == 2, orig
        assert orig["$db"] == db.name and orig["lsid"]["id"] == session.session_id["id"], orig
        cur.close()
        # An aggregate's cursor too.
        agg = db.c.aggregate([{"$match": {"i": {"$lt": 6}}}], batchSize=1, session=session)
        next(agg)
        [idle] = current_ops(client, {"idleCursors": True}, {"cursor.cursorId": agg.cursor_id})
        assert idle["planSummary"] == "IXSCAN { i: 1 }" and idle["cursor"]["nBatchesReturned"] == 1
        assert idle["cursor"]["originatingCommand"]["pipeline"] == [{"$match": {"i": {"$lt": 6}}}]
        agg.close()


def test_truncate_ops(client, db, hanging_find):
    db.c.insert_one({})
    big = "x" * 3000
    bg = Background(lambda: list(db.c.find({}, comment=big)))
    op = wait_for_op(client, {"command.comment": big})
    full = current_ops(client, {"truncateOps": False}, {"opid": op["opid"]})[0]
    assert full["command"]["comment"] == big
    cut = current_ops(client, {"truncateOps": True}, {"opid": op["opid"]})[0]
    assert set(cut["command"]) == {"$truncated", "comment"} and len(cut["command"]["$truncated"]) == 1000
    # The command truncates, as MongoDB's does.
    [cmd_op] = client.admin.command({"currentOp": 1, "opid": op["opid"]})["inprog"]
    assert "$truncated" in cmd_op["command"]
    client.admin.command("configureFailPoint", FP, mode="off")
    bg.join()


def test_placement_and_spec_errors(client, db):
    admin = client.admin
    assert code_of(lambda: list(db.aggregate([{"$currentOp": {}}]))) == 73
    assert code_of(lambda: list(admin.c.aggregate([{"$currentOp": {}}]))) == 73
    with pytest.raises(pymongo.errors.OperationFailure) as ei:
        list(db.aggregate([{"$currentOp": {}}]))
    assert ei.value.details["errmsg"] == "$currentOp must be run against the 'admin' database with {aggregate: 1}"
    assert code_of(lambda: list(admin.aggregate([{"$match": {}}, {"$currentOp": {}}]))) == 40602
    assert code_of(lambda: admin.command("aggregate", 1, pipeline=[{"$currentOp": 1}], cursor={})) == 14
    assert code_of(lambda: list(admin.aggregate([{"$currentOp": {"bogus": True}}]))) == 40415
    assert code_of(lambda: list(admin.aggregate([{"$currentOp": {"idleConnections": 1}}]))) == 14
    assert code_of(lambda: list(admin.aggregate([{"$currentOp": {"allUsers": "yes"}}]))) == 14
    assert code_of(lambda: list(admin.aggregate([{"$lookup": {"from": "x", "pipeline": [{"$currentOp": {}}],
                                                             "as": "y"}}]))) == 51047
    # killOp's op, checked as MongoDB 7.0 checks it (bsonExtractIntegerField, 32-bit ids).
    def kill_error(**kw):
        with pytest.raises(pymongo.errors.OperationFailure) as ei:
            admin.command("killOp", **kw)
        return ei.value.code, ei.value.details["errmsg"]
    assert kill_error() == (4, 'Missing expected field "op"')
    assert kill_error(op="abc") == (14, 'Expected field "op" to have numeric type, but found string')
    assert kill_error(op=1.1) == (
        2, 'Expected field "op" to have a value exactly representable as a 64-bit integer, but found op: 1.1')
    assert kill_error(op=bson.Int64(2 ** 31)) == (
        26823, "invalid op : 2147483648. Op ID cannot be represented with 32 bits")
    assert kill_error(op=-2 ** 31 - 1)[0] == 26823
    assert admin.command("killOp", op=2.0)["info"] == "attempting to kill op"
    assert code_of(lambda: db.command("killOp", op=1)) == 13
    assert code_of(lambda: db.command("currentOp")) == 13
    # Every option MongoDB 7.0 takes is accepted; the aggregate's own operation is listed.
    spec = {"allUsers": True, "idleConnections": False, "idleCursors": False, "idleSessions": True,
            "localOps": False, "truncateOps": False, "backtrace": False}
    mine = current_ops(client, spec, {"command.pipeline.0.$currentOp.backtrace": False})
    assert len(mine) == 1 and mine[0]["ns"] == "admin.$cmd.aggregate" and mine[0]["op"] == "command"
