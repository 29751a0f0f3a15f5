"""Logical sessions as MongoDB 7.0 keeps them (issue 14): startSession, sessions used by
drivers (an lsid on any command), $listLocalSessions, endSessions, refreshSessions, the refresh
into config.system.sessions (refreshLogicalSessionCacheNow, its lsidTTLIndex) and $listSessions,
expiry through that TTL index, and killSessions / killAllSessions ending the sessions'
operations and cursors."""
import datetime
import hashlib
import threading
import time

import pymongo
import pytest
from bson import Binary
from bson.binary import UUID_SUBTYPE

NO_AUTH_UID = hashlib.sha256(b"").digest()


def code_of(fn):
    with pytest.raises(pymongo.errors.OperationFailure) as ei:
        fn()
    return ei.value.code


def local_sessions(client, spec=None):
    return list(client.admin.aggregate([{"$listLocalSessions": spec if spec is not None else {}}]))


def local_ids(client, spec=None):
    return {d["_id"]["id"] for d in local_sessions(client, spec)}


def session_uuid(session):
    return session.session_id["id"]


def test_start_session_reply(client):
    r = client.admin.command("startSession")
    assert set(r) == {"id", "timeoutMinutes", "ok"}, r
    assert set(r["id"]) == {"id"} and r["id"]["id"].subtype == UUID_SUBTYPE and len(r["id"]["id"]) == 16
    assert r["timeoutMinutes"] == 30
    assert r["id"]["id"] in local_ids(client)


def test_driver_sessions_are_listed(client, db):
    db.c.insert_one({"x": 1})
    with client.start_session() as s:
        db.c.find_one({}, session=s)
        sid = session_uuid(s)
        docs = [d for d in local_sessions(client) if d["_id"]["id"] == sid]
        assert len(docs) == 1
        d = docs[0]
        assert set(d) == {"_id", "lastUse"} and set(d["_id"]) == {"id", "uid"}
        assert d["_id"]["uid"] == NO_AUTH_UID  # no authentication: the unauthenticated user's digest
        assert isinstance(d["lastUse"], datetime.datetime)
        assert abs((datetime.datetime.utcnow() - d["lastUse"]).total_seconds()) < 60
        # allUsers, and the caller's own (the unauthenticated user) list it; another user does not.
        assert sid in local_ids(client, {"allUsers": True})
        assert sid in local_ids(client, {"users": [{"user": "", "db": ""}]})
        assert sid not in local_ids(client, {"users": [{"user": "u", "db": "admin"}]})


def test_implicit_sessions_are_listed(client, db):
    """A driver's implicit session (an lsid on a command the application sent without one)."""
    from pymongo import monitoring

    class Lsids(monitoring.CommandListener):
        def __init__(self):
            self.seen = []

        def started(self, event):
            if event.command_name == "find" and "lsid" in event.command:
                self.seen.append(event.command["lsid"]["id"])

        def succeeded(self, event):
            pass

        def failed(self, event):
            pass

    listener = Lsids()
    c = pymongo.MongoClient(client.address[0], client.address[1], directConnection=True,
                            event_listeners=[listener])
    try:
        c[db.name].c.find_one({})
        assert len(listener.seen) == 1
        assert listener.seen[0] in local_ids(client)
    finally:
        c.close()


def test_end_sessions(client):
    sid = client.admin.command("startSession")["id"]
    assert sid["id"] in local_ids(client)
    client.admin.command("refreshLogicalSessionCacheNow")
    assert client.config.system.sessions.count_documents({"_id.id": sid["id"]}) == 1
    client.admin.command("endSessions", [sid])
    assert sid["id"] not in local_ids(client)
    client.admin.command("refreshLogicalSessionCacheNow")
    assert client.config.system.sessions.count_documents({"_id.id": sid["id"]}) == 0


def test_refresh_writes_config_system_sessions(client):
    sid = client.admin.command("startSession")["id"]
    before = datetime.datetime.utcnow().replace(microsecond=0)
    assert client.admin.command("refreshLogicalSessionCacheNow")["ok"] == 1
    [rec] = list(client.config.system.sessions.find({"_id.id": sid["id"]}))
    assert rec["_id"] == {"id": sid["id"], "uid": NO_AUTH_UID}
    assert set(rec) == {"_id", "lastUse"} and rec["lastUse"] >= before
    idx = client.config.system.sessions.index_information()["lsidTTLIndex"]
    assert idx["key"] == [("lastUse", 1)] and idx["expireAfterSeconds"] == 30 * 60
    # The refresh started a new active set: the session is listed again once it is used.
    assert sid["id"] not in local_ids(client)
    client.admin.command("refreshSessions", [sid])
    assert sid["id"] in local_ids(client)
    # $listSessions reads the records: the caller's own, or everyone's.
    for spec in ({}, {"allUsers": True}):
        got = list(client.config.system.sessions.aggregate([{"$listSessions": spec}]))
        assert rec in got, spec
    assert list(client.config.system.sessions.aggregate(
        [{"$listSessions": {"users": [{"user": "u", "db": "admin"}]}}])) == []


def test_stage_placement_and_spec_errors(client, db):
    admin = client.admin
    db.c.insert_one({})
    # $listLocalSessions: any database, but with {aggregate: 1}.
    assert len(list(db.aggregate([{"$listLocalSessions": {}}]))) >= 1
    assert code_of(lambda: list(db.c.aggregate([{"$listLocalSessions": {}}]))) == 73
    assert code_of(lambda: list(admin.aggregate([{"$match": {}}, {"$listLocalSessions": {}}]))) == 40602
    assert code_of(lambda: admin.command("aggregate", 1, pipeline=[{"$listLocalSessions": 1}], cursor={})) == 14
    assert code_of(lambda: list(admin.aggregate([{"$listLocalSessions": {"bogus": 1}}]))) == 40415
    assert code_of(lambda: list(admin.aggregate([{"$listLocalSessions": {"allUsers": 1}}]))) == 14
    assert code_of(lambda: list(admin.aggregate(
        [{"$listLocalSessions": {"allUsers": True, "users": [{"user": "u", "db": "d"}]}}]))) == 12
    assert code_of(lambda: list(admin.aggregate([{"$listLocalSessions": {"users": [{"user": "u"}]}}]))) == 40414
    # $listSessions: only on config.system.sessions.
    assert code_of(lambda: list(db.c.aggregate([{"$listSessions": {}}]))) == 73
    assert code_of(lambda: list(client.config.aggregate([{"$listSessions": {}}]))) == 73
    assert code_of(lambda: list(client.config.other.aggregate([{"$listSessions": {}}]))) == 73
    assert code_of(lambda: list(client.config.system.sessions.aggregate(
        [{"$match": {}}, {"$listSessions": {}}]))) == 40602
    e = pymongo.errors.OperationFailure
    with pytest.raises(e) as ei:
        list(db.c.aggregate([{"$listSessions": {}}]))
    assert ei.value.details["errmsg"] == \
        "$listSessions must be run against the 'system.sessions' collection in the 'config' database."


def _hang_find(db, session, comment):
    """Runs a find that waits in waitInFindBeforeMakingBatch; returns (thread, result dict)."""
    res = {}

    def run():
        try:
            res["docs"] = list(db.c.find({}, session=session, comment=comment))
        except pymongo.errors.OperationFailure as ex:
            res["code"] = ex.code

    t = threading.Thread(target=run)
    t.start()
    return t, res


def _wait_for_op(client, comment, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        ops = list(client.admin.aggregate([{"$currentOp": {}}, {"$match": {"command.comment": comment}}]))
        if ops:
            return ops[0]
        time.sleep(0.02)
    raise AssertionError("operation %r never showed in $currentOp" % comment)


@pytest.mark.parametrize("how", ["killSessions", "killAllSessions", "killAllSessionsByPattern", "ofNoAuthUser",
                                 "byUid"])
def test_kill_sessions_ends_operations_and_cursors(client, db, how):
    db.c.insert_many([{"i": i} for i in range(10)])
    s = client.start_session()
    cursor = db.c.find({}, session=s, batch_size=2)
    next(cursor)  # the cursor is open on the server, idle, owned by the session
    client.admin.command("configureFailPoint", "waitInFindBeforeMakingBatch", mode="alwaysOn",
                         data={"nss": db.c.full_name})
    try:
        t, res = _hang_find(db, s, "kill-" + how)
        op = _wait_for_op(client, "kill-" + how)
        assert op["lsid"]["id"] == session_uuid(s)
        lsid = {"id": session_uuid(s)}
        # Sessions of another user (there are none here) are not this one.
        client.admin.command("killAllSessions", [{"user": "someone", "db": "admin"}])
        time.sleep(0.1)
        assert t.is_alive() and res == {}
        if how == "killSessions":
            client.admin.command("killSessions", [lsid])
        elif how == "killAllSessions":
            client.admin.command("killAllSessions", [])
        elif how == "killAllSessionsByPattern":
            client.admin.command("killAllSessionsByPattern", [{"lsid": lsid}])
        elif how == "ofNoAuthUser":  # every session's owner here
            client.admin.command("killAllSessions", [{"user": "", "db": ""}])
        else:
            client.admin.command("killAllSessionsByPattern", [{"uid": Binary(NO_AUTH_UID, 0)}])
        t.join(10)
        assert not t.is_alive() and res == {"code": 11601}, res
    finally:
        client.admin.command("configureFailPoint", "waitInFindBeforeMakingBatch", mode="off")
    with pytest.raises(pymongo.errors.OperationFailure) as ei:
        list(cursor)
    assert ei.value.code == 43  # CursorNotFound: the session's cursor was killed
    s.end_session()


def test_sessions_expire(mongod_factory):
    """A session unused for localLogicalSessionTimeoutMinutes loses its record (the TTL index),
    and its cursors go at the next refresh."""
    m = mongod_factory(["--setParameter", "localLogicalSessionTimeoutMinutes=1",
                        "--setParameter", "ttlMonitorSleepSecs=1"])
    with m.client() as c:
        assert c.admin.command("hello")["logicalSessionTimeoutMinutes"] == 1
        assert c.admin.command("startSession")["timeoutMinutes"] == 1
        c.t.c.insert_many([{"i": i} for i in range(5)])
        s = c.start_session()
        cursor = c.t.c.find({}, session=s, batch_size=1)
        next(cursor)
        c.admin.command("refreshLogicalSessionCacheNow")
        idx = c.config.system.sessions.index_information()["lsidTTLIndex"]
        assert idx["expireAfterSeconds"] == 60
        sid = session_uuid(s)
        assert c.config.system.sessions.count_documents({"_id.id": sid}) == 1
        # Pretend the session was last used two minutes ago: the TTL monitor deletes it.
        old = datetime.datetime.utcnow() - datetime.timedelta(minutes=2)
        c.config.system.sessions.update_one({"_id.id": sid}, {"$set": {"lastUse": old}})
        deadline = time.time() + 20
        while c.config.system.sessions.count_documents({"_id.id": sid}) and time.time() < deadline:
            time.sleep(0.2)
        assert c.config.system.sessions.count_documents({"_id.id": sid}) == 0
        c.admin.command("refreshLogicalSessionCacheNow")  # the session is gone: so is its cursor
        with pytest.raises(pymongo.errors.OperationFailure) as ei:
            list(cursor)
        assert ei.value.code == 43
