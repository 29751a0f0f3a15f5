#!/usr/bin/env python3
"""dbDedup in replication (issue 11): bytes between members, throughput, latency and lag of a
three-member set loaded with w: "majority" by several clients at saturation, under five
configurations, and the compression of inserts after a failover.

    python buildscripts/bench/dedup_repl/run_repl_dedup.py --mongod build/install/bin/mongod \
        [--datasets peps-history,wiki-python] [--limit-mb 40] [--clients 4] [--out DIR]

Configurations (every member the same):
  plain       no --dedup, network compression disabled
  snappy      no --dedup, --networkMessageCompressors snappy
  zstd        no --dedup, --networkMessageCompressors zstd
  dedup       --dedup, network compression disabled
  dedup_zstd  --dedup, --networkMessageCompressors zstd

Bytes between members are counted on the wire by a proxy in front of each member (wire_proxy.py):
the set's config names the proxies, the load's clients connect to the members directly. Each
(configuration, data set) gets a fresh set. Every client inserts batches of 20 documents (its
share of the data set, round robin by batch, in file order) as fast as the server takes them.

Writes results.json and, with plots.py, REPORT.md and the figures into --out (default: this
directory). Nothing here is a test: the figures are what this machine measured.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time

import pymongo
from bson.raw_bson import RawBSONDocument

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "repl"))
sys.path.insert(0, os.path.join(HERE, "..", "dedup_server"))
from cluster import Member  # noqa: E402
from sat_common import DATA_DIR, dataset_path, load_records  # noqa: E402
from wire_proxy import CountingProxy  # noqa: E402

CONFIGS = {
    "plain": (False, "disabled"),
    "snappy": (False, "snappy"),
    "zstd": (False, "zstd"),
    "dedup": (True, "disabled"),
    "dedup_zstd": (True, "zstd"),
}
SET = "ddbench"
BATCH = 20


def log(msg):
    print(time.strftime("%H:%M:%S"), msg, flush=True)


class ProxiedSet:
    """Three members whose config names a counting proxy in front of each."""

    def __init__(self, mongod, dedup, compressors, root, oplog_mb, extra_args=()):
        self.root = root
        self.members = [Member(os.path.abspath(mongod), root, i, SET, oplog_mb) for i in range(3)]
        for m in self.members:
            m.args += ["--networkMessageCompressors", compressors] + (["--dedup"] if dedup else []) + list(extra_args)
        self.proxy = CountingProxy([m.port for m in self.members])

    def start(self):
        self.proxy.start()
        for m in self.members:
            m.start()
        hosts = ["127.0.0.1:%d" % p for p in self.proxy.listen_ports]
        with self.members[0].client(timeout_ms=10000) as c:
            c.admin.command("replSetInitiate", {"_id": SET, "members": [{"_id": i, "host": h} for i, h in enumerate(hosts)]})
        deadline = time.time() + 120
        while time.time() < deadline:
            states = [self.state(m) for m in self.members]
            if sorted(s or 0 for s in states) == [1, 2, 2]:
                return
            time.sleep(0.2)
        raise RuntimeError("the set did not come up: states %s (logs in %s)" % (states, self.root))

    def state(self, m):
        if not m.running():
            return None
        try:
            with m.client(1000) as c:
                return c.admin.command("replSetGetStatus")["myState"]
        except pymongo.errors.PyMongoError:
            return None

    def primary(self, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for m in self.members:
                if self.state(m) == 1:
                    return m
            time.sleep(0.05)
        raise RuntimeError("no primary")

    def optimes(self, p, field="optimeDate"):
        with p.client() as c:
            st = c.admin.command("replSetGetStatus")
        return {x["name"]: x.get(field) for x in st["members"] if x.get("health", 1) == 1}

    def stop(self):
        for m in self.members:
            m.stop()
        self.proxy.stop()


def status(m):
    with m.client(5000) as c:
        return c.admin.command("serverStatus")


def load(primary, batches, clients, lag_sampler=None):
    """Inserts the batches with `clients` threads (batch k to client k % clients) with w: majority.
    Returns seconds, documents, bytes and the batch latencies (ms)."""
    lat, errors = [], []
    per = [batches[k::clients] for k in range(clients)]

    def run(mine):
        with pymongo.MongoClient(primary.host, directConnection=True, document_class=RawBSONDocument,
                                 w="majority", wtimeoutMS=120000) as c:
            coll = c.bench.docs
            for b in mine:
                t = time.perf_counter()
                try:
                    coll.insert_many(b, ordered=False)
                except pymongo.errors.PyMongoError as e:
                    errors.append(str(e))
                    return
                lat.append((time.perf_counter() - t) * 1000)

    threads = [threading.Thread(target=run, args=(p,)) for p in per]
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    secs = time.time() - t0
    if errors:
        raise RuntimeError("load failed: %s" % errors[:3])
    n = sum(len(b) for b in batches)
    nbytes = sum(len(d.raw) for b in batches for d in b)
    return {"seconds": secs, "docs": n, "bytes": nbytes, "latencies_ms": lat}


class LagSampler(threading.Thread):
    """Replication lag as users feel it: every 0.2 s it notes the primary's newest entry, and how
    long after that every secondary had applied it (s). An idle set shows no lag, unlike the
    difference of optimeDates."""

    def __init__(self, rs, primary):
        super().__init__(daemon=True)
        self.rs, self.primary, self.samples, self._halt = rs, primary, [], threading.Event()

    def run(self):
        pending = []  # (when seen on the primary, its ts)
        while not self._halt.wait(0.2):
            try:
                o = self.rs.optimes(self.primary, "optime")
            except pymongo.errors.PyMongoError:
                continue
            now = time.time()
            me = "127.0.0.1:%d" % self.rs.proxy.listen_ports[self.rs.members.index(self.primary)]
            mine = o.get(me)
            others = [v["ts"] for k, v in o.items() if k != me and v is not None]
            if not mine or not others:
                continue
            pending.append((now, mine["ts"]))
            done = [p for p in pending if min(others) >= p[1]]
            self.samples.extend(now - p[0] for p in done)
            pending = [p for p in pending if p not in done]

    def stop(self):
        self._halt.set()
        self.join()


def wait_caught_up(rs, primary, timeout=300):
    t0 = time.time()
    while time.time() - t0 < timeout:
        o = [d["ts"] for d in rs.optimes(primary, "optime").values() if d is not None]
        if len(o) == 3 and len(set(o)) == 1:
            return time.time() - t0
        time.sleep(0.1)
    raise RuntimeError("secondaries did not catch up")


def oplog_stats(m):
    with m.client(30000) as c:
        try:
            c.admin.command("fsync")  # a checkpoint, so that the file's size is the data's
        except pymongo.errors.PyMongoError:
            pass
        s = c.local.command("collStats", "oplog.rs")
        first = c.local["oplog.rs"].find_one(sort=[("$natural", 1)])
        last = c.local["oplog.rs"].find_one(sort=[("$natural", -1)])
    return {"size": s.get("size"), "storageSize": s.get("storageSize"), "count": s.get("count"),
            "window_s": (last["ts"].time - first["ts"].time) if first and last else None}


def batches_of(records):
    docs = [RawBSONDocument(raw) for (_id, _key, raw) in records]
    return [docs[i:i + BATCH] for i in range(0, len(docs), BATCH)]


def run_one(args, config, dataset, records):
    dedup, compressors = CONFIGS[config]
    root = tempfile.mkdtemp(prefix="dedup-repl-bench-")
    rs = ProxiedSet(args.mongod, dedup, compressors, root, args.oplog_mb, args.member_args.split())
    try:
        rs.start()
        p = rs.primary()
        with p.client() as c:
            c.bench.create_collection("docs")
        time.sleep(1)
        wire0 = rs.proxy.total()
        sampler = LagSampler(rs, p)
        sampler.start()
        res = load(p, batches_of(records), args.clients)
        sampler.stop()
        res["catch_up_s"] = wait_caught_up(rs, p)
        res["wire_bytes"] = rs.proxy.total() - wire0
        res["lag_max_s"] = max(sampler.samples, default=0.0)
        res["lag_mean_s"] = sum(sampler.samples) / len(sampler.samples) if sampler.samples else 0.0
        res["oplog"] = oplog_stats(p)
        ss = status(p)
        res["dedup"] = {k: ss["dedup"].get(k) for k in ("ratio", "recordsExamined", "recordsEncoded")}
        res["dedup_replication"] = ss["dedup"].get("replication")
        res["network_compression"] = ss.get("network", {}).get("compression")
        sec = [m for m in rs.members if m is not p]
        res["secondary_received"] = [status(m)["dedup"]["replication"]["received"] for m in sec]
        res["secondary_network_bytes"] = [status(m)["metrics"]["repl"]["network"]["bytes"] for m in sec]
        lat = sorted(res.pop("latencies_ms"))
        res["latency_ms"] = {"p50": lat[len(lat) // 2], "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))]}
        res["throughput_docs_s"] = res["docs"] / res["seconds"]
        res["throughput_mb_s"] = res["bytes"] / res["seconds"] / 1e6
        return res
    finally:
        rs.stop()
        shutil.rmtree(root, ignore_errors=True)


def sent(m):
    s = status(m)["dedup"]["replication"]["sent"]
    return s["logicalBytes"], s["sentBytes"], s["entriesEncoded"], s["entriesWhole"]


def failover_dip(args, dataset, records, window=100, after=2000):
    """--dedup set: load 60% of the data, kill -9 the primary, then insert up to `after` more
    documents in windows of `window` and report each window's ratio of inserted to shipped bytes
    on the new primary (the paper's failover figure), beside the ratio of the last (up to) 1000
    inserts before."""
    root = tempfile.mkdtemp(prefix="dedup-repl-dip-")
    rs = ProxiedSet(args.mongod, True, "disabled", root, args.oplog_mb)
    try:
        rs.start()
        p = rs.primary()
        split = int(len(records) * 0.6)
        steady_n = min(1000, split // 2)
        load(p, batches_of(records[:split - steady_n]), args.clients)
        before = sent(p)
        load(p, batches_of(records[split - steady_n:split]), args.clients)
        after_steady = sent(p)
        steady = (after_steady[0] - before[0]) / max(1, after_steady[1] - before[1])
        wait_caught_up(rs, p)
        p.kill9()
        t0 = time.time()
        q = rs.primary(timeout=120)
        elected_s = time.time() - t0
        windows = []
        rest = records[split:split + after]
        for i in range(0, len(rest), window):
            s0 = sent(q)
            load(q, batches_of(rest[i:i + window]), args.clients)
            s1 = sent(q)
            windows.append({"inserts_since_failover": i + len(rest[i:i + window]),
                            "ratio": (s1[0] - s0[0]) / max(1, s1[1] - s0[1]),
                            "encoded": s1[2] - s0[2], "whole": s1[3] - s0[3]})
        return {"dataset": dataset, "steady_ratio": steady, "steady_inserts": steady_n, "election_s": elected_s,
                "windows": windows}
    finally:
        rs.stop()
        shutil.rmtree(root, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mongod", required=True)
    ap.add_argument("--datasets", default="peps-history,wiki-python,se-posthistory,email-ham")
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--limit-mb", type=float, default=40.0, help="BSON MB of each data set to load")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--oplog-mb", type=int, default=2048)
    ap.add_argument("--dip-datasets", default="peps-history,wiki-python")
    ap.add_argument("--member-args", default="", help="more mongod arguments for every member")
    ap.add_argument("--out", default=HERE)
    args = ap.parse_args()
    out = {"clients": args.clients, "limit_mb": args.limit_mb, "batch": BATCH, "runs": [], "dips": [],
           "machine": {"cpus": os.cpu_count()}, "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    path = os.path.join(args.out, "results.json")
    for dataset in args.datasets.split(","):
        records = load_records(dataset_path(DATA_DIR, dataset), limit_mb=args.limit_mb)
        for config in args.configs.split(","):
            log("%s / %s: %d records" % (dataset, config, len(records)))
            r = run_one(args, config, dataset, records)
            r.update({"dataset": dataset, "config": config})
            log("  %.1f s, %.0f docs/s, wire %.2f MB, lag max %.1f s" % (r["seconds"], r["throughput_docs_s"],
                                                                         r["wire_bytes"] / 1e6, r["lag_max_s"]))
            out["runs"].append(r)
            with open(path, "w") as f:
                json.dump(out, f, indent=1, default=str)
        if dataset in args.dip_datasets.split(","):
            log("%s: failover dip" % dataset)
            out["dips"].append(failover_dip(args, dataset, records))
            with open(path, "w") as f:
                json.dump(out, f, indent=1, default=str)
    log("wrote %s" % path)


if __name__ == "__main__":
    main()
