#!/usr/bin/env python3
"""Memory under load: N clients of mixed inserts, updates and reads against one mongod, with the
server's RSS sampled from /proc during the load and for a while after it.

    PY=/opt/mongo-dedup-deps/tools-v1/venv/bin/python
    $PY buildscripts/bench/memory/memload.py --duration 180 --after 60 -- --dedup

starts build/install/bin/mongod (arguments after `--` go to it) on a fresh dbpath, runs the load
(--clients connections, each its own MongoClient with one pooled connection, spread over
--procs processes), then leaves the server idle for --after seconds. Every second it records
VmRSS; every 5 s serverStatus' own figures (WiredTiger cache bytes, dedup memoryBytes, the
tcmalloc section when there is one). The last line is a JSON summary: RSS at start, peak,
plateau (the mean over the last third of the load), at the end of the load and --after seconds
later, next to what the server accounts for at that moment.

The load: per operation, 40% insert of a new version of one of 2000 "articles" (2-12 KB of text,
1% of them 200-900 KB so that large messages go through every connection), 30% update ($set of
a field and $inc, or a replace of the whole document), 30% read (find by _id, or a short range
with a sort). Documents of one article resemble each other, which is what --dedup works on.
"""
import argparse
import json
import multiprocessing as mp
import os
import random
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time

import pymongo

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
MB = 1024 * 1024


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_bytes(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def thread_count(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return None


# ---- the load ---------------------------------------------------------------------------------

WORDS = ["".join(random.Random(i).choice(string.ascii_lowercase) for _ in range(3 + i % 7))
         for i in range(5000)]


def article_text(rng, article, version):
    """A text that changes a little from one version of an article to the next."""
    base = random.Random(article)
    n = base.randint(300, 1800) if base.random() > 0.01 else base.randint(30000, 130000)
    words = [WORDS[base.randrange(len(WORDS))] for _ in range(n)]
    for _ in range(3 + version % 5):  # small edits
        words[rng.randrange(len(words))] = WORDS[rng.randrange(len(WORDS))]
    return " ".join(words)


def client_thread(uri, seed, stop_at, counts, lock):
    rng = random.Random(seed)
    client = pymongo.MongoClient(uri, maxPoolSize=1, minPoolSize=1)
    coll = client.memload.docs
    done = {"insert": 0, "update": 0, "read": 0, "error": 0}
    my_ids = []
    try:
        while time.time() < stop_at:
            r = rng.random()
            try:
                if r < 0.4 or not my_ids:
                    article = rng.randrange(2000)
                    version = rng.randrange(1000)
                    doc = {"article": article, "version": version, "seed": seed,
                           "text": article_text(rng, article, version), "n": 0}
                    res = coll.insert_one(doc)
                    my_ids.append(res.inserted_id)
                    if len(my_ids) > 200:
                        my_ids.pop(rng.randrange(len(my_ids)))
                    done["insert"] += 1
                elif r < 0.7:
                    _id = rng.choice(my_ids)
                    if rng.random() < 0.7:
                        coll.update_one({"_id": _id}, {"$set": {"tag": rng.randrange(1 << 30)},
                                                       "$inc": {"n": 1}})
                    else:
                        article = rng.randrange(2000)
                        coll.replace_one({"_id": _id}, {"article": article, "version": rng.randrange(1000),
                                                        "seed": seed, "n": 0,
                                                        "text": article_text(rng, article, 1)})
                    done["update"] += 1
                else:
                    if rng.random() < 0.7:
                        coll.find_one({"_id": rng.choice(my_ids)})
                    else:
                        list(coll.find({"_id": {"$gte": rng.choice(my_ids)}}).sort("_id", 1).limit(5))
                    done["read"] += 1
            except pymongo.errors.PyMongoError as e:
                done["error"] += 1
                if done["error"] < 3:
                    log(f"client {seed}: {e}")
    finally:
        client.close()
    with lock:
        for k, v in done.items():
            counts[k] = counts.get(k, 0) + v


def worker_process(uri, seeds, stop_at, out_q):
    counts, lock = {}, threading.Lock()
    threads = [threading.Thread(target=client_thread, args=(uri, s, stop_at, counts, lock)) for s in seeds]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out_q.put(counts)


# ---- measuring --------------------------------------------------------------------------------

def rss_by_mapping(pid):
    """Where the RSS lives, from /proc/PID/smaps (MB): the brk heap, glibc's per-thread arenas
    (anonymous, 64 MB-aligned), 8 MB thread stacks, other anonymous memory (large mmap'd
    allocations, allocator pages), and files (the binary, libraries)."""
    out = {"brk_heap": 0, "malloc_arenas": 0, "thread_stacks": 0, "other_anon": 0, "files": 0}
    cur = None
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                head = line.split()
                if "-" in head[0] and not line.startswith(("Rss", "Size")) and ":" not in head[0]:
                    lo, hi = (int(x, 16) for x in head[0].split("-"))
                    name = head[5] if len(head) > 5 else ""
                    size = hi - lo
                    if name == "[heap]":
                        cur = "brk_heap"
                    elif name.startswith("/"):
                        cur = "files"
                    elif name == "[stack]" or size in (8 * MB, 8 * MB + 4096):
                        cur = "thread_stacks"
                    elif lo % (64 * MB) == 0 and size <= 64 * MB:
                        cur = "malloc_arenas"
                    else:
                        cur = "other_anon"
                elif head[0] == "Rss:" and cur:
                    out[cur] += int(head[1]) * 1024
    except OSError:
        return {}
    return {k: round(v / MB, 1) for k, v in out.items()}


def accounted(admin):
    """What the server says it holds, from serverStatus (bytes; None where absent)."""
    try:
        st = admin.command("serverStatus", tcmalloc=1)
    except pymongo.errors.PyMongoError:
        return {}
    out = {"wt_cache": st.get("wiredTiger", {}).get("cache", {}).get("bytes currently in the cache"),
           "dedup": st.get("dedup", {}).get("memoryBytes"),
           "connections": st.get("connections", {}).get("current")}
    tc = st.get("tcmalloc")
    if tc:
        g, t = tc.get("generic", {}), tc.get("tcmalloc", {})
        out["allocated"] = g.get("current_allocated_bytes")
        out["heap_size"] = g.get("heap_size")
        out["pageheap_free"] = t.get("pageheap_free_bytes")
        out["thread_cache_free"] = t.get("thread_cache_free_bytes")
    return {k: v for k, v in out.items() if v is not None}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mongod", default=os.path.join(ROOT, "build/install/bin/mongod"))
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--duration", type=float, default=180, help="seconds of load")
    ap.add_argument("--after", type=float, default=60, help="seconds to watch after the load")
    ap.add_argument("--out", help="write the samples (JSON lines) here")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE for mongod's environment")
    ap.add_argument("--mongod-stderr", help="keep mongod's stderr here (sanitizer reports)")
    ap.add_argument("mongod_args", nargs="*")
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix="memload-")
    os.makedirs(os.path.join(work, "db"))
    port = free_port()
    env = dict(os.environ)
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    cmd = [a.mongod, "--port", str(port), "--dbpath", os.path.join(work, "db"),
           "--logpath", os.path.join(work, "mongod.log")] + a.mongod_args
    log("starting " + " ".join(cmd) + "".join(f" [{kv}]" for kv in a.env))
    err = open(a.mongod_stderr, "w") if a.mongod_stderr else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
    uri = f"mongodb://127.0.0.1:{port}/?directConnection=true"
    samples = []
    out = open(a.out, "w") if a.out else None
    try:
        admin = pymongo.MongoClient(uri, serverSelectionTimeoutMS=30000).admin
        admin.command("ping")
        time.sleep(1)
        t0 = time.time()

        def sample(phase, with_status):
            s = {"t": round(time.time() - t0, 1), "phase": phase, "rss": rss_bytes(proc.pid),
                 "threads": thread_count(proc.pid)}
            if with_status:
                s.update(accounted(admin))
            samples.append(s)
            if out:
                out.write(json.dumps(s) + "\n")
                out.flush()
            return s

        start = sample("start", True)
        log(f"start: rss {start['rss'] / MB:.1f} MB")
        stop_at = time.time() + a.duration
        q = mp.Queue()
        seeds = list(range(a.clients))
        procs = [mp.Process(target=worker_process, args=(uri, seeds[i::a.procs], stop_at, q))
                 for i in range(a.procs)]
        for p in procs:
            p.start()
        i = 0
        while time.time() < stop_at:
            time.sleep(1)
            i += 1
            s = sample("load", i % 5 == 0)
            if i % 15 == 0:
                acc = " ".join(f"{k} {v / MB:.1f}" for k, v in s.items()
                               if k not in ("t", "phase", "rss", "threads", "connections"))
                log(f"t={s['t']:.0f}s rss {s['rss'] / MB:.1f} MB threads {s['threads']} "
                    f"conns {s.get('connections')} | {acc}")
        counts = {}
        for _ in procs:
            for k, v in q.get().items():
                counts[k] = counts.get(k, 0) + v
        for p in procs:
            p.join()
        end_load = sample("end", True)
        log(f"load done: {counts}")
        t_end = time.time()
        while time.time() < t_end + a.after:
            time.sleep(1)
            sample("after", int(time.time() - t_end) % 5 == 0)
        after = sample("after", True)

        load = [s for s in samples if s["phase"] == "load"]
        tail = load[-max(1, len(load) // 3):]
        summary = {
            "mongod_args": a.mongod_args, "env": a.env, "clients": a.clients, "duration_s": a.duration,
            "ops": counts,
            "rss_start_mb": round(start["rss"] / MB, 1),
            "rss_peak_mb": round(max(s["rss"] for s in samples) / MB, 1),
            "rss_plateau_mb": round(sum(s["rss"] for s in tail) / len(tail) / MB, 1),
            "rss_first_third_end_mb": round(load[len(load) // 3]["rss"] / MB, 1) if load else None,
            "rss_end_of_load_mb": round(end_load["rss"] / MB, 1),
            f"rss_after_{int(a.after)}s_mb": round(after["rss"] / MB, 1),
            "accounted_after_mb": {k: round(v / MB, 1) for k, v in after.items()
                                   if k not in ("t", "phase", "rss", "threads", "connections")},
            "threads_peak": max(s["threads"] or 0 for s in samples),
            "rss_by_mapping_after_mb": rss_by_mapping(proc.pid),
        }
        print(json.dumps(summary))
    finally:
        # A clean shutdown (LeakSanitizer reports at exit); SIGTERM if that does not work.
        try:
            pymongo.MongoClient(uri, serverSelectionTimeoutMS=5000).admin.command("shutdown")
        except pymongo.errors.PyMongoError:
            pass  # the connection closes as the server goes
        try:
            proc.wait(300)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log(f"mongod exited with {proc.returncode}")
        if out:
            out.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
