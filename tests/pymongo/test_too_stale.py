"""A member too stale to catch up (its last entry rolled off the primary's oplog while it was down)
waits in RECOVERING, alive and still looking for a source, and syncs again as soon as a member whose
oplog reaches back may serve it (MongoDB's too_stale_secondary.js): the primary's short oplog is
never a final verdict while another member's history is longer.

The set: a primary with a 16 MB oplog, a secondary with a 200 MB one, and the member that goes
stale; chaining is off at first, so the stale member may sync only from the primary."""

import time

import pymongo
import pytest

import replset_helpers
from replset_helpers import SETTINGS, host, initiate, make_members, state_of, status, stop_all, wait_for

SET = "stale"


@pytest.fixture(scope="module")
def rs(tmp_path_factory):
    members = make_members(tmp_path_factory.mktemp("stale"), SET, 3)
    long_history = members[1].extra_args
    long_history[long_history.index("--oplogSize") + 1] = "200"
    initiate(members, SET, dict(SETTINGS, chainingAllowed=False), priorities=[1, 0, 0])
    yield members
    stop_all(members)


def oldest_oplog_ts(m):
    with m.client() as c:
        return c.local.oplog.rs.find_one(sort=[("$natural", 1)])["ts"]


def test_too_stale_member_waits_in_recovering_then_syncs_from_a_longer_oplog(rs):
    a, b, c = rs
    with replset_helpers.rs_client(rs, SET) as client:
        coll = client.app.get_collection("docs", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000))
        coll.insert_one({"_id": "before"})
        last_seen_by_c = status(c)["optimes"]["appliedOpTime"]["ts"]
        c.stop()
        # 26 MB while c is down (w: 2, so the commit point moves and the primary's 16 MB oplog
        # is truncated past c's last entry; b's 200 MB oplog keeps it).
        two = client.app.get_collection("docs", write_concern=pymongo.WriteConcern(w=2, wtimeout=60000))
        big = "x" * 100000
        for i in range(0, 260, 20):
            two.insert_many([{"_id": i + j, "pad": big} for j in range(20)])
        wait_for(lambda: oldest_oplog_ts(a) > last_seen_by_c, 30, "the primary's oplog rolled past c's last entry")
        assert oldest_oplog_ts(b) <= last_seen_by_c

        c.start()
        wait_for(lambda: state_of(c) == 3, 60, "c in RECOVERING, too stale for the primary's oplog")
        me = [x for x in status(c)["members"] if x.get("self")][0]
        assert "too stale" in me["infoMessage"], me
        time.sleep(3)  # it stays there (no source may serve it yet), alive
        assert c.proc.poll() is None and state_of(c) == 3

        # Chaining allowed: b, whose oplog reaches back, may now serve c.
        with a.client() as ac:
            cfg = ac.admin.command("replSetGetConfig")["config"]
            cfg["version"] += 1
            cfg["settings"]["chainingAllowed"] = True
            ac.admin.command("replSetReconfig", cfg)
        wait_for(lambda: state_of(c) == 2, 120, "c back in SECONDARY, synced from b")
        assert status(c)["syncSourceHost"] in (host(b), host(a))
        coll.insert_one({"_id": "after"})  # w: 3: c replicates again
        with c.client(read_preference=pymongo.ReadPreference.SECONDARY) as cc:
            assert cc.app.docs.count_documents({}) == 262
            assert cc.app.docs.find_one({"_id": 259})["pad"] == big
