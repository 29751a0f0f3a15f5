"""Servers a suite runs against: one mongod, or a replica set of them."""

import os
import shutil
import signal
import subprocess
import tempfile
import time

from resmokelib.ports import allocate_ports
from resmokelib.process import REPO, indent, run_process, tail, tail_text
from resmokelib.wire import command_ok, ping


class MongodFixture:
    """One mongod process on a free port and a fresh temporary dbpath.

    start() raises RuntimeError with a readable reason if the server does not come up;
    stop() returns None on a clean shutdown or a description of what went wrong."""

    def __init__(self, mongod_bin, suite, extra_args, log_dir, startup_timeout=60):
        self.mongod_bin = mongod_bin
        self.suite = suite
        self.extra_args = list(extra_args)
        self.log_path = os.path.join(log_dir, "mongod.log")
        self.startup_timeout = startup_timeout
        self.auth = "--auth" in self.extra_args
        self.proc = None
        self.port = None
        self.dbpath = None
        self.log_file = None

    # With auth (suite.json "auth": true) the server runs with --auth and a root user made
    # through the localhost exception; the URI carries its credentials.
    AUTH_USER, AUTH_PASSWORD = "resmoke-root", "resmoke-pw"

    @property
    def uri(self):
        creds = "%s:%s@" % (self.AUTH_USER, self.AUTH_PASSWORD) if self.auth else ""
        return "mongodb://%s127.0.0.1:%d/?directConnection=true" % (creds, self.port)

    def create_auth_user(self):
        if not command_ok(self.port, {"createUser": self.AUTH_USER, "pwd": self.AUTH_PASSWORD, "roles": ["root"],
                                      "$db": "admin"}, timeout=30):
            raise RuntimeError("could not create the suite's root user; log tail:\n%s" % tail(self.log_path))

    def start(self):
        if not os.path.isfile(self.mongod_bin) or not os.access(self.mongod_bin, os.X_OK):
            raise RuntimeError("mongod binary not found at %s (build it with `scons -j2`)" % self.mongod_bin)
        self.port = allocate_ports(1)
        self.dbpath = tempfile.mkdtemp(prefix="resmoke-%s-" % self.suite)
        args = [self.mongod_bin, "--port", str(self.port), "--bind_ip", "127.0.0.1",
                "--dbpath", self.dbpath, "--setParameter", "enableTestCommands=1"] + self.extra_args
        self.log_file = open(self.log_path, "wb")
        self.log_file.write(("# %s\n" % " ".join(args)).encode())
        self.log_file.flush()
        self.proc = subprocess.Popen(args, stdout=self.log_file, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=REPO)
        deadline = time.time() + self.startup_timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("mongod exited with code %s during startup; log tail:\n%s"
                                   % (self.proc.returncode, tail(self.log_path)))
            if ping(self.port):
                return
            time.sleep(0.2)
        self.kill()
        raise RuntimeError("mongod did not answer ping within %ds; log tail:\n%s"
                           % (self.startup_timeout, tail(self.log_path)))

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        if self.alive():
            self.proc.kill()
            self.proc.wait()

    def stop(self, timeout=60):
        if self.proc is None:
            return None
        problem = None
        if self.proc.poll() is not None:
            problem = "mongod died during the suite (exit code %s)" % self.proc.returncode
        else:
            self.proc.send_signal(signal.SIGTERM)
            try:
                code = self.proc.wait(timeout=timeout)
                if code != 0:
                    problem = "mongod exited with code %d after SIGTERM" % code
            except subprocess.TimeoutExpired:
                self.kill()
                problem = "mongod did not exit within %ds of SIGTERM; killed" % timeout
        if self.log_file:
            self.log_file.close()
        if self.dbpath:
            shutil.rmtree(self.dbpath, ignore_errors=True)
        return problem


class ReplSetFixture:
    """A replica set of `members` mongods on consecutive free ports, started once for a whole suite
    (suite.json "replSet": N), as MongoDB's replica_sets_jscore_passthrough runs jstests/core.

    start() starts the members with --replSet, then jstests/lib/rs_passthrough_hooks.js (mongosh)
    initiates the set (member 0 primary, the others priority 0 so the primary stays put), waits
    for the secondaries and checks that the set's default write concern is w: "majority". Tests get
    the set's connection string (replicaSet=...&w=majority: mongosh talks to the primary).
    check() runs the end checks through the same hook file (dbHash equal, oplogs agree, validate);
    stop() stops every member with SIGTERM and reports the first unclean exit."""

    SET_NAME = "rs0"

    def __init__(self, ctx, suite, members, extra_args, log_dir):
        self.ctx = ctx
        self.log_dir = log_dir
        base = list(extra_args) + ["--replSet", self.SET_NAME]
        if "--oplogSize" not in base:
            base += ["--oplogSize", "256"]
        self.members = [MongodFixture(ctx.mongod, suite, base, log_dir) for _ in range(members)]
        for i, m in enumerate(self.members):
            m.log_path = os.path.join(log_dir, "mongod-%d.log" % i)
        self.auth = False
        self.log_path = self.members[0].log_path

    @property
    def port(self):
        return self.members[0].port

    @property
    def hosts(self):
        return ["127.0.0.1:%d" % m.port for m in self.members]

    @property
    def uri(self):
        return "mongodb://%s/?replicaSet=%s&w=majority" % (",".join(self.hosts), self.SET_NAME)

    def _hook(self, hook, timeout):
        env = self.ctx.base_env()
        env["RS_HOOK"], env["RS_NAME"], env["RS_HOSTS"] = hook, self.SET_NAME, ",".join(self.hosts)
        args = [self.ctx.mongosh, "--quiet", "--norc", "--nodb", os.path.join("jstests", "lib", "rs_passthrough_hooks.js")]
        code, output, secs = run_process(args, env, timeout, os.path.join(self.log_dir, "hook-%s.log" % hook))
        if code != 0:
            return "%s hook %s after %.0fs\n%s" % (hook, "timed out" if code is None else "exited with %s" % code,
                                                  secs, tail_text(output))
        return None

    def start(self):
        for m in self.members:
            m.start()
        problem = self._hook("initiate", 180)
        if problem:
            for m in self.members:
                m.kill()
            raise RuntimeError(problem + "\n" + self.log_tails())

    def check(self):
        """None when the end checks pass, else what failed."""
        return self._hook("check", 300)

    def alive(self):
        return all(m.alive() for m in self.members)

    def kill(self):
        for m in self.members:
            m.kill()

    def log_tails(self, lines=8):
        return "\n".join("member %d (%s):\n%s" % (i, os.path.relpath(m.log_path, REPO), indent(tail(m.log_path, lines)))
                         for i, m in enumerate(self.members))

    def stop(self, timeout=60):
        problems = []
        # Secondaries first: a primary stopped first would leave them electing for nothing.
        for i in list(range(1, len(self.members))) + [0]:
            p = self.members[i].stop(timeout)
            if p:
                problems.append("member %d: %s" % (i, p))
        return "; ".join(problems) or None
