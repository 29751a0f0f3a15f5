"""Fixtures for the pymongo black-box tests of mongod.

Environment (set by buildscripts/resmoke.py):
  MONGODB_URI     the suite's server, started fresh by the runner
  MONGOD_BIN      the mongod binary, for tests that start servers of their own
  TEST_PORT_BASE  first of TEST_PORT_COUNT (20) ports those servers may use
"""
import os
import shutil
import re
import signal
import socket
import subprocess
import time

import pymongo
import pytest

URI = os.environ.get("MONGODB_URI", "mongodb://127.0.0.1:27017/?directConnection=true")


def host_port(uri=URI):
    m = re.match(r"mongodb://(?:[^@/]*@)?([^/?,]+)", uri)  # without user:password@
    host, _, port = m.group(1).rpartition(":")
    return host, int(port)


@pytest.fixture(scope="session")
def client():
    c = pymongo.MongoClient(URI, serverSelectionTimeoutMS=10000)
    yield c
    c.close()


@pytest.fixture
def db(client, request):
    """A freshly dropped database named after the test."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", "pytest_" + request.node.name)[:60]
    client.drop_database(name)
    yield client[name]
    client.drop_database(name)


class MongodProcess:
    """A mongod of the test's own, on its own port and dbpath; can be restarted or killed."""

    def __init__(self, binary, port, dbpath, log_dir, extra_args):
        self.binary = binary
        self.port = port
        self.dbpath = dbpath
        self.log_dir = log_dir
        self.extra_args = list(extra_args)
        self.proc = None
        self.starts = 0

    @property
    def uri(self):
        return "mongodb://127.0.0.1:%d/?directConnection=true" % self.port

    @property
    def log_path(self):
        return os.path.join(self.log_dir, "mongod-%d-%d.log" % (self.port, self.starts))

    def start(self, timeout=60):
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.starts += 1
        os.makedirs(self.dbpath, exist_ok=True)
        args = [self.binary, "--port", str(self.port), "--bind_ip", "127.0.0.1", "--dbpath", self.dbpath,
                "--setParameter", "enableTestCommands=1"] + self.extra_args
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("mongod exited with %s during startup:\n%s" % (self.proc.returncode, self.tail()))
            try:
                with pymongo.MongoClient(self.uri, serverSelectionTimeoutMS=500, connectTimeoutMS=500) as c:
                    c.admin.command("ping")
                return self
            except pymongo.errors.PyMongoError:
                time.sleep(0.2)
        self.kill9()
        raise AssertionError("mongod did not start within %ds:\n%s" % (timeout, self.tail()))

    def client(self, **kw):
        kw.setdefault("serverSelectionTimeoutMS", 10000)
        return pymongo.MongoClient(self.uri, **kw)

    def stop(self, timeout=60):
        """SIGTERM and wait; returns the exit code (MongoDB exits 0 on SIGTERM)."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("mongod did not stop within %ds of SIGTERM" % timeout)
        finally:
            self.log.close()

    def kill9(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
            self.log.close()

    def restart(self):
        self.stop()
        return self.start()

    def tail(self, lines=40):
        try:
            with open(self.log_path, "rb") as f:
                return "\n".join(f.read().decode("utf-8", "replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def _port_free(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


@pytest.fixture
def mongod_factory(tmp_path):
    """Returns make(extra_args=(), dbpath=None) -> a started MongodProcess; all are stopped at the end."""
    binary = os.environ.get("MONGOD_BIN")
    if not binary:
        pytest.skip("MONGOD_BIN is not set (run through buildscripts/resmoke.py)")
    assert os.path.isfile(binary), "MONGOD_BIN %s does not exist" % binary
    base = int(os.environ.get("TEST_PORT_BASE", "29000"))
    count = int(os.environ.get("TEST_PORT_COUNT", "20"))
    started = []

    def make(extra_args=(), dbpath=None):
        for port in range(base, base + count):
            if port not in [m.port for m in started] and _port_free(port):
                break
        else:
            raise AssertionError("no free port in %d..%d" % (base, base + count - 1))
        m = MongodProcess(binary, port, dbpath or str(tmp_path / ("db%d" % len(started))), str(tmp_path), extra_args)
        started.append(m)
        return m.start()

    yield make
    for m in started:
        try:
            code = m.stop()
        except AssertionError:
            code = None
        if code not in (0, None):
            print("mongod on port %d exited with %s; log tail:\n%s" % (m.port, code, m.tail()))
    # A data directory holds 200 MB of preallocated journal: keep the logs, not the data, so a
    # whole suite's servers never pile up on disk.
    for m in started:
        if m.dbpath.startswith(str(tmp_path)):
            shutil.rmtree(m.dbpath, ignore_errors=True)


@pytest.fixture(scope="module")
def mongod_bin():
    """The mongod binary, for tests that start it with options it must refuse (run_mongod)."""
    binary = os.environ.get("MONGOD_BIN")
    if not binary:
        pytest.skip("MONGOD_BIN is not set (run through buildscripts/resmoke.py)")
    return binary


def run_mongod(binary, args, tmp_path):
    """Runs mongod expecting it to refuse its options; it must exit on its own, quickly."""
    port = int(os.environ.get("TEST_PORT_BASE", "29000"))
    dbpath = tmp_path / "db"
    dbpath.mkdir(exist_ok=True)
    full = [binary, "--port", str(port), "--bind_ip", "127.0.0.1", "--dbpath", str(dbpath)] + args
    proc = subprocess.run(full, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
