"""Initial sync, replSetSyncFrom and replSetResizeOplog (issue 10, item 7). One set for the file (CI has
2 cores): a primary and a secondary holding data in several databases (a collection with a validator,
unique / TTL / partial indexes, a view, a capped collection), then a third member added by reconfig that
initial-syncs while writes go on (initialSyncStatus seen while a fail point holds the sync), ends with the
same dbHash and indexes, and becomes SECONDARY; the same member wiped and restarted syncs again, and when
its sync source is killed in the middle of the clone the attempt restarts and completes from the other
member; replSetSyncFrom moves a secondary's sync source (and refuses what MongoDB refuses);
replSetResizeOplog validates its arguments as MongoDB 7.0 and changes the oplog's maximum size at once and
for good."""

import datetime
import json
import shutil
import subprocess
import threading
import time

import pymongo
from bson import Timestamp
import pytest

import replset_helpers
from replset_helpers import host, initiate, make_members, primary_of, state_of, status, stop_all, wait_for

SET = "isync"
MB = 1024 * 1024


def code_of(fn):
    with pytest.raises(pymongo.errors.OperationFailure) as e:
        fn()
    return e.value.code


def fail_point(m, name, mode, data=None):
    cmd = {"configureFailPoint": name, "mode": mode}
    if data is not None:
        cmd["data"] = data
    with m.client() as c:
        c.admin.command(cmd)


MEMBERS = []  # the file's set (the rs fixture), for the diagnostics of a wait that times out


def threads_of(m):
    """The member's thread stacks (gdb), or "" when gdb is missing."""
    if not shutil.which("gdb") or m.proc is None or m.proc.poll() is not None:
        return ""
    return subprocess.run(["gdb", "-p", str(m.proc.pid), "-batch", "-ex", "thread apply all bt 25"],
                          capture_output=True, text=True, timeout=120).stdout


def stalled(what, e):
    """Seen in CI only (never when this file runs alone): an initial sync attempt, or replication
    after one, that stops making progress. Every member's log and threads, for whoever looks next."""
    report = ["%s (%s)" % (e, what)]
    for x in MEMBERS:
        if x.proc is not None and x.proc.poll() is None:
            report.append("--- member on port %d: log ---\n%s\n--- its threads ---\n%s" % (x.port, x.tail(80), threads_of(x)))
    for x in MEMBERS:
        if x.proc is not None and x.proc.poll() is not None:
            # A member that exited on its own: how, and what it logged last (its log is lost with
            # the suite's scratch directory). Last, where a truncated report still shows it.
            report.append("--- member on port %d EXITED with %s: log ---\n%s" % (x.port, x.proc.returncode, x.tail(200)))
    return AssertionError("\n".join(report))


def wait_fail_point(m, name, times=1, timeout_ms=60000):
    try:
        with m.client(socketTimeoutMS=timeout_ms + 5000) as c:
            c.admin.command({"waitForFailPoint": name, "timesEntered": times, "maxTimeMS": timeout_ms})
    except pymongo.errors.PyMongoError as e:
        raise stalled("waiting for %s on port %d" % (name, m.port), e)


def start_with_fail_points(m, points):
    """Starts m with fail points on from the start (a member gets its config, and starts syncing, from
    heartbeats, before a client could set them)."""
    args = list(m.extra_args)
    for name, data in points.items():
        spec = '{"mode": "alwaysOn"%s}' % ((', "data": %s' % json.dumps(data)) if data else "")
        m.extra_args += ["--setParameter", "failpoint.%s=%s" % (name, spec)]
    try:
        m.start()
    finally:
        m.extra_args = args


@pytest.fixture(scope="module")
def rs(tmp_path_factory):
    # The member that initial-syncs runs the dedup engine: cloned documents take the normal insert path.
    members = make_members(tmp_path_factory.mktemp("isync"), SET, 3, lambda i: ["--dedup"] if i == 2 else [])
    MEMBERS[:] = members
    initiate(members[:2], SET)
    yield members
    stop_all(members)


def rs_client(members, **kw):
    return replset_helpers.rs_client(members, SET, **kw)


def load_data(c):
    wc = pymongo.WriteConcern(w=2, wtimeout=30000)
    app = c.get_database("app", write_concern=wc)
    app.create_collection("people", validator={"$jsonSchema": {"bsonType": "object", "required": ["name"]}},
                          validationLevel="moderate")
    app.people.create_index("email", unique=True)
    app.people.create_index("created", expireAfterSeconds=3600)
    app.people.create_index("age", partialFilterExpression={"age": {"$gt": 21}})
    app.people.create_index([("name", 1), ("age", -1)])
    app.people.insert_many([{"_id": i, "name": "p%d" % i, "email": "p%d@x" % i, "age": i % 90,
                             "created": datetime.datetime(2031, 1, 1), "tags": ["a", "b"][: i % 3]}
                            for i in range(3000)])
    app.command("create", "adults", viewOn="people", pipeline=[{"$match": {"age": {"$gte": 18}}}])
    app.create_collection("log", capped=True, size=64 * 1024, max=500)
    app.log.insert_many([{"_id": i, "msg": "x" * 100} for i in range(800)])
    other = c.get_database("other", write_concern=wc)
    other.items.insert_many([{"_id": i, "v": i} for i in range(500)])
    other.items.create_index("v", unique=True)


def writer(c, stop, counter):
    """Inserts, updates (moving unique keys) and deletes until stopped."""
    coll = c.app.get_collection("people", write_concern=pymongo.WriteConcern(w=1))
    items = c.other.get_collection("items", write_concern=pymongo.WriteConcern(w=1))
    i = 0
    while not stop.is_set():
        n = 10000 + i
        try:
            coll.insert_one({"_id": n, "name": "w%d" % n, "email": "w%d@x" % n, "age": 30})
            coll.update_one({"_id": i % 3000}, {"$set": {"email": "moved%d@x" % i}, "$inc": {"age": 1}})
            coll.delete_one({"_id": 10000 + i // 2})
            items.update_one({"_id": i % 500}, {"$set": {"v": 100000 + i}})
            if i % 10 == 0:
                # DDL too: collections and indexes that come and go while the clone runs.
                ddl = c.app.get_collection("ddl%d" % i, write_concern=pymongo.WriteConcern(w=1))
                ddl.insert_one({"x": i})
                ddl.create_index("x", unique=True)
                ddl.rename("renamed%d" % i)
                if i % 20 == 0:
                    c.app.drop_collection("renamed%d" % (i - 10))
                    c.other.items.drop_index("v_1") if i % 40 == 0 else c.other.items.create_index("v", unique=True)
            counter[0] += 1
        except pymongo.errors.PyMongoError:
            time.sleep(0.05)
        i += 1


def dbhashes(m, dbs=("app", "other", "admin")):
    out = {}
    with m.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as c:
        for d in dbs:
            r = c[d].command("dbHash", read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED)
            out[d] = r["collections"]
    return out


def index_lists(m):
    out = {}
    with m.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as c:
        for d in ("app", "other"):
            for info in c[d].list_collections():
                if info["type"] != "collection":
                    out[(d, info["name"], "view")] = info["options"]
                    continue
                out[(d, info["name"], "options")] = info["options"]
                out[(d, info["name"], "info")] = info["info"]  # the UUID: the source's, kept by the clone
                idx = [sorted((k, v) for k, v in spec.items() if k != "ns") for spec in c[d][info["name"]].list_indexes()]
                out[(d, info["name"])] = sorted(idx, key=str)
    return out


def await_replication(members):
    try:
        with rs_client(members) as c:
            c.app.get_collection("marker", write_concern=pymongo.WriteConcern(w=len(members), wtimeout=60000)).insert_one(
                {"t": time.time()})
    except pymongo.errors.PyMongoError as e:
        raise stalled("waiting for every member to replicate a write", e)


def test_new_member_initial_syncs_under_writes(rs):
    a, b, c = rs
    with rs_client(rs[:2]) as client:
        load_data(client)
    a = primary_of(rs[:2])
    c.start()
    # Held once 1000 documents of app.people were copied (while the writer runs), and before it finishes.
    fail_point(c, "initialSyncHangDuringCollectionClone", "alwaysOn", {"namespace": "app.people", "numDocsToClone": 1000})
    fail_point(c, "initialSyncHangBeforeFinish", "alwaysOn")
    with a.client() as ac:
        cfg = ac.admin.command("replSetGetConfig")["config"]
        cfg["version"] += 1
        cfg["members"].append({"_id": 2, "host": host(c), "priority": 0})
        ac.admin.command("replSetReconfig", cfg)
    wait_fail_point(c, "initialSyncHangDuringCollectionClone")
    st = status(c)
    assert st["myState"] == 5
    iss = st["initialSyncStatus"]
    assert iss["failedInitialSyncAttempts"] == 0 and iss["maxFailedInitialSyncAttempts"] == 10
    assert isinstance(iss["initialSyncStart"], datetime.datetime) and "initialSyncOplogStart" in iss
    dbs = iss["databases"]
    assert dbs["databasesToClone"] >= 2 and dbs["app"]["collections"] == 3  # people, system.views, log
    people = dbs["app"]["app.people"]
    assert people["documentsToCopy"] == 3000 and 1000 <= people["documentsCopied"] < 3000
    assert people["indexes"] == 5 and people["fetchedBatches"] >= 1
    assert st["syncSourceHost"] in (host(a), host(b))
    # Writes while the clone is held: they reach the member through the oplog phase.
    stop, counter = threading.Event(), [0]
    with rs_client(rs[:2]) as client:
        t = threading.Thread(target=writer, args=(client, stop, counter))
        t.start()
        try:
            wait_for(lambda: counter[0] >= 50, 30, "writes during the clone")
            fail_point(c, "initialSyncHangDuringCollectionClone", "off")
            wait_fail_point(c, "initialSyncHangBeforeFinish")
            iss = status(c)["initialSyncStatus"]
            assert iss["appliedOps"] > 0 and "initialSyncOplogEnd" in iss
            assert iss["initialSyncOplogEnd"] >= iss["initialSyncOplogStart"]
            app = iss["databases"]["app"]
            assert app["collections"] == app["clonedCollections"] == 3  # people, system.views, log
            assert app["app.people"]["documentsCopied"] >= 3000 - 100
            assert status(c)["myState"] == 5  # not SECONDARY before the end
            # Its data is not the set's yet: it counts in no majority, so the primary never hears
            # progress from it (heartbeats and reports alike give null optimes until the end).
            for _ in range(15):
                seen = [x for x in status(a)["members"] if x["name"] == host(c)][0]
                assert seen["optimeDurable"]["ts"] == Timestamp(0, 0) and seen["optime"]["ts"] == Timestamp(0, 0), seen
                time.sleep(0.1)
        finally:
            stop.set()
            t.join()
    fail_point(c, "initialSyncHangBeforeFinish", "off")
    wait_for(lambda: state_of(c) == 2, 60, "SECONDARY after initial sync")
    assert "initialSyncStatus" not in status(c)
    await_replication(rs)
    assert dbhashes(c) == dbhashes(a)
    assert index_lists(c) == index_lists(a)
    with c.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as cc:
        assert cc.app.adults.count_documents({}) == cc.app.people.count_documents({"age": {"$gte": 18}})
        opts = cc.app.command("listCollections", filter={"name": "log"})["cursor"]["firstBatch"][0]["options"]
        assert opts["capped"] is True and opts["max"] == 500
        # The unique index holds on the synced data, and the member's oplog starts at the clone's start.
        assert cc.app.people.count_documents({}) == len(set(d["email"] for d in cc.app.people.find()))
        assert cc.local.oplog.rs.find_one({"op": "n", "o.msg": "initiating set"}) is None
        assert "dedup" in cc.app.command("collStats", "people")  # stored through the dedup engine


def test_wiped_member_resyncs_and_survives_its_source_dying(rs):
    a, b, c = rs
    c.stop()
    shutil.rmtree(c.dbpath)
    start_with_fail_points(c, {"initialSyncHangDuringCollectionClone": {"namespace": "app.people", "numDocsToClone": 1},
                               "initialSyncHangBeforeFinish": None})
    wait_fail_point(c, "initialSyncHangDuringCollectionClone")
    source_host = status(c)["syncSourceHost"]
    victim = a if source_host == host(a) else b
    assert source_host == host(victim)
    victim.kill9()
    fail_point(c, "initialSyncHangDuringCollectionClone", "off")
    # The attempt fails on the dead source and the next one completes from the other member.
    wait_fail_point(c, "initialSyncHangBeforeFinish")
    st = status(c)
    iss = st["initialSyncStatus"]
    assert iss["failedInitialSyncAttempts"] == 1
    assert iss["initialSyncAttempts"][0]["syncSource"] == source_host and iss["initialSyncAttempts"][0]["status"] != "OK"
    assert st["syncSourceHost"] != source_host
    victim.start()
    fail_point(c, "initialSyncHangBeforeFinish", "off")
    wait_for(lambda: state_of(c) == 2, 60, "SECONDARY after the restarted initial sync")
    wait_for(lambda: primary_of(rs) is not None, 30, "a primary")
    wait_for(lambda: all(state_of(m) in (1, 2) for m in rs), 60, "every member healthy")
    await_replication(rs)
    p = primary_of(rs)
    assert dbhashes(c) == dbhashes(p)


def test_member_stopped_before_its_sync_finished_starts_over(rs):
    """Stopped once its data and oplog were complete but before the sync was marked done: on restart it
    does not trust them (never a half-synced SECONDARY) and syncs again."""
    c = rs[2]
    c.stop()
    shutil.rmtree(c.dbpath)
    start_with_fail_points(c, {"initialSyncHangBeforeFinish": None})
    wait_fail_point(c, "initialSyncHangBeforeFinish")
    c.stop()  # a clean shutdown while the sync is held (kill -9 is the source's fate in the test above)
    start_with_fail_points(c, {"initialSyncHangBeforeCopyingDatabases": None})
    wait_fail_point(c, "initialSyncHangBeforeCopyingDatabases")
    st = status(c)
    assert st["myState"] == 5 and st["initialSyncStatus"]["failedInitialSyncAttempts"] == 0
    fail_point(c, "initialSyncHangBeforeCopyingDatabases", "off")
    wait_for(lambda: state_of(c) == 2, 60, "SECONDARY after the second initial sync")
    await_replication(rs)
    assert dbhashes(c) == dbhashes(primary_of(rs))


def test_sync_from_changes_the_sync_source(rs):
    p = primary_of(rs)
    s1, s2 = [m for m in rs if m is not p]
    with s2.client() as c:
        r = c.admin.command("replSetSyncFrom", host(s1))
        assert r["syncFromRequested"] == host(s1)
        assert r.get("prevSyncTarget", host(p)) in (host(p), host(s1))
        wait_for(lambda: status(s2)["syncSourceHost"] == host(s1), 30, "the requested sync source")
        # The member syncs through s1 (chaining): a write reaches it.
        with rs_client(rs) as client:
            client.app.get_collection("chained", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one({})
        assert c.admin.command("replSetGetStatus")["syncSourceHost"] == host(s1)
        assert code_of(lambda: c.admin.command("replSetSyncFrom", "127.0.0.1:1")) == 74  # NodeNotFound
        assert code_of(lambda: c.admin.command("replSetSyncFrom", host(s2))) == 72  # InvalidOptions: myself
        assert code_of(lambda: c.admin.command("replSetSyncFrom", 5)) == 9  # FailedToParse: empty host
    with p.client() as c:
        assert code_of(lambda: c.admin.command("replSetSyncFrom", host(s1))) == 95  # NotSecondary


def test_resize_oplog(rs):
    p = primary_of(rs)
    s = next(m for m in rs if m is not p)
    with p.client() as c:
        for bad in ({"size": 900}, {"size": -1024}, {"size": 8 * 1024 ** 4}, {"size": 990, "minRetentionHours": -1}):
            assert code_of(lambda: c.admin.command(dict({"replSetResizeOplog": 1}, **bad))) == 51024, bad
        assert code_of(lambda: c.admin.command({"replSetResizeOplog": 1, "size": "big"})) == 14
        assert code_of(lambda: c.admin.command({"replSetResizeOplog": 1, "sizeMB": 1000})) == 40415
        assert c.local.command("collStats", "oplog.rs")["maxSize"] == 16 * MB
        c.admin.command({"replSetResizeOplog": 1, "size": 1024 ** 3})  # 1 PB, the maximum
        assert c.local.command("collStats", "oplog.rs")["maxSize"] == 1024 ** 5
        c.admin.command({"replSetResizeOplog": 1, "size": 990.5, "minRetentionHours": 1.5})
        assert c.local.command("collStats", "oplog.rs")["maxSize"] == int(990.5 * MB)
        c.admin.command({"replSetResizeOplog": 1, "minRetentionHours": 0})
    # Per member, and for good: a restarted member keeps its new size.
    with s.client() as c:
        c.admin.command({"replSetResizeOplog": 1, "size": 2000})
    s.restart()
    with s.client() as c:
        assert c.local.command("collStats", "oplog.rs")["maxSize"] == 2000 * MB
    wait_for(lambda: state_of(s) == 2, 30, "the restarted member back as SECONDARY")


def test_sync_from_an_arbiter_is_refused(rs):
    # Last: the arbiter added here is never started (the set keeps a majority of 3 of 4 voters).
    p = primary_of(rs)
    with p.client() as c:
        cfg = c.admin.command("replSetGetConfig")["config"]
        cfg["version"] += 1
        cfg["members"].append({"_id": 9, "host": "127.0.0.1:9", "arbiterOnly": True})
        c.admin.command("replSetReconfig", cfg)
    s = next(m for m in rs if m is not p)
    with s.client() as c:
        wait_for(lambda: c.admin.command("replSetGetConfig")["config"]["version"] == cfg["version"], 30, "the config")
        assert code_of(lambda: c.admin.command("replSetSyncFrom", "127.0.0.1:9")) == 72
