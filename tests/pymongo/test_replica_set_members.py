"""A replica set of three mongod processes (issue 10, milestone 2): replSetInitiate with three
members, an election, pymongo with replicaSet= finding the primary, w: "majority" writes present on
every member, write concern errors in MongoDB's shape, replSetGetStatus' members, readConcern
majority and linearizable served (waiting for the commit point), snapshot refused (148), a change
stream showing only majority-committed events and resuming on a new primary, the primary killed and a
new one elected within the election timeout, the old primary rejoining as a secondary, and dbHash
equal on all members at the end. One set for the whole file (module fixture): CI has 2 cores."""

import os
import threading
import time
import uuid

import bson
import pymongo
import pymongo.read_concern
import pytest
from bson import Timestamp

import replset_helpers
from replset_helpers import (hold_replication, initiate, make_members, primary_of, release_replication, status,
                             stop_all, wait_for)

SET = "rs3"
ELECTION_TIMEOUT_MS = 2000


def code_of(fn):
    with pytest.raises(pymongo.errors.PyMongoError) as e:
        fn()
    return getattr(e.value, "code", None) or (getattr(e.value, "details", None) or {}).get("code")


@pytest.fixture(scope="module")
def rs(tmp_path_factory):
    members = make_members(tmp_path_factory.mktemp("rs3"), SET, 3)
    initiate(members, SET, {"electionTimeoutMillis": ELECTION_TIMEOUT_MS, "heartbeatIntervalMillis": 500})
    yield members
    stop_all(members)


def rs_client(members, **kw):
    return replset_helpers.rs_client(members, SET, **kw)


def test_status_and_hello_shape(rs):
    p = primary_of(rs)
    st = status(p)
    assert st["set"] == SET and st["myState"] == 1
    assert st["majorityVoteCount"] == 2 and st["writeMajorityCount"] == 2 and st["votingMembersCount"] == 3
    names = {m["name"] for m in st["members"]}
    assert names == {"127.0.0.1:%d" % m.port for m in rs}
    for m in st["members"]:
        assert m["health"] == 1
        if not m.get("self"):
            assert {"lastHeartbeat", "lastHeartbeatRecv", "pingMs", "optimeDurable", "syncSourceHost"} <= set(m)
    with p.client() as c:
        hello = c.admin.command("hello")
    assert hello["setName"] == SET and hello["isWritablePrimary"] is True
    assert sorted(hello["hosts"]) == sorted("127.0.0.1:%d" % m.port for m in rs)
    assert hello["primary"] == hello["me"]
    assert "topologyVersion" in hello and hello["setVersion"] >= 1
    s = next(m for m in rs if m is not p)
    with s.client() as c:
        h = wait_for(lambda: (lambda h: h if "primary" in h else None)(c.admin.command("hello")), 10, "primary in hello")
        assert h["secondary"] is True and h["isWritablePrimary"] is False and h["primary"] == hello["me"]
        # An awaitable hello with the current topologyVersion waits, then answers (right after an
        # election the version may still move once: the config's new term reaches the members).
        waited = False
        for _ in range(10):
            h = c.admin.command("hello")
            start = time.time()
            r = c.admin.command({"hello": 1, "topologyVersion": h["topologyVersion"], "maxAwaitTimeMS": 300})
            if time.time() - start >= 0.25:
                assert r["topologyVersion"] == h["topologyVersion"]
                waited = True
                break
        assert waited


def test_majority_writes_reach_every_member(rs):
    with rs_client(rs) as c:
        coll = c.test.get_collection("m", write_concern=pymongo.WriteConcern(w="majority", wtimeout=20000))
        coll.insert_many([{"_id": i, "x": i} for i in range(50)])
        coll.update_one({"_id": 3}, {"$set": {"y": [1, 2]}, "$inc": {"x": 10}})
        coll.delete_one({"_id": 4})
        coll.create_index("x")
        c.test.get_collection("m", write_concern=pymongo.WriteConcern(w=3, wtimeout=20000)).insert_one({"_id": 100})
    for m in rs:
        with m.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as c:
            docs = list(c.test.m.find().sort("_id", 1))
            assert len(docs) == 50
            assert docs[3] == {"_id": 3, "x": 13, "y": [1, 2]}
            assert "x_1" in c.test.m.index_information()


def test_write_concern_errors(rs):
    with rs_client(rs) as c:
        db = c.test
        # More members than the set has: UnsatisfiableWriteConcern.
        assert code_of(lambda: db.command({"insert": "wc", "documents": [{"_id": 1}],
                                           "writeConcern": {"w": 4}})) == 100
        r = db.command({"insert": "wc", "documents": [{"_id": 2}], "writeConcern": {"w": "nosuchtag"}})
        assert r["writeConcernError"]["code"] == 79
        # Freeze a secondary's replication by killing it, then w: 3 times out.
        p = primary_of(rs)
        victim = next(m for m in rs if m is not p)
        victim.kill9()
        try:
            r = db.command({"insert": "wc", "documents": [{"_id": 3}], "writeConcern": {"w": 3, "wtimeout": 300}})
            assert r["n"] == 1
            wce = r["writeConcernError"]
            assert wce["code"] == 64 and wce["codeName"] == "WriteConcernFailed"
            assert wce["errmsg"] == "waiting for replication timed out"
            assert wce["errInfo"]["wtimeout"] is True
            assert wce["errInfo"]["writeConcern"]["w"] == 3
            # A majority (2 of 3) is still there.
            db.get_collection("wc", write_concern=pymongo.WriteConcern(w="majority", wtimeout=20000)).insert_one({"_id": 4})
        finally:
            victim.start()
        wait_for(lambda: status(victim)["myState"] == 2, 30, "the restarted member to be SECONDARY")


def test_majority_and_linearizable_reads(rs):
    p = primary_of(rs)
    secondaries = [m for m in rs if m is not p]
    with rs_client(rs) as c:
        majority = c.test.get_collection("mr", read_concern=pymongo.read_concern.ReadConcern("majority"))
        c.test.get_collection("mr", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_many(
            [{"_id": i} for i in range(10)])
        # A cursor of several batches: every getMore waits as the find did.
        assert [d["_id"] for d in majority.find(batch_size=3).sort("_id", 1)] == list(range(10))
        assert majority.count_documents({}) == 10
        # A write no secondary has: a majority read cannot return it until it is majority-committed
        # (maxTimeMS ends the wait), and returns it once the secondaries catch up.
        for m in secondaries:
            with m.client() as d:
                d.admin.command({"configureFailPoint": "stopReplProducer", "mode": "alwaysOn"})
        time.sleep(1.5)  # a getMore in flight ends within half a second
        try:
            c.test.get_collection("mr", write_concern=pymongo.WriteConcern(w=1)).insert_one({"_id": "new"})
            assert code_of(lambda: c.test.command({"find": "mr", "filter": {"_id": "new"},
                                                   "readConcern": {"level": "majority"}, "maxTimeMS": 300})) == 50
            assert code_of(lambda: c.test.command({"find": "mr", "readConcern": {"level": "linearizable"},
                                                   "maxTimeMS": 300})) == 50
            assert c.test.command({"find": "mr", "filter": {"_id": "new"}, "readConcern": {"level": "local"}})[
                "cursor"]["firstBatch"] == [{"_id": "new"}]
        finally:
            for m in secondaries:
                with m.client() as d:
                    d.admin.command({"configureFailPoint": "stopReplProducer", "mode": "off"})
        assert majority.find_one({"_id": "new"}) == {"_id": "new"}
        assert c.test.command({"find": "mr", "filter": {"_id": "new"}, "readConcern": {"level": "linearizable"}})[
            "cursor"]["firstBatch"] == [{"_id": "new"}]
        # A secondary serves majority reads once it knows the commit point covers what it read.
        sec = c.test.get_collection("mr", read_concern=pymongo.read_concern.ReadConcern("majority"),
                                    read_preference=pymongo.ReadPreference.SECONDARY)
        # (A secondary that has not applied it yet rightly answers without it: wait for both.)
        wait_for(lambda: sec.find_one({"_id": "new"}) == {"_id": "new"}, 10, "a majority read on a secondary")
        # snapshot needs history the tables do not keep: refused, not answered without its guarantee.
        assert code_of(lambda: c.test.command({"find": "mr", "readConcern": {"level": "snapshot"}})) == 148
        assert c.test.command({"find": "mr", "readConcern": {"level": "local"}})["ok"] == 1
    with secondaries[0].client() as d:
        assert code_of(lambda: d.test.command({"find": "mr", "readConcern": {"level": "linearizable"},
                                               "$readPreference": {"mode": "secondary"}})) == 10107


def test_causal_read_on_a_secondary_sees_the_sessions_write(rs):
    with rs_client(rs) as c:
        with c.start_session(causal_consistency=True) as s:
            c.test.get_collection("cc", write_concern=pymongo.WriteConcern(w=1)).insert_one({"_id": 1}, session=s)
            sec = c.test.get_collection("cc", read_preference=pymongo.ReadPreference.SECONDARY)
            # afterClusterTime makes the secondary wait until it applied the write.
            assert sec.find_one({"_id": 1}, session=s) == {"_id": 1}
        # A cluster time the secondary will not reach in time: MaxTimeMSExpired, not a stale answer.
        st = c.admin.command("replSetGetStatus")
        ahead = Timestamp(st["optimes"]["appliedOpTime"]["ts"].time + 3600, 1)
        secondary = next(m for m in rs if m is not primary_of(rs))
        with secondary.client() as d:
            assert code_of(lambda: d.test.command({"find": "cc", "readConcern": {"afterClusterTime": ahead},
                                                   "maxTimeMS": 200, "$readPreference": {"mode": "secondary"}})) == 50


def test_primary_killed_new_one_elected_old_rejoins(rs):
    old = primary_of(rs)
    with rs_client(rs) as c:
        c.test.get_collection("f", write_concern=pymongo.WriteConcern(w="majority", wtimeout=20000)).insert_one({"_id": 1})
    old_term = status(old)["term"]
    old.kill9()
    start = time.time()
    others = [m for m in rs if m is not old]
    new = wait_for(lambda: primary_of(others), 30, "a new primary")
    elapsed = time.time() - start
    # Election timeout (2 s + up to 15%) after the last heartbeat, plus a dry run and a vote.
    assert elapsed < ELECTION_TIMEOUT_MS / 1000.0 * 1.15 + 2.0, elapsed
    assert status(new)["term"] > old_term
    with rs_client(rs) as c:
        c.test.get_collection("f", write_concern=pymongo.WriteConcern(w="majority", wtimeout=20000)).insert_one({"_id": 2})
    old.start()
    wait_for(lambda: status(old)["myState"] == 2, 30, "the old primary to rejoin as SECONDARY")
    with old.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as c:
        wait_for(lambda: c.test.f.count_documents({}) == 2, 30, "the old primary to catch up")


def test_step_down_freeze_and_rbid(rs):
    p = primary_of(rs)
    with p.client() as c:
        assert isinstance(c.admin.command("replSetGetRBID")["rbid"], int)
        assert code_of(lambda: c.admin.command("replSetFreeze", 10)) == 95  # NotSecondary on the primary
        c.admin.command("replSetStepDown", 30, secondaryCatchUpPeriodSecs=10)
        # The connection survives; writes are refused with NotWritablePrimary.
        assert c.admin.command("hello")["isWritablePrimary"] is False
        assert code_of(lambda: c.test.command({"insert": "sd", "documents": [{"x": 1}]})) == 10107
    new = wait_for(lambda: primary_of([m for m in rs if m is not p]), 30, "another primary after step-down")
    s = next(m for m in rs if m is not new)
    with s.client() as c:
        assert c.admin.command("replSetFreeze", 0)["info"] == "unfreezing"
    with new.client() as c:
        assert code_of(lambda: c.admin.command("replSetStepDown", 5, secondaryCatchUpPeriodSecs=10)) == 2
        # Every member holds the new primary's entries (its first one included) before another
        # member is stepped up: an entry only the new primary has would be rolled back.
        c.test.get_collection("sd", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one({"caught": "up"})
    # The stepped-down primary, unfrozen, can be elected again on request (replSetStepUp: no dry
    # run); its vote requests carry the config term it gave the config as primary.
    with p.client() as c:
        c.admin.command("replSetFreeze", 0)

        def step_up():
            try:
                c.admin.command("replSetStepUp")
            except pymongo.errors.OperationFailure:
                return False
            return True
        wait_for(step_up, 30, "replSetStepUp to win")
        # PRIMARY at once; writable once it caught up with what the others hold (nothing here).
        wait_for(lambda: c.admin.command("hello")["isWritablePrimary"], 10, "the new primary to take writes")
    wait_for(lambda: primary_of(rs) is p, 10, "the stepped-up member as the only primary")


def primary_alone(rs):
    """The primary and the others, whose replication is held (stopReplProducer): what the primary
    takes from here on reaches no one until release_replication."""
    p = primary_of(rs)
    others = [m for m in rs if m is not p]
    for m in others:
        hold_replication(m)
    return p, others


def diverge(rs, write_alone, then_write):
    """Gives the primary writes no other member has: the others are killed, write_alone(client of
    the primary) runs (w: 1, before it notices it lost its majority), the primary is killed and
    the others, restarted, elect one of them, on which then_write(client of the set) runs.
    Returns the old primary, stopped."""
    p = primary_of(rs)
    others = [m for m in rs if m is not p]
    for m in others:
        m.kill9()
    with p.client() as c:
        write_alone(c)
    p.kill9()
    for m in others:
        m.start()
    wait_for(lambda: primary_of(others), 30, "a primary among the two others")
    with rs_client(rs) as c:
        then_write(c)
    return p


def majority(c, coll):
    return c.test.get_collection(coll, write_concern=pymongo.WriteConcern(w="majority", wtimeout=20000))


def test_diverged_member_rolls_back_saves_what_it_lost_and_rejoins(rs):
    def write_alone(c):
        c.test.get_collection("div", write_concern=pymongo.WriteConcern(w=1)).insert_one({"_id": "lost", "v": 1})
        # And a transaction's (its applyOps entry is rolled back as well).
        with c.start_session() as s:
            s.start_transaction(write_concern=pymongo.WriteConcern(w=1))
            c.test.div.insert_one({"_id": "lostInTxn", "v": 2}, session=s)
            s.commit_transaction()

    # The collection is created by the write only the old primary has: its divergent entries
    # include a command, which it cannot undo in place.
    p = diverge(rs, write_alone, lambda c: majority(c, "div").insert_one({"_id": "kept"}))
    rollback_dir = os.path.join(p.dbpath, "rollback")
    assert not os.path.exists(rollback_dir)
    p.start()
    # Its last entry is not in the new primary's history: it rolls back (ROLLBACK, then a resync
    # from the set) and becomes a SECONDARY holding the set's history, not its own.
    wait_for(lambda: status(p)["myState"] == 2 and os.path.isdir(rollback_dir), 60,
             "the diverged member to roll back and become SECONDARY")
    assert b"cannot be undone in place" in open(p.log_path, "rb").read(), p.tail(60)
    with p.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as c:
        wait_for(lambda: c.test.div.find_one({"_id": "kept"}) is not None, 30, "the set's write on the member")
        assert c.test.div.find_one({"_id": "lost"}) is None and c.test.div.find_one({"_id": "lostInTxn"}) is None
        assert c.local["oplog.rs"].find_one({"o._id": "lost"}) is None
    # The rolled-back document is in <dbpath>/rollback/<collection uuid>/removed.<time>.bson,
    # as this member held it (MongoDB 7.0's layout).
    files = [os.path.join(d, f) for d, _, fs in os.walk(rollback_dir) for f in fs]
    assert len(files) == 1 and os.path.basename(files[0]).startswith("removed.") and files[0].endswith(".bson"), files
    with open(files[0], "rb") as f:
        assert sorted(bson.decode_all(f.read()), key=lambda d: d["_id"]) == [{"_id": "lost", "v": 1},
                                                                          {"_id": "lostInTxn", "v": 2}]
    with rs_client(rs) as c:
        c.test.get_collection("div", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one(
            {"_id": "after"})


def rollback_files(m, db, coll):
    """The documents of m's rollback files for db.coll (<dbpath>/rollback/<collection uuid>/)."""
    with m.client() as c:
        info = c[db].command("listCollections", filter={"name": coll})["cursor"]["firstBatch"][0]["info"]
    u = info["uuid"] if isinstance(info["uuid"], uuid.UUID) else uuid.UUID(bytes=bytes(info["uuid"]))
    d = os.path.join(m.dbpath, "rollback", str(u))
    docs = []
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, f), "rb") as fh:
            docs += bson.decode_all(fh.read())
    return docs


def test_divergent_writes_are_undone_in_place(rs):
    # MongoDB's rollback via refetch: when a member's divergent entries are inserts, updates,
    # deletes and transactions of those (no collection or index made or dropped), it undoes them
    # in place - ROLLBACK, then RECOVERING while it applies the set's entries up to what it read
    # from its sync source, then SECONDARY - instead of copying the whole data set again.
    with rs_client(rs) as c:
        coll = c.test.get_collection("inplace", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000))
        coll.create_index("u", unique=True)
        coll.insert_many([{"_id": i, "v": 0, "u": "k%d" % i} for i in range(20)])

    def write_alone(c):
        coll = c.test.get_collection("inplace", write_concern=pymongo.WriteConcern(w=1))
        coll.insert_one({"_id": "lost", "u": "lost"})
        coll.update_one({"_id": 1}, {"$set": {"v": "divergent"}})
        coll.delete_one({"_id": 2})
        coll.update_one({"_id": 11}, {"$set": {"v": "divergent"}})
        with c.start_session() as s:
            s.start_transaction(write_concern=pymongo.WriteConcern(w=1))
            coll.update_one({"_id": 5}, {"$set": {"v": "inTxn"}}, session=s)
            coll.insert_one({"_id": "lostInTxn", "u": "lostInTxn"}, session=s)
            s.commit_transaction()

    def then_write(c):
        coll = majority(c, "inplace")
        coll.update_one({"_id": 1}, {"$set": {"v": "kept"}})
        coll.delete_one({"_id": 6})
        coll.insert_one({"_id": "kept", "u": "lost"})  # the unique key the rolled-back insert held
        # Document 11's version on the sync source takes a key document 10 holds until an entry
        # after it is applied: the member holds "k10" twice meanwhile (unique index relaxed).
        coll.update_one({"_id": 10}, {"$set": {"u": "m"}})
        coll.update_one({"_id": 11}, {"$set": {"u": "k10"}})

    p = diverge(rs, write_alone, then_write)
    p.start()
    wait_for(lambda: status(p)["myState"] == 2 and b"Rollback complete" in open(p.log_path, "rb").read(), 60,
             "the diverged member to roll back in place and become SECONDARY")
    log = open(p.log_path, "rb").read()
    assert b"Rollback in place" in log and b"resyncing" not in log and b"Initial sync" not in log, p.tail(60)
    with rs_client(rs) as c:
        want = sorted(c.test.inplace.find(), key=str)
        # A w: 3 write reaches it: it applies the set's entries again.
        c.test.get_collection("inplace", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one(
            {"_id": "after", "u": "after"})
    with p.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as c:
        got = sorted(c.test.inplace.find({"_id": {"$ne": "after"}}), key=str)
        assert got == want
        assert c.local["oplog.rs"].find_one({"o._id": "lost"}) is None
        assert c.test.inplace.find_one({"_id": "after"}) is not None
        assert [i["name"] for i in c.test.inplace.list_indexes()] == ["_id_", "u_1"]
    # What it rolled back, as it held it: the divergent insert, the transaction's documents and
    # the versions of the updated documents (the deleted one is not held: nothing to save).
    saved = {d["_id"]: d for d in rollback_files(p, "test", "inplace")}
    assert {"lost", "lostInTxn", 1, 5, 11} <= set(saved), saved
    assert saved[1]["v"] == "divergent" and saved[5]["v"] == "inTxn"


def test_a_majority_read_of_a_write_that_rolls_back_fails(rs):
    # A majority read here reads the newest data and its reply waits until the commit point
    # covers what it read. If the member rolls back meanwhile (the write it read was never
    # majority-committed), the reply must not be sent: the new history's commit point says
    # nothing of the write. The read fails with InterruptedDueToReplStateChange (11602).
    p, others = primary_alone(rs)
    try:
        with p.client() as c:
            c.test.get_collection("ghost", write_concern=pymongo.WriteConcern(w=1)).insert_one({"_id": "ghost"})
        outcome = {}

        def read():
            with p.client(retryReads=False) as c:
                coll = c.test.get_collection("ghost", read_concern=pymongo.read_concern.ReadConcern("majority"))
                try:
                    outcome["doc"] = coll.find_one({"_id": "ghost"}, max_time_ms=60000)
                except pymongo.errors.PyMongoError as e:  # 11602 is a NotPrimaryError to pymongo
                    outcome["code"] = getattr(e, "code", None) or (getattr(e, "details", None) or {}).get("code")
        t = threading.Thread(target=read)
        t.start()
        time.sleep(1)
        assert t.is_alive()  # waiting for the commit point
        # Another member is elected without the write, and takes writes without catching up
        # (replSetAbortPrimaryCatchUp; it could not fetch anyway): the old primary rolls it back.
        with others[0].client() as c:
            wait_for(lambda: c.admin.command("replSetStepUp")["ok"], 30, "replSetStepUp to win")
            assert c.admin.command("hello")["isWritablePrimary"] is False  # catching up, held
            c.admin.command("replSetAbortPrimaryCatchUp")
            wait_for(lambda: c.admin.command("hello")["isWritablePrimary"], 30, "the new primary to take writes")
    finally:
        for m in others:
            release_replication(m)
    t.join(60)
    assert not t.is_alive()
    assert outcome == {"code": 11602}, outcome
    wait_for(lambda: status(p)["myState"] == 2, 60, "the old primary to roll back and become SECONDARY")
    with rs_client(rs) as c:
        c.test.get_collection("ghost", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one({"_id": 1})
        assert c.test.ghost.find_one({"_id": "ghost"}) is None


def test_a_member_killed_during_its_rollback_in_place_resyncs(rs):
    # Between undoing its divergent writes and holding the sync source's entries up to minValid,
    # a member's data is neither its own nor the set's. The initial sync flag is set before it
    # changes anything: killed then, it resyncs at its next start instead of serving that data.
    with rs_client(rs) as c:
        c.test.get_collection("inplace2", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_many(
            [{"_id": i} for i in range(10)])
    p = diverge(rs, lambda c: c.test.get_collection("inplace2", write_concern=pymongo.WriteConcern(w=1)).insert_one(
        {"_id": "lost"}), lambda c: majority(c, "inplace2").insert_one({"_id": "kept"}))
    hang = ["--setParameter", "failpoint.rollbackHangBeforeFinish={\"mode\": \"alwaysOn\"}"]
    p.extra_args += hang
    try:
        p.start()
        with p.client() as c:
            c.admin.command({"waitForFailPoint": "rollbackHangBeforeFinish", "timesEntered": 1, "maxTimeMS": 30000})
        p.kill9()
    finally:
        del p.extra_args[-len(hang):]
    p.start()
    wait_for(lambda: status(p)["myState"] == 2, 60, "the member to resync and become SECONDARY")
    assert b"Initial sync flag set" in open(p.log_path, "rb").read(), p.tail(60)
    with rs_client(rs) as c:
        c.test.get_collection("inplace2", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one(
            {"_id": "after"})
    with p.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as c:
        assert sorted((d["_id"] for d in c.test.inplace2.find()), key=str) == sorted(list(range(10)) + ["kept", "after"],
                                                                             key=str)


def test_a_new_primary_catches_up_before_taking_writes(rs):
    # MongoDB's catch-up (catchup.js): a member elected without the old primary's last writes
    # fetches them - here from the old primary itself, deposed - before it takes writes, so they
    # are kept rather than rolled back. Meanwhile it is PRIMARY but not writable.
    p, (new, other) = primary_alone(rs)
    log_start = os.path.getsize(p.log_path)
    try:
        with p.client() as c:
            c.test.get_collection("catchup", write_concern=pymongo.WriteConcern(w=1)).insert_many(
                [{"_id": i} for i in range(50)])
            last = c.local["oplog.rs"].find_one(sort=[("$natural", -1)])["ts"]
        with new.client() as c:
            wait_for(lambda: c.admin.command("replSetStepUp")["ok"], 30, "replSetStepUp to win")
            hello = c.admin.command("hello")
            assert hello["isWritablePrimary"] is False and hello["secondary"] is False, hello
            assert c.admin.command("replSetGetStatus")["myState"] == 1
            assert code_of(lambda: c.test.command("insert", "catchup", documents=[{"_id": "early"}])) == 10107
    finally:
        for m in (new, other):
            release_replication(m)
    with new.client() as c:
        wait_for(lambda: c.admin.command("hello")["isWritablePrimary"], 30, "the new primary to catch up and take writes")
        metrics = c.admin.command("replSetGetStatus")["electionCandidateMetrics"]
        assert metrics["targetCatchupOpTime"]["ts"] >= last, metrics
        assert c.test.catchup.count_documents({}) == 50
    with rs_client(rs) as c:
        c.test.get_collection("catchup", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one(
            {"_id": "after"})
    with open(p.log_path, "rb") as f:
        f.seek(log_start)
        assert b"Rollback" not in f.read()  # the old primary's writes are the set's
    with p.client() as c:
        assert c.test.catchup.count_documents({}) == 51


def test_a_primary_learning_a_newer_term_from_a_fetcher_steps_down(rs):
    # A member's find on the oplog carries its term (as MongoDB's oplog fetcher's): a primary of
    # an older term steps down before it serves it, so it cannot count such a member towards a
    # majority the new primary never sees (a primary paused through an election and resumed).
    p = primary_of(rs)
    with p.client() as c:
        term = c.admin.command("replSetGetStatus")["term"]
        c.local.command({"find": "oplog.rs", "filter": {}, "limit": 1, "term": term})
        assert c.admin.command("hello")["isWritablePrimary"] is True  # our own term: nothing happens
        c.local.command({"find": "oplog.rs", "filter": {}, "limit": 1, "term": term + 1})
        hello = c.admin.command("hello")
        assert hello["isWritablePrimary"] is False
        assert c.admin.command("replSetGetStatus")["term"] >= term + 1
    wait_for(lambda: primary_of(rs), 30, "a primary again")
    with rs_client(rs) as c:
        c.test.get_collection("t", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one({"x": 1})


def test_progress_reported_under_another_config_version_is_not_counted(rs):
    # As MongoDB: a replSetUpdatePosition entry whose cfgver is not the primary's config version
    # is refused with InvalidReplicaSetConfig (93) and not counted (after a reconfig a member id
    # may name another member). The same report under the current version moves the commit point.
    p, others = primary_alone(rs)
    try:
        with p.client() as c:
            c.test.get_collection("cfgver", write_concern=pymongo.WriteConcern(w=1)).insert_one({"x": 1})
            st = c.admin.command("replSetGetStatus")
            applied = st["optimes"]["appliedOpTime"]
            assert st["optimes"]["lastCommittedOpTime"]["ts"] < applied["ts"]
            cfg = c.admin.command("replSetGetConfig")["config"]
            member_id = next(m["_id"] for m in cfg["members"] if m["host"] == "127.0.0.1:%d" % others[0].port)
            now = st["date"]

            def report(cfgver):
                return {"replSetUpdatePosition": 1, "term": st["term"],
                        "optimes": [{"durableOpTime": applied, "durableWallTime": now, "appliedOpTime": applied,
                                     "appliedWallTime": now, "memberId": member_id, "cfgver": cfgver}]}

            with pytest.raises(pymongo.errors.OperationFailure) as e:
                c.admin.command(report(cfg["version"] - 1))
            assert e.value.code == 93
            assert "config version of %d" % (cfg["version"] - 1) in str(e.value)
            # The command counts what it accepts before it answers: no wait is needed here.
            assert c.admin.command("replSetGetStatus")["optimes"]["lastCommittedOpTime"]["ts"] < applied["ts"]
            c.admin.command(report(cfg["version"]))
            wait_for(lambda: c.admin.command("replSetGetStatus")["optimes"]["lastCommittedOpTime"]["ts"]
                     >= applied["ts"], 10, "the commit point to count the report")
    finally:
        for m in others:
            release_replication(m)
    with rs_client(rs) as c:
        c.test.get_collection("cfgver", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one({"x": 2})


def test_default_read_and_write_concerns(rs):
    p = primary_of(rs)
    secondaries = [m for m in rs if m is not p]
    with p.client() as c:
        d = c.admin.command("getDefaultRWConcern")
        assert d["defaultWriteConcernSource"] == "implicit" and d["defaultWriteConcern"] == {"w": "majority", "wtimeout": 0}
        assert d["defaultReadConcernSource"] == "implicit" and d["defaultReadConcern"] == {"level": "local"}
        assert code_of(lambda: c.admin.command("setDefaultRWConcern")) == 2
        assert code_of(lambda: c.admin.command("setDefaultRWConcern", defaultReadConcern={"level": "snapshot"})) == 2
        assert code_of(lambda: c.admin.command("setDefaultRWConcern", defaultWriteConcern={"w": 0})) == 2
        assert code_of(lambda: c.admin.command("setDefaultRWConcern", defaultWriteConcern={"w": "tagged"})) == 79
        r = c.admin.command("setDefaultRWConcern", defaultWriteConcern={"w": "majority", "wtimeout": 500},
                            defaultReadConcern={"level": "majority"})
        assert r["defaultWriteConcern"] == {"w": "majority", "wtimeout": 500} and r["defaultWriteConcernSource"] == "global"
        assert r["defaultReadConcern"] == {"level": "majority"} and r["defaultReadConcernSource"] == "global"
        assert isinstance(r["updateOpTime"], Timestamp)
        # A majority default read concern is for clients: the members' own oplog reads ignore it
        # (else replication would wait on itself and no majority write could complete).
        for i in range(3):
            r = c.test.command({"insert": "dflt_ok", "documents": [{"_id": i}],
                                "writeConcern": {"w": "majority", "wtimeout": 10000}})
            assert "writeConcernError" not in r
        # Written to config.settings like any document: every member reads the same defaults.
        for m in secondaries:
            with m.client() as d:
                wait_for(lambda: d.admin.command("getDefaultRWConcern")["defaultReadConcernSource"] == "global",
                         10, "the defaults on a secondary")
                assert code_of(lambda: d.admin.command("setDefaultRWConcern", defaultWriteConcern={"w": 1})) == 10107
        for m in secondaries:
            with m.client() as d:
                d.admin.command({"configureFailPoint": "stopReplProducer", "mode": "alwaysOn"})
        time.sleep(1.5)
        try:
            # A write without a writeConcern waits as the default says (w: majority, 500 ms) ...
            r = c.test.command({"insert": "dflt", "documents": [{"_id": 1}]})
            wce = r["writeConcernError"]
            assert wce["code"] == 64 and wce["errInfo"]["writeConcern"]["provenance"] == "customDefault"
            assert wce["errInfo"]["writeConcern"]["wtimeout"] == 500
            # ... and a read without a readConcern is a majority read (the write is not committed).
            assert code_of(lambda: c.test.command({"find": "dflt", "maxTimeMS": 300})) == 50
            assert c.test.command({"find": "dflt", "readConcern": {"level": "local"}})["cursor"]["firstBatch"] == [{"_id": 1}]
            # The defaults change: w: 1 does not wait; {} unsets the read concern (local again).
            c.admin.command("setDefaultRWConcern", defaultWriteConcern={"w": 1}, defaultReadConcern={})
            r = c.test.command({"insert": "dflt", "documents": [{"_id": 2}]})
            assert "writeConcernError" not in r
            assert len(c.test.command({"find": "dflt", "maxTimeMS": 300})["cursor"]["firstBatch"]) == 2
            d = c.admin.command("getDefaultRWConcern")
            assert d["defaultReadConcernSource"] == "implicit" and d["defaultWriteConcern"] == {"w": 1, "wtimeout": 0}
            # A default write concern once set cannot be unset.
            assert code_of(lambda: c.admin.command("setDefaultRWConcern", defaultWriteConcern={})) == 20
        finally:
            for m in secondaries:
                with m.client() as d:
                    d.admin.command({"configureFailPoint": "stopReplProducer", "mode": "off"})
            c.admin.command("setDefaultRWConcern", defaultWriteConcern={"w": "majority", "wtimeout": 0})


def test_change_stream_shows_majority_committed_events_and_resumes_across_failover(rs):
    p = primary_of(rs)
    secondaries = [m for m in rs if m is not p]
    with rs_client(rs) as c:
        coll = c.test.get_collection("cs", write_concern=pymongo.WriteConcern(w=1))
        with coll.watch(max_await_time_ms=300) as s:
            for m in secondaries:
                with m.client() as d:
                    d.admin.command({"configureFailPoint": "stopReplProducer", "mode": "alwaysOn"})
            time.sleep(1.5)
            try:
                coll.insert_one({"_id": "pending"})
                # Not majority-committed: no event yet (it could still be rolled back).
                deadline = time.time() + 1.5
                while time.time() < deadline:
                    assert s.try_next() is None
            finally:
                for m in secondaries:
                    with m.client() as d:
                        d.admin.command({"configureFailPoint": "stopReplProducer", "mode": "off"})
            e = wait_for(lambda: s.try_next(), 10, "the event once committed")
            assert e["documentKey"] == {"_id": "pending"}
            token = e["_id"]
        coll.insert_one({"_id": "after"})
    # A new primary: the stream resumes there from the token, as drivers do after a failover.
    with p.client() as d:
        d.admin.command("replSetStepDown", 20, secondaryCatchUpPeriodSecs=10)
    wait_for(lambda: (lambda m: m if m is not None and m is not p else None)(primary_of(rs)), 30, "a new primary")
    with rs_client(rs) as c:
        c.test.get_collection("cs", write_concern=pymongo.WriteConcern(w="majority")).insert_one({"_id": "new"})
        with c.test.cs.watch(resume_after=token, max_await_time_ms=300) as s:
            got = [wait_for(lambda: s.try_next(), 10, "resumed events")["documentKey"]["_id"] for _ in range(2)]
        assert got == ["after", "new"]
    with p.client() as d:
        d.admin.command("replSetFreeze", 0)


def test_collections_have_the_primarys_uuid_on_every_member(rs):
    # As MongoDB's replica-set checks (ReplSetTest.checkReplicatedDataHashes) compare them: the
    # listCollections entries of every collection dbHash covers are byte-identical on every
    # member, UUIDs included, however the collection was made.
    with rs_client(rs, w=3) as c:
        db = c.uuids
        db.create_collection("explicit", validator={"a": {"$exists": True}})
        db.implicit.insert_one({"a": 1})
        db.indexed.create_index("x")
        db.renamed_from.insert_one({"a": 1})
        db.renamed_from.rename("renamed_to")
        with c.start_session() as s:
            with s.start_transaction():
                db.in_transaction.insert_one({"a": 1}, session=s)
        db.implicit.aggregate([{"$match": {}}, {"$out": "out_target"}])
        c.admin.command("renameCollection", "uuids.implicit", to="uuids_other.across_databases")
        db.last.insert_one({"a": 1})
    for name in ("uuids", "uuids_other", "config"):
        seen = []
        for m in rs:
            with m.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as mc:
                covered = mc[name].command("dbHash", read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED)["collections"]
                infos = {i["name"]: bson.encode(i) for i in mc[name].list_collections() if i["name"] in covered}
            seen.append(infos)
        assert seen[0], name
        for infos in seen[1:]:
            assert infos == seen[0], name
    assert set(seen[0]) >= {"image_collection", "transactions"}  # the config database's, too


def test_dbhash_equal_everywhere(rs):
    with rs_client(rs) as c:
        c.test.get_collection("h", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one({"_id": "last"})
    hashes = []
    for m in rs:
        with m.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED) as c:
            hashes.append(c.test.command("dbHash", read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED)["md5"])
    assert len(set(hashes)) == 1, hashes
