#!/usr/bin/env python3
"""Black-box test runner for our mongod (a small cousin of MongoDB's resmoke).

For every suite that needs a server it starts a fresh mongod on a free port with a
temporary dbpath, waits until it answers `ping`, runs the suite's tests, stops it with
SIGTERM and checks that it shut down cleanly.  Output is one `PASS`/`FAIL`/`SKIP` line per
test and, as the very last line, `N passed, N failed` (`, N skipped` when any were skipped).
The exit code is non-zero when anything failed or when no test ran at all.

Suites (run in this order by default):
  unit          build/install/bin/mongo_unittests (googletest; no server)
  core          jstests/core/*.js, each run by mongosh connected to the suite's server
  <name>        any other jstests/<name>/ holding *.js files; jstests/noPassthrough runs with
                --nodb (tests start their own servers, see MONGOD_BIN / TEST_PORT_BASE).  A
                directory may hold `suite.json`: {"nodb": bool, "mongodArgs": [..], "timeout": s,
                "include": ["../core/*.js"], "exclude": [..], "replSet": N, "checkEvery": N}
                (include runs other suites' tests under these options; "replSet": N runs them
                against one N-member replica set started for the suite, w: "majority" as the
                default write concern, with dbHash/oplog/validate checks on every member after
                every "checkEvery" tests and at the end); with "--auth" among mongodArgs the
                suite's server gets a root user (made through the localhost exception) and
                MONGODB_URI carries its credentials
  pymongo       pytest tests/pymongo, MONGODB_URI pointing at the suite's server
  pymongo_dedup the same against mongod --dedup
  pymongo_auth  the files that use only the suite's server, against mongod --auth as a root user
  driver_transactions
                pymongo's own transactions specification tests (its source distribution, from
                setup.sh) against a three-member replica set (buildscripts/driver_suites/)
  c_client      build/install/bin/c_client_crud <uri>, once plain and once with zstd

Every test process gets these environment variables:
  MONGODB_URI     connection string of the suite's server (absent for --nodb suites)
  MONGOD_BIN      absolute path of the mongod under test
  TEST_PORT_BASE  first of 20 free ports a test may use for servers it starts itself
  MONGOSH, PYTHON tools from build.env
Logs of each suite (mongod's output and each failing test's output) go to build/test-logs/<suite>/.
"""

import argparse
import concurrent.futures
import fnmatch
import glob
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from resmokelib.fixtures import MongodFixture, ReplSetFixture  # noqa: E402
from resmokelib.ports import allocate_ports  # noqa: E402
from resmokelib.process import REPO, indent, run_process, tail, tail_text  # noqa: E402

BIN_DIR = os.path.join(REPO, "build", "install", "bin")
LOG_ROOT = os.path.join(REPO, "build", "test-logs")
# Every data directory, socket and temporary file a suite makes lives under SCRATCH_ROOT/<suite>
# (TMPDIR points there) and is removed when the suite ends: a mongod data directory holds 200 MB of
# preallocated journal, and runs that leave theirs behind fill the disk within a day.
SCRATCH_ROOT = os.path.join(REPO, "build", "tmp")
PORTS_PER_TEST_RANGE = 20
BUILTIN_SUITES = ["unit", "core", "pymongo", "pymongo_dedup", "pymongo_auth", "driver_transactions", "c_client"]
JS_SUITE_SKIP_DIRS = {"lib", "core"}


# --------------------------------------------------------------------------------------
# Small utilities


def read_build_env():
    """build.env is written by buildscripts/setup.sh: KEY=VALUE lines."""
    env = {}
    path = os.path.join(REPO, "build.env")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if "=" in line and not line.startswith("#"):
                    k, v = line.split("=", 1)
                    env[k] = v
    return env


# --------------------------------------------------------------------------------------
# Reporting


class Reporter:
    """Collects results from (possibly concurrent) tests and prints one line per test."""

    def __init__(self, verbose):
        self.lock = threading.Lock()
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.failures = []
        self.verbose = verbose

    def result(self, name, status, seconds=None, detail=None):
        with self.lock:
            timing = " (%.1fs)" % seconds if seconds is not None else ""
            if status == "PASS":
                self.passed += 1
            elif status == "SKIP":
                self.skipped += 1
            else:
                status = "FAIL"
                self.failed += 1
                self.failures.append(name)
            line = "%s %s%s" % (status, name, timing)
            if status == "SKIP" and detail:
                line += " -- " + detail.strip().splitlines()[0][:200]
            print(line, flush=True)
            if status == "FAIL" and detail:
                print(indent(detail), flush=True)
            elif self.verbose and detail and status == "PASS":
                print(indent(detail), flush=True)

    def note(self, text):
        with self.lock:
            print(text, flush=True)

    def summary_line(self):
        line = "%d passed, %d failed" % (self.passed, self.failed)
        if self.skipped:
            line += ", %d skipped" % self.skipped
        return line


# --------------------------------------------------------------------------------------
# Suites


class Context:
    def __init__(self, opts, reporter, benv):
        self.opts = opts
        self.reporter = reporter
        self.benv = benv
        self.mongod = os.path.abspath(opts.mongod)
        self.mongosh = opts.mongosh or benv.get("MONGOSH") or shutil.which("mongosh") or ""
        self.python = benv.get("PYTHON") or sys.executable

    def base_env(self):
        env = dict(os.environ)
        env["MONGOD_BIN"] = self.mongod
        env["MONGOSH"] = self.mongosh
        env["PYTHON"] = self.python
        env["TEST_PORT_BASE"] = str(allocate_ports(PORTS_PER_TEST_RANGE))
        env["TEST_PORT_COUNT"] = str(PORTS_PER_TEST_RANGE)
        # mongosh: no telemetry, no update checks, no history in $HOME.
        env["MONGOSH_NO_TELEMETRY"] = "1"
        env["DO_NOT_TRACK"] = "1"
        env.setdefault("MONGOSH_NO_UPDATE_CHECK", "1")
        return env


def matches_filter(relpath, filters):
    if not filters:
        return True
    base = os.path.basename(relpath)
    for f in filters:
        if f in relpath or fnmatch.fnmatch(relpath, f) or fnmatch.fnmatch(base, f):
            return True
        if os.path.abspath(f) == os.path.join(REPO, relpath):
            return True
    return False


def keep_server_logs(scratch, dest, limit=512 * 1024 * 1024):
    """The logs of the servers a failed suite's tests started themselves (replica-set members,
    restarted servers) live in its scratch directory, which is removed: keep them beside the
    suite's logs, for whoever explains the failure."""
    kept = 0
    for root, _dirs, files in os.walk(scratch):
        for f in files:
            if not f.endswith(".log"):
                continue
            src = os.path.join(root, f)
            try:
                size = os.path.getsize(src)
                if kept + size > limit:
                    continue
                target = os.path.join(dest, os.path.relpath(src, scratch))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(src, target)
                kept += size
            except OSError:
                pass


def suite_log_dir(suite):
    d = os.path.join(LOG_ROOT, suite)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d, exist_ok=True)
    return d


def with_server(ctx, suite, extra_args, log_dir, body, repl_set=0):
    """Starts a mongod (or a replica set of `repl_set` members) for `suite`, runs body(fixture),
    stops it and reports its shutdown."""
    rep = ctx.reporter
    if repl_set:
        fixture = ReplSetFixture(ctx, suite, repl_set, extra_args, log_dir)
    else:
        fixture = MongodFixture(ctx.mongod, suite, extra_args, log_dir)
    try:
        fixture.start()
        if fixture.auth:
            fixture.create_auth_user()
    except RuntimeError as e:
        rep.result("%s/mongod_startup" % suite, "FAIL", detail=str(e))
        return
    if repl_set:
        rep.note("[%s] replica set %s, logs in %s" % (suite, fixture.uri, os.path.relpath(log_dir, REPO)))
    else:
        rep.note("[%s] mongod on port %d, log %s" % (suite, fixture.port, os.path.relpath(fixture.log_path, REPO)))
    failed_before = rep.failed
    try:
        body(fixture)
    finally:
        problem = fixture.stop()
    if problem:
        rep.result("%s/mongod_shutdown" % suite, "FAIL",
                   detail=problem + "\nmongod log tail:\n" + tail(fixture.log_path))
    elif rep.failed > failed_before:
        if repl_set:
            rep.note("[%s] member log tails:\n%s" % (suite, fixture.log_tails()))
        else:
            rep.note("[%s] mongod log tail (%s):\n%s" % (suite, os.path.relpath(fixture.log_path, REPO),
                                                         indent(tail(fixture.log_path))))


def run_unit(ctx):
    rep = ctx.reporter
    log_dir = suite_log_dir("unit")
    binary = os.path.join(BIN_DIR, "mongo_unittests")
    if not os.path.isfile(binary):
        rep.result("unit/mongo_unittests", "FAIL", detail="%s not found (build it with `scons -j2`)" % binary)
        return
    xml_path = os.path.join(log_dir, "unit.xml")
    args = [binary, "--gtest_brief=1", "--gtest_output=xml:" + xml_path]
    if ctx.opts.tests:
        args.append("--gtest_filter=" + ":".join("*%s*" % t for t in ctx.opts.tests))
    env = ctx.base_env()
    code, output, secs = run_process(args, env, ctx.opts.unit_timeout, os.path.join(log_dir, "unit.log"))
    counted = 0
    failed_before = rep.failed
    if os.path.exists(xml_path):
        try:
            root = ET.parse(xml_path).getroot()
            for tc in root.iter("testcase"):
                name = "unit/%s.%s" % (tc.get("classname"), tc.get("name"))
                t = float(tc.get("time") or 0)
                failures = tc.findall("failure")
                if tc.get("result") == "skipped" or tc.get("status") == "notrun" or tc.find("skipped") is not None:
                    rep.result(name, "SKIP", t)
                elif failures:
                    rep.result(name, "FAIL", t, "\n".join((f.get("message") or "") for f in failures))
                else:
                    rep.result(name, "PASS", t)
                counted += 1
        except ET.ParseError as e:
            rep.result("unit/xml_report", "FAIL", detail="unreadable gtest XML: %s" % e)
    if code is None:
        rep.result("unit/mongo_unittests", "FAIL", secs, "timed out after %ds\n%s" % (ctx.opts.unit_timeout, tail_text(output)))
    elif counted == 0 and code != 0:
        rep.result("unit/mongo_unittests", "FAIL", secs,
                   "exited with code %s and wrote no results (crash?)\n%s" % (code, tail_text(output)))
    elif code != 0 and rep.failed == failed_before:
        rep.result("unit/mongo_unittests", "FAIL", secs, "exited with code %s\n%s" % (code, tail_text(output)))


def js_suite_config(suite_dir, name):
    cfg = {"nodb": name == "noPassthrough", "mongodArgs": [], "timeout": None}
    path = os.path.join(suite_dir, "suite.json")
    if os.path.exists(path):
        with open(path) as f:
            cfg.update(json.load(f))
    return cfg


def run_js_suite(ctx, name):
    rep = ctx.reporter
    suite_dir = os.path.join(REPO, "jstests", name)
    cfg = js_suite_config(suite_dir, name)
    files = sorted(f for f in os.listdir(suite_dir) if f.endswith(".js"))
    # "include": globs (relative to the suite directory) of tests from other suites to run
    # again under this suite's server options, e.g. ["../core/*.js"].
    for pattern in cfg.get("include", []):
        for p in sorted(glob.glob(os.path.join(suite_dir, pattern))):
            files.append(os.path.relpath(p, suite_dir))
    # "exclude": globs of tests to leave out (e.g. ones that expect what only an unauthenticated
    # or all-powerful client sees).
    excluded = set()
    for pattern in cfg.get("exclude", []):
        excluded.update(os.path.relpath(p, suite_dir) for p in glob.glob(os.path.join(suite_dir, pattern)))
    files = [f for f in files if f not in excluded]
    files = [f for f in files if matches_filter(os.path.normpath(os.path.join("jstests", name, f)), ctx.opts.tests)]
    if not files:
        return
    log_dir = suite_log_dir(name)
    if not ctx.mongosh or not os.path.exists(ctx.mongosh):
        rep.result("%s/mongosh" % name, "FAIL",
                   detail="mongosh not found (%r); run buildscripts/setup.sh" % ctx.mongosh)
        return
    timeout = cfg.get("timeout") or ctx.opts.test_timeout

    def run_file(fixture, fname):
        path = os.path.normpath(os.path.join("jstests", name, fname))
        label = fname.replace("../", "").replace("/", "_")
        env = ctx.base_env()
        args = [ctx.mongosh, "--quiet", "--norc"]
        if fixture is None:
            args.append("--nodb")
        else:
            env["MONGODB_URI"] = fixture.uri
            args.append(fixture.uri)
        args.append(path)
        code, output, secs = run_process(args, env, timeout, os.path.join(log_dir, label + ".log"))
        test = "%s/%s" % (name, fname.replace("../", ""))
        if code == 0:
            rep.result(test, "PASS", secs, output if ctx.opts.verbose else None)
        elif code is None:
            rep.result(test, "FAIL", secs, "timed out after %ds\n%s" % (timeout, tail_text(output)))
        else:
            rep.result(test, "FAIL", secs, "exit code %s\n%s" % (code, tail_text(output)))
        if fixture is not None and not fixture.alive():
            raise RuntimeError("mongod is no longer running after %s" % path)

    check_every = int(cfg.get("checkEvery") or 0)

    def run_checks(fixture, label):
        # A replica-set suite's end checks, reported as a test of their own.
        start = time.time()
        problem = fixture.check()
        rep.result("%s/end_checks_%s" % (name, label), "FAIL" if problem else "PASS", time.time() - start, problem)

    def run_all(fixture):
        jobs = max(1, ctx.opts.jobs)
        checks = fixture is not None and hasattr(fixture, "check")
        if jobs == 1:
            for i, f in enumerate(files):
                try:
                    run_file(fixture, f)
                except RuntimeError as e:
                    rep.note("[%s] %s; remaining tests not run" % (name, e))
                    for rest in files[i + 1:]:
                        rep.result("%s/%s" % (name, rest.replace("../", "")), "FAIL", detail="not run: mongod died")
                    return
                if checks and check_every and (i + 1) % check_every == 0 and i + 1 < len(files):
                    run_checks(fixture, "after_%d" % (i + 1))
            if checks:
                run_checks(fixture, "final")
            return
        else:
            with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
                for fut in [pool.submit(run_file, fixture, f) for f in files]:
                    try:
                        fut.result()
                    except RuntimeError as e:
                        rep.note("[%s] %s" % (name, e))
            if checks and fixture.alive():
                run_checks(fixture, "final")

    if cfg.get("nodb"):
        if not os.path.isfile(ctx.mongod):
            rep.result("%s/mongod_binary" % name, "FAIL",
                       detail="mongod binary not found at %s (build it with `scons -j2`)" % ctx.mongod)
            return
        run_all(None)
    else:
        with_server(ctx, name, cfg.get("mongodArgs", []), log_dir, run_all, int(cfg.get("replSet") or 0))


# A test file that starts servers of its own names one of these; the others use only the suite's.
OWN_SERVER_MARKERS = ("mongod_factory", "mongod_bin", "MongodProcess", "make_members", "one_member_set", "run_mongod",
                      "MONGOD_BIN")


def uses_only_the_suites_server(path):
    with open(path) as f:
        text = f.read()
    return not any(m in text for m in OWN_SERVER_MARKERS)


def run_pymongo(ctx, suite="pymongo", mongod_args=(), shared_server_only=False):
    """tests/pymongo against a server of the suite's own; pymongo_dedup runs them again
    against mongod --dedup (what buildscripts/run.sh starts); pymongo_auth runs the files that use
    only the suite's server against one with --auth, authenticated as a root user (as drivers'
    suites run against secured servers)."""
    rep = ctx.reporter
    test_dir = os.path.join(REPO, "tests", "pymongo")
    files = sorted(f for f in os.listdir(test_dir) if f.startswith("test_") and f.endswith(".py")) \
        if os.path.isdir(test_dir) else []
    files = [f for f in files if matches_filter(os.path.join("tests", "pymongo", f), ctx.opts.tests)]
    if shared_server_only:
        files = [f for f in files if uses_only_the_suites_server(os.path.join(test_dir, f))]
    if not files:
        return
    log_dir = suite_log_dir(suite)
    if not os.path.exists(ctx.python):
        rep.result("pymongo/python", "FAIL", detail="python %r not found; run buildscripts/setup.sh" % ctx.python)
        return

    def body(fixture):
        xml_path = os.path.join(log_dir, "pytest.xml")
        env = ctx.base_env()
        env["MONGODB_URI"] = fixture.uri
        env["RESMOKE_SUITE"] = suite
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        # -o timeout: a per-test limit when pytest-timeout is installed (setup.sh installs it);
        # without the plugin pytest only warns about the unknown option.
        args = [ctx.python, "-m", "pytest", "-q", "-rN", "-p", "no:cacheprovider", "--junitxml=" + xml_path,
                "-o", "junit_family=xunit2", "-o", "timeout=%d" % ctx.opts.test_timeout] + \
            [os.path.join("tests", "pymongo", f) for f in files]
        code, output, secs = run_process(args, env, ctx.opts.pytest_timeout, os.path.join(log_dir, "pytest.log"))
        report_pytest(ctx, suite, xml_path, code, output, secs, "tests.pymongo.")

    with_server(ctx, suite, list(mongod_args), log_dir, body)


def report_pytest(ctx, suite, xml_path, code, output, secs, class_prefix):
    """One result per test case of pytest's junit XML, and a failure when pytest itself failed."""
    rep = ctx.reporter
    counted = 0
    if os.path.exists(xml_path):
        try:
            root = ET.parse(xml_path).getroot()
            for tc in root.iter("testcase"):
                cls = (tc.get("classname") or "").replace(class_prefix, "")
                name = "%s/%s::%s" % (suite, cls, tc.get("name"))
                t = float(tc.get("time") or 0)
                bad = tc.findall("failure") + tc.findall("error")
                skipped = tc.find("skipped")
                if bad:
                    detail = "\n".join(((b.get("message") or "") + "\n" + (b.text or "")) for b in bad)
                    rep.result(name, "FAIL", t, tail_text(detail, 60))
                elif skipped is not None:
                    rep.result(name, "SKIP", t, skipped.get("message") or "")
                else:
                    rep.result(name, "PASS", t)
                counted += 1
        except ET.ParseError as e:
            rep.result("%s/junit_xml" % suite, "FAIL", detail="unreadable junit XML: %s" % e)
    if code is None:
        rep.result("%s/pytest" % suite, "FAIL", secs, "timed out after %ds\n%s" % (ctx.opts.pytest_timeout, tail_text(output)))
    elif code not in (0, 1, 5) or (code != 0 and counted == 0):
        rep.result("%s/pytest" % suite, "FAIL", secs, "pytest exited with code %s\n%s" % (code, tail_text(output)))


# pytest settings for pymongo's own test suite: its pyproject.toml's, without the asyncio mode
# (pytest-asyncio is not installed: only the synchronous tests run).
DRIVER_PYTEST_INI = """[pytest]
addopts = -ra -m "default"
faulthandler_timeout = 1500
xfail_strict = true
filterwarnings =
    error
    module:unclosed <socket.socket:ResourceWarning
    module:unclosed <socket object:ResourceWarning
    module:datetime.datetime.utc:DeprecationWarning
markers =
    auth_aws: x
    auth_oidc: x
    auth: x
    ocsp: x
    atlas_connect: x
    sfp: x
    perf: x
    search_index: x
    kms: x
    encryption: x
    load_balancer: x
    mockupdb: x
    default: x
    default_async: x
"""


def run_driver_suite(ctx, suite, config_name, members=3):
    """A driver's own test files (pymongo's, from its source distribution, setup.sh) against a
    replica set of ours, as the driver's CI runs them against MongoDB: buildscripts/driver_suites/
    <config_name>.json names the files and the known failures (deselected, each with its reason)."""
    rep = ctx.reporter
    with open(os.path.join(REPO, "buildscripts", "driver_suites", config_name + ".json")) as f:
        config = json.load(f)
    if not any(matches_filter(p, ctx.opts.tests) for p in config["files"] + [suite]):
        return
    src = ctx.benv.get("PYMONGO_SRC", "")
    if not os.path.isfile(os.path.join(src, "test", "unified_format.py")):
        rep.result("%s/pymongo_source" % suite, "FAIL", detail="pymongo's test suite not found at %r; run "
                   "buildscripts/setup.sh" % src)
        return
    log_dir = suite_log_dir(suite)
    ini = os.path.join(log_dir, "pytest.ini")
    with open(ini, "w") as f:
        f.write(DRIVER_PYTEST_INI)

    def body(fixture):
        xml_path = os.path.join(log_dir, "pytest.xml")
        env = ctx.base_env()
        # pymongo's test suite connects to DB_IP:DB_PORT and discovers the set from there.
        env["DB_IP"], env["DB_PORT"] = "127.0.0.1", str(fixture.port)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        args = [ctx.python, "-m", "pytest", "-q", "-c", ini, "--rootdir", src, "-p", "no:cacheprovider",
                "--junitxml=" + xml_path, "-o", "junit_family=xunit2", "-o", "timeout=%d" % ctx.opts.test_timeout]
        for test in sorted(config["known_failures"]):
            args += ["--deselect", test]
        args += config["files"]
        code, output, secs = run_process(args, env, ctx.opts.pytest_timeout, os.path.join(log_dir, "pytest.log"),
                                         cwd=src)
        report_pytest(ctx, suite, xml_path, code, output, secs, "test.")
        rep.note("[%s] %d known failures deselected (%s)" % (suite, len(config["known_failures"]),
                                                             os.path.join("buildscripts", "driver_suites",
                                                                          config_name + ".json")))

    with_server(ctx, suite, [], log_dir, body, repl_set=members)


def run_c_client(ctx):
    rep = ctx.reporter
    variants = [("plain", ""), ("zstd", "compressors=zstd")]
    variants = [v for v in variants if matches_filter("c_client/" + v[0], ctx.opts.tests)
                or matches_filter("src/mongo/client/c_client_crud_main.c", ctx.opts.tests)]
    if not variants:
        return
    log_dir = suite_log_dir("c_client")
    binary = os.path.join(BIN_DIR, "c_client_crud")
    if not os.path.isfile(binary):
        rep.result("c_client/c_client_crud", "FAIL", detail="%s not found (build it with `scons -j2`)" % binary)
        return

    def body(fixture):
        for label, query in variants:
            uri = fixture.uri + ("&" + query if query else "")
            env = ctx.base_env()
            env["MONGODB_URI"] = uri
            code, output, secs = run_process([binary, uri], env, ctx.opts.test_timeout,
                                             os.path.join(log_dir, label + ".log"))
            status = "PASS" if code == 0 else "FAIL"
            why = None if code == 0 else ("timed out" if code is None else "exit code %s" % code) + "\n" + tail_text(output)
            rep.result("c_client/%s" % label, status, secs, why if status == "FAIL" else (output if ctx.opts.verbose else None))

    with_server(ctx, "c_client", [], log_dir, body)


def discover_js_suites():
    root = os.path.join(REPO, "jstests")
    if not os.path.isdir(root):
        return []
    out = []
    for d in sorted(os.listdir(root)):
        p = os.path.join(root, d)
        if d in JS_SUITE_SKIP_DIRS or not os.path.isdir(p):
            continue
        if any(f.endswith(".js") for f in os.listdir(p)) or os.path.exists(os.path.join(p, "suite.json")):
            out.append(d)
        # A suite may hold a nested suite with other options, e.g. dedup/noPassthrough
        # (tests that start their own --dedup servers).
        for sub in sorted(os.listdir(p)):
            if os.path.exists(os.path.join(p, sub, "suite.json")):
                out.append(d + "/" + sub)
    return out


def all_suites():
    extra = discover_js_suites()
    return ["unit", "core"] + extra + ["pymongo", "pymongo_dedup", "pymongo_auth", "driver_transactions", "c_client"]


def main():
    benv = read_build_env()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tests", nargs="*",
                    help="only run tests whose path contains / matches one of these (e.g. jstests/core/indexes.js, "
                         "test_crud, 'agg*'); for the unit suite they become a gtest filter")
    ap.add_argument("--suites", default="all",
                    help="comma-separated suites (default: all = %s)" % ",".join(all_suites()))
    ap.add_argument("--mongod", default=os.path.join(BIN_DIR, "mongod"), help="mongod binary to test")
    ap.add_argument("--mongosh", default=None, help="mongosh binary (default: MONGOSH from build.env)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="tests to run at once within a js suite")
    ap.add_argument("--test-timeout", type=int, default=300, help="seconds for one js/c test")
    ap.add_argument("--pytest-timeout", type=int, default=1800, help="seconds for the whole pytest run")
    ap.add_argument("--unit-timeout", type=int, default=1800, help="seconds for mongo_unittests")
    ap.add_argument("-v", "--verbose", action="store_true", help="also print the output of passing tests")
    ap.add_argument("--list", action="store_true", help="list the suites and exit")
    opts = ap.parse_args()

    known = all_suites()
    if opts.list:
        print("\n".join(known))
        return 0
    if opts.suites == "all":
        suites = known
    else:
        suites = [s.strip() for s in opts.suites.split(",") if s.strip()]
        unknown = [s for s in suites if s not in known]
        if unknown:
            print("unknown suite(s): %s (known: %s)" % (", ".join(unknown), ", ".join(known)), file=sys.stderr)
            print("0 passed, 1 failed")
            return 2
    # A file filter with the default suite list should not drag in every unit test.
    if opts.tests and opts.suites == "all":
        suites = [s for s in suites if s != "unit"]

    os.makedirs(LOG_ROOT, exist_ok=True)
    rep = Reporter(opts.verbose)
    ctx = Context(opts, rep, benv)
    if not os.path.isfile(ctx.mongod):
        rep.note("warning: mongod binary not found at %s; suites that need it will fail" % ctx.mongod)
    started = time.time()
    runners = {"unit": run_unit, "pymongo": run_pymongo, "c_client": run_c_client,
               "pymongo_dedup": lambda c: run_pymongo(c, "pymongo_dedup", ["--dedup"]),
               "pymongo_auth": lambda c: run_pymongo(c, "pymongo_auth", ["--auth"], shared_server_only=True),
               "driver_transactions": lambda c: run_driver_suite(c, "driver_transactions", "transactions")}
    shutil.rmtree(SCRATCH_ROOT, ignore_errors=True)  # what an interrupted run left behind
    for s in suites:
        rep.note("=== suite %s ===" % s)
        scratch = os.path.join(SCRATCH_ROOT, s.replace("/", "_"))
        os.makedirs(scratch, exist_ok=True)
        os.environ["TMPDIR"] = tempfile.tempdir = scratch
        failed_before = rep.failed
        try:
            runners.get(s, lambda c, s=s: run_js_suite(c, s))(ctx)
        except Exception as e:  # a bug in the runner must still be a visible failure
            rep.result("%s/runner" % s, "FAIL", detail="%s: %s" % (type(e).__name__, e))
        finally:
            if rep.failed > failed_before:
                keep_server_logs(scratch, os.path.join(LOG_ROOT, s, "scratch-logs"))
            shutil.rmtree(scratch, ignore_errors=True)
    shutil.rmtree(SCRATCH_ROOT, ignore_errors=True)

    if rep.failures:
        print("\nFailed tests:")
        for f in rep.failures:
            print("  " + f)
    print("Ran in %.0fs; logs in %s" % (time.time() - started, os.path.relpath(LOG_ROOT, REPO)))
    total_ran = rep.passed + rep.failed
    if total_ran == 0:
        print("no test ran")
    print(rep.summary_line(), flush=True)
    return 1 if rep.failed or total_ran == 0 else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
