"""Mixed-load mode of the saturation benchmark (saturation.py --modes mixed): memory under many
clients doing everything at once (issue 9, "Memory is bounded").

Per server config (--mixed-configs): a fresh mongod; the first --mixed-preload-mb of
--mixed-dataset inserted (insert_many of 100, one client) and the dedup queues drained; then
--mixed-clients clients (threads, spread over --mixed-processes forked processes, one
connection each) run for --mixed-minutes with no pauses, each operation drawn by weight
(--mixed-mix):
  insert   insert_one of the data set's next record (the records after the preload, in history
           order, shared round-robin between the clients; once they run out the history is
           replayed as new versions: same key, body + "[mixed pass N]", new _id)
  set      update_one {$set: {ts: <now>, n: <counter>}} on a random existing document
  replace  replace_one of a random existing document by another version of its key (or, for a
           key with one version, its own body + a marker)
  find     find_one by a random existing _id
  range    find({_id: {$gte: <random existing _id>}}).limit(10), read fully
Then --mixed-post-s seconds idle. The sampler records RSS, CPU, serverStatus().dedup (memory
and queues), the WiredTiger cache's bytes, the data directory and the operation counters every
--sample-interval s throughout. -> <out>/mixed/<config>.json
"""
import array
import gc
import multiprocessing as mp
import os
import random
import shutil
import tempfile
import threading
import time

import bson
import pymongo
from bson.raw_bson import RawBSONDocument

from bench_results import percentiles
from mongod_process import Server, log, machine_facts, proc_facts
from sat_common import (Sampler, configured_cache_bytes, dataset_path, jsonable, load_records,
                        server_args, wait_dedup_idle, write_json)

OPS = ("insert", "set", "replace", "find", "range")
_STATE = {}  # records and ids of the current run; set before the workers fork


def parse_mix(s):
    w = {k: 0.0 for k in OPS}
    for part in s.split(","):
        k, _, v = part.partition("=")
        if k.strip() not in w:
            raise ValueError(f"unknown operation {k!r} in --mixed-mix (known: {', '.join(OPS)})")
        w[k.strip()] = float(v)
    return w


def _thread_loop(gid, n_threads, port, deadline, weights, counters, out, seed):
    """One client: its own connection, operations until `deadline` (time.monotonic())."""
    st = _STATE
    recs, by_key, preload_ids, first_new = st["recs"], st["by_key"], st["preload_ids"], st["first_new"]
    rng = random.Random(seed * 1000 + gid)
    client = pymongo.MongoClient("127.0.0.1", port, directConnection=True, maxPoolSize=1,
                                 socketTimeoutMS=600_000)
    coll = client.bench.docs
    ops, w = list(weights), [weights[k] for k in weights]
    lat = {k: array.array("d") for k in OPS}
    errors, my_ids = {}, []
    seq = 0
    n_new = len(recs) - first_new
    try:
        client.admin.command("ping")
        while time.monotonic() < deadline:
            op = rng.choices(ops, w)[0]
            a = time.monotonic()
            try:
                if op == "insert":
                    j = seq * n_threads + gid  # this client's next record, round-robin
                    rec = recs[first_new + j % n_new] if n_new > 0 else recs[j % len(recs)]
                    passno = j // max(n_new, 1)
                    doc = {"_id": f"mixed:{gid}:{seq}", "key": rec["key"], "ts": rec.get("ts"),
                           "body": rec["body"] if passno == 0 else rec["body"] + f"\n[mixed pass {passno}]"}
                    seq += 1
                    coll.insert_one(doc)
                    my_ids.append((doc["_id"], rec["key"]))
                else:
                    if my_ids and rng.random() < 0.3:
                        _id, key = my_ids[rng.randrange(len(my_ids))]
                    else:
                        _id, key = preload_ids[rng.randrange(len(preload_ids))]
                    if op == "set":
                        coll.update_one({"_id": _id}, {"$set": {"ts": time.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                                                "n": seq}})
                    elif op == "replace":
                        versions = by_key.get(key) or []
                        if len(versions) > 1:
                            body = recs[versions[rng.randrange(len(versions))]]["body"]
                        else:
                            body = recs[versions[0]]["body"] + f"\n[edit {seq}]" if versions else f"edit {seq}"
                        coll.replace_one({"_id": _id}, {"key": key, "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                                        "body": body})
                    elif op == "find":
                        coll.find_one({"_id": _id})
                    else:
                        list(coll.find({"_id": {"$gte": _id}}).limit(10))
                lat[op].append(time.monotonic() - a)
                counters[gid * len(OPS) + OPS.index(op)] += 1
            except pymongo.errors.PyMongoError as e:
                k = f"{op}: {type(e).__name__}"
                errors[k] = errors.get(k, 0) + 1
                if isinstance(e, (pymongo.errors.AutoReconnect, pymongo.errors.ServerSelectionTimeoutError)):
                    time.sleep(0.1)
    finally:
        client.close()
    out[gid] = {"lat": lat, "errors": errors}


def _worker_proc(first_gid, n_mine, n_threads, conn, go, counters, weights, seed):
    """A forked process running n_mine client threads; sends their latencies and errors."""
    try:
        msg = conn.recv()
        if msg is None:
            return
        port, duration_s = msg
        out = {}
        conn.send("ready")
        go.wait()
        deadline = time.monotonic() + duration_s
        threads = [threading.Thread(target=_thread_loop, args=(first_gid + i, n_threads, port, deadline,
                                                               weights, counters, out, seed))
                   for i in range(n_mine)]
        gc.disable()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        lat = {k: array.array("d") for k in OPS}
        errors = {}
        for r in out.values():
            for k in OPS:
                lat[k].extend(r["lat"][k])
            for k, v in r["errors"].items():
                errors[k] = errors.get(k, 0) + v
        conn.send({"lat": {k: v.tobytes() for k, v in lat.items()}, "errors": errors,
                   "threads_done": len(out)})
    except Exception as e:
        try:
            conn.send({"error": f"{type(e).__name__}: {e}"[:1000]})
        except OSError:
            pass


def run_mixed(binary, config, args, workroot, seed=7):
    data_file = dataset_path(args.data, args.mixed_dataset)
    raw = load_records(data_file)
    recs = [bson.decode(r) for _, _, r in raw]
    preload = load_records(data_file, args.mixed_preload_mb)
    first_new = len(preload)
    by_key = {}
    for i, r in enumerate(recs):
        by_key.setdefault(r.get("key"), []).append(i)
    _STATE.update(recs=recs, by_key=by_key, first_new=first_new,
                  preload_ids=[(_id, key) for _id, key, _ in preload])
    weights = parse_mix(args.mixed_mix)
    n_clients, n_procs = args.mixed_clients, max(1, min(args.mixed_processes, args.mixed_clients))
    res = {"mode": "mixed", "label": args.label, "config": config, "dataset": args.mixed_dataset,
           "dataset_file": os.path.abspath(data_file), "clients": n_clients, "processes": n_procs,
           "minutes": args.mixed_minutes, "post_s": args.mixed_post_s, "mix": weights,
           "preload_records": first_new, "preload_bytes": sum(len(r) for _, _, r in preload),
           "sample_interval_s": args.sample_interval, "wt_cache_gb": args.wt_cache_gb, "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "loadavg_start": os.getloadavg()}
    ctx = mp.get_context("fork")
    counters = ctx.Array("q", n_clients * len(OPS), lock=False)
    go = ctx.Event()
    procs, conns, gid = [], [], 0
    for p_i in range(n_procs):  # forked before the server and any client exist here
        n_mine = n_clients // n_procs + (1 if p_i < n_clients % n_procs else 0)
        parent_end, child_end = ctx.Pipe()
        p = ctx.Process(target=_worker_proc, args=(gid, n_mine, n_clients, child_end, go, counters,
                                                   weights, seed), daemon=True)
        p.start()
        procs.append(p)
        conns.append(parent_end)
        gid += n_mine
    workdir = tempfile.mkdtemp(prefix=f"sat.mixed.{config}.", dir=workroot)
    srv = Server(binary, workdir, server_args(config, args.dedup_args, args.server_args, args.wt_cache_gb))
    sampler = None
    t_run = time.monotonic()
    try:
        srv.start()
        res["mongod_cmd"] = srv.cmd
        admin = srv.client.admin
        res["process_at_server_start"] = proc_facts(srv.proc.pid)
        ss0 = admin.command("serverStatus")
        res["configured_cache_bytes"] = configured_cache_bytes(ss0)
        t0 = time.monotonic()

        def ops_now():
            return {"ops": {k: sum(counters[i::len(OPS)]) for i, k in zip(range(len(OPS)), OPS)}}
        sampler = Sampler(srv.port, srv.dbpath, srv.proc.pid, t0, args.sample_interval,
                          coll=("bench", "docs"), extra=ops_now)
        sampler.phase = "preload"
        sampler.start()
        coll = srv.client.bench.docs
        for i in range(0, len(preload), 100):
            coll.insert_many([RawBSONDocument(r) for _, _, r in preload[i:i + 100]], ordered=True)
        res["preload_drain"] = wait_dedup_idle(srv.client, 300, expect_examined=None)
        res["process_before_load"] = proc_facts(srv.proc.pid)
        for c in conns:
            c.send((srv.port, args.mixed_minutes * 60))
        for c in conns:
            if not c.poll(120) or c.recv() != "ready":
                raise RuntimeError("a mixed-load process did not get ready")
        res["load_start_s"] = time.monotonic() - t0
        sampler.phase = "load"
        go.set()
        log(f"mixed / {config}: {n_clients} clients for {args.mixed_minutes:g} min")
        results = []
        for c in conns:
            while not c.poll(5.0):
                if srv.proc.poll() is not None:
                    raise RuntimeError(f"mongod exited ({srv.proc.returncode}) during the mixed load")
            results.append(c.recv())
        res["load_end_s"] = time.monotonic() - t0
        sampler.phase = "post"
        bad = [r["error"] for r in results if "error" in r]
        if bad:
            raise RuntimeError(f"mixed-load process errors: {bad[:3]}")
        res["process_at_load_end"] = proc_facts(srv.proc.pid)
        secs = res["load_end_s"] - res["load_start_s"]
        lat = {k: array.array("d") for k in OPS}
        errors = {}
        for r in results:
            for k in OPS:
                lat[k].frombytes(r["lat"][k])
            for k, v in r["errors"].items():
                errors[k] = errors.get(k, 0) + v
        res["ops"] = {k: dict(percentiles(list(lat[k])), per_s=len(lat[k]) / secs) for k in OPS}
        res["ops_total_per_s"] = sum(len(lat[k]) for k in OPS) / secs
        res["errors"] = errors
        log(f"mixed / {config}: {res['ops_total_per_s']:.0f} ops/s; RSS "
            f"{(res['process_at_load_end'] or {}).get('VmRSS_bytes', 0) / 2**20:.0f} MiB; "
            f"sampling {args.mixed_post_s:.0f} s more")
        deadline = t0 + res["load_end_s"] + args.mixed_post_s
        while time.monotonic() < deadline:
            if srv.proc.poll() is not None:
                raise RuntimeError(f"mongod exited ({srv.proc.returncode}) after the mixed load")
            time.sleep(0.5)
        res["samples"] = sampler.stop()
        sampler = None
        res["process_end"] = proc_facts(srv.proc.pid)
        ss = admin.command("serverStatus")
        res["server_status_dedup_end"] = jsonable(ss.get("dedup"))
        res["server_status_mem_end"] = jsonable(ss.get("mem"))
        res["server_status_tcmalloc_end"] = jsonable(ss.get("tcmalloc"))
        res["wt_cache_bytes_end"] = (ss.get("wiredTiger") or {}).get("cache", {}).get(
            "bytes currently in the cache")
        res["count_end"] = coll.estimated_document_count()
        res["shutdown_exit_code"] = srv.stop()
        res["server_log_warnings"] = srv.log_problems()
    except BaseException as e:
        res["error"] = f"{type(e).__name__}: {e}"
        res["mongod_log_tail"] = srv.log_tail()
        if sampler is not None:
            res["samples"] = sampler.stop()
        if not isinstance(e, Exception):
            raise
    finally:
        go.set()
        for c in conns:
            try:
                c.send(None)
            except OSError:
                pass
        for p in procs:
            p.join(30)
            if p.is_alive():
                p.terminate()
                p.join(5)
        srv.kill()
        _STATE.clear()
        res["loadavg_end"] = os.getloadavg()
        res["run_seconds"] = time.monotonic() - t_run
        if "error" not in res:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            log(f"mixed / {config}: FAILED {res['error']}; kept {workdir}")
    return res


def mode_mixed(args, binaries, workroot, failures):
    for cfg in args.mixed_configs:
        res = run_mixed(binaries["mongod"], cfg, args, workroot)
        res["mongod"] = binaries["mongod_info"]
        res["machine"] = machine_facts()
        write_json(os.path.join(args.out, "mixed", f"{cfg}.json"), res)
        if "error" in res:
            failures.append(f"mixed {cfg}: {res['error']}")
