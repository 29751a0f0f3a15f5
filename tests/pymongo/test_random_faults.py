"""A bounded randomized fault test of a three-member set: a pymongo workload of w: "majority"
inserts of unique ids and $push appends to a few documents, with majority reads of those documents,
runs while members are killed (kill -9, then restarted), paused (SIGSTOP, then SIGCONT) and cut off
from the others (a jstests/lib/mongobridge.py in front of each member), or the primary is stepped
down, one fault at a time.

Afterwards, every link healed and every member back:
- no acknowledged insert is lost, on any member;
- every acknowledged append is in its document exactly once (a retried one is never applied
  twice), and no append appears twice;
- every majority read of a document saw a prefix of its final value: what a majority read saw is
  never undone by a failover or a rollback, and appends are seen in one order everywhere;
- dbHash is equal on every member, their oplogs agree, validate is clean.

Under the pymongo_dedup suite every member runs --dedup. For a long run by hand:
    FAULT_SECONDS=1800 FAULT_SEED=7 $PY buildscripts/resmoke.py --suites pymongo tests/pymongo/test_random_faults.py
(FAULT_SEED defaults to a random seed, printed in the test's output and in its failure message.)"""

import os
import random
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

import bson
import pymongo
import pytest
from pymongo.read_concern import ReadConcern

from conftest import _port_free
from replset_helpers import (SETTINGS, hold_replication, initiate, make_members, primary_of, release_replication,
                             state_of, status, stop_all, wait_for)

SET = "faults"
FAULT_SECONDS = float(os.environ.get("FAULT_SECONDS", "60"))
SEED = int(os.environ.get("FAULT_SEED", str(random.randrange(1 << 30))))
LISTS = ["list-%d" % i for i in range(3)]
BRIDGE = os.path.join(os.path.dirname(__file__), "..", "..", "jstests", "lib", "mongobridge.py")


def free_ports(n, taken):
    base = int(os.environ.get("TEST_PORT_BASE", "29000"))
    count = int(os.environ.get("TEST_PORT_COUNT", "20"))
    ports = [p for p in range(base, base + count) if p not in taken and _port_free(p)][:n]
    assert len(ports) == n, "not enough free ports in the suite's range"
    return ports


class Bridge:
    """A mongobridge.py process in front of one member; its commands go over a raw socket, so that
    they work while the member behind it is down."""

    def __init__(self, port, member, log_dir):
        self.port = port
        self.member = member
        self.log = open(os.path.join(log_dir, "bridge-%d.log" % port), "wb")
        self.proc = subprocess.Popen([sys.executable, BRIDGE, "--port", str(port), "--dest", "127.0.0.1:%d" % member.port],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        wait_for(lambda: not _port_free(port), 20, "bridge %d listening" % port)

    def command(self, cmd):
        body = bson.encode(dict(cmd, **{"$db": "admin"}))
        msg = struct.pack("<I", 0) + b"\x00" + body
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
            s.sendall(struct.pack("<iiii", 16 + len(msg), 1, 0, 2013) + msg)
            header = s.recv(16, socket.MSG_WAITALL)
            length = struct.unpack("<i", header[:4])[0]
            rest = s.recv(length - 16, socket.MSG_WAITALL)
        reply = bson.decode(rest[5:])
        assert reply.get("ok") == 1, reply

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        self.log.close()


class FaultySet:
    """Three members behind bridges; the config names the bridges, so that links can be cut."""

    def __init__(self, tmp):
        dedup = os.environ.get("RESMOKE_SUITE") == "pymongo_dedup"
        self.members = make_members(tmp, SET, 3, lambda i: ["--dedup"] if dedup else [])
        ports = free_ports(3, {m.port for m in self.members})
        self.bridges = [Bridge(p, m, str(tmp)) for p, m in zip(ports, self.members)]
        self.paused = set()
        initiate(self.members, SET, SETTINGS, hosts=["127.0.0.1:%d" % b.port for b in self.bridges])

    @property
    def uri(self):
        return "mongodb://%s/?replicaSet=%s" % (",".join("127.0.0.1:%d" % b.port for b in self.bridges), SET)

    def primary(self):
        """The index of the member that says it is primary (a paused one is not asked), or None."""
        m = primary_of([m for i, m in enumerate(self.members) if i not in self.paused])
        return None if m is None else self.members.index(m)

    def wait_healthy(self, timeout):
        want = ["PRIMARY", "SECONDARY", "SECONDARY"]

        def healthy():
            p = self.primary()
            return p is not None and sorted(s["stateStr"] for s in status(self.members[p])["members"]) == want

        wait_for(healthy, timeout, "a primary and two secondaries; member states: %s" %
                 [state_of(m) for m in self.members])

    # --- faults ---
    def kill9(self, i):
        self.members[i].kill9()

    def restart(self, i):
        m = self.members[i]
        if m.proc is None or m.proc.poll() is not None:
            m.start(timeout=120)

    def pause(self, i):
        self.members[i].proc.send_signal(signal.SIGSTOP)
        self.paused.add(i)

    def resume(self, i):
        if i in self.paused:
            self.members[i].proc.send_signal(signal.SIGCONT)
            self.paused.discard(i)

    def step_down(self, i):
        try:
            with self.members[i].client() as c:
                c.admin.command("replSetStepDown", 5, secondaryCatchUpPeriodSecs=2)
        except pymongo.errors.PyMongoError:
            pass  # no secondary caught up in time, or it is no longer primary: a fault all the same

    def link(self, a, b, cut):
        name = "rejectConnectionsFrom" if cut else "acceptConnectionsFrom"
        self.bridges[a].command({name: 1, "host": "127.0.0.1:%d" % self.members[b].port})
        self.bridges[b].command({name: 1, "host": "127.0.0.1:%d" % self.members[a].port})

    def isolate(self, i, cut=True):
        for j in range(3):
            if j != i:
                self.link(i, j, cut)

    def heal(self):
        for i in range(3):
            self.resume(i)
            self.restart(i)
        for a in range(3):
            for b in range(a + 1, 3):
                self.link(a, b, False)

    def stop(self):
        for i in range(3):
            self.resume(i)
        stop_all(self.members)
        for b in self.bridges:
            b.stop()


class Workload:
    """Writers and readers on threads until stop; what was acknowledged and what was read."""

    def __init__(self, uri):
        self.client = pymongo.MongoClient(uri, w="majority", wtimeoutMS=15000, serverSelectionTimeoutMS=15000,
                                          socketTimeoutMS=20000, retryWrites=True)
        self.db = self.client.faults
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.acked_ids = []
        self.acked_appends = {k: [] for k in LISTS}
        self.majority_reads = {k: [] for k in LISTS}
        self.errors = 0
        self.db.lists.insert_many([{"_id": k, "v": []} for k in LISTS])
        self.crashes = []  # a workload thread that died of anything but a driver error
        self.threads = [threading.Thread(target=self.guarded, args=(self.inserter, t)) for t in range(3)] + \
                       [threading.Thread(target=self.guarded, args=(self.appender, t)) for t in range(2)] + \
                       [threading.Thread(target=self.guarded, args=(self.reader,))]

    def start(self):
        for t in self.threads:
            t.start()

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(120)
            assert not t.is_alive(), "a workload thread did not end"
        self.client.close()
        assert not self.crashes, "workload threads died: %s" % self.crashes

    def guarded(self, fn, *args):
        try:
            fn(*args)
        except Exception as e:  # noqa: BLE001 (reported by finish)
            self.crashes.append("%s: %r" % (fn.__name__, e))

    def _attempt(self, op):
        try:
            op()
            return True
        except pymongo.errors.PyMongoError:
            with self.lock:
                self.errors += 1
            time.sleep(0.05)
            return False

    def inserter(self, t):
        n = 0
        while not self.stop.is_set():
            doc = {"_id": "i-%d-%d" % (t, n), "body": ("version %d of a page that changes a little each time. " % n) * 8}
            if self._attempt(lambda: self.db.docs.insert_one(doc)):
                with self.lock:
                    self.acked_ids.append(doc["_id"])
            n += 1

    def appender(self, t):
        rng = random.Random(SEED * 10 + t)
        n = 0
        while not self.stop.is_set():
            key, token = rng.choice(LISTS), "a-%d-%d" % (t, n)
            if self._attempt(lambda: self.db.lists.update_one({"_id": key}, {"$push": {"v": token}})):
                with self.lock:
                    self.acked_appends[key].append(token)
            n += 1

    def reader(self):
        coll = self.db.get_collection("lists", read_concern=ReadConcern("majority"))
        while not self.stop.is_set():
            for key in LISTS:
                got = []

                def read():
                    got.append(coll.find_one({"_id": key})["v"])
                if self._attempt(read):
                    with self.lock:
                        self.majority_reads[key].append(got[0])
            time.sleep(0.02)


def inject_faults(fs, seconds, rng, log):
    """One fault at a time, each held 2-10 s, a quiet 1-3 s between them."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        kind = rng.choice(["kill9", "pause", "isolate", "stepdown"])
        p = fs.primary()
        victim = p if p is not None and (kind == "stepdown" or rng.random() < 0.6) else rng.randrange(3)
        held = rng.uniform(2, 10)
        log.append("%.1f %s member %d (primary %s) for %.1f s" % (time.time() % 1000, kind, victim, p, held))
        if kind == "kill9":
            fs.kill9(victim)
            time.sleep(held)
            fs.restart(victim)
        elif kind == "pause":
            fs.pause(victim)
            time.sleep(held)
            fs.resume(victim)
        elif kind == "isolate":
            fs.isolate(victim)
            time.sleep(held)
            fs.isolate(victim, cut=False)
        elif victim == p:
            fs.step_down(p)
            time.sleep(held)
        time.sleep(rng.uniform(1, 3))


def member_client(m):
    return m.client(read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED)


@pytest.fixture
def faulty_set(tmp_path):
    fs = FaultySet(tmp_path)
    yield fs
    fs.stop()


@pytest.mark.timeout(int(FAULT_SECONDS) + 420)
def test_majority_writes_survive_random_kills_pauses_and_partitions(faulty_set):
    fs = faulty_set
    rng = random.Random(SEED)
    print("FAULT_SEED=%d FAULT_SECONDS=%g" % (SEED, FAULT_SECONDS))
    log = []
    work = Workload(fs.uri)
    work.start()
    try:
        inject_faults(fs, FAULT_SECONDS, rng, log)
    finally:
        work.finish()
        fs.heal()
    why = "seed %d, faults:\n  %s" % (SEED, "\n  ".join(log))
    fs.wait_healthy(180)

    # Every member holds everything: one last write that all three must acknowledge.
    with pymongo.MongoClient(fs.uri, serverSelectionTimeoutMS=30000) as c:
        c.faults.get_collection("docs", write_concern=pymongo.WriteConcern(w=3, wtimeout=120000)).insert_one({"_id": "end"})
    assert work.acked_ids and sum(map(len, work.acked_appends.values())), "the workload made no progress: " + why

    for m in fs.members:
        with member_client(m) as c:
            db = c.faults
            present = {d["_id"] for d in db.docs.find({}, {"_id": 1})}
            lost = [i for i in work.acked_ids if i not in present]
            assert not lost, "member %d lost %d acknowledged inserts (%s...): %s" % (m.port, len(lost), lost[:5], why)
            for key in LISTS:
                final = db.lists.find_one({"_id": key})["v"]
                assert len(final) == len(set(final)), "an append applied twice in %s on %d: %s" % (key, m.port, why)
                missing = [t for t in work.acked_appends[key] if t not in set(final)]
                assert not missing, "member %d lost acknowledged appends %s of %s: %s" % (m.port, missing[:5], key, why)
                for seen in work.majority_reads[key]:
                    assert final[:len(seen)] == seen, \
                        "a majority read of %s saw %s, not a prefix of the final %s: %s" % (key, seen[-5:], final[:len(seen)][-5:], why)

    hashes = []
    for m in fs.members:
        with member_client(m) as c:
            hashes.append(c.faults.command("dbHash")["collections"])
            for coll in ("docs", "lists"):
                v = c.faults.command("validate", coll, full=True)
                assert v["valid"] and not v["errors"], "validate of %s on %d: %s (%s)" % (coll, m.port, v, why)
    assert hashes[0] == hashes[1] == hashes[2], "dbHash differs: %s (%s)" % (hashes, why)

    # Oplogs agree: up to the last write, the newest entries (200, or fewer where a member's oplog
    # starts later: a member resynced after a rollback holds only what came since) are the same on
    # every member (a later entry, such as a periodic no-op, may not have reached every member yet).
    with member_client(fs.members[0]) as c:
        end_ts = c.local.oplog.rs.find_one({"ns": "faults.docs", "o._id": "end"})["ts"]
    tails = []
    for m in fs.members:
        with member_client(m) as c:
            tails.append([(e["ts"], e["t"], e.get("op"), e.get("ns")) for e in
                          c.local.oplog.rs.find({"ts": {"$lte": end_ts}}, {"ts": 1, "t": 1, "op": 1, "ns": 1})
                          .sort("$natural", -1).limit(200)])
    common = min(len(t) for t in tails)
    assert common >= 1 and tails[0][:common] == tails[1][:common] == tails[2][:common], \
        "the members' oplogs differ: %s" % why
    print("acknowledged: %d inserts, %d appends; %d majority reads; %d failed operations; faults:\n  %s" % (
        len(work.acked_ids), sum(map(len, work.acked_appends.values())), sum(map(len, work.majority_reads.values())),
        work.errors, "\n  ".join(log)))


# Minimal reproductions of what the randomized test found (fixed): regression tests.

def test_a_deposed_primary_does_not_count_the_new_terms_progress_toward_its_commit_point(faulty_set):
    """Seed 241376781: a primary paused with w: "majority" writes in flight was resumed after the
    others had elected a new primary and taken writes. A heartbeat told it the newer term; before its
    step-down ran, another heartbeat reported the other member's progress in that term, which it
    counted toward its own commit point (optimes order by term first): it acknowledged its
    unreplicated writes, and its rollback then removed them. The fail point blockHeartbeatStepdown
    holds the deposed primary in that window."""
    fs = faulty_set
    # The set's first elections may still be settling: a majority write commits in the primary's term.
    with pymongo.MongoClient(fs.uri, w="majority", serverSelectionTimeoutMS=30000) as c:
        c.faults.docs.insert_one({"_id": "settled"})
    p = fs.primary()
    old, others = fs.members[p], [m for i, m in enumerate(fs.members) if i != p]
    for m in others:
        hold_replication(m)
    outcome = {}

    def pending_write():
        with old.client(retryWrites=False, socketTimeoutMS=90000) as c:
            coll = c.faults.get_collection("docs", write_concern=pymongo.WriteConcern(w="majority", wtimeout=90000))
            try:
                coll.insert_one({"_id": "pending"})
                outcome["acknowledged"] = True
            except pymongo.errors.PyMongoError as e:
                outcome["error"] = e

    writer = threading.Thread(target=pending_write)
    writer.start()
    with old.client() as c:
        wait_for(lambda: c.local.oplog.rs.find_one({"o._id": "pending"}), 20, "the write in the primary's oplog")
        c.admin.command({"configureFailPoint": "blockHeartbeatStepdown", "mode": "alwaysOn"})
    fs.pause(p)
    for m in others:
        release_replication(m)
    wait_for(lambda: fs.primary() not in (None, p), 60, "a new primary")
    new = fs.primary()
    with fs.members[new].client() as c:
        c.faults.get_collection("docs", write_concern=pymongo.WriteConcern(w=2, wtimeout=30000)).insert_many(
            [{"_id": "after-%d" % i} for i in range(20)])
    fs.resume(p)
    # Both members' heartbeats reach the deposed primary while its step-down is held.
    time.sleep(4)
    acknowledged_while_deposed = outcome.get("acknowledged", False)
    with old.client() as c:
        c.admin.command({"configureFailPoint": "blockHeartbeatStepdown", "mode": "off"})
    writer.join(120)
    assert not writer.is_alive()
    fs.wait_healthy(120)
    with fs.members[fs.primary()].client() as c:
        kept = c.faults.docs.find_one({"_id": "pending"}) is not None
    assert not kept, "the pending write of the deposed primary survived (it was never replicated)"
    assert not acknowledged_while_deposed and "error" in outcome, \
        "the deposed primary acknowledged a w: majority write the set does not hold: %s" % outcome
