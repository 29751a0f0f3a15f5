#!/usr/bin/env python3
"""Writes the read benchmark's report (READS.md) and figures from one result file of
read_bench.py and nothing else; prints the targets PASS/FAIL.

  read_report.py [--results FILE or DIR (its newest *.json)] [--out READS.md] [--no-plots]
  read_report.py --placeholder     # READS.md for "not yet run at full size"

Aggregation: per data set, phase and server, the median over the repetitions and their spread
(min..max); the ratio to the snappy server of the SAME repetition, then the median and spread
of those ratios (the repetitions are interleaved, so a slow spell of the machine hits the
servers of one repetition alike). Targets are judged on the median ratio.
"""
import argparse
import glob
import json
import os
import statistics

from sat_common import flatten

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_RESULTS = os.path.join(HERE, "results", "reads")
CONFIG_ORDER = ["snappy", "zstd", "dedup", "dedup_zstd"]
CONFIG_NAMES = {"snappy": "snappy, no dedup", "zstd": "zstd, no dedup",
                "dedup": "--dedup (default compressor)", "dedup_zstd": "--dedup + zstd"}
DEDUP_CONFIGS = ("dedup", "dedup_zstd")
BASE = "snappy"
PHASE_NAMES = {"id": "point reads by _id", "k": "point reads by k (secondary index)",
               "scan": "full collection scans", "mixed": "mixed: find_one / update_one by _id"}
# the targets
POINT_TPUT_MIN, POINT_P99_MAX, SCAN_MIN = 0.95, 1.1, 0.9
BUCKETS = ["0", "1", "2", "3-4", "5-8", "9-16", "17+"]


def _us(d, k):
    v = (d or {}).get(k)
    return None if v is None else v / 1e3


GET = {  # metric -> (label, getter of a phase result, higher is better)
    "ops_per_s": ("ops/s", lambda p: p.get("ops_per_s"), True),
    "docs_per_s": ("documents/s", lambda p: p.get("docs_per_s"), True),
    "mb_per_s": ("MB/s", lambda p: p.get("mb_per_s"), True),
    "p50_ms": ("p50 ms", lambda p: _us(p.get("latency"), "p50_us"), False),
    "p99_ms": ("p99 ms", lambda p: _us(p.get("latency"), "p99_us"), False),
    "find_p99_ms": ("find p99 ms", lambda p: _us(p.get("find_latency"), "p99_us"), False),
    "update_p99_ms": ("update p99 ms", lambda p: _us(p.get("update_latency"), "p99_us"), False),
    "cpu_us_per_op": ("mongod CPU µs/op", lambda p: _cpu_per_op(p), False),
    "rss_max_mib": ("RSS max MiB", lambda p: (lambda b: b / 2**20 if b else None)(
        (p.get("memory") or {}).get("rss_max_bytes")), False),
}
PHASE_METRICS = {"id": ["ops_per_s", "p50_ms", "p99_ms", "cpu_us_per_op", "rss_max_mib"],
                 "k": ["ops_per_s", "p50_ms", "p99_ms", "cpu_us_per_op", "rss_max_mib"],
                 "scan": ["docs_per_s", "mb_per_s", "cpu_us_per_op", "rss_max_mib"],
                 "mixed": ["ops_per_s", "find_p99_ms", "update_p99_ms", "cpu_us_per_op", "rss_max_mib"]}
MAIN_METRIC = {"id": "ops_per_s", "k": "ops_per_s", "scan": "docs_per_s", "mixed": "ops_per_s"}


def _cpu_per_op(p):
    """mongod CPU µs per operation (per document for scans); the CPU seconds cover the warm-up
    too, so this assumes the warm-up ran at the measured rate (an estimate)."""
    n = p.get("docs_per_s") if "docs_per_s" in p else p.get("ops_per_s")
    wall = (p.get("seconds") or 0) + (p.get("warmup_s") or 0)
    if not n or p.get("server_cpu_s") is None or not wall:
        return None
    return p["server_cpu_s"] / wall / n * 1e6


def num(x, digits=None):
    if x is None:
        return "—"
    if digits is None:
        digits = 0 if abs(x) >= 100 else (1 if abs(x) >= 10 else 2)
    return f"{x:,.{digits}f}"


def verdict(ok):
    return "—" if ok is None else ("**PASS**" if ok else "**FAIL**")


def load_result(path):
    if not os.path.exists(path):
        return None, None
    if os.path.isdir(path):
        files = sorted(glob.glob(os.path.join(path, "*.json")), key=os.path.getmtime)
        if not files:
            return None, None
        path = files[-1]
    with open(path) as f:
        return json.load(f), path


def good_runs(entry):
    return [r for r in entry.get("runs", []) if "error" not in r and r.get("phases")]


def values(entry, cfg, ph, key):
    """{rep: value} of one metric."""
    out = {}
    for r in good_runs(entry):
        p = (r["phases"] or {}).get(ph)
        if r["config"] == cfg and p is not None:
            v = GET[key][1](p)
            if v is not None:
                out[r["rep"]] = v
    return out


def spread(vs):
    vs = list(vs)
    if not vs:
        return None
    return {"median": statistics.median(vs), "min": min(vs), "max": max(vs), "n": len(vs)}


def aggregate(entry, cfg, ph, key):
    """Median and spread over the reps, and of the per-rep ratio to the snappy server."""
    v = values(entry, cfg, ph, key)
    base = values(entry, BASE, ph, key)
    ratios = [v[r] / base[r] for r in v if base.get(r)]
    return {"value": spread(v.values()), "ratio": spread(ratios)}


def fmt_spread(s, digits=None, bold=False):
    if not s:
        return "—"
    m = num(s["median"], digits)
    m = f"**{m}**" if bold else m
    return m if s["n"] == 1 else f"{m} ({num(s['min'], digits)}..{num(s['max'], digits)})"


def configs_of(result):
    return [c for c in CONFIG_ORDER if c in (result.get("configs") or {})]


def phases_of(result):
    return [p for p in PHASE_NAMES if p in (result.get("args") or {}).get("phases", list(PHASE_NAMES))]


def memory_check(entry, cfg):
    """reads.cache.bytes <= capacityBytes at every sample and snapshot of every phase."""
    pts = over = 0
    mx = cap = None
    for r in good_runs(entry):
        if r["config"] != cfg:
            continue
        for p in r["phases"].values():
            m = p.get("memory") or {}
            pts += m.get("read_cache_points") or 0
            over += m.get("read_cache_over_capacity") or 0
            if m.get("read_cache_max_bytes") is not None:
                mx = max(mx or 0, m["read_cache_max_bytes"])
            if m.get("read_cache_capacity_bytes") is not None:
                cap = max(cap or 0, m["read_cache_capacity_bytes"])
    return {"points": pts, "over": over, "max_bytes": mx, "capacity_bytes": cap}


def targets(result):
    """Rows (data set, target, measured, threshold, verdict) of the issue's targets."""
    rows = []
    cfgs = configs_of(result)
    for ds, entry in (result.get("datasets") or {}).items():
        for cfg in [c for c in DEDUP_CONFIGS if c in cfgs]:
            name = CONFIG_NAMES[cfg]
            if BASE in cfgs:
                for ph in ("id", "k"):
                    if ph not in phases_of(result):
                        continue
                    a = aggregate(entry, cfg, ph, "ops_per_s")["ratio"]
                    rows.append((ds, f"{PHASE_NAMES[ph]}: reads/s {name} / snappy", fmt_spread(a, 3),
                                 f"≥ {POINT_TPUT_MIN}", verdict(None if not a else a["median"] >= POINT_TPUT_MIN)))
                    a = aggregate(entry, cfg, ph, "p99_ms")["ratio"]
                    rows.append((ds, f"{PHASE_NAMES[ph]}: p99 latency {name} / snappy", fmt_spread(a, 2),
                                 f"≤ {POINT_P99_MAX}", verdict(None if not a else a["median"] <= POINT_P99_MAX)))
                if "scan" in phases_of(result):
                    a = aggregate(entry, cfg, "scan", "docs_per_s")["ratio"]
                    rows.append((ds, f"full scans: documents/s {name} / snappy", fmt_spread(a, 3),
                                 f"≥ {SCAN_MIN}", verdict(None if not a else a["median"] >= SCAN_MIN)))
            m = memory_check(entry, cfg)
            ran = any(r["config"] == cfg for r in good_runs(entry))
            measured = ("no completed run" if not ran else
                        "not reported by this build (no serverStatus().dedup.reads.cache)" if not m["points"] else
                        f"max {num(m['max_bytes'] / 2**20, 2)} MiB of {num(m['capacity_bytes'] / 2**20, 2)} MiB; "
                        f"{m['over']} of {m['points']} samples over")
            rows.append((ds, f"memory: decoded-record cache bytes ≤ its capacity at every sample, {name}",
                         measured, "0 samples over", verdict(None if not m["points"] else m["over"] == 0)))
    return rows


def reads_delta(p):
    """The phase's serverStatus().dedup.reads counters (after - before); gauges as after."""
    b, a = (p.get("before") or {}).get("reads"), (p.get("after") or {}).get("reads")
    if not isinstance(a, dict) or not isinstance(b, dict):
        return None
    fb, fa = flatten(b), flatten(a)
    gauges = ("cache.bytes", "cache.capacityBytes", "cache.entries", "maxDeltasPerRead")
    out = {k: (v if k in gauges else v - fb.get(k, 0)) for k, v in fa.items()
           if isinstance(v, (int, float)) and not isinstance(v, bool)}
    out["longestChain"] = (p.get("after") or {}).get("longestChain")
    return out


def reads_table(result, entry, cfg):
    """Per phase, the reads counters summed over the reps (gauges: the largest seen)."""
    rows = {}
    for r in good_runs(entry):
        if r["config"] != cfg:
            continue
        for ph, p in r["phases"].items():
            d = reads_delta(p)
            if d is None:
                continue
            acc = rows.setdefault(ph, {})
            for k, v in d.items():
                if v is None:
                    continue
                if k in ("cache.bytes", "cache.capacityBytes", "cache.entries", "maxDeltasPerRead", "longestChain"):
                    acc[k] = max(acc.get(k, v), v)
                else:
                    acc[k] = acc.get(k, 0) + v
    return rows


def histogram(result, entry, cfg, ph):
    d = reads_table(result, entry, cfg).get(ph) or {}
    h = {b: d.get(f"deltasPerRead.{b}") for b in BUCKETS}
    return h if any(v for v in h.values()) else None


def method_lines(a):
    """What is measured, from the run's options (a: read_bench's args as a dict)."""
    return [
        f"- **Servers** (a copy of `build/install/bin/mongod`): {', '.join(f'`{c}` = {CONFIG_NAMES[c]}' for c in CONFIG_ORDER)}. "
        f"The `dedup` server gets no `--wiredTigerCollectionBlockCompressor` (the server's default; the collection's "
        f"actual compressor, read from WiredTiger's metadata file after the load, is in the load table). Every server runs with "
        f"`--wiredTigerCacheSizeGB {a.get('wt_cache_gb'):g}`" + (f" and `{a.get('dedup_args')}` (dedup servers)" if a.get('dedup_args') else "") +
        (f" and `{a.get('server_args')}`" if a.get('server_args') else "") + ".",
        f"- **Load, once per server**: a fresh mongod, collection `bench.docs`, the index `{{k: 1}}` created **before** the "
        f"load; {a.get('clients')} client processes insert the first {num(a.get('limit_mb'), 0)} MB of the data set in "
        f"history order (`insert_many` of {a.get('batch')}, ordered, no pauses; process i takes records [i·N/P, (i+1)·N/P)); "
        "every document gets an extra int32 field `k` = its position in the file (unique). Then the dedup queues are "
        "drained (`pendingInserts` and `writeBacks.pending` 0), 200 random documents are read back and compared byte for "
        "byte, clean shutdown. The data directory is kept for every repetition.",
        f"- **Repetitions**: {a.get('reps')}, interleaved: for each repetition, for each server: mongod restarted on its "
        "kept data directory, the dedup start-up rebuild and queues waited for, then the phases in order. Each phase: "
        f"{a.get('clients')} client processes (pymongo, one connection each, raw BSON, no decoding in the client) at "
        f"saturation for {num(a.get('warmup_s'), 0)} s of warm-up (not counted) + **{num(a.get('phase_s'), 0)} s** measured; "
        "an operation counts when it starts in the measured window; latency is the client's round trip. Random keys "
        "depend on (repetition, phase, client) only: every server gets the same sequence.",
        "- **Phases**: `id` find_one({_id: random loaded _id}); `k` find_one({k: random}) through the secondary index; "
        f"`scan` find({{}}) with batch_size {a.get('scan_batch')} read to exhaustion, again and again (documents that arrive "
        f"in the window count); `mixed` {num(100 * (1 - a.get('update_fraction', 0.2)), 0)}% find_one by _id, "
        f"{num(100 * a.get('update_fraction', 0.2), 0)}% update_one by _id with `$set: {{r: <int>}}` (these updates stay: later "
        "phases and repetitions read the updated documents, on every server alike).",
        "- **Around every phase**: serverStatus().dedup — its `reads` section whole (when the build has it) and "
        f"`longestChain` — and mongod's RSS and CPU; every {num(a.get('sample_interval'), 0)} s during it: RSS, CPU and "
        "selected serverStatus().dedup fields (reads.cache.bytes / capacityBytes among them). **mongod CPU µs/op** = "
        "mongod's CPU seconds over warm-up + window / (warm-up + window) / measured rate: an estimate of the server's "
        "own cost per operation (per document for scans), free of the client's share of the cores.",
        "- **Aggregation**: per phase and server the median over repetitions and the spread (min..max); the ratio to the "
        "snappy server of the same repetition, median and spread. Targets are judged on the median ratio.",
    ]


NOT_SHOWN = [
    "- **Two shared cores.** The client processes (Python) and mongod share 2 cores with other work; at saturation the "
    "clients take a large part of the CPU, so a difference in the server's own work is diluted in reads/s and latency. "
    "The mongod CPU µs/op column shows the server's cost without that dilution; load averages are in the JSON.",
    "- **Warm, small data.** The data set is far smaller than the WiredTiger cache and the OS page cache: after the "
    "first touch nothing is read from disk. Cold reads, and data sets larger than memory, are not measured.",
    "- **One data set and one access pattern.** Uniform random keys over every version of every document: no hot set, "
    "no preference for the latest version (which is what applications read most, and what dedup stores as the "
    "source of others). Other data sets have other chain shapes (see `longestChain` and the deltas per read).",
    "- **Reads on a quiet server.** The dedup queues are drained before the reads; reads during a load (dedup work "
    "competing for the cores) are not measured here (the saturation benchmark's mixed load covers that loosely).",
    "- **The memory target uses the server's own accounting** (`reads.cache.bytes`), sampled once a second and around "
    "each phase: a peak between samples is not seen; RSS is reported but not judged.",
    "- **Not measured**: projections, aggregations, sorts, range scans by index, large `$in` lookups, replication, "
    "restarts under load, and latency beyond p99 (max is in the JSON).",
]


def reproduce_lines():
    return ["```sh", "PY=/opt/mongo-dedup-deps/tools-v1/venv/bin/python",
            "$PY buildscripts/bench/dedup_server/read_bench.py          # full run (about 25 min on 2 idle cores), writes READS.md",
            "$PY buildscripts/bench/dedup_server/read_bench.py --quick  # smoke (~2 min) -> results/reads_smoke/READS_SMOKE.md",
            "$PY buildscripts/bench/dedup_server/read_report.py         # report and figures again from the newest results/reads/*.json",
            "```", "", "`--help` lists every option (`--configs`, `--datasets`, `--limit-mb`, `--phase-s`, `--reps`, "
            "`--clients`, `--dedup-args` for the decoded-record cache size and other dedup options, ...).", ""]


def dataset_section(result, ds, entry, L, fig_prefix):
    cfgs = configs_of(result)
    L += [f"### {ds}", "",
          f"{entry.get('records', 0):,} records (the first {num(entry.get('limit_mb'), 0)} MB), "
          f"{entry.get('distinct_keys') or 0:,} distinct keys, {entry.get('logical_bytes', 0):,} BSON bytes with `k`.", "",
          "Load (once per server; the read phases run on this data directory):", "",
          "| server | block compressor | docs/s | batch p99 ms | dedup drained after | on disk after shutdown MB | "
          "spot check |", "|---|---|---:|---:|---:|---:|---|"]
    for cfg in cfgs:
        ld = (entry.get("loads") or {}).get(cfg)
        if not ld:
            continue
        if "error" in ld and "load" not in ld:
            L.append(f"| {CONFIG_NAMES[cfg]} | FAILED: {ld['error'][:150]} ||||||")
            continue
        lo, dr = ld.get("load") or {}, ld.get("drain") or {}
        sc = ld.get("spot_check") or {}
        L.append(f"| {CONFIG_NAMES[cfg]} | {', '.join(ld.get('block_compressors') or []) or '—'} | "
                 f"{num(lo.get('docs_per_s'))} | {num(_us(lo.get('latency'), 'p99_us'))} | "
                 f"{'—' if not dr.get('section_present') else num(dr.get('seconds'), 1) + ' s' + (' (timed out)' if dr.get('timed_out') else '')} | "
                 f"{num((ld.get('on_disk_after_shutdown') or {}).get('data_bytes', 0) / 1e6, 1)} | "
                 f"{sc.get('mismatches', '—')} bad of {sc.get('checked', '—')} |")
    L.append("")
    for ph in phases_of(result):
        keys = PHASE_METRICS[ph]
        L += [f"**{PHASE_NAMES[ph]}** — median over repetitions (min..max); ratio to snappy of the same repetition:", "",
              "| server | " + " | ".join(GET[k][0] for k in keys) + " | " +
              " | ".join(f"{GET[k][0]} / snappy" for k in keys[:3]) + " |",
              "|---|" + "---:|" * (len(keys) + 3)]
        for cfg in cfgs:
            ag = {k: aggregate(entry, cfg, ph, k) for k in keys}
            if not any(a["value"] for a in ag.values()):
                continue
            L.append(f"| {CONFIG_NAMES[cfg]} | " + " | ".join(fmt_spread(ag[k]["value"], bold=k == MAIN_METRIC[ph])
                                                              for k in keys) +
                     " | " + " | ".join("1" if cfg == BASE else fmt_spread(ag[k]["ratio"], 3 if GET[k][2] else 2)
                                        for k in keys[:3]) + " |")
        errs = {}
        miss = 0
        for r in good_runs(entry):
            p = r["phases"].get(ph) or {}
            miss += p.get("missing") or 0
            for k, v in (p.get("op_errors") or {}).items():
                errs[k] = errs.get(k, 0) + v
        L += ["", f"Operation errors: {', '.join(f'{k} {v}' for k, v in errs.items()) or 'none'}; documents not found: {miss}.", ""]
    rows = [(cfg, reads_table(result, entry, cfg)) for cfg in cfgs if cfg in DEDUP_CONFIGS]
    rows = [(c, t) for c, t in rows if t]
    if rows:
        L += ["serverStatus().dedup.reads during each phase (counters summed over the repetitions; cache bytes, "
              "entries, maxDeltasPerRead and longestChain: the largest seen):", "",
              "| server | phase | records read | raw | decoded | deltas applied / record read | max deltas per read | "
              "decode µs / decoded | cache hits / (hits + misses) | cache evictions | cache max MiB / capacity MiB | longestChain |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for cfg, t in rows:
            for ph in phases_of(result):
                d = t.get(ph)
                if not d:
                    continue
                rec, dec = d.get("records"), d.get("decodedRecords")
                hm = (d.get("cache.hits") or 0) + (d.get("cache.misses") or 0)
                L.append(f"| {CONFIG_NAMES[cfg]} | {ph} | {num(rec, 0)} | {num(d.get('rawRecords'), 0)} | {num(dec, 0)} | "
                         f"{num(d['deltasApplied'] / rec, 2) if rec and d.get('deltasApplied') is not None else '—'} | "
                         f"{num(d.get('maxDeltasPerRead'), 0)} | "
                         f"{num(d['decodeMicros'] / dec, 1) if dec and d.get('decodeMicros') is not None else '—'} | "
                         f"{num(d.get('cache.hits', 0) / hm, 3) if hm else '—'} | {num(d.get('cache.evictions'), 0)} | "
                         f"{num(d['cache.bytes'] / 2**20, 2) if d.get('cache.bytes') is not None else '—'} / "
                         f"{num(d['cache.capacityBytes'] / 2**20, 2) if d.get('cache.capacityBytes') is not None else '—'} | "
                         f"{num(d.get('longestChain'), 0)} |")
        L.append("")
    else:
        L += ["serverStatus().dedup has no `reads` section in this build: no read counters, deltas-per-read "
              "histogram or decoded-record cache figures.", ""]
    for f, alt in ((f"{fig_prefix}_throughput_{ds}.png", "throughput per phase and server"),
                   (f"{fig_prefix}_p99_{ds}.png", "p99 latency per server"),
                   (f"{fig_prefix}_deltas_{ds}.png", "deltas applied per read")):
        L += [f"![{alt}, {ds}]({f})", ""]


def write_report(results=DEFAULT_RESULTS, out=None, plots=True, default_out=None):
    result, path = load_result(results)
    if result is None:
        raise SystemExit(f"no result file in {results}")
    label = result.get("label") or "full"
    smoke = label != "full"
    if default_out is None:
        default_out = os.path.abspath(os.path.dirname(path)) == DEFAULT_RESULTS
    if out is None:  # the full run's report sits beside the scripts; others beside their results
        out = os.path.join(HERE, "READS.md") if default_out and not smoke else \
            os.path.join(os.path.dirname(path), f"READS_{label.upper()}.md")
    fig_dir = os.path.dirname(os.path.abspath(out))
    made = set()
    if plots:
        import read_plots
        made = read_plots.make_all(result, fig_dir, "reads")
    a = result.get("args") or {}
    L = ["# Reads of deduplicated records against plain storage (issue 16)", ""]
    if smoke:
        L += [f"> **{label.upper()} RUN — NOT THE RESULT.** Reduced sizes ({num(a.get('limit_mb'), 0)} MB, "
              f"{num(a.get('phase_s'), 0)} s phases, {a.get('reps')} repetition(s)); it shows that the harness works, "
              "not how the server performs.", ""]
    if not result.get("complete"):
        L += ["> **INCOMPLETE RUN** (interrupted or still running): figures below cover what finished.", ""]
    L += ["## How to reproduce", ""] + reproduce_lines()
    argv = result.get("argv") or []
    L += [f"- this run: `{' '.join(os.path.basename(x) if i == 0 else x for i, x in enumerate(argv))}` "
          f"({num((result.get('seconds') or 0) / 60, 1)} min, label {label}, failures: {len(result.get('failures') or [])}); "
          f"raw results `{os.path.relpath(path, fig_dir)}`.", ""]
    for f in result.get("failures") or []:
        L.append(f"- FAILURE: {f[:300]}")
    L += ["## What is measured", ""] + method_lines(a) + ["", "## Targets", "",
                                                        "| data set | target | measured: median (min..max) | threshold | result |",
                                                        "|---|---|---:|---:|---|"]
    for row in targets(result):
        L.append("| " + " | ".join(str(x) for x in row) + " |")
    L += ["", "## Results", ""]
    for ds, entry in (result.get("datasets") or {}).items():
        dataset_section(result, ds, entry, L, "reads")
    L = [l for l in L if not (l.startswith("![") and l[l.index("(") + 1:-1] not in made)]
    L += ["## What this does not show", ""] + NOT_SHOWN + [""]
    mach = result.get("machine") or {}
    m = result.get("mongod") or {}
    las = [r.get("loadavg_start", [None])[0] for e in (result.get("datasets") or {}).values() for r in e.get("runs", [])]
    las = [x for x in las if x is not None]
    L += ["## Machine and build", "",
          f"- {mach.get('nproc')} CPUs ({mach.get('cpu_model')}), {num((mach.get('mem_total_bytes') or 0) / 2**30, 1)} GiB RAM, "
          "shared with other work" + (f"; 1-minute load average at the start of the server runs {num(min(las), 2)}–{num(max(las), 2)}"
                                      if las else "") + ".",
          f"- mongod: sha256 {m.get('sha256', '')[:12]}, built {m.get('mtime')} (`{m.get('path')}`, copied before the run).",
          f"- run from {result.get('started_at')} to {result.get('finished_at')}.", ""]
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")
    print(f"wrote {out}")
    return out


def write_placeholder(out=os.path.join(HERE, "READS.md")):
    import read_bench
    a = vars(read_bench.parse_args([]))
    smoke = sorted(glob.glob(os.path.join(HERE, "results", "reads_smoke", "READS_*.md")))
    L = ["# Reads of deduplicated records against plain storage (issue 16)", "",
         "> **NOT YET RUN AT FULL SIZE.** The benchmark exists and has passed a smoke run"
         + (f" ([{os.path.relpath(smoke[-1], HERE)}]({os.path.relpath(smoke[-1], HERE)}), reduced sizes, not a result)"
            if smoke else "") + "; run the full command below on a quiet machine and this file is replaced by the report.", "",
         "## How to reproduce", ""] + reproduce_lines() + ["## What will be measured", ""] + method_lines(a) + [
         "", "## Targets (issue 16)", "",
         f"- point reads (by _id and by the secondary index): every --dedup server ≥ {POINT_TPUT_MIN} × snappy's reads/s and "
         f"p99 latency ≤ {POINT_P99_MAX} × snappy's;",
         f"- full collection scans: ≥ {SCAN_MIN} × snappy's documents/s;",
         "- memory: the decoded-record cache stays within its configured bytes (serverStatus().dedup.reads.cache.bytes ≤ "
         "capacityBytes at every sample).", "", "## What this does not show", ""] + NOT_SHOWN + [""]
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")
    print(f"wrote {out}")
    return out


def print_targets(results):
    result, _ = load_result(results)
    print("\nTargets (issue 16), median ratio over repetitions:")
    for ds, target, measured, thr, v in targets(result):
        print(f"  {v.strip('*'):5} {ds}: {target}: {measured.replace('**', '')} (threshold {thr})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=DEFAULT_RESULTS, help="a result file, or a directory (its newest *.json)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--placeholder", action="store_true", help="write READS.md as 'not yet run at full size'")
    args = ap.parse_args()
    if args.placeholder:
        write_placeholder(args.out or os.path.join(HERE, "READS.md"))
        return
    write_report(args.results, args.out, not args.no_plots)
    print_targets(args.results)


if __name__ == "__main__":
    main()
