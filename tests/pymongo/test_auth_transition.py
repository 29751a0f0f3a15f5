"""A replica set moved to key-file authentication without downtime, as MongoDB's tutorial does it
with --transitionToAuth (issue 17): three members without access control, restarted one at a
time with --transitionToAuth --keyFile (they authenticate to each other with the key where the
other member accepts it, go on without where it has no key yet, and enforce nothing), then one at
a time with --keyFile alone (enforcing). At every step the set keeps a primary and replicates
w: 3 writes; clients without credentials work until the last step, and are then refused."""
import os
import time

import pymongo
import pytest
from pymongo.errors import OperationFailure

from replset_helpers import initiate, make_members, stop_all, wait_for

SET = "rsmove"
KEY = "dHJhbnNpdGlvbktleUZvclRoZVNldDAxMjM0NTY3"

pytestmark = pytest.mark.skipif(os.environ.get("RESMOKE_SUITE") == "pymongo_dedup",
                                reason="starts its own members; runs in the pymongo suite")


def set_client(members, **kw):
    hosts = ",".join("127.0.0.1:%d" % m.port for m in members)
    kw.setdefault("serverSelectionTimeoutMS", 30000)
    return pymongo.MongoClient("mongodb://%s/?replicaSet=%s" % (hosts, SET), **kw)


def healthy(members, **kw):
    """Every member reports a primary and two secondaries, all healthy (through the set)."""
    with set_client(members, **kw) as c:
        st = c.admin.command("replSetGetStatus")
    return sorted(m["stateStr"] for m in st["members"] if m["health"] == 1) == ["PRIMARY", "SECONDARY", "SECONDARY"]


def write_everywhere(members, value, **kw):
    with set_client(members, **kw) as c:
        c.test.get_collection("c", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one(
            {"step": value})
        return c.test.c.count_documents({"step": value}) == 1


def restart_with(member, args):
    member.stop()
    member.extra_args = ["--replSet", SET, "--oplogSize", "16"] + args
    member.start()


def test_rolling_move_to_key_file_authentication(tmp_path):
    key = tmp_path / "set.key"
    key.write_text(KEY + "\n")
    key.chmod(0o400)
    members = make_members(tmp_path, SET, 3)
    try:
        initiate(members, SET)
        assert write_everywhere(members, "open")
        with set_client(members) as c:
            c.admin.command("createUser", "admin", pwd="adminpw", roles=["root"])
        # Step 1: each member in transition, one at a time; the others have no key yet.
        for i, m in enumerate(members):
            restart_with(m, ["--transitionToAuth", "--keyFile", str(key)])
            wait_for(lambda: healthy(members), 60, "a healthy set after member %d went into transition" % i)
            assert write_everywhere(members, "transition-%d" % i)  # no credentials: not enforced
        with members[0].client() as c:
            opts = c.admin.command("getCmdLineOpts")["parsed"]["security"]
            assert opts == {"transitionToAuth": True, "keyFile": str(key)}
        # Step 2: each member enforcing, one at a time; the others still accept both.
        creds = {"username": "admin", "password": "adminpw"}
        for i, m in enumerate(members):
            restart_with(m, ["--keyFile", str(key)])
            wait_for(lambda: healthy(members, **creds), 60, "a healthy set after member %d enforced" % i)
            assert write_everywhere(members, "enforced-%d" % i, **creds)
        # Now every member enforces access control: a client without credentials is refused.
        for m in members:
            with m.client() as anon:
                with pytest.raises(OperationFailure) as e:
                    anon.test.c.find_one()
                assert e.value.code == 13
        # Every member holds every write, and the members still talk to each other (as __system).
        with set_client(members, **creds) as c:
            c.test.get_collection("c", write_concern=pymongo.WriteConcern(w=3, wtimeout=30000)).insert_one(
                {"step": "last"})
        for m in members:
            with m.client(**creds) as mc:
                wait_for(lambda: mc.test.c.count_documents({}) == 8, 30, "every write on %d" % m.port)
    finally:
        stop_all(members)


def test_a_member_in_transition_with_another_key_stays_out_without_spinning(tmp_path):
    """A member in transition whose key the enforcing members refuse, and which they refuse
    unauthenticated too, is kept out (unhealthy to them) and tries each way once per command:
    the others log a bounded number of refused authentications, not a tight loop."""
    good, other = tmp_path / "good.key", tmp_path / "other.key"
    good.write_text(KEY + "\n")
    other.write_text("b3RoZXJLZXlGb3JUaGVTZXQwMTIzNDU2Nzg5MDEy\n")
    for k in (good, other):
        k.chmod(0o400)
    members = make_members(tmp_path, SET, 3, lambda i: ["--keyFile", str(good)])
    system = {"username": "__system", "password": KEY, "authSource": "local"}
    try:
        initiate_with_key(members, system)
        outsider = members[2]
        restart_with(outsider, ["--transitionToAuth", "--keyFile", str(other)])
        wait_for(lambda: member_health(members[0], outsider, system) == 0, 30, "the outsider seen unhealthy")
        time.sleep(5)
        refusals = sum(log_text(m).count('"Authentication failed"') for m in members[:2])
        # It did try (its key is refused), and a bounded number of times: heartbeats every 0.5 s
        # and its sync attempts give tens, a loop would give thousands.
        assert 0 < refusals < 300, refusals
        assert member_health(members[0], outsider, system) == 0
    finally:
        stop_all(members)


def initiate_with_key(members, creds):
    for m in members:
        m.start()
    config = {"_id": SET, "members": [{"_id": i, "host": "127.0.0.1:%d" % m.port} for i, m in enumerate(members)],
              "settings": {"electionTimeoutMillis": 2000, "heartbeatIntervalMillis": 500}}
    with members[0].client() as c:  # the localhost exception admits replSetInitiate
        c.admin.command("replSetInitiate", config)
    with members[0].client(**creds) as c:
        wait_for(lambda: sorted(s["stateStr"] for s in c.admin.command("replSetGetStatus")["members"]) ==
                 ["PRIMARY", "SECONDARY", "SECONDARY"], 60, "the set up")


def member_health(observer, member, creds):
    with observer.client(**creds) as c:
        for s in c.admin.command("replSetGetStatus")["members"]:
            if s["name"] == "127.0.0.1:%d" % member.port:
                return s["health"]
    return None


def log_text(m):
    with open(m.log_path, "rb") as f:
        return f.read().decode("utf-8", "replace")
