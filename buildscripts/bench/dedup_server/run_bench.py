#!/usr/bin/env python3
"""End-to-end server benchmark of dbDedup (issue 4): loads each data set through pymongo into a
freshly started mongod per configuration and measures what the server stores and how fast.

  run_bench.py [--datasets a,b] [--configs snappy,dedup_snappy,dedup_zstd] [--limit N]
               [--rounds 5] [--reads N] [--no-verify] [--mongod PATH] [--data DIR] [--out DIR]
               [--dedup-args "--dedupSketchSize 16 ..."]

Per data set, configuration and round (rounds interleave the configurations, so a slow spell
of the shared machine hits all of them alike): copy of the mongod binary (so every configuration of one run
uses the same build even if it is rebuilt meanwhile) started on an empty dbpath; documents
{_id, key, ts, body} inserted one at a time in file order with insert_one; wait until the dedup
layer has no inserts or write-backs queued; fsync twice; on-disk bytes; collStats/dbStats/
serverStatus; point reads of latest and of old versions (interleaved, same random order for
every config); compact + fsync + on-disk bytes again; full read-back verification; clean shutdown; on-disk bytes again. One JSON file per data set
and configuration (see combine() for how rounds are merged) in results/<dataset>__<config>.json and results/summary.json over all results present.
Exits non-zero if any document read back differs from what was inserted.
"""
import argparse
import gc
import io
import json
import os
import random
import shutil
import sys
import tempfile
import time

import bson
import pymongo
import zstandard
from bson import json_util
from bson.codec_options import CodecOptions
from bson.raw_bson import RawBSONDocument

from bench_results import combine, percentiles, write_summary
from mongod_process import Server, dir_bytes, log, proc_facts, stable_binary

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DATASETS = ["wiki-python", "peps-history", "se-posthistory", "email-ham"]
CONFIGS = {  # name -> (block compressor, dedup)
    "snappy": ("snappy", False),
    "dedup_snappy": ("snappy", True),
    "dedup_zstd": ("zstd", True),
}
KEEP_FIELDS = ("_id", "key", "ts", "body")
RAW = CodecOptions(document_class=RawBSONDocument)


def load_records(path, limit=None):
    """The data set's records as BSON bytes ({_id, key, ts, body}, file order) and their keys."""
    dctx = zstandard.ZstdDecompressor(max_window_size=2**27)
    docs = []
    with open(path, "rb") as fh, dctx.stream_reader(fh) as reader:
        for line in io.TextIOWrapper(reader, encoding="utf-8"):
            if not line.strip():
                continue
            rec = json.loads(line)
            doc = {f: rec[f] for f in KEEP_FIELDS if f in rec}
            docs.append((doc["_id"], doc.get("key"), bson.encode(doc)))
            if limit and len(docs) >= limit:
                break
    return docs


def find_field(d, name):
    """First value of field `name` anywhere in nested dict d (the dedup section's layout may vary)."""
    if isinstance(d, dict):
        if name in d:
            return d[name]
        for v in d.values():
            r = find_field(v, name)
            if r is not None:
                return r
    return None


def jsonable(x):
    return json.loads(json_util.dumps(x, json_options=json_util.RELAXED_JSON_OPTIONS))


def pending_work(dd):
    """Queued dedup work in a serverStatus().dedup section: inserts not yet examined plus
    write-backs not yet applied (None if the section reports neither)."""
    wb = dd.get("writeBacks") if isinstance(dd.get("writeBacks"), dict) else {}
    parts = [dd.get("pendingInserts"), wb.get("pending", dd.get("writeBacksPending"))]
    parts = [p for p in parts if isinstance(p, (int, float))]
    return sum(parts) if parts else None


def wait_for_writebacks(admin, n_docs, limit_s=60.0):
    """Polls serverStatus().dedup until the engine has examined every inserted document and
    has no queued inserts or write-backs; returns what it saw and how long it took."""
    t0 = time.perf_counter()
    first = None
    while True:
        dd = admin.command("serverStatus").get("dedup")
        if dd is not None and dd.get("enabled") is False:
            dd = None  # the section is there but dedup is off: nothing to wait for
        pending = pending_work(dd) if dd is not None else None
        examined = dd.get("recordsExamined") if dd is not None else None
        if first is None:
            first = pending
        waited = time.perf_counter() - t0
        settled = pending in (None, 0) and (not isinstance(examined, (int, float)) or examined >= n_docs)
        if settled or waited >= limit_s:
            return {"pending_at_start": first, "pending_at_end": pending, "records_examined": examined,
                    "seconds": waited, "timed_out": not settled, "section_present": dd is not None}
        time.sleep(0.05)


def dedup_memory(dd):
    """Bytes of the dedup structures from serverStatus().dedup (fields picked defensively)."""
    if not dd or dd.get("enabled") is False:
        return None
    sub = lambda k: dd.get(k) if isinstance(dd.get(k), dict) else {}
    mem = {"indexBytes": dd.get("indexBytes"), "metadataBytes": dd.get("metadataBytes"),
           "sourceCacheBytes": sub("sourceCache").get("bytes", dd.get("sourceCacheBytes")),
           "writeBackCacheBytes": sub("writeBacks").get("pendingBytes", dd.get("writeBackCacheBytes"))}
    known = [v for v in mem.values() if isinstance(v, (int, float))]
    mem["total_bytes"] = dd.get("memoryBytes", sum(known) if known else None)
    return mem


def read_plan(docs, n_reads, seed):
    """Ids to read: N latest versions (the last _id of each key) and N old versions, drawn
    without replacement when the pool is large enough, else cycling through a shuffled pool."""
    last = {}
    for _id, key, _ in docs:
        last[key] = _id
    latest = list(last.values())
    latest_set = set(latest)
    old = [_id for _id, _, _ in docs if _id not in latest_set]
    rng = random.Random(seed)

    def draw(pool):
        if not pool:
            return []
        if len(pool) >= n_reads:
            return rng.sample(pool, n_reads)
        out = []
        while len(out) < n_reads:
            p = pool[:]
            rng.shuffle(p)
            out.extend(p)
        return out[:n_reads]
    plan = [("latest", i) for i in draw(latest)] + [("old", i) for i in draw(old)]
    rng.shuffle(plan)  # interleaved so both kinds see the same cache state
    return plan, len(latest), len(old)


def verify(coll, docs):
    """Every document read back (point read and full scan) must be byte-identical BSON."""
    want = {_id: raw for _id, _, raw in docs}
    point_bad = []
    for _id, _, raw in docs:
        d = coll.find_one({"_id": _id})
        if d is None or d.raw != raw:
            point_bad.append(_id)
    seen, scan_bad = 0, []
    for d in coll.find({}, batch_size=200):
        seen += 1
        _id = d["_id"]
        if want.get(_id) != d.raw:
            scan_bad.append(_id)
    mism = len(point_bad) + len(scan_bad) + abs(seen - len(docs))
    return {"documents": len(docs), "point_read_mismatches": len(point_bad),
            "scan_mismatches": len(scan_bad), "scan_count": seen, "mismatches": mism,
            "first_bad_ids": [str(x) for x in (point_bad + scan_bad)[:10]], "ok": mism == 0}


def run_one(binary, dataset, docs, config, args, workroot, res):
    """Fills res (also on failure, with 'error' and the server log's tail)."""
    compressor, dedup = CONFIGS[config]
    srv_args = ["--wiredTigerCollectionBlockCompressor", compressor]
    if dedup:
        srv_args += ["--dedup"] + args.dedup_args.split()
    workdir = tempfile.mkdtemp(prefix=f"{dataset}__{config}.", dir=workroot)
    srv = Server(binary, workdir, srv_args)
    res.update({"dataset": dataset, "config": config, "block_compressor": compressor, "dedup": dedup,
           "limit": args.limit, "records": len(docs), "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "loadavg_start": os.getloadavg()})
    t_run = time.perf_counter()
    try:
        srv.start()
        res["mongod_cmd"] = srv.cmd
        bi = srv.client.admin.command("buildInfo")
        res["build_info"] = {k: bi.get(k) for k in ("version", "gitVersion", "maxWireVersion")}
        log(f"{dataset} / {config}: mongod pid {srv.proc.pid} on port {srv.port}")
        db = srv.client.get_database("bench", codec_options=RAW)
        create = {"dedup": True} if dedup and not args.no_collection_option else {}
        db.create_collection("docs", **create)
        coll = db.get_collection("docs")
        admin = srv.client.admin
        admin.command("fsync", 1)  # fixed cost of an empty data directory, for the net ratio
        res["on_disk_empty"] = dir_bytes(srv.dbpath)
        cpu0 = proc_facts(srv.proc.pid)
        lat = []
        gc.collect()
        gc.disable()  # no collector pauses inside the timed loops
        t0 = time.perf_counter()
        n = len(docs)
        next_note = t0 + 5
        for i, (_id, _, raw) in enumerate(docs, 1):
            d = RawBSONDocument(raw)
            a = time.perf_counter()
            coll.insert_one(d)
            lat.append(time.perf_counter() - a)
            if a >= next_note or i == n:
                next_note = a + 10
                log(f"{dataset} / {config}: inserted {i}/{n} docs "
                    f"({i / (time.perf_counter() - t0):.0f} docs/s)")
        elapsed = time.perf_counter() - t0
        cpu1 = proc_facts(srv.proc.pid)
        logical = sum(len(raw) for _, _, raw in docs)
        res["logical_bytes"] = logical
        res["distinct_keys"] = len({k for _, k, _ in docs})
        res["insert"] = {"seconds": elapsed, "docs_per_s": n / elapsed,
                         "mb_per_s": logical / elapsed / 1e6, "latency": percentiles(lat),
                         "server_cpu_s": (cpu1["cpu_s"] - cpu0["cpu_s"]) if cpu0 and cpu1 else None}
        ss = admin.command("serverStatus")
        res["server_status_dedup_after_load"] = jsonable(ss.get("dedup"))
        res["dedup_memory_after_load"] = dedup_memory(res["server_status_dedup_after_load"])
        res["drain"] = wait_for_writebacks(admin, n, args.drain_timeout)
        dr = res["drain"]
        if dr["section_present"]:
            log(f"{dataset} / {config}: dedup queues {dr['pending_at_start']} -> {dr['pending_at_end']} "
                f"in {dr['seconds']:.2f} s{' (TIMED OUT)' if dr['timed_out'] else ''}")
        res["fsync"] = [jsonable(admin.command("fsync", 1))]
        time.sleep(1.0)
        res["fsync"].append(jsonable(admin.command("fsync", 1)))
        res["on_disk"] = dir_bytes(srv.dbpath)
        res["ratio"] = logical / res["on_disk"]["data_bytes"]
        grown = res["on_disk"]["data_bytes"] - res["on_disk_empty"]["data_bytes"]
        res["ratio_net_of_empty"] = logical / grown if grown > 0 else None
        res["coll_stats"] = jsonable(db.command("collStats", "docs"))
        res["db_stats"] = jsonable(db.command("dbStats"))
        ss = admin.command("serverStatus")
        res["server_status_dedup"] = jsonable(ss.get("dedup"))
        res["dedup_memory"] = dedup_memory(res["server_status_dedup"])
        res["process_after_load"] = proc_facts(srv.proc.pid)
        plan, n_latest, n_old = read_plan(docs, args.reads, args.seed)
        log(f"{dataset} / {config}: {len(plan)} point reads ({n_latest} keys, {n_old} old versions)")
        lat_by = {"latest": [], "old": []}
        missing = 0
        for kind, _id in plan:
            a = time.perf_counter()
            d = coll.find_one({"_id": _id})
            lat_by[kind].append(time.perf_counter() - a)
            missing += d is None
        gc.enable()
        res["_samples"] = {"insert": lat, "latest": lat_by["latest"], "old": lat_by["old"]}
        res["reads"] = {"latest": dict(percentiles(lat_by["latest"]), pool=n_latest),
                        "old": dict(percentiles(lat_by["old"]), pool=n_old), "missing": missing}
        res["server_status_dedup_after_reads"] = jsonable(admin.command("serverStatus").get("dedup"))
        if not args.no_compact:  # write-backs leave freed blocks inside the files until compact
            try:
                t = time.perf_counter()
                res["compact"] = jsonable(db.command("compact", "docs"))
                res["compact_seconds"] = time.perf_counter() - t
                admin.command("fsync", 1)
                res["on_disk_after_compact"] = dir_bytes(srv.dbpath)
                res["ratio_after_compact"] = logical / res["on_disk_after_compact"]["data_bytes"]
            except pymongo.errors.OperationFailure as e:
                res["compact"] = {"error": str(e)}
        if not args.no_verify:
            log(f"{dataset} / {config}: verifying {n} documents")
            res["verify"] = verify(coll, docs)
        res["process_end"] = proc_facts(srv.proc.pid)
        rc = srv.stop()
        res["shutdown_exit_code"] = rc
        res["on_disk_after_shutdown"] = dir_bytes(srv.dbpath)
        res["server_log_warnings"] = srv.log_problems()
    except BaseException as e:
        res["error"] = f"{type(e).__name__}: {e}"
        res["mongod_log_tail"] = srv.log_tail()
        raise
    finally:
        gc.enable()
        srv.kill()
        res["loadavg_end"] = os.getloadavg()
        res["run_seconds"] = time.perf_counter() - t_run
        if "error" not in res:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            log(f"kept {workdir} for inspection (mongod.log, db/)")
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--limit", type=int, default=None, help="load only the first N records")
    ap.add_argument("--rounds", type=int, default=5,
                    help="fresh servers per configuration, interleaved (throughput: median)")
    ap.add_argument("--reads", type=int, default=2000, help="point reads of each kind")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--drain-timeout", type=float, default=60.0)
    ap.add_argument("--no-verify", action="store_true")
    ap.add_argument("--no-compact", action="store_true",
                    help="skip the compact command (run after the reads, before verifying)")
    ap.add_argument("--no-collection-option", action="store_true",
                    help="do not create the collection with {dedup: true} in dedup configs")
    ap.add_argument("--dedup-args", default="", help="extra mongod options for the dedup configs")
    ap.add_argument("--mongod", default=os.path.join(REPO, "build", "install", "bin", "mongod"))
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "data"))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    args = ap.parse_args()
    datasets = [d for d in args.datasets.split(",") if d]
    configs = [c for c in args.configs.split(",") if c]
    for c in configs:
        if c not in CONFIGS:
            ap.error(f"unknown config {c}; known: {', '.join(CONFIGS)}")
    os.makedirs(args.out, exist_ok=True)
    workroot = tempfile.mkdtemp(prefix="dedup_server_bench.")
    failures = []
    t_all = time.perf_counter()
    try:
        binary = os.path.join(workroot, "mongod")
        binfo = stable_binary(args.mongod, binary)
        log(f"mongod {binfo['sha256'][:12]} (built {binfo['mtime']}); work dir {workroot}")
        for ds in datasets:
            path = os.path.join(args.data, f"{ds}.jsonl.zst")
            docs = load_records(path, args.limit)
            log(f"{ds}: {len(docs)} records, {sum(len(r) for _, _, r in docs)} BSON bytes")
            per_cfg = {cfg: [] for cfg in configs}
            for rnd in range(1, args.rounds + 1):  # configurations interleaved round by round
                for cfg in configs:
                    if per_cfg[cfg] and "error" in per_cfg[cfg][-1]:
                        continue
                    res = {"mongod": binfo, "dataset_file": os.path.abspath(path),
                           "dedup_args": args.dedup_args, "round": rnd}
                    try:
                        run_one(binary, ds, docs, cfg, args, workroot, res)
                        log(f"{ds} / {cfg} round {rnd}: on-disk {res['on_disk']['data_bytes']} B "
                            f"(data files), ratio {res['ratio']:.2f}, "
                            f"{res['insert']['docs_per_s']:.0f} docs/s, run {res['run_seconds']:.0f} s")
                    except Exception as e:  # recorded; the other configurations still run
                        failures.append(f"{ds}/{cfg}: {res.get('error') or e}")
                        log(f"{ds} / {cfg}: FAILED {res.get('error')}\n{res.get('mongod_log_tail', '')}")
                    per_cfg[cfg].append(res)
            for cfg in configs:
                res = combine(per_cfg[cfg])
                res["rounds_requested"] = args.rounds
                with open(os.path.join(args.out, f"{ds}__{cfg}.json"), "w") as f:
                    json.dump(res, f, indent=1)
                if "error" in res:
                    continue
                v = res.get("verify")
                if v is not None and not v["ok"]:
                    failures.append(f"{ds}/{cfg}: {v['mismatches']} mismatches, e.g. {v['first_bad_ids']}")
                if res["reads"]["missing"]:
                    failures.append(f"{ds}/{cfg}: {res['reads']['missing']} point reads found nothing")
            write_summary(args.out)
    finally:
        if os.path.exists(os.path.join(workroot, "mongod")):
            os.remove(os.path.join(workroot, "mongod"))
        if not os.listdir(workroot):
            os.rmdir(workroot)
        log(f"total {time.perf_counter() - t_all:.0f} s")
    if failures:
        print("\n*** FAILED (errors or documents read back wrong) ***\n" + "\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
