"""Beyond MongoDB (issue 10): when the primary's process is gone, so that its port refuses
connections, the other members elect a new primary without waiting out the election timeout.
A three-member set with a 30 s election timeout loses its primary to kill -9 under writes: a new
primary is elected long before the timeout, no acknowledged w: "majority" write is lost, and the
old member rejoins as a secondary when it is back. (A primary that stops answering without
refusing, e.g. behind a partition, still gets the whole timeout: topology_test.cpp.)"""
import os
import time

import pymongo
import pytest

from replset_helpers import initiate, make_members, primary_of, rs_client, stop_all, wait_for

SET = "rsprompt"
TIMEOUT_MS = 30000

pytestmark = pytest.mark.skipif(os.environ.get("RESMOKE_SUITE") == "pymongo_dedup",
                                reason="starts its own members; runs in the pymongo suite")


def test_a_killed_primary_is_replaced_before_the_election_timeout(tmp_path):
    members = make_members(tmp_path, SET, 3)
    try:
        initiate(members, SET)
        old = primary_of(members)
        with old.client() as pc:
            conf = pc.admin.command("replSetGetConfig")["config"]
            conf["version"] += 1
            conf["settings"].update(electionTimeoutMillis=TIMEOUT_MS, heartbeatIntervalMillis=500)
            pc.admin.command("replSetReconfig", conf)
        for m in members:  # every member runs with the new timeout before the primary dies
            with m.client() as mc:
                wait_for(lambda: mc.admin.command("replSetGetConfig")["config"]["version"] == conf["version"], 30,
                         "the new config on %d" % m.port)
        with rs_client(members, SET, w="majority") as c:
            coll = c.test.c
            for i in range(200):
                coll.insert_one({"_id": i})
            old.kill9()
            killed_at = time.time()
            new = wait_for(lambda: primary_of(members), TIMEOUT_MS / 1000 - 5, "a new primary")
            elected_after = time.time() - killed_at
            assert new is not old
            # Well before the timeout: the election did not wait for it.
            assert elected_after < TIMEOUT_MS / 1000 / 3, elected_after
            coll.insert_one({"_id": "after"})  # retryable write through the driver
            assert coll.count_documents({}) == 201
            with new.client() as nc:
                st = nc.admin.command("replSetGetStatus")
                assert st["electionCandidateMetrics"]["electionTimeoutMillis"] == TIMEOUT_MS
        old.start()
        wait_for(lambda: sorted(s["stateStr"] for s in
                                new.client().admin.command("replSetGetStatus")["members"]) ==
                 ["PRIMARY", "SECONDARY", "SECONDARY"], 60, "the old primary back as a secondary")
        with old.client() as oc:
            wait_for(lambda: oc.test.c.count_documents({}) == 201, 30, "the old primary caught up")
    finally:
        stop_all(members)
