"""A three-member replica set of local mongod processes for the replication benchmark.

Each member gets a free port and a data directory under one temporary root; the set uses the
server's default settings (electionTimeoutMillis 10 s) so that failover figures are what a user
gets. Members can be killed (SIGKILL), paused (SIGSTOP), resumed and restarted with the same
data directory. Not thread-safe: one benchmark thread drives it (load threads only use clients).
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pymongo


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Member:
    def __init__(self, mongod, root, i, set_name, oplog_mb):
        self.i = i
        self.port = free_port()
        self.host = "127.0.0.1:%d" % self.port
        self.dbpath = os.path.join(root, "m%d" % i)
        self.log_path = os.path.join(root, "m%d.log" % i)
        os.makedirs(self.dbpath, exist_ok=True)
        self.args = [mongod, "--port", str(self.port), "--bind_ip", "127.0.0.1", "--dbpath", self.dbpath,
                     "--replSet", set_name, "--oplogSize", str(oplog_mb)]
        self.proc = None
        self.paused = False

    def start(self):
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(self.args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.paused = False
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("member %d exited with %s at start-up (log %s)" % (self.i, self.proc.returncode, self.log_path))
            try:
                with self.client(timeout_ms=500) as c:
                    c.admin.command("ping")
                return
            except pymongo.errors.PyMongoError:
                time.sleep(0.1)
        raise RuntimeError("member %d did not answer within 60 s" % self.i)

    def client(self, timeout_ms=2000):
        return pymongo.MongoClient(self.host, directConnection=True, serverSelectionTimeoutMS=timeout_ms,
                                   connectTimeoutMS=timeout_ms, socketTimeoutMS=timeout_ms)

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def pause(self):
        self.proc.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self):
        self.proc.send_signal(signal.SIGCONT)
        self.paused = False

    def stop(self):
        if not self.running():
            return
        if self.paused:
            self.resume()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class ReplSet:
    def __init__(self, mongod, n=3, set_name="rs0", oplog_mb=1024, root=None):
        self.root = root or tempfile.mkdtemp(prefix="repl-bench-")
        self.set_name = set_name
        self.members = [Member(os.path.abspath(mongod), self.root, i, set_name, oplog_mb) for i in range(n)]

    @property
    def uri(self):
        return "mongodb://%s/?replicaSet=%s" % (",".join(m.host for m in self.members), self.set_name)

    def start(self):
        for m in self.members:
            m.start()
        with self.members[0].client(timeout_ms=10000) as c:
            c.admin.command("replSetInitiate", {"_id": self.set_name,
                                                "members": [{"_id": m.i, "host": m.host} for m in self.members]})
        self.wait_primary(timeout=120)
        self.wait_secondaries(timeout=120)

    def hello(self, m, timeout_ms=1000):
        if not m.running() or m.paused:
            return None
        try:
            with m.client(timeout_ms) as c:
                return c.admin.command("hello")
        except pymongo.errors.PyMongoError:
            return None

    def primary(self, exclude=None, timeout_ms=1000):
        """The member that says it is the writable primary (not `exclude`), or None."""
        for m in self.members:
            if m is exclude:
                continue
            h = self.hello(m, timeout_ms)
            if h and h.get("isWritablePrimary"):
                return m
        return None

    def wait_primary(self, exclude=None, timeout=60, poll=0.05):
        deadline = time.time() + timeout
        while time.time() < deadline:
            p = self.primary(exclude)
            if p:
                return p
            time.sleep(poll)
        raise RuntimeError("no primary within %d s" % timeout)

    def wait_secondaries(self, timeout=120):
        """Every running member PRIMARY or SECONDARY, one primary, and all caught up with it."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            states = [self.hello(m) for m in self.members]
            if all(h and (h.get("isWritablePrimary") or h.get("secondary")) for h in states):
                p = self.primary()
                if p and self.caught_up(p):
                    return
            time.sleep(0.2)
        raise RuntimeError("members did not all become secondaries within %d s" % timeout)

    def caught_up(self, p):
        try:
            with p.client() as c:
                st = c.admin.command("replSetGetStatus")
        except pymongo.errors.PyMongoError:
            return False
        opt = [x.get("optime", {}).get("ts") for x in st.get("members", [])]
        return len(opt) == len(self.members) and all(t is not None and t == opt[0] for t in opt)

    def wait_member_secondary(self, m, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            h = self.hello(m)
            if h and h.get("secondary"):
                return True
            time.sleep(0.2)
        return False

    def unhealthy(self):
        """Running members that are neither PRIMARY nor SECONDARY (e.g. RECOVERING after a
        divergence they cannot roll back)."""
        out = []
        for m in self.members:
            h = self.hello(m)
            if not (h and (h.get("isWritablePrimary") or h.get("secondary"))):
                out.append(m)
        return out

    def rollbacks(self):
        """Rollbacks the members went through so far (their logs' "resyncing from the set" line,
        id 21612, written once per rollback)."""
        n = 0
        for m in self.members:
            try:
                with open(m.log_path, "rb") as f:
                    n += f.read().count(b'"id":21612,')
            except OSError:
                pass
        return n

    def reseed(self, bad):
        """Empties each member of `bad` and restarts it: it initial-syncs from the set. For members
        still not PRIMARY/SECONDARY long after a failover (rollback is automatic)."""
        for m in bad:
            m.stop()
            shutil.rmtree(m.dbpath, ignore_errors=True)
            os.makedirs(m.dbpath, exist_ok=True)
            m.start()

    def summary(self):
        out = []
        for m in self.members:
            h = self.hello(m)
            state = "down" if not m.running() else "paused" if m.paused else "unreachable" if h is None else \
                "PRIMARY" if h.get("isWritablePrimary") else "SECONDARY" if h.get("secondary") else "other"
            out.append("member %d %s" % (m.i, state))
        return ", ".join(out) + " (logs in %s)" % self.root

    def stop(self, keep=False):
        for m in sorted(self.members, key=lambda m: -m.i):
            m.stop()
        if not keep:
            shutil.rmtree(self.root, ignore_errors=True)
