#!/usr/bin/env python3
"""Saturation benchmark of mongod --dedup (issue 9, "Benchmark"): what users see when they load
as fast as they can, with several client processes, and leave the server alone afterwards.

Modes (--modes, default all three):
  load     per data set x server config x client count: P client PROCESSES, each sending
           insert_many batches (--batch, default 20, ordered) of its contiguous share of the data
           set's history with no pauses (process i takes records [i*N/P, (i+1)*N/P) in file
           order, so the versions of one document reach the server in order within a process).
           Sampled every --sample-interval s during the load and for --post-load-s after it
           (no compact, no fsync): data-directory bytes (st_blocks*512 and st_size), logical
           bytes acknowledged so far, mongod RSS and CPU, serverStatus().dedup, collStats.
           Records throughput and per-batch latency; dedup_bench's ratio on the same records
           is the reference for the on-disk targets. -> results/saturation/load/*.json
  mixed    64 clients (threads in a few processes) of inserts, $set updates, replacements,
           point reads and small range scans for N minutes, then 60 s idle; RSS over time
           (sat_mixed.py). -> results/saturation/mixed/*.json
  startup  load 200k / 1M records, clean restart, time to first ping and to dedup ready
           (sat_startup.py). -> results/saturation/startup/*.json

Then writes SATURATION.md and its figures (sat_report.py, sat_plots.py). Everything runs against
a copy of build/install/bin/mongod (so a rebuild during the run does not mix builds).

Full run (about 40 min on 2 cores; see SATURATION.md "How to reproduce"):
  saturation.py
Quick run:
  saturation.py --limit-mb 20 --clients 1,4 --post-load-s 10 --mixed-minutes 1 \
      --mixed-post-s 10 --startup-records 50000 --out results/saturation_smoke --label smoke
"""
import argparse
import gc
import json
import multiprocessing as mp
import os
import shutil
import sys
import tempfile
import time

import pymongo
from bson.codec_options import CodecOptions
from bson.raw_bson import RawBSONDocument

from bench_results import percentiles
from mongod_process import Server, dir_bytes, log, machine_facts, proc_facts, stable_binary
from sat_common import (CONFIGS, DATA_DIR, DEFAULT_DEDUP_BENCH_ARGS, HERE, REPO, Sampler,
                        available_datasets, configured_cache_bytes, dataset_path,
                        dedup_bench_reference, jsonable, load_records, server_args,
                        wait_dedup_idle, write_json)

RAW = CodecOptions(document_class=RawBSONDocument)
DEFAULT_DATASETS = "peps-history,wiki-python"
_DOCS = []  # the records of the current data set; set before the clients fork, read by them


def _client_proc(idx, lo, hi, batch, conn, go, progress):
    """One loading client (a forked process). Waits for the port, connects, reports ready,
    waits for `go`, then inserts _DOCS[lo:hi] in batches with no pauses; sends its figures."""
    try:
        port = conn.recv()
        if port is None:
            return
        client = pymongo.MongoClient("127.0.0.1", port, directConnection=True, maxPoolSize=1,
                                     socketTimeoutMS=600_000)
        coll = client.get_database("bench", codec_options=RAW).get_collection("docs")
        client.admin.command("ping")
        mine = _DOCS[lo:hi]
        batches = [[RawBSONDocument(raw) for _, _, raw in mine[i:i + batch]]
                   for i in range(0, len(mine), batch)]
        sizes = [sum(len(raw) for _, _, raw in mine[i:i + batch]) for i in range(0, len(mine), batch)]
        conn.send("ready")
        go.wait()
        gc.collect()
        gc.disable()  # no collector pauses inside the timed loop
        lat, t_start, err = [], time.monotonic(), None
        try:
            for b, nbytes in zip(batches, sizes):
                a = time.monotonic()
                coll.insert_many(b, ordered=True)
                lat.append(time.monotonic() - a)
                progress[2 * idx] += len(b)
                progress[2 * idx + 1] += nbytes
        except pymongo.errors.PyMongoError as e:
            err = f"{type(e).__name__}: {e}"[:1000]
        t_end = time.monotonic()
        gc.enable()
        conn.send({"idx": idx, "docs": hi - lo, "bytes": sum(sizes), "t_start": t_start,
                   "t_end": t_end, "latencies": lat, "error": err})
        client.close()
    except Exception as e:  # reported to the parent, which records the run as failed
        try:
            conn.send({"idx": idx, "error": f"{type(e).__name__}: {e}"[:1000]})
        except OSError:
            pass


def spot_check(coll, docs, n=200, seed=9):
    """n random documents read back by _id must be byte-identical to what was inserted."""
    import random
    rng = random.Random(seed)
    pick = rng.sample(docs, min(n, len(docs)))
    bad = []
    for _id, _, raw in pick:
        d = coll.find_one({"_id": _id})
        if d is None or d.raw != raw:
            bad.append(str(_id))
    return {"checked": len(pick), "mismatches": len(bad), "first_bad": bad[:5]}


def run_load(binary, ds, data_file, config, n_clients, args, workroot, ref, rnd):
    """One saturation load; returns the result record (with 'error' on failure)."""
    global _DOCS
    docs = _DOCS
    n = len(docs)
    res = {"mode": "load", "label": args.label, "dataset": ds, "dataset_file": os.path.abspath(data_file),
           "config": config, "clients": n_clients, "batch": args.batch, "round": rnd,
           "limit_mb": args.limit_mb, "records": n, "logical_bytes": sum(len(r) for _, _, r in docs),
           "distinct_keys": len({k for _, k, _ in docs}), "post_load_s": args.post_load_s,
           "sample_interval_s": args.sample_interval, "load_sample_interval_s": args.load_sample_interval,
           "wt_cache_gb": args.wt_cache_gb, "dedup_bench": ref,
           "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "loadavg_start": os.getloadavg()}
    ctx = mp.get_context("fork")
    progress = ctx.Array("q", 2 * n_clients, lock=False)
    go = ctx.Event()
    procs, conns = [], []
    # The clients fork before the server and any pymongo client or thread exist in this process.
    for i in range(n_clients):
        parent_end, child_end = ctx.Pipe()
        lo, hi = i * n // n_clients, (i + 1) * n // n_clients
        p = ctx.Process(target=_client_proc, args=(i, lo, hi, args.batch, child_end, go, progress),
                        daemon=True)
        p.start()
        procs.append(p)
        conns.append(parent_end)
    workdir = tempfile.mkdtemp(prefix=f"sat.{ds}__{config}__c{n_clients}.", dir=workroot)
    srv = Server(binary, workdir, server_args(config, args.dedup_args, args.server_args, args.wt_cache_gb))
    sampler = None
    t_run = time.monotonic()
    try:
        srv.start()
        res["mongod_cmd"] = srv.cmd
        admin = srv.client.admin
        db = srv.client.get_database("bench", codec_options=RAW)
        db.create_collection("docs")
        admin.command("fsync", 1)
        res["on_disk_empty"] = {k: v for k, v in dir_bytes(srv.dbpath).items() if k != "files"}
        ss0 = admin.command("serverStatus")
        res["configured_cache_bytes"] = configured_cache_bytes(ss0)
        res["process_start"] = proc_facts(srv.proc.pid)
        for c in conns:
            c.send(srv.port)
        for c in conns:
            if not c.poll(120) or c.recv() != "ready":
                raise RuntimeError("a client process did not get ready")
        t0 = time.monotonic()

        def progress_now():
            return {"docs_acked": sum(progress[0::2]), "logical_bytes": sum(progress[1::2])}
        sampler = Sampler(srv.port, srv.dbpath, srv.proc.pid, t0, args.sample_interval,
                          coll=("bench", "docs"), extra=progress_now, load_interval=args.load_sample_interval)
        sampler.start()
        go.set()
        results = []
        for c in conns:
            while not c.poll(1.0):
                if srv.proc.poll() is not None:
                    raise RuntimeError(f"mongod exited ({srv.proc.returncode}) during the load")
            results.append(c.recv())
        t_load_end = time.monotonic() - t0
        sampler.phase = "post"
        errors = [r["error"] for r in results if r.get("error")]
        if errors:
            raise RuntimeError(f"client errors: {errors[:3]}")
        t_first = min(r["t_start"] for r in results) - t0
        t_last = max(r["t_end"] for r in results) - t0
        wall = t_last - t_first
        lat = [x for r in results for x in r["latencies"]]
        res["insert"] = {"seconds": wall, "docs_per_s": n / wall, "mb_per_s": res["logical_bytes"] / wall / 1e6,
                         "latency": percentiles(lat), "batches": len(lat),
                         "per_client": [{"docs": r["docs"], "bytes": r["bytes"],
                                         "seconds": r["t_end"] - r["t_start"]} for r in results]}
        res["load_end_s"] = t_load_end
        cpu_end = proc_facts(srv.proc.pid)
        res["server_cpu_during_load_s"] = (cpu_end["cpu_s"] - res["process_start"]["cpu_s"]) \
            if cpu_end and res["process_start"] else None
        log(f"{ds} / {config} / {n_clients} clients: {n} docs in {wall:.1f} s "
            f"({n / wall:.0f} docs/s, {res['insert']['mb_per_s']:.1f} MB/s, "
            f"p99 {res['insert']['latency'].get('p99_us', 0) / 1000:.1f} ms); sampling {args.post_load_s:.0f} s more")
        deadline = t0 + t_load_end + args.post_load_s
        while time.monotonic() < deadline:
            if srv.proc.poll() is not None:
                raise RuntimeError(f"mongod exited ({srv.proc.returncode}) after the load")
            time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))
        res["samples"] = sampler.stop()
        sampler = None
        # After the sampled window only: figures for reference, not for the targets.
        ss = admin.command("serverStatus")
        res["server_status_dedup_end"] = jsonable(ss.get("dedup"))
        res["coll_stats_end"] = {k: v for k, v in jsonable(db.command("collStats", "docs")).items()
                                 if not isinstance(v, dict) or k in ("dedup",)}
        res["db_stats_end"] = jsonable(db.command("dbStats"))
        res["count_end"] = db.docs.estimated_document_count()
        res["spot_check"] = spot_check(db.docs, docs, args.spot_check)
        admin.command("fsync", 1)
        res["on_disk_after_fsync_end"] = {k: v for k, v in dir_bytes(srv.dbpath).items() if k != "files"}
        res["process_end"] = proc_facts(srv.proc.pid)
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
                c.send(None)  # releases a client still waiting for the port
            except OSError:
                pass
        for p in procs:
            p.join(10)
            if p.is_alive():
                p.terminate()
                p.join(5)
        srv.kill()
        res["loadavg_end"] = os.getloadavg()
        res["run_seconds"] = time.monotonic() - t_run
        if "error" not in res:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            log(f"{ds} / {config} / {n_clients}: FAILED {res['error']}; kept {workdir}")
    return res


def mode_load(args, binaries, workroot, failures):
    global _DOCS
    for ds in args.datasets:
        data_file = dataset_path(args.data, ds)
        _DOCS = load_records(data_file, args.limit_mb)
        logical = sum(len(r) for _, _, r in _DOCS)
        log(f"{ds}: {len(_DOCS)} records, {logical:,} BSON bytes")
        ref = dedup_bench_reference(binaries.get("dedup_bench"), data_file, len(_DOCS),
                                    args.dedup_bench_args, os.path.join(args.out, "reference"))
        if ref:
            log(f"{ds}: dedup_bench ratio {ref.get('ratio')}, +zstd {ref.get('ratio_zstd')}, "
                f"paged zstd {ref.get('paged_ratio_zstd')}")
        for rnd in range(1, args.rounds + 1):
            for clients in args.clients:
                for cfg in args.configs:  # servers interleaved, so a slow spell hits them alike
                    res = run_load(binaries["mongod"], ds, data_file, cfg, clients, args, workroot, ref, rnd)
                    res["mongod"] = binaries["mongod_info"]
                    res["machine"] = machine_facts()
                    name = f"{ds}__{cfg}__c{clients}" + (f"__r{rnd}" if rnd > 1 else "") + ".json"
                    write_json(os.path.join(args.out, "load", name), res)
                    if "error" in res:
                        failures.append(f"load {ds}/{cfg}/c{clients}: {res['error']}")
                    elif res["spot_check"]["mismatches"] or res["count_end"] != len(_DOCS):
                        failures.append(f"load {ds}/{cfg}/c{clients}: read-back {res['spot_check']}, "
                                        f"count {res['count_end']} of {len(_DOCS)}")
    _DOCS = []


def csv_ints(s):
    return [int(x) for x in s.split(",") if x]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", default="load,mixed,startup")
    ap.add_argument("--datasets", default=DEFAULT_DATASETS, help="comma list, or 'all' for every "
                    "*.jsonl.zst under --data [%(default)s]")
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--clients", default="1,4,16", help="client process counts [%(default)s]")
    ap.add_argument("--batch", type=int, default=20, help="documents per insert_many [%(default)s]")
    ap.add_argument("--limit-mb", type=float, default=None, help="load only the first MB of each data set")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--post-load-s", type=float, default=60.0, help="sampling after the load [%(default)s]")
    ap.add_argument("--sample-interval", type=float, default=1.0, help="seconds between samples [%(default)s]")
    ap.add_argument("--load-sample-interval", type=float, default=0.25,
                    help="seconds between samples while the clients load (loads last seconds) [%(default)s]")
    ap.add_argument("--wt-cache-gb", type=float, default=0.25,
                    help="--wiredTigerCacheSizeGB of every server (0: the server's default, half the RAM): "
                         "a cache far smaller than the data keeps pages flowing to the files during a "
                         "load, as with production data sets [%(default)s]")
    ap.add_argument("--spot-check", type=int, default=200, help="documents read back after each load")
    ap.add_argument("--dedup-args", default="", help="extra mongod options for the dedup configs")
    ap.add_argument("--server-args", default="", help="extra mongod options for every server")
    ap.add_argument("--dedup-bench-args", default=DEFAULT_DEDUP_BENCH_ARGS,
                    help="dedup_bench flags for the reference ratio [%(default)s]")
    ap.add_argument("--mixed-minutes", type=float, default=10.0)
    ap.add_argument("--mixed-clients", type=int, default=64)
    ap.add_argument("--mixed-processes", type=int, default=4)
    ap.add_argument("--mixed-configs", default="dedup_zstd")
    ap.add_argument("--mixed-dataset", default="peps-history")
    ap.add_argument("--mixed-preload-mb", type=float, default=20.0)
    ap.add_argument("--mixed-post-s", type=float, default=60.0)
    ap.add_argument("--mixed-mix", default="insert=25,set=15,replace=10,find=35,range=15",
                    help="operation weights [%(default)s]")
    ap.add_argument("--startup-records", default="200000,1000000")
    ap.add_argument("--startup-configs", default="dedup_zstd")
    ap.add_argument("--startup-timeout", type=float, default=900.0)
    ap.add_argument("--startup-processes", type=int, default=2)
    ap.add_argument("--startup-wt-cache-gb", type=float, default=0.0,
                    help="--wiredTigerCacheSizeGB of the start-up server (0: the server's default; a small "
                         "cache slows the load of 1M records) [%(default)s]")
    ap.add_argument("--label", default="full", help="recorded in every result; 'smoke' for quick runs")
    ap.add_argument("--mongod", default=os.path.join(REPO, "build", "install", "bin", "mongod"))
    ap.add_argument("--dedup-bench", default=os.path.join(REPO, "build", "install", "bin", "dedup_bench"))
    ap.add_argument("--data", default=DATA_DIR)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "saturation"))
    ap.add_argument("--report", default=None, help="markdown file to write [SATURATION.md beside this "
                    "script for the default --out, else <out>/SATURATION.md]")
    ap.add_argument("--no-report", action="store_true")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    args.datasets = available_datasets(args.data) if args.datasets == "all" else \
        [d for d in args.datasets.split(",") if d]
    args.configs = [c for c in args.configs.split(",") if c]
    args.mixed_configs = [c for c in args.mixed_configs.split(",") if c]
    args.startup_configs = [c for c in args.startup_configs.split(",") if c]
    for c in args.configs + args.mixed_configs + args.startup_configs:
        if c not in CONFIGS:
            ap.error(f"unknown config {c}; known: {', '.join(CONFIGS)}")
    for d in args.datasets:
        if not os.path.exists(dataset_path(args.data, d)):
            ap.error(f"no data set {dataset_path(args.data, d)}")
    if args.mixed_preload_mb <= 0:
        ap.error("--mixed-preload-mb must be positive (updates and reads need existing documents)")
    args.clients = csv_ints(args.clients)
    args.startup_records = csv_ints(args.startup_records)
    modes = [m for m in args.modes.split(",") if m]
    os.makedirs(args.out, exist_ok=True)
    workroot = tempfile.mkdtemp(prefix="dedup_saturation.")
    failures, t_all = [], time.monotonic()
    try:
        binaries = {"mongod": os.path.join(workroot, "mongod")}
        binaries["mongod_info"] = stable_binary(args.mongod, binaries["mongod"])
        if os.path.exists(args.dedup_bench):
            binaries["dedup_bench"] = os.path.join(workroot, "dedup_bench")
            stable_binary(args.dedup_bench, binaries["dedup_bench"])
        log(f"mongod {binaries['mongod_info']['sha256'][:12]} (built {binaries['mongod_info']['mtime']}); "
            f"work dir {workroot}; modes {modes}")
        if "load" in modes:
            mode_load(args, binaries, workroot, failures)
        if "mixed" in modes:
            import sat_mixed
            sat_mixed.mode_mixed(args, binaries, workroot, failures)
        if "startup" in modes:
            import sat_startup
            sat_startup.mode_startup(args, binaries, workroot, failures)
    finally:
        for b in ("mongod", "dedup_bench"):
            p = os.path.join(workroot, b)
            if os.path.exists(p):
                os.remove(p)
        if not os.listdir(workroot):
            os.rmdir(workroot)
        log(f"total {time.monotonic() - t_all:.0f} s")
    with open(os.path.join(args.out, "run_info.json"), "a") as f:
        f.write(json.dumps({"argv": sys.argv, "label": args.label, "modes": modes, "seconds":
                            time.monotonic() - t_all, "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                            "failures": failures}) + "\n")
    if not args.no_report:
        import sat_report
        sat_report.write_report(args.out, args.report)
    if failures:
        print("\n*** FAILED ***\n" + "\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
