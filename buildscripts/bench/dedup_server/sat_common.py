"""Shared pieces of the saturation benchmark (saturation.py, sat_mixed.py, sat_startup.py):
reading a data set with a size limit, the once-a-second sampler of the server (on-disk bytes,
RSS, CPU, serverStatus().dedup, collStats), the dedup_bench reference ratio, small helpers.

Every serverStatus field is read defensively: the dedup section changes between builds, so a
missing field is recorded as absent (None), never an error.
"""
import hashlib
import io
import json
import os
import subprocess
import threading
import time

import bson
import pymongo
import zstandard
from bson import json_util

from mongod_process import dir_bytes, log, proc_facts

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def _find_data_dir():
    """../shared/data beside the checkout; a worktree one level deeper (wt/<name>) finds the
    same directory further up."""
    d = REPO
    while True:
        cand = os.path.join(os.path.dirname(d), "shared", "data")
        if os.path.isdir(cand) or os.path.dirname(d) == d:
            return cand if os.path.isdir(cand) else os.path.join(REPO, "..", "shared", "data")
        d = os.path.dirname(d)


DATA_DIR = _find_data_dir()
# name -> (block compressor, dedup); the same three servers as run_bench.py
CONFIGS = {"snappy": ("snappy", False), "dedup_snappy": ("snappy", True), "dedup_zstd": ("zstd", True)}
# dedup_bench flags that match mongod's dedup defaults (server_options.cpp: sketch 16, hop
# chains, no size filter); override with --dedup-bench-args when the server's defaults change.
# mongod --dedup defaults: bounded-hop chains (the decode bound), K = 16, no size filter.
DEFAULT_DEDUP_BENCH_ARGS = "--scheme bounded-hop --sketch 16 --no-size-filter"


def dataset_path(data_dir, name):
    return os.path.join(data_dir, f"{name}.jsonl.zst")


def available_datasets(data_dir):
    return sorted(f[:-len(".jsonl.zst")] for f in os.listdir(data_dir) if f.endswith(".jsonl.zst"))


def load_records(path, limit_mb=None, limit_records=None):
    """The data set's records in file (history) order as (_id, key, BSON bytes), every field of
    the line kept in file order: the same documents dedup_bench builds from the file, so its
    ratio for the first N records is the reference for these. Stops once the BSON bytes reach
    limit_mb (the record that crosses the limit is included) or after limit_records."""
    dctx = zstandard.ZstdDecompressor(max_window_size=2**27)
    out, total = [], 0
    limit_bytes = limit_mb * 1e6 if limit_mb else None
    with open(path, "rb") as fh, dctx.stream_reader(fh) as reader:
        for line in io.TextIOWrapper(reader, encoding="utf-8"):
            if not line.strip():
                continue
            rec = json.loads(line)
            raw = bson.encode(rec)
            out.append((rec["_id"], rec.get("key"), raw))
            total += len(raw)
            if (limit_bytes and total >= limit_bytes) or (limit_records and len(out) >= limit_records):
                break
    return out


def jsonable(x):
    return json.loads(json_util.dumps(x, json_options=json_util.RELAXED_JSON_OPTIONS))


def get_path(d, dotted):
    for p in dotted.split("."):
        if not isinstance(d, dict):
            return None
        d = d.get(p)
    return d


def flatten(d, prefix=""):
    """{'a': {'b': 1}} -> {'a.b': 1} for scalar leaves."""
    out = {}
    for k, v in (d or {}).items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(flatten(v, key + "."))
        elif isinstance(v, (int, float, str, bool)) or v is None:
            out[key] = v
    return out


# serverStatus().dedup fields sampled every second (absent ones are simply not recorded), plus
# every field whose path mentions a backlog, pending work, readiness or a rebuild state.
DEDUP_FIELDS = ("enabled", "pendingInserts", "writeBacks.pending", "writeBacks.pendingBytes",
                "writeBacks.applied", "writeBacks.queued", "recordsExamined", "recordsEncoded",
                "recordsUnique", "logicalBytes", "storedBytes", "ratio", "memoryBytes", "indexBytes",
                "metadataBytes", "sourceCache.bytes", "collectionsBeingRebuilt", "ready",
                "startupRebuild.state", "startupRebuild.records", "startupRebuild.durationMillis",
                "longestChain", "reads.records", "reads.cache.bytes", "reads.cache.capacityBytes",
                "reads.cache.entries", "reads.cache.hits", "reads.cache.misses")
DEDUP_PATTERNS = ("backlog", "pending", "ready", "state", "rebuild", "stalled", "throttl")


def dedup_sample(dd):
    if not isinstance(dd, dict):
        return None
    flat = flatten(dd)
    out = {k: flat[k] for k in DEDUP_FIELDS if k in flat}
    for k, v in flat.items():
        if k not in out and any(p in k.lower() for p in DEDUP_PATTERNS):
            out[k] = v
    return out


def dedup_ready(dd):
    """True/False when the dedup section says whether the engine is ready (a `ready` flag or
    `startupRebuild.state`), None when it has no such field (this build does not say)."""
    if not isinstance(dd, dict):
        return None
    if isinstance(dd.get("ready"), bool):
        return dd["ready"]
    state = get_path(dd, "startupRebuild.state")
    if isinstance(state, str):
        return state.lower() in ("done", "complete", "completed", "ready")
    return None


def wt_cache_bytes(ss):
    return get_path(ss, "wiredTiger.cache.maximum bytes configured")


def configured_cache_bytes(ss):
    """WiredTiger cache + dedup source cache + dedup write-back cache + decoded-record (read)
    cache, as the server reports them (the 'configured cache sizes' of the memory target: each
    is set by an option); None parts are left out."""
    parts = {"wiredTiger": wt_cache_bytes(ss),
             "dedupSourceCache": get_path(ss, "dedup.sourceCache.capacityBytes"),
             "dedupWriteBackCache": get_path(ss, "dedup.writeBacks.capacityBytes"),
             "dedupReadCache": get_path(ss, "dedup.reads.cache.capacityBytes")}
    known = [v for v in parts.values() if isinstance(v, (int, float))]
    parts["total"] = sum(known) if known else None
    return parts


class Sampler(threading.Thread):
    """Samples the server every `interval` seconds on a fixed schedule (a slow sample skips
    ahead rather than drifting): the data directory's bytes (st_size and st_blocks*512, data
    files and journal), mongod's RSS and CPU time, serverStatus().dedup (selected fields),
    mem/tcmalloc sections if present, collStats of one collection, and `extra()` (e.g. the
    clients' progress). Times are seconds since `t0` (time.monotonic()). Never raises: a failed
    sample records its error. Uses its own client, so it works while the load saturates."""

    def __init__(self, port, dbpath, pid, t0, interval=1.0, coll=None, extra=None, load_interval=None):
        super().__init__(daemon=True)
        self.dbpath, self.pid, self.t0, self.interval = dbpath, pid, t0, interval
        self.load_interval = load_interval or interval  # used while phase == "load"
        self.coll, self.extra = coll, extra  # coll: (db, collection) names or None
        self.samples, self.phase = [], "load"
        self._stop_ev = threading.Event()
        self.client = pymongo.MongoClient("127.0.0.1", port, directConnection=True,
                                          serverSelectionTimeoutMS=5000, socketTimeoutMS=30000,
                                          maxPoolSize=1)

    def sample_once(self):
        s = {"t": time.monotonic() - self.t0, "phase": self.phase}
        try:
            b = dir_bytes(self.dbpath)
            s.update({k: b[k] for k in ("data_bytes", "data_allocated_bytes", "journal_bytes",
                                        "journal_allocated_bytes")})
            # WiredTiger rewrites its turtle file at every checkpoint: its mtime dates the last one.
            s["checkpoint_age_s"] = time.time() - os.stat(os.path.join(self.dbpath, "WiredTiger.turtle")).st_mtime
        except OSError as e:
            s["dir_error"] = str(e)
        pf = proc_facts(self.pid)
        if pf:
            s["rss_bytes"], s["cpu_s"] = pf.get("VmRSS_bytes"), pf.get("cpu_s")
        if self.extra:
            s.update(self.extra())
        try:
            ss = self.client.admin.command("serverStatus")
            s["dedup"] = dedup_sample(ss.get("dedup"))
            s["mem_resident_mb"] = get_path(ss, "mem.resident")
            tc = ss.get("tcmalloc")
            if isinstance(tc, dict):
                flat = flatten(tc)
                s["tcmalloc"] = {k: v for k, v in flat.items() if isinstance(v, (int, float)) and (
                    "heap" in k or "allocated" in k or "free" in k or "thread_cache" in k)}
            s["wt_cache_bytes"] = get_path(ss, "wiredTiger.cache.bytes currently in the cache")
            s["wt_dirty_bytes"] = get_path(ss, "wiredTiger.cache.tracked dirty bytes in the cache")
            if self.coll:
                cs = self.client[self.coll[0]].command("collStats", self.coll[1])
                s["coll_storage_size"] = cs.get("storageSize")
                s["coll_free_storage_size"] = cs.get("freeStorageSize")
        except pymongo.errors.PyMongoError as e:
            s["status_error"] = f"{type(e).__name__}: {e}"[:300]
        s["t_end"] = time.monotonic() - self.t0
        return s

    def run(self):
        nxt = time.monotonic()
        while not self._stop_ev.is_set():
            self.samples.append(self.sample_once())
            nxt += self.load_interval if self.phase == "load" else self.interval
            now = time.monotonic()
            while nxt < now:  # behind schedule: skip the missed slots
                nxt += self.load_interval if self.phase == "load" else self.interval
            self._stop_ev.wait(nxt - now)

    def stop(self):
        self._stop_ev.set()
        self.join(60)
        self.client.close()
        return self.samples


def file_sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def dedup_bench_reference(binary, data_file, n_records, bench_args, cache_dir):
    """dedup_bench's figures for the first n_records of data_file (the records the server got),
    cached in cache_dir by (binary, file, records, flags). None if the binary is missing."""
    if not binary or not os.path.exists(binary):
        return None
    key = hashlib.sha256(json.dumps([file_sha(binary), os.path.basename(data_file), n_records,
                                     bench_args]).encode()).hexdigest()[:16]
    cache = os.path.join(cache_dir, f"dedup_bench_{os.path.basename(data_file).split('.')[0]}_{key}.json")
    if os.path.exists(cache):
        with open(cache) as f:
            return json.load(f)
    cmd = [binary, "--input", data_file, "--limit", str(n_records), "--no-verify",
           "--no-baselines"] + bench_args.split()
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        log(f"dedup_bench failed ({p.returncode}): {p.stderr[-500:]}")
        return {"cmd": cmd, "error": p.stderr[-2000:]}
    d = json.loads(p.stdout)
    ref = {"cmd": cmd, "seconds": time.perf_counter() - t, "records": d.get("records"),
           "logical_bytes": d.get("logical_bytes"), "ratio": d.get("ratio"),
           "ratio_zstd": d.get("ratio_zstd"), "ratio_snappy": d.get("ratio_snappy"),
           "paged_ratio_zstd": get_path(d, "paged.ratio_zstd"),
           "paged_ratio_snappy": get_path(d, "paged.ratio_snappy"), "raw": d}
    os.makedirs(cache_dir, exist_ok=True)
    with open(cache, "w") as f:
        json.dump(ref, f, indent=1)
    return ref


def wait_dedup_idle(client, timeout_s, expect_examined=None, poll=0.25):
    """Waits until serverStatus().dedup shows no queued inserts or write-backs (and, when
    expect_examined is given, that many records examined). Returns what it saw; never raises
    on a missing section (returns at once with section_present False)."""
    t0 = time.monotonic()
    while True:
        dd = client.admin.command("serverStatus").get("dedup")
        if not isinstance(dd, dict) or dd.get("enabled") is False:
            return {"section_present": isinstance(dd, dict), "seconds": 0.0, "timed_out": False}
        pend = [get_path(dd, "pendingInserts"), get_path(dd, "writeBacks.pending")]
        pend = [p for p in pend if isinstance(p, (int, float))]
        examined = dd.get("recordsExamined")
        done = sum(pend) == 0 and (expect_examined is None or not isinstance(examined, (int, float))
                                   or examined >= expect_examined)
        waited = time.monotonic() - t0
        if done or waited >= timeout_s:
            return {"section_present": True, "seconds": waited, "timed_out": not done,
                    "pending_at_end": sum(pend) if pend else None, "records_examined": examined}
        time.sleep(poll)


def server_args(config, dedup_args="", extra_args="", wt_cache_gb=None):
    compressor, dedup = CONFIGS[config]
    a = ["--wiredTigerCollectionBlockCompressor", compressor]
    if wt_cache_gb:
        a += ["--wiredTigerCacheSizeGB", f"{wt_cache_gb:g}"]
    if dedup:
        a += ["--dedup"] + dedup_args.split()
    return a + extra_args.split()


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1)
    os.replace(tmp, path)
