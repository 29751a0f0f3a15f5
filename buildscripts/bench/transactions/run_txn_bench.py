#!/usr/bin/env python3
"""Transactions benchmark (issue 18): on a three-member replica set of this server, several client
processes at saturation (no pauses) run, for a fixed time each:

  plain     two single-document updates ($inc of two accounts), w: "majority" each;
  txn       the same two updates in one transaction (pymongo's with_transaction, commit
            w: "majority"): the figure the issue sets a target for (>= 0.7 of plain);
  contended the transaction over only CONTENDED accounts, so transactions meet each other's
            writes: WriteConflict aborts, retried by with_transaction; the abort rate is
            aborted attempts / committed transactions.

Every mode starts from the same accounts; after each mode the balances must still sum to the
total (checked on the primary and on every secondary). Figures go to <out>/results.json and
<out>/REPORT.md (the report lists the command, the machine's load and each mode's ops/s, p50/p99
latency and aborts).

  python buildscripts/bench/transactions/run_txn_bench.py --mongod build/install/bin/mongod \
      --clients 4 --seconds 20 --out buildscripts/bench/transactions
"""
import argparse
import json
import multiprocessing as mp
import os
import random
import sys
import time

import pymongo
from pymongo.write_concern import WriteConcern

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "repl"))
from cluster import ReplSet  # noqa: E402

ACCOUNTS = 1000
CONTENDED = 8
INITIAL = 1000


class AbortCounter(pymongo.monitoring.CommandListener):
    """Commands of a transaction the server failed with TransientTransactionError (the attempt
    was aborted and with_transaction runs it again)."""

    def __init__(self):
        self.aborted = 0

    def started(self, event):
        pass

    def succeeded(self, event):
        pass

    def failed(self, event):
        labels = getattr(event.failure, "get", lambda *_: None)("errorLabels") or []
        if "TransientTransactionError" in labels:
            self.aborted += 1


def worker(uri, mode, seconds, seed, out):
    rnd = random.Random(seed)
    counter = AbortCounter()
    client = pymongo.MongoClient(uri, event_listeners=[counter], w="majority")
    acc = client.bench.acc
    wc = WriteConcern("majority")
    n_accounts = CONTENDED if mode == "contended" else ACCOUNTS
    lat = []
    done = 0
    deadline = time.time() + seconds
    while time.time() < deadline:
        a, b = rnd.sample(range(n_accounts), 2)
        amount = rnd.randint(1, 5)
        t0 = time.perf_counter()
        if mode == "plain":
            acc.update_one({"_id": a}, {"$inc": {"bal": -amount}})
            acc.update_one({"_id": b}, {"$inc": {"bal": amount}})
        else:
            def cb(s):
                acc.update_one({"_id": a}, {"$inc": {"bal": -amount}}, session=s)
                acc.update_one({"_id": b}, {"$inc": {"bal": amount}}, session=s)

            with client.start_session() as s:
                s.with_transaction(cb, write_concern=wc)
        lat.append(time.perf_counter() - t0)
        done += 1
    client.close()
    out.put({"done": done, "lat": lat, "aborted": counter.aborted})


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))] if xs else 0.0


def run_mode(rs, mode, clients, seconds):
    with pymongo.MongoClient(rs.uri, w="majority") as c:
        c.bench.acc.drop()
        c.bench.acc.insert_many([{"_id": i, "bal": INITIAL} for i in range(ACCOUNTS)])
    q = mp.Queue()
    procs = [mp.Process(target=worker, args=(rs.uri, mode, seconds, 1000 * i + sum(map(ord, mode)), q))
             for i in range(clients)]
    t0 = time.time()
    for p in procs:
        p.start()
    results = [q.get() for _ in procs]
    for p in procs:
        p.join()
    elapsed = time.time() - t0
    lat = [x for r in results for x in r["lat"]]
    done = sum(r["done"] for r in results)
    aborted = sum(r["aborted"] for r in results)
    total = ACCOUNTS * INITIAL
    sums = {}
    with pymongo.MongoClient(rs.uri, w="majority") as c:
        c.bench.marker.insert_one({"mode": mode})  # w: majority: the secondaries have every transfer
        sums["primary"] = sum(d["bal"] for d in c.bench.acc.find({}, {"bal": 1}))
    for m in rs.members:
        if m.running():
            with m.client(timeout_ms=5000) as mc:
                sums["m%d" % m.i] = sum(d["bal"] for d in mc.bench.acc.find({}, {"bal": 1}))
    return {
        "mode": mode,
        "clients": clients,
        "seconds": seconds,
        "ops": done,
        "ops_per_s": done / seconds,
        "p50_ms": 1000 * pct(lat, 50),
        "p99_ms": 1000 * pct(lat, 99),
        "aborted_attempts": aborted,
        "abort_rate": aborted / done if done else 0.0,
        "sums_ok": all(v == total for v in sums.values()),
        "sums": sums,
        "elapsed_s": elapsed,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mongod", required=True)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--modes", default="plain,txn,contended")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rs = ReplSet(os.path.abspath(args.mongod), n=3, set_name="txnbench", oplog_mb=1024)
    rs.start()
    try:
        load_before = os.getloadavg()
        results = [run_mode(rs, m, args.clients, args.seconds) for m in args.modes.split(",")]
        load_after = os.getloadavg()
    finally:
        rs.stop()
    by = {r["mode"]: r for r in results}
    ratio = by["txn"]["ops_per_s"] / by["plain"]["ops_per_s"] if "txn" in by and "plain" in by else None
    doc = {"command": " ".join(sys.argv), "loadavg_before": load_before, "loadavg_after": load_after,
           "cpus": os.cpu_count(), "results": results, "txn_over_plain": ratio}
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(doc, f, indent=2)
    lines = ["# Transactions benchmark (issue 18)", "",
             "Three members on this machine (%d CPUs), %d client processes at saturation, %d s per mode; "
             "load average %.1f before, %.1f after." % (os.cpu_count(), args.clients, args.seconds,
                                                        load_before[0], load_after[0]), "",
             "    " + doc["command"], "",
             "| mode | ops/s | p50 ms | p99 ms | aborted attempts | abort rate | sums hold |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in results:
        lines.append("| %s | %.1f | %.1f | %.1f | %d | %.3f | %s |" % (
            r["mode"], r["ops_per_s"], r["p50_ms"], r["p99_ms"], r["aborted_attempts"], r["abort_rate"],
            "yes" if r["sums_ok"] else "NO %s" % r["sums"]))
    if ratio is not None:
        lines += ["", "Transactions over plain writes: **%.2f** (target >= 0.7)." % ratio]
    with open(os.path.join(args.out, "REPORT.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
