"""Server behaviours that pymongo's own test suite relies on (found by running it against this
server; doc/pymongo_suite_triage.md): the maxTimeAlwaysTimeOut fail point and the leftover
maxTimeMS of getMore, the Stable API parameters, readConcern validation on a standalone,
validate's legacy scandata option, listIndexes keeping background, and $merge generating _id.
Needs enableTestCommands=1 (resmoke passes it) and a standalone server."""
import bson
import pymongo
import pytest
from pymongo.errors import ExecutionTimeout, OperationFailure
from pymongo.server_api import ServerApi

import struct

import wire
from conftest import URI, host_port


def code_of(exc):
    return exc.code if exc.code is not None else (exc.details or {}).get("code")


@pytest.fixture
def max_time_always(client):
    client.admin.command("configureFailPoint", "maxTimeAlwaysTimeOut", mode="alwaysOn")
    yield
    client.admin.command("configureFailPoint", "maxTimeAlwaysTimeOut", mode="off")


def test_max_time_always_time_out_fails_commands_with_a_deadline(db, max_time_always):
    db.c.insert_one({"a": 1})
    for cmd in ({"find": "c", "maxTimeMS": 1000}, {"count": "c", "maxTimeMS": 1},
                {"createIndexes": "c", "indexes": [{"key": {"foo": 1}, "name": "foo_1"}], "maxTimeMS": 1},
                {"dropIndexes": "c", "index": "*", "maxTimeMS": 1}):
        with pytest.raises(ExecutionTimeout) as e:
            db.command(cmd)
        assert e.value.code == 50 and e.value.details["codeName"] == "MaxTimeMSExpired"
    # Without maxTimeMS the fail point changes nothing.
    assert db.c.count_documents({}) == 1


def test_getmore_runs_with_the_leftover_max_time_of_its_find(db, client):
    db.c.insert_many([{} for _ in range(10)])
    reply = db.command({"find": "c", "batchSize": 2, "maxTimeMS": 60000})
    cid = reply["cursor"]["id"]
    # A getMore of a cursor opened without maxTimeMS has no deadline: the fail point ignores it.
    plain = db.command({"find": "c", "batchSize": 2})["cursor"]["id"]
    client.admin.command("configureFailPoint", "maxTimeAlwaysTimeOut", mode="alwaysOn")
    try:
        with pytest.raises(ExecutionTimeout):
            db.command({"getMore": cid, "collection": "c", "batchSize": 2})
        assert len(db.command({"getMore": plain, "collection": "c", "batchSize": 2})["cursor"]["nextBatch"]) == 2
    finally:
        client.admin.command("configureFailPoint", "maxTimeAlwaysTimeOut", mode="off")
    # A getMore that timed out destroyed its cursor, as MongoDB's.
    with pytest.raises(OperationFailure) as e:
        db.command({"getMore": cid, "collection": "c"})
    assert e.value.code == 43  # CursorNotFound
    # Otherwise the leftover time is plenty: the getMore runs.
    cid = db.command({"find": "c", "batchSize": 2, "maxTimeMS": 60000})["cursor"]["id"]
    assert len(db.command({"getMore": cid, "collection": "c", "batchSize": 2})["cursor"]["nextBatch"]) == 2


def test_api_strict_refuses_commands_and_stages_outside_version_1(db):
    db.c.insert_one({"x": 1})
    with pytest.raises(OperationFailure) as e:
        db.command({"distinct": "c", "key": "x", "apiVersion": "1", "apiStrict": True})
    assert e.value.code == 323 and e.value.details["codeName"] == "APIStrictError"
    assert "command distinct is not in API Version 1" in str(e.value)
    with pytest.raises(OperationFailure) as e:
        db.client.admin.command({"aggregate": 1, "pipeline": [{"$listLocalSessions": {}}], "cursor": {},
                                 "apiVersion": "1", "apiStrict": True})
    assert e.value.code == 323
    # Nested pipelines are checked too.
    with pytest.raises(OperationFailure) as e:
        db.command({"aggregate": "c", "pipeline": [{"$facet": {"a": [{"$indexStats": {}}]}}], "cursor": {},
                    "apiVersion": "1", "apiStrict": True})
    assert e.value.code == 323
    # Commands and stages of version 1 run; without apiStrict anything does.
    assert db.command({"count": "c", "apiVersion": "1", "apiStrict": True})["n"] == 1
    assert db.command({"aggregate": "c", "pipeline": [{"$match": {}}, {"$project": {"x": 1}}], "cursor": {},
                       "apiVersion": "1", "apiStrict": True})["ok"] == 1
    assert db.command({"distinct": "c", "key": "x", "apiVersion": "1"})["values"] == [1]
    # The test command of version 2 only.
    with pytest.raises(OperationFailure) as e:
        db.command({"testVersion2": 1, "apiVersion": "1", "apiStrict": True})
    assert e.value.code == 323 and "command testVersion2 is not in API Version 1" in str(e.value)
    with pytest.raises(OperationFailure) as e:
        db.command({"testDeprecation": 1, "apiVersion": "1", "apiDeprecationErrors": True})
    assert e.value.code == 363 and e.value.details["codeName"] == "APIDeprecationError"


def test_api_parameters_are_validated(db):
    with pytest.raises(OperationFailure) as e:
        db.command({"ping": 1, "apiVersion": "server_will_never_support_this_api_version"})
    assert e.value.code == 322 and e.value.details["codeName"] == "APIVersionError"
    with pytest.raises(OperationFailure) as e:
        db.command({"ping": 1, "apiStrict": True})
    assert e.value.code == 4886600
    with pytest.raises(OperationFailure) as e:
        db.command({"ping": 1, "apiVersion": 1})
    assert e.value.code == 14  # TypeMismatch
    with pytest.raises(OperationFailure) as e:
        db.command({"ping": 1, "apiVersion": "1", "apiStrict": "yes"})
    assert e.value.code == 14


def test_versioned_client_runs_crud_in_strict_mode():
    c = pymongo.MongoClient(URI, server_api=ServerApi("1", strict=True), serverSelectionTimeoutMS=10000)
    try:
        coll = c.pytest_api_strict.c
        coll.drop()
        coll.insert_one({"x": 1})
        assert coll.count_documents({}) == 1 and coll.find_one()["x"] == 1
        coll.update_one({"x": 1}, {"$set": {"x": 2}})
        assert coll.estimated_document_count() == 1
        with pytest.raises(OperationFailure) as e:
            coll.distinct("x")
        assert e.value.code == 323
        c.drop_database("pytest_api_strict")
    finally:
        c.close()


def test_require_api_version(client):
    client.admin.command("setParameter", 1, requireApiVersion=True)
    try:
        c = pymongo.MongoClient(URI, serverSelectionTimeoutMS=10000)
        try:
            with pytest.raises(OperationFailure) as e:
                c.admin.command("ping")
            assert e.value.code == 498870
            # Other members of the replica set (appName "replication") are exempt, as MongoDB's
            # internal clients.
            member = pymongo.MongoClient(URI, appname="replication", serverSelectionTimeoutMS=10000)
            assert member.admin.command("ping")["ok"] == 1
            member.close()
            # hello stays possible (the driver connected).
            versioned = pymongo.MongoClient(URI, server_api=ServerApi("1"), serverSelectionTimeoutMS=10000)
            assert versioned.admin.command("ping")["ok"] == 1
            versioned.admin.command("setParameter", 1, requireApiVersion=False)
            versioned.close()
        finally:
            c.close()
    finally:
        # In case the test failed before turning it off (the command needs apiVersion then).
        c2 = pymongo.MongoClient(URI, server_api=ServerApi("1"), serverSelectionTimeoutMS=10000)
        c2.admin.command("setParameter", 1, requireApiVersion=False)
        c2.close()


@pytest.mark.parametrize("rc,code", [
    ({"level": "snapshot"}, 123),          # NotAReplicaSet
    ({"level": "linearizable"}, 123),
    ({"level": "unknown"}, 9),             # FailedToParse
    ({"level": 1}, 14),                    # TypeMismatch
    ({"bogus": 1}, 72),                    # InvalidOptions
    ({"afterClusterTime": bson.Timestamp(1, 1)}, 20),  # IllegalOperation
])
def test_read_concern_is_validated_on_a_standalone(db, rc, code):
    db.c.insert_one({})
    for cmd in ({"find": "c"}, {"aggregate": "c", "pipeline": [], "cursor": {}}, {"distinct": "c", "key": "x"}):
        with pytest.raises(OperationFailure) as e:
            db.command(dict(cmd, readConcern=rc))
        assert e.value.code == code, (cmd, rc, e.value.details)
    for level in ("local", "available", "majority"):
        assert db.command({"find": "c", "readConcern": {"level": level}})["ok"] == 1


def test_validate_accepts_scandata(db):
    db.c.insert_one({})
    assert db.command({"validate": "c", "scandata": True, "full": True})["valid"] is True


def test_list_indexes_shows_background_as_given(db):
    db.c.create_index("a")
    db.c.create_index("b", background=False)
    db.c.create_index("c", background=True)
    info = db.c.index_information()
    assert "background" not in info["a_1"]
    assert info["b_1"]["background"] is False and info["c_1"]["background"] is True


def test_merge_generates_missing_id(db, client):
    db.src.insert_many([{"_id": 1, "v": 1}, {"_id": 2, "v": 2}])
    db.src.aggregate([{"$project": {"_id": 0, "v": 1}}, {"$merge": {"into": "out"}}])
    docs = list(db.out.find())
    assert sorted(d["v"] for d in docs) == [1, 2]
    assert all(isinstance(d["_id"], bson.ObjectId) for d in docs)
    # With other 'on' fields a missing field is still an error (51132).
    db.out2.create_index("w", unique=True)
    with pytest.raises(OperationFailure) as e:
        db.src.aggregate([{"$project": {"_id": 0, "w": 1}}, {"$merge": {"into": "out2", "on": "w"}}])
    assert e.value.code == 51132


def test_distinct_on_id_uses_the_id_index(db):
    db.c.insert_many([{"_id": 1}, {"_id": None}, {"_id": ""}, {"_id": True}])
    assert sorted(db.c.distinct("_id"), key=repr) == sorted([1, None, "", True], key=repr)
    assert db.c.distinct("_id", {"_id": {"$gte": 1}}) == [1]


def test_fail_command_app_name_matches_the_handshake_hello(client):
    # The metadata arrives with the connection's first hello: failCommand's appName filter
    # already applies to it (drivers' connection-pool tests fail or block the handshake).
    client.admin.command({"configureFailPoint": "failCommand", "mode": "alwaysOn",
                          "data": {"failCommands": ["hello", "isMaster"], "appName": "handshake-app",
                                   "closeConnection": True}})
    try:
        c = pymongo.MongoClient(URI, appname="handshake-app", serverSelectionTimeoutMS=1000)
        with pytest.raises(pymongo.errors.ServerSelectionTimeoutError):
            c.admin.command("ping")
        c.close()
        other = pymongo.MongoClient(URI, appname="other-app", serverSelectionTimeoutMS=10000)
        assert other.admin.command("ping")["ok"] == 1
        other.close()
    finally:
        client.admin.command("configureFailPoint", "failCommand", mode="off")
    c = pymongo.MongoClient(URI, appname="handshake-app", serverSelectionTimeoutMS=10000)
    assert c.admin.command("ping")["ok"] == 1
    c.close()


def test_return_key_with_show_record_id_returns_the_key_alone(db):
    db.c.insert_many([{"_id": i} for i in range(1, 4)])
    reply = db.command({"find": "c", "sort": {"_id": 1}, "showRecordId": True, "returnKey": True})
    assert reply["cursor"]["firstBatch"] == [{"_id": 1}, {"_id": 2}, {"_id": 3}]
    assert "$recordId" in db.command({"find": "c", "showRecordId": True})["cursor"]["firstBatch"][0]


def test_update_pipeline_is_checked_even_when_nothing_matches(db):
    db.c.insert_one({"x": 2})
    # An unknown stage fails the command (40324), as MongoDB's parse of the statement.
    with pytest.raises(OperationFailure) as e:
        db.command({"update": "c", "updates": [{"q": {"x": 1}, "u": [{"$invalidOperator": True}]}]})
    assert e.value.code == 40324
    for u, code in (([{"$match": {}}], 72), ([{"$set": {"a": {"$bogusExpr": 1}}}], 168)):
        reply = db.command({"update": "c", "updates": [{"q": {"x": 1}, "u": u}]})
        assert reply["n"] == 0 and reply["writeErrors"][0]["code"] == code, reply


def test_authenticate_command(client):
    # X.509 only, as MongoDB 7.0's; without TLS no certificate is ever verified.
    with pytest.raises(OperationFailure) as e:
        client["$external"].command({"authenticate": 1, "mechanism": "MONGODB-X509", "user": "CN=x"})
    assert e.value.code == 18 and str(e.value).startswith("auth failed")
    with pytest.raises(OperationFailure) as e:
        client.admin.command({"authenticate": 1, "mechanism": "MONGODB-X509"})
    assert e.value.code == 17  # ProtocolError: X.509 only on $external
    with pytest.raises(OperationFailure) as e:
        client.admin.command({"authenticate": 1, "mechanism": "SCRAM-SHA-256", "user": "u"})
    assert e.value.code == 2
    # failCommand can close the connection on it (drivers' log-redaction tests).
    client.admin.command({"configureFailPoint": "failCommand", "mode": {"times": 1},
                          "data": {"failCommands": ["authenticate"], "closeConnection": True}})
    with pytest.raises(pymongo.errors.AutoReconnect):
        client["$external"].command({"authenticate": 1, "mechanism": "MONGODB-X509", "user": "CN=x"})


def test_rand_expression(db):
    db.c.insert_many([{"_id": i} for i in range(20)])
    out = list(db.c.aggregate([{"$project": {"r": {"$rand": {}}}}]))
    values = [d["r"] for d in out]
    assert all(isinstance(v, float) and 0 <= v < 1 for v in values) and len(set(values)) > 1
    assert 0 < db.c.count_documents({"$expr": {"$lt": [{"$rand": {}}, 2]}}) == 20
    for bad in ({"x": 1}, 1, []):
        with pytest.raises(OperationFailure) as e:
            list(db.c.aggregate([{"$project": {"r": {"$rand": bad}}}]))
        assert e.value.code == 3040501


def _read_op_msg(sock):
    """(requestID, responseTo, flagBits, body) of one OP_MSG reply."""
    hdr = wire.recv_exact(sock, 16)
    length, request_id, response_to, opcode = struct.unpack("<iiii", hdr)
    assert opcode == wire.OP_MSG
    body = wire.recv_exact(sock, length - 16)
    flags = struct.unpack("<I", body[:4])[0]
    doc_len = struct.unpack("<i", body[5:9])[0]
    return request_id, response_to, flags, bson.decode(body[5:5 + doc_len])


def test_exhaust_getmore_streams_its_batches(db):
    db.c.insert_many([{"_id": i} for i in range(7)])
    sock = wire.connect(*host_port(URI))
    try:
        _, reply, _, _ = wire.command(sock, {"find": "c", "batchSize": 2, "$db": db.name})
        cid = reply["cursor"]["id"]
        got = [d["_id"] for d in reply["cursor"]["firstBatch"]]
        exhaust_allowed = 1 << 16
        sock.sendall(wire.op_msg({"getMore": cid, "collection": "c", "batchSize": 2, "$db": db.name},
                                 request_id=42, flags=exhaust_allowed))
        expected_response_to, replies = 42, 0
        while True:
            request_id, response_to, flags, body = _read_op_msg(sock)
            replies += 1
            # Each reply answers the previous one (the first answers the request).
            assert response_to == expected_response_to and body["ok"] == 1
            got += [d["_id"] for d in body["cursor"]["nextBatch"]]
            more_to_come = bool(flags & 2)
            assert more_to_come == (body["cursor"]["id"] != 0)
            if not more_to_come:
                break
            expected_response_to = request_id
        assert got == list(range(7)) and replies >= 3
        # The connection serves requests again afterwards.
        _, pong, _, _ = wire.command(sock, {"ping": 1, "$db": "admin"}, request_id=43)
        assert pong["ok"] == 1
        # Without exhaustAllowed a getMore is answered once, without moreToCome.
        _, reply, _, _ = wire.command(sock, {"find": "c", "batchSize": 2, "$db": db.name}, request_id=44)
        sock.sendall(wire.op_msg({"getMore": reply["cursor"]["id"], "collection": "c", "batchSize": 2,
                                  "$db": db.name}, request_id=45))
        _, response_to, flags, body = _read_op_msg(sock)
        assert response_to == 45 and not flags & 2 and body["cursor"]["id"] != 0
    finally:
        sock.close()


def test_exhaust_cursor_over_a_compressed_connection(db):
    db.c.insert_many([{"_id": i} for i in range(300)])
    c = pymongo.MongoClient(URI, compressors="zlib", serverSelectionTimeoutMS=10000)
    try:
        cur = c[db.name].c.find({}, batch_size=7, cursor_type=pymongo.CursorType.EXHAUST).sort("_id", 1)
        assert [d["_id"] for d in cur] == list(range(300))
        assert c.admin.command("ping")["ok"] == 1
    finally:
        c.close()


def test_change_stream_pre_and_post_images_option(db):
    db.create_collection("c", changeStreamPreAndPostImages={"enabled": True})
    info = db.command("listCollections", filter={"name": "c"})["cursor"]["firstBatch"][0]
    assert info["options"] == {"changeStreamPreAndPostImages": {"enabled": True}}
    db.command("collMod", "c", changeStreamPreAndPostImages={"enabled": False})
    info = db.command("listCollections", filter={"name": "c"})["cursor"]["firstBatch"][0]
    assert info["options"]["changeStreamPreAndPostImages"] == {"enabled": False}
    db.c.insert_one({"x": 1})
    assert db.c.find_one()["x"] == 1
    cases = [({"create": "d", "changeStreamPreAndPostImages": {}}, 40414),
             ({"create": "d", "changeStreamPreAndPostImages": {"enabled": 1}}, 14),
             ({"create": "d", "changeStreamPreAndPostImages": {"enabled": True, "x": 1}}, 40415),
             ({"create": "d", "changeStreamPreAndPostImages": True}, 14),
             ({"collMod": "c", "changeStreamPreAndPostImages": {}}, 40414)]
    for cmd, code in cases:
        with pytest.raises(OperationFailure) as e:
            db.command(cmd)
        assert e.value.code == code, (cmd, e.value.details)


@pytest.fixture
def profiled(db):
    yield db
    db.command("profile", 0, slowms=100, sampleRate=1.0, filter="unset")
    db.system.profile.drop()


def test_profiler_records_operations(profiled):
    db = profiled
    db.c.insert_many([{"type": i % 3} for i in range(5)])
    db.command("profile", 2)
    db.c.find().comment("foo").to_list()
    db.c.distinct("type", comment="foo")
    with pytest.raises(OperationFailure):
        db.c.find_one({"$bad": 1})
    db.command("profile", 0)
    db.c.find_one()  # not profiled any more
    entries = list(db.system.profile.find())
    # The command that enabled profiling is not profiled, the one that disabled it is.
    assert [e["op"] for e in entries] == ["query", "command", "query", "command"]
    q, d, bad, off = entries
    assert q["ns"] == db.name + ".c" and q["command"]["comment"] == "foo" and q["nreturned"] == 5
    assert q["cursorExhausted"] is True and q["protocol"] == "op_msg" and isinstance(q["millis"], int)
    assert d["command"]["distinct"] == "c" and d["command"]["comment"] == "foo"
    assert bad["ok"] == 0 and bad["errCode"] == 2 and bad["errName"] == "BadValue"
    assert off["command"]["profile"] == 0
    assert db.command("count", "system.profile")["n"] == 4  # reading it is not profiled
    assert db.system.profile.options() == {"capped": True, "size": 1048576}
    # Clients cannot write it.
    with pytest.raises(OperationFailure):
        db.system.profile.insert_one({})


def test_profiler_level_1_and_filter(profiled):
    db = profiled
    db.c.insert_one({})
    db.command("profile", 1, slowms=100000)
    db.c.find_one()
    assert db.system.profile.count_documents({}) == 0  # nothing slow
    db.command("profile", 1, slowms=0)
    db.c.find_one()
    assert db.system.profile.count_documents({"op": "query"}) == 1
    db.system.profile.drop()
    db.command("profile", 1, filter={"op": "command"})
    db.c.find_one()
    db.c.distinct("x")
    ops = [e["op"] for e in db.system.profile.find()]
    assert "query" not in ops and "command" in ops


def test_fail_getmore_after_cursor_checkout(db, client):
    db.c.insert_many([{"_id": i} for i in range(5)])
    cid = db.command({"find": "c", "batchSize": 2})["cursor"]["id"]
    client.admin.command({"configureFailPoint": "failGetMoreAfterCursorCheckout", "mode": {"times": 1},
                          "data": {"errorCode": 2}})
    with pytest.raises(OperationFailure) as e:
        db.command({"getMore": cid, "collection": "c"})
    assert e.value.code == 2
    with pytest.raises(OperationFailure) as e:  # the failed getMore destroyed the cursor
        db.command({"getMore": cid, "collection": "c"})
    assert e.value.code == 43
    cid = db.command({"find": "c", "batchSize": 2})["cursor"]["id"]
    assert len(db.command({"getMore": cid, "collection": "c"})["cursor"]["nextBatch"]) == 3
