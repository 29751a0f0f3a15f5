#!/usr/bin/env python3
"""How long mongod --dedup takes to rebuild its dedup state at start-up (issue 4: "persisted or
rebuilt at start-up: measure how long for 200k records").

Loads N records (default 200,000) into one collection of a fresh `mongod --dedup`: the four
data sets of ../shared/data in turn, over and over, each pass appending a pass number to every
body (so later passes are new versions of earlier ones, as in a versioned application), in
batches of 500 with insert_many. Waits until the dedup layer is idle, shuts down cleanly,
starts again, and reads `serverStatus().dedup.startupRebuild` (records and durationMillis, as
logged by the server) plus the wall time from process start to the first successful ping and
to `startupRebuild.ready` (the rebuild runs in the background while the server serves).
Writes results/rebuild_time.json.

  rebuild_time.py [--records 200000] [--mongod PATH] [--data DIR] [--out DIR]
"""
import argparse
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pymongo
import zstandard

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DATASETS = ["wiki-python", "peps-history", "se-posthistory", "email-ham"]


def read_dataset(path):
    with open(path, "rb") as f:
        reader = zstandard.ZstdDecompressor(max_window_size=2 ** 27).stream_reader(f)
        for line in io.TextIOWrapper(reader, encoding="utf-8"):
            d = json.loads(line)
            yield {"key": d["key"], "ts": d["ts"], "body": d["body"]}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(mongod, dbpath, port, log):
    t0 = time.monotonic()
    proc = subprocess.Popen([mongod, "--dedup", "--dbpath", dbpath, "--port", str(port), "--bind_ip", "127.0.0.1"],
                            stdout=log, stderr=subprocess.STDOUT)
    client = pymongo.MongoClient("127.0.0.1", port, serverSelectionTimeoutMS=600000)
    client.admin.command("ping")
    return proc, client, time.monotonic() - t0


def shutdown(client, proc):
    try:
        client.admin.command("shutdown")
    except pymongo.errors.PyMongoError:
        pass  # the server closes the connection as it goes
    proc.wait(timeout=600)


def wait_idle(client, timeout=1800):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = client.admin.command("serverStatus")["dedup"]
        if s["pendingInserts"] == 0 and s["writeBacks"]["pending"] == 0:
            return s
        time.sleep(0.5)
    raise RuntimeError("dedup layer did not become idle")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=200000)
    ap.add_argument("--mongod", default=os.path.join(REPO, "build", "install", "bin", "mongod"))
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="dedup_rebuild_")
    mongod = os.path.join(work, "mongod")
    shutil.copy2(args.mongod, mongod)
    dbpath = os.path.join(work, "db")
    os.makedirs(dbpath)
    port = free_port()
    log = open(os.path.join(work, "mongod.log"), "ab")
    proc = None
    try:
        proc, client, _ = start(mongod, dbpath, port, log)
        coll = client.bench.docs
        n, logical, passes, t0 = 0, 0, 0, time.monotonic()
        batch = []
        while n < args.records:
            for name in DATASETS:
                for d in read_dataset(os.path.join(args.data, name + ".jsonl.zst")):
                    if n >= args.records:
                        break
                    d["_id"] = "%d:%d" % (passes, n)
                    if passes:
                        d["body"] += "\n[pass %d]" % passes
                    batch.append(d)
                    n += 1
                    if len(batch) == 500:
                        coll.insert_many(batch, ordered=True)
                        logical += sum(len(x["body"]) for x in batch)
                        batch = []
                        if n % 20000 == 0:
                            print("[rebuild] loaded %d records (%.0f s)" % (n, time.monotonic() - t0), file=sys.stderr)
            passes += 1
        if batch:
            coll.insert_many(batch, ordered=True)
            logical += sum(len(x["body"]) for x in batch)
        load_secs = time.monotonic() - t0
        before = wait_idle(client)
        shutdown(client, proc)
        print("[rebuild] restarting", file=sys.stderr)
        t_start = time.monotonic()
        proc, client, startup_secs = start(mongod, dbpath, port, log)
        # The rebuild runs in the background: wait until it reports ready (servers from
        # before the background rebuild have no "ready" field and were ready at the ping).
        ready_secs = startup_secs
        while True:
            after = client.admin.command("serverStatus")["dedup"]
            if after["startupRebuild"].get("ready", True):
                ready_secs = time.monotonic() - t_start
                break
            time.sleep(0.05)
        result = {
            "records": n,
            "passes_over_data": passes,
            "body_bytes": logical,
            "load_seconds": round(load_secs, 1),
            "before_restart": {k: before[k] for k in ("recordsExamined", "recordsEncoded", "logicalBytes",
                                                       "storedBytes", "ratio", "indexEntries", "memoryBytes")},
            "startup_rebuild": after["startupRebuild"],
            "startup_to_first_ping_seconds": round(startup_secs, 2),
            "startup_to_dedup_ready_seconds": round(ready_secs, 2),
            "after_restart": {k: after[k] for k in ("logicalBytes", "storedBytes", "indexEntries", "memoryBytes")},
            "rss_kb_after_restart": int(open("/proc/%d/status" % proc.pid).read().split("VmRSS:")[1].split()[0]),
        }
        shutdown(client, proc)
        proc = None
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "rebuild_time.json"), "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
        print(json.dumps(result, indent=1, sort_keys=True))
    finally:
        if proc and proc.poll() is None:
            proc.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
