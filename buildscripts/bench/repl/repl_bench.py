#!/usr/bin/env python3
"""Replication benchmark (issue 10, "Benchmark"): three members on this machine (cluster.py).

Measures
  failover    time from the fault until another member says isWritablePrimary, over --trials
              trials each for kill -9 of the primary (restarted afterwards), SIGSTOP of the
              primary (SIGCONT afterwards) and replSetStepDown; a light w: "majority" insert load
              runs throughout and every acknowledged _id is checked afterwards (0 lost expected)
  throughput  for each of --throughput-clients, that many processes inserting small documents
              for --seconds, w: 1 then w: "majority": ops/s, p50/p99 latency; each write concern's
              saturation figure is its fastest run
  lag         under a sustained w: 1 load, how long a marker write takes to be visible on each
              secondary (direct reads), sampled every 0.25 s
  oplog       oplog bytes (local.oplog.rs collStats size) per logical byte written, for inserts
              and for small $set updates of larger documents
  initial sync  --initial-sync-mb of documents loaded (w: "majority"), then a secondary is stopped,
              its data directory emptied and the member restarted: time until it reports
              SECONDARY again, MB/s of the databases' dataSize

Writes results.json, REPORT.md and figures (PNG with matplotlib, else CSV) to --out.

  PY=/opt/mongo-dedup-deps/tools-v1/venv/bin/python
  $PY buildscripts/bench/repl/repl_bench.py --mongod build/install/bin/mongod            # full
  $PY buildscripts/bench/repl/repl_bench.py --mongod build/install/bin/mongod --smoke    # ~3 min
"""
import argparse
import json
import multiprocessing as mp
import os
import shutil
import platform
import statistics
import sys
import threading
import time

import bson
import pymongo
from pymongo.write_concern import WriteConcern

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cluster import ReplSet  # noqa: E402
import report  # noqa: E402

DB = "replbench"


def pct(values, p):
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


# ---------------------------------------------------------------------------------------------
# Light load during failover trials: w: "majority" inserts of unique _ids through a replica-set
# client (retryable writes on); acknowledged ids are remembered and checked at the end.


class LightLoad(threading.Thread):
    def __init__(self, uri, interval=0.02):
        super().__init__(daemon=True)
        self.client = pymongo.MongoClient(uri, w="majority", retryWrites=True, serverSelectionTimeoutMS=30000,
                                          wtimeoutMS=30000)
        self.coll = self.client[DB].light
        self.interval = interval
        self.acked = []
        self.errors = 0
        self.stopping = threading.Event()
        self.next_id = 0

    def run(self):
        while not self.stopping.is_set():
            self.next_id += 1
            try:
                self.coll.insert_one({"_id": self.next_id, "pad": "x" * 64})
                self.acked.append(self.next_id)
            except pymongo.errors.PyMongoError:
                self.errors += 1
            time.sleep(self.interval)

    def stop(self):
        self.stopping.set()
        self.join(60)

    def lost(self, rs):
        """Acknowledged majority writes absent from any member, once all members caught up.
        (Read with readConcern local on each member directly: this server does not serve
        majority reads on a set yet, and after catch-up every member must hold every write.)"""
        lost = set()
        self.checked = []
        for m in rs.members:
            h = rs.hello(m)
            if not h or not (h.get("isWritablePrimary") or h.get("secondary")):
                continue  # down, or not readable (e.g. RECOVERING): not checked
            with m.client(timeout_ms=30000) as c:
                present = set(d["_id"] for d in c[DB].light.find({}, {"_id": 1}))
            lost.update(i for i in self.acked if i not in present)
            self.checked.append(m.i)
        return sorted(lost)


def failover_trials(rs, kind, trials, log):
    times = []
    reseeded = 0
    rollbacks = 0
    for t in range(trials):
        rs.wait_secondaries(timeout=90)
        old = rs.wait_primary()
        time.sleep(0.5)
        start = time.time()
        if kind == "kill9":
            old.kill9()
        elif kind == "sigstop":
            old.pause()
        else:
            try:
                with old.client(timeout_ms=30000) as c:
                    c.admin.command("replSetStepDown", 60, secondaryCatchUpPeriodSecs=10)
            except pymongo.errors.PyMongoError as e:
                log("  stepDown reply: %s" % e)
        new = rs.wait_primary(exclude=old, timeout=120, poll=0.02)
        took = time.time() - start
        times.append(took)
        log("  %s trial %d: member %d -> member %d in %.2f s" % (kind, t + 1, old.i, new.i, took))
        # Put the old primary back as a secondary before the next trial. A former primary (or a
        # secondary that fetched from it after the election) holding entries no other member got
        # rolls back by itself (ROLLBACK, then a resync): counted from the members' logs. Only a
        # member still not PRIMARY/SECONDARY after 120 s is emptied by hand (counted apart).
        rolled_before = rs.rollbacks()
        if kind == "kill9":
            old.start()
        elif kind == "sigstop":
            old.resume()
        time.sleep(2)  # a diverged member finds out once it fetches from the new primary
        deadline = time.time() + 120
        while rs.unhealthy() and time.time() < deadline:
            time.sleep(0.5)
        bad = rs.unhealthy()
        if bad:
            log("  members %s are not PRIMARY/SECONDARY after 120 s: %s; reseeding them"
                % ([m.i for m in bad], rs.summary()))
            rs.reseed(bad)
            reseeded += 1
        rolled = rs.rollbacks() - rolled_before
        if rolled:
            log("  %d member(s) rolled back" % rolled)
            rollbacks += rolled
        if not bad:
            try:
                with old.client() as c:
                    c.admin.command("replSetFreeze", 0)  # eligible again at once
            except pymongo.errors.PyMongoError as e:
                log("  replSetFreeze 0: %s" % e)
    return {"trials": times, "median_s": statistics.median(times) if times else None,
            "max_s": max(times) if times else None, "reseeded_after": reseeded, "rollbacks": rollbacks}


# ---------------------------------------------------------------------------------------------
# Saturation: CLIENTS processes inserting for SECONDS.


def _insert_worker(uri, w, seconds, wid, q):
    client = pymongo.MongoClient(uri, w=w, serverSelectionTimeoutMS=30000)
    coll = client[DB].get_collection("tput")
    lat = []
    n = 0
    end = time.time() + seconds
    while time.time() < end:
        t0 = time.perf_counter()
        coll.insert_one({"w": wid, "n": n, "pad": "y" * 100})
        lat.append(time.perf_counter() - t0)
        n += 1
    q.put(lat)
    client.close()


def saturation(uri, w, clients, seconds):
    q = mp.Queue()
    procs = [mp.Process(target=_insert_worker, args=(uri, w, seconds, i, q)) for i in range(clients)]
    start = time.time()
    for p in procs:
        p.start()
    lats = []
    for _ in procs:
        lats.extend(q.get(timeout=seconds + 120))
    for p in procs:
        p.join()
    wall = time.time() - start
    ms = [x * 1000 for x in lats]
    return {"w": w, "clients": clients, "seconds": seconds, "ops": len(ms), "ops_per_s": len(ms) / seconds,
            "p50_ms": pct(ms, 50), "p99_ms": pct(ms, 99), "wall_s": wall}


# ---------------------------------------------------------------------------------------------
# Replication lag under sustained w: 1 load.


def replication_lag(rs, clients, seconds):
    primary = rs.wait_primary()
    secondaries = [m for m in rs.members if m is not primary]
    q = mp.Queue()
    procs = [mp.Process(target=_insert_worker, args=(rs.uri, 1, seconds, i, q)) for i in range(clients)]
    for p in procs:
        p.start()
    pc = primary.client(timeout_ms=10000)
    scs = [m.client(timeout_ms=10000) for m in secondaries]
    samples = []  # (t since start, member, lag seconds)
    start = time.time()
    k = 0
    time.sleep(0.5)
    while time.time() - start < seconds - 0.5:
        k += 1
        t0 = time.time()
        pc[DB].markers.insert_one({"_id": k})
        pending = {m.i: c for m, c in zip(secondaries, scs)}
        while pending and time.time() - t0 < 30:
            for i, c in list(pending.items()):
                if c[DB].markers.find_one({"_id": k}) is not None:
                    samples.append((t0 - start, i, time.time() - t0))
                    del pending[i]
            if pending:
                time.sleep(0.002)
        for i in pending:
            samples.append((t0 - start, i, None))
        time.sleep(0.25)
    for _ in procs:
        q.get(timeout=seconds + 120)
    for p in procs:
        p.join()
    pc.close()
    for c in scs:
        c.close()
    lags = [s[2] * 1000 for s in samples if s[2] is not None]
    return {"clients": clients, "seconds": seconds, "samples": samples,
            "p50_ms": pct(lags, 50), "p99_ms": pct(lags, 99), "max_ms": max(lags) if lags else None,
            "not_seen_within_30s": sum(1 for s in samples if s[2] is None)}


# ---------------------------------------------------------------------------------------------
# Oplog bytes per logical byte.


def oplog_size(client):
    return client.local.command("collStats", "oplog.rs")["size"]


def oplog_amplification(rs, n):
    p = rs.wait_primary()
    out = {}
    with p.client(timeout_ms=30000) as c:
        coll = c[DB].get_collection("amp", write_concern=WriteConcern(w=1))
        coll.drop()
        coll.insert_one({"_id": "warm"})
        before = oplog_size(c)
        logical = 0
        docs = []
        for i in range(n):
            d = {"_id": i, "name": "user%06d" % i, "score": i * 3, "tags": ["a", "b", "c"], "body": "z" * 200}
            logical += len(bson.encode(d))
            docs.append(d)
        for i in range(0, n, 100):
            coll.insert_many(docs[i:i + 100], ordered=True)
        after = oplog_size(c)
        out["insert"] = {"docs": n, "logical_bytes": logical, "oplog_bytes": after - before,
                         "ratio": (after - before) / logical}
        # Updates: one small field of a ~260-byte document; the logical byte count is the size of
        # the changed field as a BSON element ({"score": <int>} minus the document overhead).
        before = oplog_size(c)
        logical = 0
        for i in range(n):
            coll.update_one({"_id": i}, {"$set": {"score": i * 3 + 1}})
            logical += len(bson.encode({"score": i * 3 + 1})) - 5
        after = oplog_size(c)
        out["update_set_one_field"] = {"updates": n, "logical_bytes": logical, "oplog_bytes": after - before,
                                       "ratio": (after - before) / logical}
    return out


# ---------------------------------------------------------------------------------------------


def measure_initial_sync(rs, args):
    """A secondary emptied and restarted initial-syncs from the set: seconds to SECONDARY and MB/s."""
    p = rs.wait_primary()
    body = "x" * 1000
    n = int(args.initial_sync_mb * 1024 * 1024 / 1100)
    with pymongo.MongoClient(p.host, directConnection=True) as c:
        coll = c.isync.get_collection("docs", write_concern=pymongo.WriteConcern(w="majority"))
        coll.drop()
        for i in range(0, n, 1000):
            coll.insert_many([{"_id": j, "v": j, "body": body} for j in range(i, min(n, i + 1000))], ordered=False)
        data_bytes = sum(c[db].command("dbStats")["dataSize"] for db in c.list_database_names() if db != "local")
    victim = next(m for m in rs.members if m is not p and m.running())
    victim.stop()
    shutil.rmtree(victim.dbpath, ignore_errors=True)
    os.makedirs(victim.dbpath, exist_ok=True)
    t0 = time.time()
    victim.start()
    ok = rs.wait_member_secondary(victim, timeout=max(120, args.initial_sync_mb * 10))
    secs = time.time() - t0
    out = {"measured": ok, "documents": n, "data_mb": data_bytes / 1e6, "seconds": secs}
    if ok:
        out["mb_per_s"] = data_bytes / 1e6 / secs
    else:
        out["why"] = "the emptied member did not reach SECONDARY within the timeout"
    return out


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mongod", default="build/install/bin/mongod")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    ap.add_argument("--trials", type=int, default=20, help="failover trials per kind")
    ap.add_argument("--clients", type=int, default=8, help="client processes of the lag run")
    ap.add_argument("--throughput-clients", default="8,32,64",
                    help="client counts of the throughput runs (comma-separated); saturation is the fastest of them")
    ap.add_argument("--seconds", type=float, default=30, help="seconds per throughput run")
    ap.add_argument("--lag-seconds", type=float, default=30)
    ap.add_argument("--oplog-docs", type=int, default=20000)
    ap.add_argument("--smoke", action="store_true", help="2 trials, 4 clients, 5 s runs: proves the script works")
    ap.add_argument("--label", default="", help="text put at the top of the report (e.g. machine load)")
    ap.add_argument("--only", default="failover,throughput,lag,oplog,initial_sync")
    ap.add_argument("--kinds", default="stepdown,kill9,sigstop", help="failover kinds to run")
    ap.add_argument("--keep", action="store_true", help="keep the members' data directories and logs")
    ap.add_argument("--initial-sync-mb", type=float, default=200, help="data loaded before the initial sync run")
    args = ap.parse_args()
    if args.smoke:
        args.trials, args.clients, args.seconds, args.lag_seconds, args.oplog_docs = 2, 4, 5, 6, 2000
        args.throughput_clients = "4"
        args.initial_sync_mb = 10
    only = set(args.only.split(","))
    throughput_clients = [int(x) for x in args.throughput_clients.split(",") if x.strip()]
    os.makedirs(args.out, exist_ok=True)

    def log(s):
        print(s, flush=True)

    results = {"config": {"trials": args.trials, "clients": args.clients, "seconds": args.seconds,
                          "throughput_clients": throughput_clients,
                          "lag_seconds": args.lag_seconds, "oplog_docs": args.oplog_docs, "smoke": args.smoke,
                          "label": args.label, "cpus": os.cpu_count(), "machine": platform.node(),
                          "loadavg_start": os.getloadavg(), "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                          "mongod": os.path.abspath(args.mongod)}}
    rs = ReplSet(args.mongod)
    log("starting a 3-member set under %s" % rs.root)
    rs.start()
    try:
        if "throughput" in only:
            results["throughput"] = t = {"runs": []}
            for n in throughput_clients:
                for w in (1, "majority"):
                    r = saturation(rs.uri, w, n, args.seconds)
                    t["runs"].append(r)
                    log("throughput %d clients w=%s: %.0f ops/s, p50 %.2f ms, p99 %.2f ms" % (
                        n, w, r["ops_per_s"], r["p50_ms"], r["p99_ms"]))
            # At saturation: each write concern at the concurrency where it went fastest (a
            # majority write waits a replication round trip, so it needs more clients in flight to
            # saturate the set; at a fixed small count it measures latency, not capacity).
            for w in (1, "majority"):
                t["w_%s" % w] = max((r for r in t["runs"] if r["w"] == w), key=lambda r: r["ops_per_s"])
            t["majority_over_w1"] = t["w_majority"]["ops_per_s"] / t["w_1"]["ops_per_s"]
        if "lag" in only:
            r = replication_lag(rs, args.clients, args.lag_seconds)
            results["lag"] = r
            log("lag: p50 %.1f ms, p99 %.1f ms, max %.1f ms" % (r["p50_ms"] or -1, r["p99_ms"] or -1, r["max_ms"] or -1))
        if "oplog" in only:
            results["oplog"] = oplog_amplification(rs, args.oplog_docs)
            log("oplog bytes per logical byte: %s" % {k: round(v["ratio"], 2) for k, v in results["oplog"].items()})
        if "failover" in only:
            # The failover trials start from a small data set: a deposed primary that diverged
            # rolls back by resyncing the whole set here (no in-place rollback yet), and with the
            # earlier phases' ~400k documents that resync alone outlasts a trial's 120 s limit
            # (measured apart, in the initial sync phase).
            with rs.wait_primary().client(timeout_ms=60000) as c:
                for name in ("tput", "amp", "markers"):
                    c[DB].get_collection(name, write_concern=WriteConcern(w="majority")).drop()
            load = LightLoad(rs.uri)
            load.start()
            results["failover"] = {}
            for kind in args.kinds.split(","):
                log("failover %s:" % kind)
                try:
                    results["failover"][kind] = failover_trials(rs, kind, args.trials, log)
                except RuntimeError as e:
                    # The set did not come back (e.g. a member that needs a rollback): what was
                    # measured so far is kept, the remaining kinds are not run.
                    log("  %s trials stopped: %s; members: %s" % (kind, e, rs.summary()))
                    results["failover"][kind] = {"trials": [], "median_s": None, "max_s": None, "error": str(e)}
                    break
            load.stop()
            try:
                rs.wait_secondaries(timeout=120)
            except RuntimeError as e:
                log("set not whole before the lost-write check: %s" % rs.summary())
            lost = load.lost(rs)
            results["failover"]["majority_writes"] = {"acknowledged": len(load.acked), "lost": len(lost),
                                                      "lost_ids": lost[:50], "errors_seen": load.errors,
                                                      "members_checked": load.checked}
            log("majority writes: %d acknowledged, %d lost" % (len(load.acked), len(lost)))
        if "initial_sync" in only:
            results["initial_sync"] = measure_initial_sync(rs, args)
    finally:
        results["config"]["loadavg_end"] = os.getloadavg()
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump(results, f, indent=2, default=str)
        rs.stop(keep=args.keep)
    report.write(results, args.out)
    log("wrote %s" % args.out)


if __name__ == "__main__":
    main()
