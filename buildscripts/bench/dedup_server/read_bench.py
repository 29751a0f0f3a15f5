#!/usr/bin/env python3
"""Read benchmark of mongod --dedup (issue 16, "Reads of deduplicated records as fast as plain
storage"): reads of deduplicated records against plain storage, the way users load a database,
with several client processes at saturation and no pauses.

Servers (--configs): snappy  = --wiredTigerCollectionBlockCompressor snappy, no dedup
                     zstd    = --wiredTigerCollectionBlockCompressor zstd, no dedup
                     dedup   = --dedup with the server's default block compressor (no flag)
                     dedup_zstd = --dedup --wiredTigerCollectionBlockCompressor zstd
All with the same --wiredTigerCacheSizeGB (--wt-cache-gb).

Per data set and server, once: a fresh mongod; collection bench.docs with the index {k: 1}
created BEFORE the load (so it is maintained by the inserts, as in an application whose
collection has its indexes when data arrives); --clients processes insert the data set's first
--limit-mb in history order (process i takes records [i*N/P, (i+1)*N/P), insert_many batches of
--batch, ordered, no pauses), every document with an added integer field k = its position in
the file (unique); the dedup queues drained (wait_dedup_idle); 200 documents read back and
compared byte for byte; clean shutdown. The data directory is kept for the read phases.

Then --reps repetitions, interleaved (for rep: for server: ...): mongod restarted on that
server's kept data directory, dedup start-up rebuild and queues waited for, then the phases,
each --clients processes at saturation for --warmup-s (not counted) + --phase-s seconds:
  id     find_one({_id: random loaded _id})                   reads/s, p50/p99 latency
  k      find_one({k: random loaded k})  (secondary index)    reads/s, p50/p99 latency
  scan   find({}).batch_size(--scan-batch) read to exhaustion, again and again   documents/s
  mixed  --update-fraction update_one({_id}, {$set: {r: <int>}}), the rest find_one({_id})
                                                              ops/s, p99 of each kind
The random keys depend on (rep, phase, client) only, so every server gets the same sequence.
Around every phase: serverStatus().dedup (its `reads` section whole, when the build has it, and
longestChain) and mongod's RSS; every --sample-interval s during it: RSS, CPU and selected
serverStatus().dedup fields (sat_common.Sampler), including reads.cache.bytes/capacityBytes.
mixed changes documents (field r): later repetitions read those documents, on every server alike.

Output: <out>/<label>_<time>.json (one file per run, rewritten after every server run), then the
report (read_report.py: READS.md and figures; targets PASS/FAIL printed). Every server runs a
copy of --mongod, so a rebuild during the run cannot mix builds. Servers, data directories and
client processes live under one temporary directory, removed at the end (also on failure and
on SIGTERM/SIGINT).

Full run (peps-history 40 MB, 4 servers, 3 reps; about 25 min on 2 idle cores):
  read_bench.py
Smoke (a few minutes): read_bench.py --quick      (-> results/reads_smoke, label smoke)
"""
import argparse
import os
import re
import shutil
import signal
import struct
import sys
import tempfile
import time

import pymongo
from bson.codec_options import CodecOptions
from bson.raw_bson import RawBSONDocument

import read_clients
from bench_results import percentiles
from mongod_process import Server, dir_bytes, log, machine_facts, proc_facts, stable_binary
from read_clients import ClientPool
from sat_common import (DATA_DIR, HERE, REPO, Sampler, available_datasets, configured_cache_bytes,
                        dataset_path, dedup_ready, get_path, jsonable, load_records, wait_dedup_idle,
                        wt_cache_bytes, write_json)

RAW = CodecOptions(document_class=RawBSONDocument)
# name -> (--wiredTigerCollectionBlockCompressor, or None for the server's default; --dedup)
CONFIGS = {"snappy": ("snappy", False), "zstd": ("zstd", False), "dedup": (None, True),
           "dedup_zstd": ("zstd", True)}
PHASES = ("id", "k", "scan", "mixed")
QUICK = {"limit_mb": 4.0, "phase_s": 3.0, "warmup_s": 1.0, "reps": 1, "label": "smoke",
         "out": os.path.join(HERE, "results", "reads_smoke")}
DEFAULTS = {"limit_mb": 40.0, "phase_s": 20.0, "warmup_s": 2.0, "reps": 3, "label": "full",
            "out": os.path.join(HERE, "results", "reads")}


def with_k(raw, k):
    """The BSON document `raw` with an int32 field k appended (bytes, no re-encoding)."""
    elem = b"\x10k\x00" + struct.pack("<i", k)
    return struct.pack("<i", len(raw) + len(elem)) + raw[4:-1] + elem + b"\x00"


def server_args(cfg, args):
    comp, dedup = CONFIGS[cfg]
    a = ["--wiredTigerCollectionBlockCompressor", comp] if comp else []
    if args.wt_cache_gb:
        a += ["--wiredTigerCacheSizeGB", f"{args.wt_cache_gb:g}"]
    if dedup:
        a += ["--dedup"] + args.dedup_args.split()
    return a + args.server_args.split()


def alive_check(srv):
    def check():
        if srv.proc is None or srv.proc.poll() is not None:
            raise RuntimeError(f"mongod exited ({None if srv.proc is None else srv.proc.returncode})")
    return check


def status_snapshot(srv):
    """serverStatus().dedup.reads (whole) and longestChain, the WiredTiger cache, mongod's RSS."""
    out = {"t_mono": time.monotonic(), "process": proc_facts(srv.proc.pid)}
    try:
        ss = srv.client.admin.command("serverStatus")
        dd = ss.get("dedup")
        out["dedup_present"] = isinstance(dd, dict)
        if isinstance(dd, dict):
            out["reads"] = jsonable(dd["reads"]) if isinstance(dd.get("reads"), dict) else None
            out["longestChain"] = dd.get("longestChain")
            out["dedup_memoryBytes"] = dd.get("memoryBytes")
            out["pendingInserts"] = dd.get("pendingInserts")
        out["wt_cache_bytes"] = get_path(ss, "wiredTiger.cache.bytes currently in the cache")
        out["wt_cache_max_bytes"] = wt_cache_bytes(ss)
    except pymongo.errors.PyMongoError as e:
        out["error"] = f"{type(e).__name__}: {e}"[:300]
    return out


def coll_facts(db):
    cs = jsonable(db.command("collStats", "docs"))
    return {k: cs.get(k) for k in ("count", "size", "storageSize", "freeStorageSize", "totalIndexSize",
                                   "indexSizes", "dedup") if k in cs}


def collection_compressors(dbpath):
    """The block_compressor of every collection file, read from WiredTiger's metadata file
    (WiredTiger.wt, never block-compressed) after a clean shutdown: this server's collStats has
    no creation string, and the dedup server runs with the default compressor, unnamed."""
    try:
        with open(os.path.join(dbpath, "WiredTiger.wt"), "rb") as f:
            b = f.read()
    except OSError:
        return None
    found = set()
    for m in re.finditer(rb"file:collection-[\w-]+\.wt\x00", b):
        value = b[m.end():m.end() + 4096]
        value = value[:8] + value[8:].split(b"\x00", 1)[0]  # past the value's length prefix
        c = re.search(rb"block_compressor=(\w*)", value)
        if c:
            found.add(c.group(1).decode() or "none")
    return sorted(found)


def wait_ready(client, timeout_s):
    """Until serverStatus().dedup says the start-up rebuild is done (or says nothing about it)."""
    t0 = time.monotonic()
    while True:
        dd = client.admin.command("serverStatus").get("dedup")
        r = dedup_ready(dd)
        if r is None or r or time.monotonic() - t0 >= timeout_s:
            return {"ready": r, "seconds": time.monotonic() - t0, "timed_out": r is False}
        time.sleep(0.2)


def load_config(pool, binary, ds, cfg, args, workdir, docs):
    """Loads docs into a fresh server for cfg and leaves its data directory in workdir."""
    n, P = len(docs), args.clients
    res = {"dataset": ds, "config": cfg, "records": n, "logical_bytes": sum(len(r) for _, r in docs),
           "index_k": "created before the load", "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "loadavg_start": os.getloadavg()}
    srv = Server(binary, workdir, server_args(cfg, args))
    t_run = time.monotonic()
    try:
        srv.start()
        res["mongod_cmd"] = srv.cmd
        db = srv.client.get_database("bench", codec_options=RAW)
        db.create_collection("docs")
        db.docs.create_index("k", name="k_1")
        res["configured_cache_bytes"] = configured_cache_bytes(srv.client.admin.command("serverStatus"))
        cpu0 = proc_facts(srv.proc.pid)
        cmds = [{"kind": "load", "port": srv.port, "lo": i * n // P, "hi": (i + 1) * n // P,
                 "batch": args.batch} for i in range(P)]
        _, answers = pool.run(cmds, alive_check(srv))
        errors = [a.get("error") for a in answers if a.get("error")]
        if errors:
            raise RuntimeError(f"load client errors: {errors[:2]}")
        wall = max(a["t_end"] for a in answers) - min(a["t_start"] for a in answers)
        lat = [x for a in answers for x in memoryview(a["lat"]).cast("d")]
        cpu1 = proc_facts(srv.proc.pid)
        res["load"] = {"clients": P, "batch": args.batch, "seconds": wall, "docs_per_s": n / wall,
                       "mb_per_s": res["logical_bytes"] / wall / 1e6, "latency": percentiles(lat),
                       "server_cpu_s": cpu1["cpu_s"] - cpu0["cpu_s"] if cpu0 and cpu1 else None}
        res["drain"] = wait_dedup_idle(srv.client, args.drain_timeout)
        if res["drain"].get("timed_out"):  # reads with dedup work still queued are not what we measure
            raise RuntimeError(f"dedup queues not drained {args.drain_timeout:g} s after the load: {res['drain']}")
        res["count"] = db.docs.count_documents({})
        import saturation  # its byte-for-byte read-back check
        res["spot_check"] = saturation.spot_check(db.docs, [(i, None, r) for i, r in docs], args.spot_check)
        res["status_after_load"] = status_snapshot(srv)
        res["coll_stats"] = coll_facts(db)
        log(f"{ds} / {cfg}: loaded {n} docs in {wall:.1f} s ({n / wall:.0f} docs/s), dedup drained in "
            f"{res['drain'].get('seconds', 0):.1f} s; spot check {res['spot_check']['mismatches']} bad")
        res["shutdown_exit_code"] = srv.stop()
        res["on_disk_after_shutdown"] = {k: v for k, v in dir_bytes(srv.dbpath).items() if k != "files"}
        res["block_compressors"] = collection_compressors(srv.dbpath)
        res["server_log_warnings"] = srv.log_problems()
        if res["spot_check"]["mismatches"] or res["count"] != n:
            raise RuntimeError(f"read-back after the load: {res['spot_check']}, count {res['count']} of {n}")
    except Exception as e:
        res["error"] = f"{type(e).__name__}: {e}"
        res["mongod_log_tail"] = srv.log_tail()
        log(f"{ds} / {cfg}: load FAILED {res['error']}")
    finally:
        srv.kill()
        res["run_seconds"] = time.monotonic() - t_run
    return res


def phase_cmds(ph, rep, port, args):
    base = {"kind": ph, "port": port, "warmup_s": args.warmup_s, "duration_s": args.phase_s,
            "batch_size": args.scan_batch, "update_fraction": args.update_fraction}
    # the same keys for every server: seeds depend on rep, phase and client only
    return [dict(base, seed=100_000 * rep + 1000 * PHASES.index(ph) + i) for i in range(args.clients)]


def merge_errors(answers):
    out = {}
    for a in answers:
        for k, v in (a.get("errors") or {}).items():
            out[k] = out.get(k, 0) + v
    return out


def lat_of(answers, key):
    return [x for a in answers for x in memoryview(a[key]).cast("d")]


def run_phase(pool, srv, ph, rep, args, sampler, t0):
    before = status_snapshot(srv)
    sampler.phase = ph
    t_go, answers = pool.run(phase_cmds(ph, rep, srv.port, args), alive_check(srv),
                             timeout=args.warmup_s + args.phase_s + 120)
    sampler.phase = "between"
    after = status_snapshot(srv)
    errors = [a["error"] for a in answers if a.get("error")]
    if errors:
        raise RuntimeError(f"{ph}: client errors {errors[:2]}")
    D = args.phase_s
    cpu = [(x.get("process") or {}).get("cpu_s") for x in (before, after)]
    out = {"before": before, "after": after, "t_go": t_go - t0, "t_measure": t_go + args.warmup_s - t0,
           "t_end": t_go + args.warmup_s + D - t0, "seconds": D, "warmup_s": args.warmup_s,
           "clients": len(answers),
           "op_errors": merge_errors(answers),
           # warm-up included: CPU seconds of mongod over warmup_s + phase_s
           "server_cpu_s": cpu[1] - cpu[0] if None not in cpu else None}
    if ph in ("id", "k"):
        lat = lat_of(answers, "lat")
        out.update(ops=len(lat), ops_per_s=len(lat) / D, latency=percentiles(lat),
                   missing=sum(a["missing"] for a in answers))
    elif ph == "scan":
        docs, nbytes = sum(a["docs"] for a in answers), sum(a["bytes"] for a in answers)
        scans = [s for a in answers for s in a["scan_s"]]
        out.update(docs=docs, docs_per_s=docs / D, mb_per_s=nbytes / D / 1e6, scans_completed=len(scans),
                   scan_latency=percentiles(scans))
    else:
        lf, lu = lat_of(answers, "lat_find"), lat_of(answers, "lat_update")
        out.update(ops=len(lf) + len(lu), ops_per_s=(len(lf) + len(lu)) / D, find_per_s=len(lf) / D,
                   update_per_s=len(lu) / D, find_latency=percentiles(lf), update_latency=percentiles(lu),
                   missing=sum(a["missing"] for a in answers))
    return out


SAMPLE_KEYS = ("t", "t_end", "phase", "rss_bytes", "cpu_s", "mem_resident_mb", "wt_cache_bytes",
               "data_allocated_bytes", "status_error", "dir_error")
SAMPLE_DEDUP_KEYS = ("longestChain", "pendingInserts", "writeBacks.pending", "memoryBytes",
                     "sourceCache.bytes", "startupRebuild.state")


def slim(s):
    """What the report uses of a Sampler sample (it records much more, for the load benchmarks)."""
    out = {k: s[k] for k in SAMPLE_KEYS if k in s}
    dd = s.get("dedup")
    if isinstance(dd, dict):
        out["dedup"] = {k: v for k, v in dd.items() if k in SAMPLE_DEDUP_KEYS or k.startswith("reads.")}
    tc = s.get("tcmalloc") or {}
    for k in ("generic.current_allocated_bytes", "generic.heap_size"):
        if k in tc:
            out["tcmalloc." + k] = tc[k]
    return out


def memory_summary(samples, snaps):
    """RSS max and the decoded-record cache against its capacity over a phase's samples and the
    snapshots around it (serverStatus().dedup.reads.cache, when the build reports it)."""
    rss = [s.get("rss_bytes") for s in samples] + [(x.get("process") or {}).get("VmRSS_bytes") for x in snaps]
    rss = [v for v in rss if v]
    pts = [((s.get("dedup") or {}).get("reads.cache.bytes"), (s.get("dedup") or {}).get("reads.cache.capacityBytes"))
           for s in samples]
    pts += [(get_path(x.get("reads"), "cache.bytes"), get_path(x.get("reads"), "cache.capacityBytes")) for x in snaps]
    pts = [(b, c) for b, c in pts if isinstance(b, (int, float)) and isinstance(c, (int, float))]
    return {"samples": len(samples), "rss_max_bytes": max(rss) if rss else None,
            "read_cache_points": len(pts), "read_cache_max_bytes": max((b for b, _ in pts), default=None),
            "read_cache_capacity_bytes": max((c for _, c in pts), default=None),
            "read_cache_over_capacity": sum(1 for b, c in pts if b > c)}


def server_run(pool, binary, ds, cfg, rep, args, workdir):
    """One restart of cfg's server on its kept data directory and every phase against it."""
    res = {"dataset": ds, "config": cfg, "rep": rep, "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "loadavg_start": os.getloadavg()}
    srv = Server(binary, workdir, server_args(cfg, args), reuse=True)
    sampler, t_run = None, time.monotonic()
    try:
        srv.start()
        res["mongod_cmd"] = srv.cmd
        res["start_s"] = time.monotonic() - t_run
        res["ready"] = wait_ready(srv.client, args.drain_timeout)
        res["drain"] = wait_dedup_idle(srv.client, args.drain_timeout)
        if res["ready"]["timed_out"] or res["drain"].get("timed_out"):
            raise RuntimeError(f"dedup not ready / idle {args.drain_timeout:g} s after the restart: "
                               f"{res['ready']}, {res['drain']}")
        res["configured_cache_bytes"] = configured_cache_bytes(srv.client.admin.command("serverStatus"))
        t0 = time.monotonic()
        sampler = Sampler(srv.port, srv.dbpath, srv.proc.pid, t0, args.sample_interval)
        sampler.phase = "start"
        sampler.start()
        res["phases"] = {}
        for ph in args.phases:
            res["phases"][ph] = run_phase(pool, srv, ph, rep, args, sampler, t0)
            p = res["phases"][ph]
            log(f"  rep {rep} / {cfg} / {ph}: " + (
                f"{p['docs_per_s']:,.0f} docs/s ({p['scans_completed']} whole scans)" if ph == "scan" else
                f"{p['ops_per_s']:,.0f} ops/s, p99 " + (
                    f"{p['latency'].get('p99_us', 0) / 1e3:.2f} ms" if ph != "mixed" else
                    f"find {p['find_latency'].get('p99_us', 0) / 1e3:.2f} / update "
                    f"{p['update_latency'].get('p99_us', 0) / 1e3:.2f} ms")))
        res["samples"] = [slim(s) for s in sampler.stop()]
        sampler = None
        for ph, p in res["phases"].items():
            p["memory"] = memory_summary([s for s in res["samples"] if s.get("phase") == ph],
                                         [p["before"], p["after"]])
        res["status_end"] = status_snapshot(srv)
        res["shutdown_exit_code"] = srv.stop()
        res["server_log_warnings"] = srv.log_problems()
    except Exception as e:
        res["error"] = f"{type(e).__name__}: {e}"
        res["mongod_log_tail"] = srv.log_tail()
        log(f"rep {rep} / {cfg}: FAILED {res['error']}")
    finally:
        if sampler is not None:
            res["samples"] = [slim(s) for s in sampler.stop()]
        srv.kill()
        res["loadavg_end"] = os.getloadavg()
        res["run_seconds"] = time.monotonic() - t_run
    return res


def run_dataset(ds, args, binary, workroot, result, out_path):
    raw = load_records(dataset_path(args.data, ds), args.limit_mb)
    docs = [(_id, with_k(r, k)) for k, (_id, _, r) in enumerate(raw)]
    entry = {"records": len(docs), "logical_bytes": sum(len(r) for _, r in docs),
             "distinct_keys": len({key for _, key, _ in raw}), "limit_mb": args.limit_mb,
             "file": os.path.abspath(dataset_path(args.data, ds)), "loads": {}, "runs": []}
    del raw
    result["datasets"][ds] = entry
    log(f"{ds}: {len(docs)} records, {entry['logical_bytes']:,} BSON bytes (with k)")
    read_clients.STATE.update(docs=docs, ids=[d[0] for d in docs])
    pool = ClientPool(args.clients)  # forked before any server or client of this data set
    workdirs = {cfg: os.path.join(workroot, f"{ds}__{cfg}") for cfg in args.configs}
    try:
        for cfg in args.configs:
            os.makedirs(workdirs[cfg])
            entry["loads"][cfg] = load_config(pool, binary, ds, cfg, args, workdirs[cfg], docs)
            if "error" in entry["loads"][cfg]:
                result["failures"].append(f"load {ds}/{cfg}: {entry['loads'][cfg]['error']}")
            write_json(out_path, result)
        for rep in range(1, args.reps + 1):
            for cfg in args.configs:  # interleaved, so a slow spell of the machine hits every server
                if "error" in entry["loads"][cfg]:
                    continue
                log(f"{ds}: rep {rep} / {cfg}")
                r = server_run(pool, binary, ds, cfg, rep, args, workdirs[cfg])
                entry["runs"].append(r)
                if "error" in r:
                    result["failures"].append(f"run {ds}/{cfg}/rep {rep}: {r['error']}")
                write_json(out_path, result)
    finally:
        pool.close()
        read_clients.STATE.update(docs=[], ids=[])
        for d in workdirs.values():
            shutil.rmtree(d, ignore_errors=True)


def build_parser():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--configs", default=",".join(CONFIGS), help="[%(default)s]")
    ap.add_argument("--datasets", default="peps-history", help="comma list, or 'all' [%(default)s]")
    ap.add_argument("--limit-mb", type=float, default=None,
                    help=f"load the first MB of each data set [{DEFAULTS['limit_mb']:g}; --quick {QUICK['limit_mb']:g}]")
    ap.add_argument("--phase-s", type=float, default=None,
                    help=f"measured seconds per phase [{DEFAULTS['phase_s']:g}; --quick {QUICK['phase_s']:g}]")
    ap.add_argument("--warmup-s", type=float, default=None, help="seconds each phase runs before it is "
                    f"measured [{DEFAULTS['warmup_s']:g}; --quick {QUICK['warmup_s']:g}]")
    ap.add_argument("--reps", type=int, default=None, help=f"repetitions [{DEFAULTS['reps']}; --quick 1]")
    ap.add_argument("--clients", type=int, default=4, help="client processes [%(default)s]")
    ap.add_argument("--phases", default=",".join(PHASES), help="[%(default)s]")
    ap.add_argument("--batch", type=int, default=20, help="documents per insert_many of the load [%(default)s]")
    ap.add_argument("--scan-batch", type=int, default=1000, help="batch_size of the scans [%(default)s]")
    ap.add_argument("--update-fraction", type=float, default=0.2, help="updates in the mixed phase [%(default)s]")
    ap.add_argument("--wt-cache-gb", type=float, default=0.25,
                    help="--wiredTigerCacheSizeGB of every server, as saturation.py (0: server default) [%(default)s]")
    ap.add_argument("--dedup-args", default="", help="extra mongod options for the dedup servers")
    ap.add_argument("--server-args", default="", help="extra mongod options for every server")
    ap.add_argument("--sample-interval", type=float, default=1.0, help="seconds between samples [%(default)s]")
    ap.add_argument("--drain-timeout", type=float, default=600.0,
                    help="longest wait for the dedup queues / start-up rebuild [%(default)s]")
    ap.add_argument("--spot-check", type=int, default=200, help="documents read back after each load")
    ap.add_argument("--quick", action="store_true", help="smoke: small data, 3 s phases, 1 rep, "
                    "results/reads_smoke, label smoke (options given explicitly still win)")
    ap.add_argument("--label", default=None, help="recorded in the result [full; --quick: smoke]")
    ap.add_argument("--mongod", default=os.path.join(REPO, "build", "install", "bin", "mongod"))
    ap.add_argument("--data", default=DATA_DIR)
    ap.add_argument("--out", default=None, help="results directory [results/reads; --quick: results/reads_smoke]")
    ap.add_argument("--report", default=None, help="markdown file to write [READS.md beside this script for "
                    "the default --out, else <out>/READS_<LABEL>.md]")
    ap.add_argument("--no-report", action="store_true")
    return ap


def parse_args(argv=None):
    ap = build_parser()
    args = ap.parse_args(argv)
    for k, v in (QUICK if args.quick else DEFAULTS).items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    args.out = os.path.abspath(args.out)
    args.configs = [c for c in args.configs.split(",") if c]
    args.phases = [p for p in args.phases.split(",") if p]
    args.datasets = available_datasets(args.data) if args.datasets == "all" else \
        [d for d in args.datasets.split(",") if d]
    for c in args.configs:
        if c not in CONFIGS:
            ap.error(f"unknown config {c}; known: {', '.join(CONFIGS)}")
    for p in args.phases:
        if p not in PHASES:
            ap.error(f"unknown phase {p}; known: {', '.join(PHASES)}")
    for d in args.datasets:
        if not os.path.exists(dataset_path(args.data, d)):
            ap.error(f"no data set {dataset_path(args.data, d)}")
    if args.clients < 1 or args.reps < 1 or args.phase_s <= 0 or args.warmup_s < 0:
        ap.error("--clients and --reps must be >= 1, --phase-s > 0, --warmup-s >= 0")
    if not 0 <= args.update_fraction <= 1:
        ap.error("--update-fraction must be within [0, 1]")
    return args


def _on_signal(signum, _frame):
    raise SystemExit(128 + signum)  # unwinds through the finally blocks: servers and files go


def main():
    args = parse_args()
    signal.signal(signal.SIGTERM, _on_signal)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out_path = os.path.join(args.out, f"{args.label}_{stamp}.json")
    per_run = len(args.phases) * (args.warmup_s + args.phase_s + 1.5) + 8
    log(f"about {len(args.datasets) * args.reps * len(args.configs) * per_run / 60:.1f} min of read phases "
        f"after the loads; results -> {out_path}")
    result = {"label": args.label, "argv": sys.argv, "args": {k: v for k, v in vars(args).items()},
              "configs": {c: {"compressor": CONFIGS[c][0], "dedup": CONFIGS[c][1],
                              "server_args": server_args(c, args)} for c in args.configs},
              "machine": machine_facts(), "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "loadavg_start": os.getloadavg(), "datasets": {}, "failures": [], "complete": False}
    workroot = tempfile.mkdtemp(prefix="dedup_readbench.")
    t_all = time.monotonic()
    try:
        binary = os.path.join(workroot, "mongod")
        result["mongod"] = stable_binary(args.mongod, binary)
        log(f"mongod {result['mongod']['sha256'][:12]} (built {result['mongod']['mtime']}); work dir {workroot}")
        for ds in args.datasets:
            run_dataset(ds, args, binary, workroot, result, out_path)
        result["complete"] = True
    except BaseException as e:
        result["failures"].append(f"aborted: {type(e).__name__}: {e}")
        raise
    finally:
        shutil.rmtree(workroot, ignore_errors=True)
        result["seconds"] = time.monotonic() - t_all
        result["finished_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        result["loadavg_end"] = os.getloadavg()
        write_json(out_path, result)
        log(f"total {result['seconds']:.0f} s; wrote {out_path}")
    if not args.no_report:
        import read_report
        md = read_report.write_report(out_path, args.report, default_out=args.out == DEFAULTS["out"])
        read_report.print_targets(out_path)
        log(f"report {md}")
    if result["failures"]:
        print("\n*** FAILED ***\n" + "\n".join(result["failures"]), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
