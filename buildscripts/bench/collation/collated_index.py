#!/usr/bin/env python3
"""What a collated index costs against a simple one (issue 14: at most 1.5x).

One fresh server, two collections with the same documents and the same index on {s: 1}: one
with the simple collation, one with {locale: "en", strength: 2}. For ROUNDS rounds, alternating
which goes first, CLIENTS processes at saturation:
  - insert: insert_many of BATCH documents with mixed-case word strings, for SECONDS;
  - range scan: find({s: {$gte: lo, $lt: hi}}) under the index's collation, hinted to the
    index, each range covering about SPAN documents, every document fetched, for SECONDS.
The server's CPU time per document is recorded too (on a 2-core machine the clients compete
with the server, so rates alone understate the server's share). The collated collection's queries carry its collation (else the index could not serve them).
Writes results.json and fig_collation.png beside this file (or into --out) and prints the
medians and the cost ratios (simple rate / collated rate; collated CPU / simple CPU).

  python buildscripts/bench/collation/collated_index.py --mongod build/install/bin/mongod
"""
import argparse
import json
import multiprocessing as mp
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dedup_server"))

import pymongo  # noqa: E402
from mongod_process import Server, machine_facts, proc_facts  # noqa: E402

COLLATION = {"locale": "en", "strength": 2}
SYLLABLES = ["ka", "Lo", "mi", "NU", "pe", "ra", "Si", "to", "Vu", "we", "xo", "Ze", "ch", "St", "Ba"]


def word(rng):
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(3, 7)))


def insert_worker(uri, name, seconds, batch, seed, out):
    rng = random.Random(seed)
    coll = pymongo.MongoClient(uri).bench[name]
    n = 0
    deadline = time.time() + seconds
    while time.time() < deadline:
        coll.insert_many([{"s": word(rng), "n": rng.random()} for _ in range(batch)], ordered=False)
        n += batch
    out.put(n)


def scan_worker(uri, name, seconds, span, seed, out):
    rng = random.Random(seed)
    coll = pymongo.MongoClient(uri).bench[name]
    collation = COLLATION if name == "collated" else None
    # Range ends drawn from the words themselves; the width in syllables gives about 'span'
    # documents on average, the same for both collections (same generator, same counts).
    queries = docs = 0
    deadline = time.time() + seconds
    while time.time() < deadline:
        lo = word(rng)
        hi = lo + "z" * 3
        cur = coll.find({"s": {"$gte": lo, "$lt": hi}}, collation=collation, hint=[("s", 1)], limit=span)
        docs += sum(1 for _ in cur)
        queries += 1
    out.put((queries, docs))


def phase(target, args_of, clients):
    q = mp.Queue()
    ps = [mp.Process(target=target, args=args_of(i) + (q,)) for i in range(clients)]
    for p in ps:
        p.start()
    res = [q.get() for _ in ps]
    for p in ps:
        p.join()
    return res


def plot(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    for ax, key, label in ((axes[0], "insert_docs_per_s", "inserts/s"), (axes[1], "scan_docs_per_s", "scanned docs/s")):
        for name, colour in (("simple", "tab:blue"), ("collated", "tab:orange")):
            ys = [r[key] for r in results[name]]
            ax.plot(range(len(ys)), ys, "o-", color=colour, label=name)
        ax.set_title(label)
        ax.set_xlabel("round")
        ax.set_ylim(bottom=0)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", default="build/install/bin/mongod")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--span", type=int, default=50)
    ap.add_argument("--dedup", action="store_true", help="start the server with --dedup")
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="collation-bench-")
    server = Server(os.path.abspath(a.mongod), tmp, ["--dedup"] if a.dedup else [])
    server.start()
    uri = "mongodb://127.0.0.1:%d/?directConnection=true" % server.port
    cpu_seconds = lambda: proc_facts(server.proc.pid)["cpu_s"]  # noqa: E731
    try:
        db = pymongo.MongoClient(uri).bench
        db.create_collection("simple")
        db.create_collection("collated")
        db.simple.create_index([("s", 1)])
        db.collated.create_index([("s", 1)], collation=COLLATION)
        results = {"simple": [], "collated": []}
        for r in range(a.rounds):
            for name in ("simple", "collated") if r % 2 == 0 else ("collated", "simple"):
                seed = 1000 * r
                cpu0 = cpu_seconds()
                ins = sum(phase(insert_worker, lambda i: (uri, name, a.seconds, a.batch, seed + i), a.clients))
                cpu1 = cpu_seconds()
                scans = phase(scan_worker, lambda i: (uri, name, a.seconds, a.span, seed + 500 + i), a.clients)
                cpu2 = cpu_seconds()
                queries = sum(q for q, _ in scans)
                docs = sum(d for _, d in scans)
                row = {"round": r, "insert_docs_per_s": ins / a.seconds, "scan_queries_per_s": queries / a.seconds,
                       "scan_docs_per_s": docs / a.seconds, "docs_per_query": docs / max(queries, 1),
                       "insert_server_us_per_doc": 1e6 * (cpu1 - cpu0) / max(ins, 1),
                       "scan_server_us_per_doc": 1e6 * (cpu2 - cpu1) / max(docs, 1),
                       "collection_docs": db[name].estimated_document_count()}
                results[name].append(row)
                print("round %d %-8s insert %7.0f docs/s (server %.1f us/doc)  scan %6.0f queries/s %7.0f docs/s "
                      "(%.1f per query, server %.1f us/doc)" %
                      (r, name, row["insert_docs_per_s"], row["insert_server_us_per_doc"], row["scan_queries_per_s"],
                       row["scan_docs_per_s"], row["docs_per_query"], row["scan_server_us_per_doc"]), flush=True)
        med = {name: {k: statistics.median(row[k] for row in rows) for k in rows[0] if k != "round"}
               for name, rows in results.items()}
        cost = {k: med["simple"][k] / med["collated"][k]
                for k in ("insert_docs_per_s", "scan_queries_per_s", "scan_docs_per_s")}
        # CPU per document: the collated one over the simple one (higher is costlier).
        cost.update({k: med["collated"][k] / med["simple"][k]
                     for k in ("insert_server_us_per_doc", "scan_server_us_per_doc")})
        summary = {"config": vars(a), "machine": machine_facts(), "loadavg_at_end": os.getloadavg(), "collation": COLLATION, "rounds": results, "median": med,
                   "cost_of_collated": cost, "target_max_cost": 1.5,
                   "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "results.json"), "w") as f:
            json.dump(summary, f, indent=1)
        plot(results, os.path.join(a.out, "fig_collation.png"))
        for k, v in cost.items():
            print("cost of the collated index, %-24s %.3f (simple %.1f, collated %.1f)" %
                  (k, v, med["simple"][k], med["collated"][k]))
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
