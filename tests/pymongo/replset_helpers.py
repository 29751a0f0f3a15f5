"""What the pymongo tests of replica sets share: their own mongod processes on the suite's free
ports (MONGOD_BIN, TEST_PORT_BASE/TEST_PORT_COUNT from buildscripts/resmoke.py), initiating a set,
waiting for a state, finding the primary, and a driver connection to the set."""
import os
import shutil
import time

import pymongo
import pytest

from conftest import MongodProcess, _port_free

SETTINGS = {"electionTimeoutMillis": 2000, "heartbeatIntervalMillis": 500}


def host(m):
    return "127.0.0.1:%d" % m.port


def wait_for(pred, timeout=30, what="condition"):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            v = pred()
            if v:
                return v
        except pymongo.errors.PyMongoError as e:
            last = e
        time.sleep(0.1)
    raise AssertionError("timed out waiting for %s (last error: %s)" % (what, last))


def status(m):
    with m.client(serverSelectionTimeoutMS=2000) as c:
        return c.admin.command("replSetGetStatus")


def state_of(m):
    """m's myState, None when it does not answer."""
    try:
        return status(m)["myState"]
    except pymongo.errors.PyMongoError:
        return None


def primary_of(members):
    for m in members:
        if m.proc is None or m.proc.poll() is not None:
            continue
        try:
            with m.client(serverSelectionTimeoutMS=1000) as c:
                if c.admin.command("hello").get("isWritablePrimary"):
                    return m
        except pymongo.errors.PyMongoError:
            pass
    return None


def make_members(tmp, set_name, n, extra_args=lambda i: []):
    """n mongod processes (not started) for set_name, on free ports of the suite's range."""
    binary = os.environ.get("MONGOD_BIN")
    if not binary:
        pytest.skip("MONGOD_BIN is not set (run through buildscripts/resmoke.py)")
    base = int(os.environ.get("TEST_PORT_BASE", "29000"))
    count = int(os.environ.get("TEST_PORT_COUNT", "20"))
    ports = [p for p in range(base + count - 1, base - 1, -1) if _port_free(p)][:n]
    return [MongodProcess(binary, p, str(tmp / ("db%d" % i)), str(tmp),
                          ["--replSet", set_name, "--oplogSize", "16"] + extra_args(i))
            for i, p in enumerate(ports)]


def initiate(members, set_name, settings=SETTINGS, priorities=None, hosts=None):
    """Starts members, initiates them as set_name from the first, and waits for a primary and every
    other member in SECONDARY. priorities: one per member (default: MongoDB's 1 each). hosts: the
    names the config gives the members (default: their own addresses; a test with bridges in front
    of them names the bridges)."""
    for m in members:
        m.start()
    hosts = hosts or [host(m) for m in members]
    config = {"_id": set_name, "members": [{"_id": i, "host": h} for i, h in enumerate(hosts)],
              "settings": settings}
    for i, p in enumerate(priorities or []):
        config["members"][i]["priority"] = p
    with members[0].client() as c:
        c.admin.command("replSetInitiate", config)
    wait_for(lambda: primary_of(members), 30, "a primary")
    want = ["PRIMARY"] + ["SECONDARY"] * (len(members) - 1)
    wait_for(lambda: sorted(s["stateStr"] for s in status(members[0])["members"]) == want, 30,
             "every other member in SECONDARY")


def stop_all(members):
    for m in members:
        try:
            m.stop()
        except AssertionError:
            pass


def hold_replication(m):
    """Stops m fetching (fail point stopReplProducer); returns once the fetcher is held, so a
    getMore in flight has ended and been applied."""
    with m.client() as c:
        n = c.admin.command({"configureFailPoint": "stopReplProducer", "mode": "alwaysOn"})["count"]
        c.admin.command({"waitForFailPoint": "stopReplProducer", "timesEntered": n + 1, "maxTimeMS": 30000})


def release_replication(m):
    with m.client() as c:
        c.admin.command({"configureFailPoint": "stopReplProducer", "mode": "off"})


def rs_client(members, set_name, **kw):
    """A driver connection to the set, seeded with the members that are running."""
    kw.setdefault("serverSelectionTimeoutMS", 20000)
    hosts = ",".join(host(m) for m in members if m.proc is not None and m.proc.poll() is None)
    return pymongo.MongoClient("mongodb://%s/?replicaSet=%s" % (hosts, set_name), **kw)


def one_member_set(tmp_path_factory, set_name, extra_args=()):
    """A started, initiated one-member set for a module fixture: yields the member, then stops it
    and removes its data (use with `yield from`)."""
    m, = make_members(tmp_path_factory.mktemp(set_name), set_name, 1, lambda i: list(extra_args))
    initiate([m], set_name)
    yield m
    m.stop()
    shutil.rmtree(m.dbpath, ignore_errors=True)
