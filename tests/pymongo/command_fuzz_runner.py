"""Shared by test_command_fuzz.py and test_command_errors.py: sends raw commands to a mongod
and checks that every reply is a MongoDB-style command reply, detecting crashes and hangs."""
import collections
import os
import resource
import struct
import subprocess
import time

import bson
import pytest
from bson import Int64
from bson.codec_options import CodecOptions, DatetimeConversion

import wire
from command_fuzz_cases import dup_doc
from conftest import host_port

KEEP_GOING = os.environ.get("FUZZ_KEEP_GOING") == "1"
REPLY_TIMEOUT = 30.0  # no reply within this: a hang
SLOW_SECONDS = 5.0    # a request that takes this long is reported too
MEMORY_LIMIT_MB = int(os.environ.get("FUZZ_MEMORY_LIMIT_MB", "4096"))
# Replies are decoded without interpreting binData subtype 4 (replies echo malformed UUIDs).
REPLY_CODEC = CodecOptions(datetime_conversion=DatetimeConversion.DATETIME_AUTO)


class ServerDied(Exception):
    pass


def _ok_number(v):
    return isinstance(v, (int, float, Int64)) and not isinstance(v, bool) and v in (0, 1)


def reply_problem(reply):
    """Why `reply` is not a MongoDB-style command reply, or None."""
    if not isinstance(reply, dict):
        return "reply is not a document"
    if "ok" not in reply or not _ok_number(reply["ok"]):
        return "reply has no numeric ok of 0 or 1"
    if reply["ok"] == 0:
        code = reply.get("code")
        if not isinstance(code, int) or isinstance(code, bool) or code <= 0:
            return "ok: 0 without a positive integer code"
        if not isinstance(reply.get("codeName"), str) or not reply["codeName"]:
            return "ok: 0 without a codeName"
        if not isinstance(reply.get("errmsg"), str) or not reply["errmsg"]:
            return "ok: 0 without an errmsg"
        if code < 1000 and reply["codeName"].startswith("Location"):
            return "code %d has a name in MongoDB, the reply says %s" % (code, reply["codeName"])
        if code == 1 and reply["errmsg"].startswith("unexpected error"):
            return "a C++ exception escaped the command (InternalError: %s)" % reply["errmsg"][:200]
        if reply["codeName"] == "ExceededMemoryLimit" and reply["errmsg"].startswith("out of memory running"):
            return "std::bad_alloc escaped the command"
    for we in reply.get("writeErrors", []) or []:
        if not isinstance(we, dict) or not isinstance(we.get("code"), int) or not isinstance(we.get("errmsg"), str):
            return "malformed writeErrors entry %r" % (we,)
    return None


def short(obj, limit=600):
    s = repr(obj)
    return s if len(s) <= limit else s[:limit] + "...(%d chars)" % len(s)


class Runner:
    """Sends commands over one raw connection to `mongod` (a conftest.MongodProcess) and checks
    each reply's shape; collects problems and crashes."""

    def __init__(self, mongod, keep_going=KEEP_GOING, slow_seconds=SLOW_SECONDS):
        self.mongod = mongod
        self.keep_going = keep_going
        self.slow_seconds = slow_seconds
        self.sock = None
        self.request_id = 0
        self.problems = []
        self.crashes = []
        self.sent = 0
        self.outcomes = collections.Counter()  # (command, codeName or "ok") -> count
        self._connect()

    def _connect(self):
        if self.sock is not None:
            self.sock.close()
        self.sock = wire.connect("127.0.0.1", self.mongod.port, timeout=REPLY_TIMEOUT)

    def raw_request(self, db, pairs):
        """Sends {pairs..., $db: db}; returns the reply document (or raises socket errors)."""
        self.request_id += 1
        doc = dup_doc(*(list(pairs) + [("$db", db)])).raw
        body = struct.pack("<I", 0) + b"\x00" + doc
        self.sock.sendall(wire.header(16 + len(body), self.request_id, 0, wire.OP_MSG) + body)
        hdr = wire.recv_exact(self.sock, 16)
        length, _, response_to, opcode = struct.unpack("<iiii", hdr)
        payload = wire.recv_exact(self.sock, length - 16)
        assert opcode == wire.OP_MSG, "reply opcode %d" % opcode
        assert response_to == self.request_id, "reply to %d, expected %d" % (response_to, self.request_id)
        assert payload[4] == 0, "reply must start with a body section"
        doc_len = struct.unpack("<i", payload[5:9])[0]
        return bson.decode(payload[5:5 + doc_len], codec_options=REPLY_CODEC)

    def alive(self):
        for _ in range(20):
            proc = getattr(self.mongod, "proc", None)
            if proc is not None and proc.poll() is not None:
                return False
            try:
                self._connect()
                return self.raw_request("admin", [("ping", 1)]).get("ok") == 1
            except (OSError, wire.Closed, AssertionError):
                time.sleep(0.1)
        return False

    def send(self, label, db, pairs):
        """Runs one case; returns the reply or None. Raises ServerDied unless KEEP_GOING."""
        self.sent += 1
        start = time.monotonic()
        try:
            reply = self.raw_request(db, pairs)
        except (OSError, wire.Closed) as e:
            what = "no reply (%s: %s)" % (type(e).__name__, e)
            if not self.alive():
                self.crashes.append((label, db, pairs, what, self.mongod.tail(60)))
                if not self.keep_going:
                    raise ServerDied(self.describe(label, db, pairs, "server died: " + what) + "\n--- mongod log tail:\n" +
                                     self.mongod.tail(60))
                self.mongod.start()
                self._connect()
                return None
            self.problems.append(self.describe(label, db, pairs, what))
            return None
        except (bson.errors.InvalidBSON, UnicodeDecodeError, ValueError, OverflowError) as e:
            self.problems.append(self.describe(label, db, pairs, "undecodable reply: %s" % e))
            self._connect()
            return None
        elapsed = time.monotonic() - start
        if elapsed > self.slow_seconds:
            self.problems.append(self.describe(label, db, pairs, "took %.1f s" % elapsed))
        if isinstance(reply, dict):
            outcome = reply.get("codeName", "ok")
            if reply.get("writeErrors"):
                outcome = "writeError %s" % reply["writeErrors"][0].get("code")
            self.outcomes[(label.split(":")[0], outcome)] += 1
        why = reply_problem(reply)
        if why:
            self.problems.append(self.describe(label, db, pairs, why + "; reply " + short(reply, 300)))
        return reply

    @staticmethod
    def describe(label, db, pairs, what):
        return "[%s] db=%s %s -> %s" % (label, db, short(pairs), what)

    def run(self, label, db, pairs):
        return self.send(label, db, pairs)


class SuiteServer:
    """The suite's own server (MONGODB_URI), in the shape Runner expects."""
    proc = None

    def __init__(self):
        self.port = host_port()[1]

    def tail(self, lines=40):
        return "(see the suite's mongod log)"


def _sanitized(binary):
    with open(binary, "rb") as f:
        return b"__asan_init" in f.read()


@pytest.fixture
def limited_mongod_factory(mongod_factory, monkeypatch):
    """mongod_factory whose servers run under an address-space limit (FUZZ_MEMORY_LIMIT_MB,
    default 4096; 0 or an ASan build: none), so a runaway allocation ends as bad_alloc inside
    the server instead of in the machine's OOM killer, which may pick any process."""
    binary = os.environ.get("MONGOD_BIN", "")
    limit = [MEMORY_LIMIT_MB << 20]
    if MEMORY_LIMIT_MB > 0 and os.path.isfile(binary) and not _sanitized(binary):
        real_popen = subprocess.Popen

        def popen(*args, **kw):
            kw.setdefault("preexec_fn", lambda: resource.setrlimit(resource.RLIMIT_AS, (limit[0], limit[0])))
            return real_popen(*args, **kw)

        monkeypatch.setattr(subprocess, "Popen", popen)

    def make(extra_args=(), dbpath=None, limit_mb=None):
        limit[0] = min(limit_mb or MEMORY_LIMIT_MB, MEMORY_LIMIT_MB) << 20
        return mongod_factory(extra_args, dbpath)
    return make
