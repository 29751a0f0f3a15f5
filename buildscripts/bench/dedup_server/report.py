#!/usr/bin/env python3
"""Writes REPORT.md from results/*.json (run_bench.py's output) and nothing else: every figure in
the report is read from, or computed from, those files. Called by plots.py; runs alone too.

  report.py [--results DIR] [--out REPORT.md]
"""
import argparse
import glob
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
DATASETS = ["wiki-python", "peps-history", "se-posthistory", "email-ham"]
CONFIGS = ["snappy", "dedup_snappy", "dedup_zstd"]
CONFIG_NAMES = {"snappy": "snappy, no dedup", "dedup_snappy": "--dedup + snappy",
                "dedup_zstd": "--dedup + zstd"}
# dedup_bench's ratios for the engine alone (issue 4), and the thresholds.
REFERENCE_RATIO = {"peps-history": 34.5, "wiki-python": 357.0, "se-posthistory": 5.5,
                   "email-ham": 3.7}
RATIO_FRACTION = 0.8
VS_SNAPPY = {"peps-history": 10.0, "wiki-python": 10.0}
THROUGHPUT_FRACTION = 0.95
P99_LATEST_FACTOR = 1.1
FIGURES = [("fig1_on_disk_bytes.png", "On-disk bytes (data files) and logical bytes"),
           ("fig2_ratio.png", "Compression ratio with the targets"),
           ("fig3_insert_throughput.png", "Insert throughput"),
           ("fig4_latency.png", "Latency p50 / p99 of inserts, latest-version and old-version reads")]


def load_results(results_dir):
    """{dataset: {config: result}} from results_dir/<dataset>__<config>.json."""
    out = {}
    for p in sorted(glob.glob(os.path.join(results_dir, "*__*.json"))):
        with open(p) as f:
            r = json.load(f)
        if r.get("dataset") and r.get("config"):
            out.setdefault(r["dataset"], {})[r["config"]] = r
    return out


def ordered(results):
    return [d for d in DATASETS if d in results] + sorted(d for d in results if d not in DATASETS)


def ok(r):
    return r is not None and "error" not in r and "on_disk" in r


def get(r, *path):
    for p in path:
        if not isinstance(r, dict):
            return None
        r = r.get(p)
    return r


def num(x, digits=0):
    if x is None:
        return "—"
    return f"{x:,.{digits}f}"


def ratio_fmt(x):
    if x is None:
        return "—"
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def dedup_memory_total(r):
    """The larger of memoryBytes right after the load and after the dedup queues drained (the
    encoder waits for clients to pause, so right after the load it may not have started)."""
    vals = [v for v in (get(r, "dedup_memory_after_load", "total_bytes"), get(r, "dedup_memory", "total_bytes"))
            if v is not None]
    return max(vals) if vals else None


def dataset_table(ds, runs):
    lines = [f"### {ds}", ""]
    base = runs.get("snappy")
    any_r = next((r for r in runs.values() if ok(r)), None)
    if any_r:
        lim = any_r.get("limit")
        lines.append(f"{any_r['records']:,} records ({'first ' + str(lim) + ' of the file' if lim else 'whole file'}), "
                     f"{any_r.get('distinct_keys', 0):,} distinct keys, "
                     f"{any_r.get('logical_bytes', 0):,} logical bytes.")
        lines.append("")
    lines += ["| config | on-disk bytes | logical bytes | ratio | ratio after compact | ratio net of empty dir | "
              "snappy bytes / these | inserts/s | MB/s | insert p50 / p99 µs | "
              "latest read p50 / p99 µs | old read p50 / p99 µs | dedup memory bytes |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for cfg in CONFIGS + sorted(c for c in runs if c not in CONFIGS):
        r = runs.get(cfg)
        if r is None:
            continue
        name = CONFIG_NAMES.get(cfg, cfg)
        if not ok(r):
            lines.append(f"| {name} | failed: {r.get('error', 'incomplete')[:120]} |" + " |" * 11)
            continue
        disk = r["on_disk"]["data_bytes"]
        vs = base["on_disk"]["data_bytes"] / disk if ok(base) else None
        il, ll, ol = get(r, "insert", "latency"), get(r, "reads", "latest"), get(r, "reads", "old")
        pp = lambda d: f"{num(get(d, 'p50_us'))} / {num(get(d, 'p99_us'))}"
        lines.append(f"| {name} | {disk:,} | {r['logical_bytes']:,} | {ratio_fmt(r['ratio'])} | "
                     f"{ratio_fmt(r.get('ratio_after_compact'))} | "
                     f"{ratio_fmt(r.get('ratio_net_of_empty'))} | {ratio_fmt(vs)} | "
                     f"{num(get(r, 'insert', 'docs_per_s'))} | {num(get(r, 'insert', 'mb_per_s'), 2)} | "
                     f"{pp(il)} | {pp(ll)} | {pp(ol)} | {num(dedup_memory_total(r))} |")
    lines.append("")
    for cfg in CONFIGS:
        r = runs.get(cfg)
        if not ok(r):
            continue
        d = r["on_disk"]
        notes = [f"empty data directory {num(get(r, 'on_disk_empty', 'data_bytes'))} B",
                 f"journal (not counted) {num(d.get('journal_bytes'))} B",
                 f"data files after clean shutdown {num(get(r, 'on_disk_after_shutdown', 'data_bytes'))} B",
                 f"collStats storageSize {num(get(r, 'coll_stats', 'storageSize'))} B + indexes "
                 f"{num(get(r, 'coll_stats', 'totalIndexSize'))} B",
                 f"server CPU during inserts {num(get(r, 'insert', 'server_cpu_s'), 2)} s"]
        rounds = r.get("rounds") or []
        if len(rounds) > 1:
            notes.append("inserts/s per round " + ", ".join(num(x.get("docs_per_s")) for x in rounds)
                         + "; on-disk bytes per round " + ", ".join(num(x.get("data_bytes")) for x in rounds))
        if r.get("on_disk_after_compact"):
            notes.append(f"after compact {num(r['on_disk_after_compact']['data_bytes'])} B "
                         f"({num(r.get('compact_seconds'), 1)} s)")
        elif get(r, "compact", "error"):
            notes.append(f"compact failed: {r['compact']['error'][:100]}")
        dr = r.get("drain") or {}
        if dr.get("section_present"):
            notes.append(f"waited {dr.get('seconds', 0):.2f} s for the dedup queues (queued work "
                         f"{dr.get('pending_at_start')} -> {dr.get('pending_at_end')}"
                         f"{', TIMED OUT' if dr.get('timed_out') else ''})")
        for label, key in (("after the load", "dedup_memory_after_load"), ("after the wait", "dedup_memory")):
            mem = r.get(key)
            if mem:
                notes.append(f"dedup memory {label}: " + ", ".join(f"{k} {num(v)}" for k, v in mem.items()
                                                                 if k != "total_bytes"))
        ddr = get(r, "server_status_dedup", "ratio")
        if ddr is not None and get(r, "server_status_dedup", "enabled") is not False:
            notes.append(f"engine's own ratio (serverStatus().dedup.ratio) {ratio_fmt(ddr)}")
        elif r.get("dedup"):
            notes.append("serverStatus has no 'dedup' section")
        w = r.get("server_log_warnings")
        if w and w.get("count"):
            notes.append(f"{w['count']} warning/error lines in the server log")
        v = r.get("verify")
        notes.append("verify: " + ("not run" if v is None else
                                   f"{v['mismatches']} mismatches of {v['documents']:,} documents"))
        lines.append(f"- {CONFIG_NAMES.get(cfg, cfg)}: " + "; ".join(notes) + ".")
    lines.append("")
    return lines


def verdict(value, threshold, higher_is_better=True):
    if value is None:
        return "n/a"
    good = value >= threshold if higher_is_better else value <= threshold
    return "**PASS**" if good else "**MISS**"


def paired_ratio(base, r):
    """Median over rounds of (this config's inserts/s / snappy's) within the same round."""
    a, b = base.get("rounds") or [], r.get("rounds") or []
    xs = sorted(y["docs_per_s"] / x["docs_per_s"] for x, y in zip(a, b) if x.get("docs_per_s"))
    return statistics.median(xs) if xs else None


def targets(results):
    rows = ["| data set | target | measured | threshold | result |", "|---|---|---:|---:|---|"]
    for ds in ordered(results):
        runs = results[ds]
        s, dz = runs.get("snappy"), runs.get("dedup_zstd")
        if ds in REFERENCE_RATIO:
            thr = RATIO_FRACTION * REFERENCE_RATIO[ds]
            val = dz["ratio"] if ok(dz) else None
            rows.append(f"| {ds} | ratio with --dedup + zstd ≥ {RATIO_FRACTION} × dedup_bench's "
                        f"{REFERENCE_RATIO[ds]} (after compact: {ratio_fmt(get(dz, 'ratio_after_compact'))}) | "
                        f"{ratio_fmt(val)} | {ratio_fmt(thr)} | {verdict(val, thr)} |")
        if ds in VS_SNAPPY:
            val = s["on_disk"]["data_bytes"] / dz["on_disk"]["data_bytes"] if ok(s) and ok(dz) else None
            rows.append(f"| {ds} | snappy bytes / (--dedup + zstd) bytes | {ratio_fmt(val)} | "
                        f"{ratio_fmt(VS_SNAPPY[ds])} | {verdict(val, VS_SNAPPY[ds])} |")
        for cfg in ("dedup_snappy", "dedup_zstd"):
            r = runs.get(cfg)
            both = ok(s) and ok(r)
            val = r["insert"]["docs_per_s"] / s["insert"]["docs_per_s"] if both else None
            paired = paired_ratio(s, r) if both else None
            rows.append(f"| {ds} | inserts/s {CONFIG_NAMES[cfg]} / snappy (medians of the rounds; "
                        f"median of the per-round ratios: {num(paired, 3)}) | "
                        f"{num(val, 3)} | ≥ {THROUGHPUT_FRACTION} | {verdict(val, THROUGHPUT_FRACTION)} |")
        for cfg in ("dedup_snappy", "dedup_zstd"):
            r = runs.get(cfg)
            both = ok(s) and ok(r) and get(s, "reads", "latest", "p99_us")
            val = r["reads"]["latest"]["p99_us"] / s["reads"]["latest"]["p99_us"] if both else None
            rows.append(f"| {ds} | p99 latest read {CONFIG_NAMES[cfg]} / snappy | "
                        f"{num(val, 3)} | ≤ {P99_LATEST_FACTOR} | {verdict(val, P99_LATEST_FACTOR, False)} |")
    return rows


def machine_section(results_dir, results):
    lines = []
    summ = os.path.join(results_dir, "summary.json")
    m = {}
    if os.path.exists(summ):
        with open(summ) as f:
            m = json.load(f).get("machine", {})
    all_runs = [r for runs in results.values() for r in runs.values()]
    bins = sorted({(get(r, "mongod", "sha256") or "?")[:12] + " built " + (get(r, "mongod", "mtime") or "?")
                   for r in all_runs})
    starts = sorted(r.get("started_at", "") for r in all_runs)
    loads = [x for r in all_runs for x in (r.get("loadavg_start") or [])[:1] + (r.get("loadavg_end") or [])[:1]]
    lines.append(f"- Machine: {m.get('nproc', '?')} CPUs ({m.get('cpu_model', '?')}), "
                 f"{num((m.get('mem_total_bytes') or 0) / 2**30, 1)} GiB RAM, shared with other work; "
                 f"1-minute load average during the runs {min(loads, default=0):.2f}–{max(loads, default=0):.2f}.")
    nrounds = sorted({len(r.get("rounds") or [1]) for r in all_runs})
    lines.append(f"- Rounds per configuration: {', '.join(map(str, nrounds))}.")
    lines.append(f"- mongod binary (sha256 prefix): {'; '.join(bins)}.")
    if starts:
        lines.append(f"- Runs started {starts[0]} to {starts[-1]}; "
                     f"total run time {num(sum(r.get('run_seconds', 0) for r in all_runs))} s.")
    extra = sorted({r.get("dedup_args") for r in all_runs if r.get("dedup_args")})
    if extra:
        lines.append(f"- Extra options for the dedup configurations: {'; '.join(extra)}.")
    return lines


def rebuild_section(results_dir):
    """The start-up rebuild of the dedup state (rebuild_time.py), if it was measured."""
    path = os.path.join(results_dir, "rebuild_time.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        r = json.load(f)
    sr = r.get("startup_rebuild", {})
    before = r.get("before_restart", {})
    return ["## Start-up rebuild of the dedup state", "",
            "The engine's state (feature index, chains, reference counts) is not persisted; mongod rebuilds it "
            "from the stored records at start-up (`rebuild_time.py`: the four data sets loaded over and over, "
            "each pass a new version of the last, then a clean restart).", "",
            "| records | body bytes | stored/logical before restart | rebuild (server's own timing) | "
            "start to first ping | dedup memory after restart | RSS after restart |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            f"| {num(r.get('records'))} | {num(r.get('body_bytes'))} | {ratio_fmt(before.get('ratio'))} | "
            f"{num(sr.get('durationMillis'))} ms ({num(sr.get('records'))} records) | "
            f"{r.get('startup_to_first_ping_seconds')} s | {num(get(r, 'after_restart', 'memoryBytes'))} B | "
            f"{num(r.get('rss_kb_after_restart'))} kB |", ""]


def render(results_dir, fig_dir=HERE):
    results = load_results(results_dir)
    limits = sorted({str(r.get("limit")) for runs in results.values() for r in runs.values()
                     if r.get("limit")})
    out = ["# dbDedup in the server: end-to-end benchmark (issue 4)", "",
           "## How to reproduce", "",
           "```sh",
           "PY=/opt/mongo-dedup-deps/tools-v1/venv/bin/python",
           "$PY buildscripts/bench/dedup_server/run_bench.py && $PY buildscripts/bench/dedup_server/plots.py",
           "```", "",
           "`run_bench.py --datasets wiki-python --limit 200` runs a subset; `--help` lists the options. "
           "Raw figures: `results/<dataset>__<config>.json` (one server run each) and `results/summary.json`; "
           "this file and the PNGs are generated from them by `plots.py` (which calls `report.py`).", ""]
    if limits:
        out += [f"> **Subset run** (first {', '.join(limits)} records per data set): the targets refer to "
                "whole data sets, so their verdicts below are not meaningful.", ""]
    out += ["## What was measured", "",
            "For each data set of `../shared/data` and each configuration — `--wiredTigerCollectionBlockCompressor "
            "snappy` without dedup, `--dedup` with snappy, `--dedup` with zstd — a fresh mongod (a copy of "
            "`build/install/bin/mongod`, so all runs use one build) is started on an empty dbpath, listening on "
            "127.0.0.1. The collection `bench.docs` is created (with `{dedup: true}` in the dedup configurations), "
            "then every record, reduced to `{_id, key, ts, body}` in that order, is inserted in file order with "
            "one pymongo `insert_one` per document (pre-encoded BSON, so client-side encoding is not timed). "
            "Each configuration is run in several rounds, each on a fresh server, the configurations "
            "interleaved (snappy, dedup+snappy, dedup+zstd, snappy, ...) so that load from other work on the "
            "shared machine falls on all of them alike. Throughput figures are the median of the rounds, "
            "latency percentiles are over the pooled samples of all rounds, bytes and server statistics are "
            "those of round 1 (the bytes of every round are listed under each table).",
            "",
            "- **Insert latency**: `time.perf_counter()` around each `insert_one`; **throughput**: documents "
            "(and logical MB) divided by the wall time of the whole insert loop. Client and server share the "
            "machine, so latencies include pymongo and the loopback round trip.",
            "- **Dedup queues**: before fsync, `serverStatus().dedup` is polled until `pendingInserts` and "
            "`writeBacks.pending` are 0 and `recordsExamined` has reached the number of documents (60 s at "
            "most); the wait is reported.",
            "- **On-disk bytes**: `{fsync: 1}`, 1 s pause, `{fsync: 1}` again, then the sum of `st_size` of "
            "every file under the dbpath, recursively — collection and index tables, WiredTiger metadata, "
            "catalog, history store, sizeStorer and any dedup metadata tables — **except** `mongod.lock`, "
            "`diagnostic.data/` and `journal/`. The journal is excluded because WiredTiger preallocates its log "
            "files (100 MB each) whatever the data; its size is listed separately. The bytes of the same "
            "directory when empty (measured right after creating the collection) and after a clean "
            "shutdown are listed too; 'ratio net of empty dir' subtracts the former. After the reads, "
            "`{compact: 'docs'}` and another fsync give 'ratio after compact': write-backs rewrite records "
            "in place, and the blocks they free stay inside the table files until compact; the targets are "
            "judged on the figure after fsync, as the issue asks.",
            "- **Logical bytes**: sum of the BSON sizes of the inserted documents. **Ratio** = logical / on-disk.",
            "- **Reads**: `find_one({_id})` with `perf_counter` timing: latest versions (the last `_id` of each "
            "`key` in file order) and old versions (every other `_id`), 2,000 of each (drawn without replacement "
            "when there are enough, else cycling through the shuffled pool), interleaved in one random order "
            "that is the same for every configuration.",
            "- **Dedup memory**: `serverStatus().dedup.memoryBytes`, the larger of right after the last insert and after the dedup queues drained (table), and its "
            "parts `indexBytes`, `metadataBytes`, `sourceCache.bytes`, `writeBacks.pendingBytes` after the "
            "load and after the wait (notes); the whole section is kept in the JSON.",
            "- **Verification**: every document is read back by `_id` and by a full scan and compared byte for "
            "byte with the BSON inserted; the run fails on any difference.", ""]
    out += ["## Results", ""]
    for ds in ordered(results):
        out += dataset_table(ds, results[ds])
    out += ["## Targets (issue 4)", "", "Computed from the tables above.", ""] + targets(results) + [""]
    out += rebuild_section(results_dir)
    out += ["## Figures", ""]
    for fname, title in FIGURES:
        if os.path.exists(os.path.join(fig_dir, fname)):
            out += [f"**{title}**", "", f"![{title}]({fname})", ""]
    out += ["## Machine and build", ""] + machine_section(results_dir, results) + [""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    ap.add_argument("--out", default=os.path.join(HERE, "REPORT.md"))
    args = ap.parse_args()
    text = render(args.results, os.path.dirname(os.path.abspath(args.out)))
    with open(args.out, "w") as f:
        f.write(text)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
