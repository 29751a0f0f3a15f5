"""A three-member set with an arbiter and a hidden, delayed, priority-0 member (issue 10,
milestone 2): states PRIMARY / SECONDARY / ARBITER, hello's hosts and arbiters (hidden members
are listed nowhere), the arbiter's own hello, and w: "majority" counting the data-bearing voters
only (so it waits for the delayed member, as MongoDB does)."""

import os
import time

import pymongo
import pytest

from conftest import MongodProcess, _port_free

SET = "ra"


def test_arbiter_and_delayed_hidden_member(tmp_path):
    binary = os.environ.get("MONGOD_BIN")
    if not binary:
        pytest.skip("MONGOD_BIN is not set (run through buildscripts/resmoke.py)")
    base = int(os.environ.get("TEST_PORT_BASE", "29000"))
    count = int(os.environ.get("TEST_PORT_COUNT", "20"))
    ports = [p for p in range(base, base + count) if _port_free(p)][:3]
    ms = [MongodProcess(binary, p, str(tmp_path / ("db%d" % i)), str(tmp_path), ["--replSet", SET, "--oplogSize", "16"])
          for i, p in enumerate(ports)]
    try:
        for m in ms:
            m.start()
        hosts = ["127.0.0.1:%d" % p for p in ports]
        cfg = {"_id": SET, "members": [{"_id": 0, "host": hosts[0]},
                                       {"_id": 1, "host": hosts[1], "priority": 0, "hidden": True,
                                        "secondaryDelaySecs": 1},
                                       {"_id": 2, "host": hosts[2], "arbiterOnly": True}],
               "settings": {"electionTimeoutMillis": 2000, "heartbeatIntervalMillis": 500}}
        with ms[0].client() as c:
            c.admin.command("replSetInitiate", cfg)
            deadline = time.time() + 30
            while True:
                states = [m["stateStr"] for m in c.admin.command("replSetGetStatus")["members"]]
                if states == ["PRIMARY", "SECONDARY", "ARBITER"] or time.time() > deadline:
                    break
                time.sleep(0.2)
            assert states == ["PRIMARY", "SECONDARY", "ARBITER"]
            hello = c.admin.command("hello")
            assert hello["hosts"] == [hosts[0]] and hello["arbiters"] == [hosts[2]] and "passives" not in hello
            st = c.admin.command("replSetGetStatus")
            assert st["majorityVoteCount"] == 2 and st["writeMajorityCount"] == 2
            assert st["writableVotingMembersCount"] == 2
            start = time.time()
            c.test.get_collection("x", write_concern=pymongo.WriteConcern(w="majority", wtimeout=20000)).insert_one({"a": 1})
            assert time.time() - start >= 0.9  # the delayed member applies it a second late
        with ms[2].client() as c:
            h = c.admin.command("hello")
            assert h["arbiterOnly"] is True and h["secondary"] is False and h["isWritablePrimary"] is False
        with ms[1].client() as c:
            h = c.admin.command("hello")
            assert h["hidden"] is True and h["passive"] is True and h["secondary"] is True
    finally:
        for m in ms:
            m.stop()
