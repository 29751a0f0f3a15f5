#!/usr/bin/env python3
"""Writes the saturation report (SATURATION.md) and its figures from the JSON results of
saturation.py and nothing else: every figure is read from, or computed from, those files.

  sat_report.py [--results results/saturation] [--out SATURATION.md] [--no-plots]

The metrics used for the targets are computed here from the raw samples (load_metrics), so a
change of a target's definition needs no new run.
"""
import argparse
import glob
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_RESULTS = os.path.join(HERE, "results", "saturation")
CONFIG_NAMES = {"snappy": "snappy, no dedup", "dedup_snappy": "--dedup + snappy",
                "dedup_zstd": "--dedup + zstd"}
CONFIG_ORDER = ["snappy", "dedup_snappy", "dedup_zstd"]
# dedup_bench's figure that models each server's on-disk form: the stored forms packed into
# 32 KB pages and block-compressed like WiredTiger leaf pages (dedup_bench --help, "paged").
REFERENCE_KEY = {"dedup_zstd": "paged_ratio_zstd", "dedup_snappy": "paged_ratio_snappy"}
TARGET_DATASETS = ("peps-history", "wiki-python")
TARGET_CLIENTS = (4, 16)
AFTER_LOAD_S = 30.0
RATIO_AFTER, RATIO_DURING = 0.8, 0.5
DURING_MIN_FRACTION = 0.1  # samples during the load count once this share of the data is in
THROUGHPUT_MIN, THROUGHPUT_GOAL, P99_MAX = 0.9, 0.95, 1.2
RSS_FACTOR = 1.5
STARTUP_PING_S, READY_S_PER_200K = 1.0, 1.0


def load_dir(results):
    out = {"load": [], "mixed": [], "startup": []}
    for mode in out:
        for p in sorted(glob.glob(os.path.join(results, mode, "*.json"))):
            with open(p) as f:
                r = json.load(f)
            r["_file"] = os.path.relpath(p, results)
            out[mode].append(r)
    return out


def num(x, digits=0):
    if x is None:
        return "—"
    if isinstance(x, float) and digits == 0 and abs(x) < 100:
        digits = 2 if abs(x) < 10 else 1
    return f"{x:,.{digits}f}"


def mib(x):
    return "—" if x is None else f"{x / 2**20:,.0f}"


def verdict(ok):
    return "—" if ok is None else ("**PASS**" if ok else "**MISS**")


def ref_ratio(r):
    key = REFERENCE_KEY.get(r.get("config"))
    return (r.get("dedup_bench") or {}).get(key) if key else None


def sample_ratio(s, field="data_allocated_bytes"):
    b = s.get(field)
    lb = s.get("logical_bytes")
    return lb / b if b and lb else None


def dedup_pending(s):
    d = s.get("dedup") or {}
    parts = [d.get("pendingInserts"), d.get("writeBacks.pending")]
    parts = [p for p in parts if isinstance(p, (int, float))]
    return sum(parts) if parts else None


def load_metrics(r):
    """On-disk ratios over time against dedup_bench's, the dedup backlog, RSS."""
    S = [s for s in r.get("samples") or [] if "data_allocated_bytes" in s]
    end = r.get("load_end_s")
    total = r.get("logical_bytes") or 0
    m = {"ref": ref_ratio(r), "samples": len(S)}
    if not S or end is None:
        return m
    after = [s for s in S if s["t"] >= end]
    # during the load: from DURING_MIN_FRACTION of the data on, through the first sample at or
    # after the load's end (a load shorter than the sampling interval still has that one)
    during = [s for s in S if s["t"] < end and (s.get("logical_bytes") or 0) >= DURING_MIN_FRACTION * total]
    during += after[:1]
    within = [s for s in after if s["t"] <= end + AFTER_LOAD_S]
    m["during_samples"] = len(during)
    rd = [sample_ratio(s) for s in during if sample_ratio(s)]
    m["ratio_min_during"] = min(rd) if rd else None
    m["ratio_at_load_end"] = sample_ratio(after[0]) if after else None
    m["ratio_at_30s"] = sample_ratio(within[-1]) if within else None
    m["ratio_end_window"] = sample_ratio(S[-1])
    m["ratio_end_window_st_size"] = sample_ratio(S[-1], "data_bytes")
    m["on_disk_peak"] = max(s["data_allocated_bytes"] for s in S)
    m["on_disk_at_load_end"] = after[0]["data_allocated_bytes"] if after else None
    m["on_disk_end_window"] = S[-1]["data_allocated_bytes"]
    m["on_disk_end_window_st_size"] = S[-1].get("data_bytes")
    m["window_s"] = S[-1]["t"] - end
    fs = r.get("on_disk_after_fsync_end") or {}
    m["ratio_after_fsync_end"] = total / fs["data_allocated_bytes"] if fs.get("data_allocated_bytes") else None
    if m["ref"]:
        hit = [s for s in after if (sample_ratio(s) or 0) >= RATIO_AFTER * m["ref"]]
        m["reach_0_8_after_end_s"] = hit[0]["t"] - end if hit else None
    pend = [(s["t"], dedup_pending(s)) for s in S if dedup_pending(s) is not None]
    m["backlog_max"] = max((p for _, p in pend), default=None)
    m["backlog_at_load_end"] = next((p for t, p in pend if t >= end), None)
    drained = [t for t, p in pend if t >= end and p == 0]
    m["drained_after_end_s"] = drained[0] - end if drained else None
    # fields a build may add (e.g. the backlog's bytes and age): their largest value in the window
    backlog_fields = sorted({k for s in S for k in (s.get("dedup") or {}) if "backlog" in k.lower()})
    m["backlog_fields"] = {k: max((v for s in S for v in [(s.get("dedup") or {}).get(k)]
                                   if isinstance(v, (int, float)) and not isinstance(v, bool)), default=None)
                           for k in backlog_fields}
    rss = [s["rss_bytes"] for s in S if s.get("rss_bytes")]
    m["rss_start"] = (r.get("process_start") or {}).get("VmRSS_bytes")
    m["rss_max"] = max(rss) if rss else None
    m["rss_end_window"] = rss[-1] if rss else None
    # a checkpoint rewrites WiredTiger.turtle: its age dropping between two samples marks one
    ages = [(s["t"], s.get("checkpoint_age_s")) for s in S if s.get("checkpoint_age_s") is not None]
    m["checkpoints_at"] = [b[0] - b[1] for a, b in zip(ages, ages[1:]) if b[1] < a[1]]
    free = [s.get("coll_free_storage_size") for s in S if s.get("coll_free_storage_size") is not None]
    m["free_storage_max"] = max(free) if free else None
    m["free_storage_end"] = free[-1] if free else None
    return m


def by_key(runs):
    """{(dataset, clients): {config: [rounds]}}"""
    out = {}
    for r in runs:
        out.setdefault((r["dataset"], r["clients"]), {}).setdefault(r["config"], []).append(r)
    for v in out.values():
        for rs in v.values():
            rs.sort(key=lambda r: r.get("round", 1))
    return out


def ok(r):
    return r is not None and "error" not in r and "insert" in r


def tput(rs):
    """Medians over the rounds of docs/s, MB/s and the rounds' p50/p99 batch latencies."""
    good = [r for r in rs if ok(r)]
    if not good:
        return None
    return {"docs_per_s": statistics.median(r["insert"]["docs_per_s"] for r in good),
            "mb_per_s": statistics.median(r["insert"]["mb_per_s"] for r in good),
            "p50_ms": statistics.median(r["insert"]["latency"]["p50_us"] / 1e3 for r in good),
            "p99_ms": statistics.median(r["insert"]["latency"]["p99_us"] / 1e3 for r in good),
            "seconds": statistics.median(r["insert"]["seconds"] for r in good), "rounds": len(good)}


def load_section(runs, lines):
    groups = by_key(runs)
    datasets = sorted({d for d, _ in groups}, key=lambda d: (d not in TARGET_DATASETS, d))
    for ds in datasets:
        keys = sorted(c for d, c in groups if d == ds)
        any_r = next(r for c in keys for rs in groups[(ds, c)].values() for r in rs)
        ref = any_r.get("dedup_bench") or {}
        lines += [f"### {ds}", "",
                  f"{any_r['records']:,} records ({'first ' + num(any_r['limit_mb']) + ' MB' if any_r.get('limit_mb') else 'whole file'}), "
                  f"{any_r.get('distinct_keys', 0):,} distinct keys, {any_r['logical_bytes']:,} logical (BSON) bytes; "
                  f"insert_many of {any_r['batch']}. dedup_bench on the same records "
                  f"(`{' '.join(os.path.basename(x) if i == 0 else x for i, x in enumerate(ref.get('cmd') or []))}`): "
                  f"dedup {num(ref.get('ratio'), 1)}x, per record +zstd {num(ref.get('ratio_zstd'), 1)}x, "
                  f"+snappy {num(ref.get('ratio_snappy'), 1)}x, paged +zstd **{num(ref.get('paged_ratio_zstd'), 1)}x**, "
                  f"paged +snappy {num(ref.get('paged_ratio_snappy'), 1)}x.", "",
                  "| clients | server | docs/s | MB/s | vs snappy | batch p50 / p99 ms | p99 vs snappy | server CPU s | spot check |",
                  "|---:|---|---:|---:|---:|---:|---:|---:|---|"]
        for c in keys:
            base = tput(groups[(ds, c)].get("snappy", []))
            for cfg in CONFIG_ORDER:
                rs = groups[(ds, c)].get(cfg)
                if not rs:
                    continue
                t = tput(rs)
                if t is None:
                    lines.append(f"| {c} | {CONFIG_NAMES[cfg]} | FAILED: {rs[0].get('error', '')[:120]} |||||||")
                    continue
                r = rs[0]
                sc = r.get("spot_check") or {}
                lines.append(
                    f"| {c} | {CONFIG_NAMES[cfg]} | {num(t['docs_per_s'])} | {num(t['mb_per_s'], 1)} | "
                    f"{num(t['docs_per_s'] / base['docs_per_s'], 3) if base else '—'} | "
                    f"{num(t['p50_ms'], 1)} / {num(t['p99_ms'], 1)} | "
                    f"{num(t['p99_ms'] / base['p99_ms'], 2) if base else '—'} | {num(r.get('server_cpu_during_load_s'), 1)} | "
                    f"{sc.get('mismatches', '—')} bad of {sc.get('checked', '—')} |")
        lines += ["", "On disk (data files, st_blocks × 512; ratio = logical bytes acknowledged so far / "
                      "on-disk bytes; the reference is dedup_bench's paged figure for the server's compressor):", "",
                  "| clients | server | load s | min ratio during load (samples) | at load end | at +30 s | at end of window (s) | "
                  "after fsync, end | dedup_bench ref | reached 0.8 × ref after | on-disk peak / end MB | "
                  "st_size end MB | freeStorageSize max / end MB |",
                  "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for c in keys:
            for cfg in CONFIG_ORDER:
                for r in groups[(ds, c)].get(cfg, [])[:1]:
                    if not ok(r):
                        continue
                    m = load_metrics(r)
                    reach = m.get("reach_0_8_after_end_s")
                    lines.append(
                        f"| {c} | {CONFIG_NAMES[cfg]} | {num(r['insert']['seconds'], 1)} | "
                        f"{num(m.get('ratio_min_during'), 1)} ({m.get('during_samples', 0)} samples) | "
                        f"{num(m.get('ratio_at_load_end'), 1)} | {num(m.get('ratio_at_30s'), 1)} | "
                        f"{num(m.get('ratio_end_window'), 1)} ({num(m.get('window_s'), 0)}) | "
                        f"{num(m.get('ratio_after_fsync_end'), 1)} | {num(m.get('ref'), 1)} | "
                        f"{'—' if not m.get('ref') else ('never' if reach is None else num(reach, 1) + ' s')} | "
                        f"{num((m.get('on_disk_peak') or 0) / 1e6, 1)} / {num((m.get('on_disk_end_window') or 0) / 1e6, 1)} | "
                        f"{num((m.get('on_disk_end_window_st_size') or 0) / 1e6, 1)} | "
                        f"{'—' if m.get('free_storage_max') is None else num(m['free_storage_max'] / 1e6, 1)} / "
                        f"{'—' if m.get('free_storage_end') is None else num(m['free_storage_end'] / 1e6, 1)} |")
        lines += ["", "Dedup backlog (serverStatus().dedup pendingInserts + writeBacks.pending) and memory:", "",
                  "| clients | server | backlog max | at load end | empty after load end | other backlog fields reported | "
                  "RSS start / max / end MiB | checkpoints (s after load start) |",
                  "|---:|---|---:|---:|---:|---|---:|---|"]
        for c in keys:
            for cfg in CONFIG_ORDER:
                for r in groups[(ds, c)].get(cfg, [])[:1]:
                    if not ok(r):
                        continue
                    m = load_metrics(r)
                    dr = m.get("drained_after_end_s")
                    lines.append(
                        f"| {c} | {CONFIG_NAMES[cfg]} | {num(m.get('backlog_max'))} | {num(m.get('backlog_at_load_end'))} | "
                        f"{'—' if m.get('backlog_max') is None else ('not within the window' if dr is None else num(dr, 1) + ' s')} | "
                        f"{', '.join(f'`{f}` max {num(v)}' for f, v in (m.get('backlog_fields') or {}).items()) or 'none'} | "
                        f"{mib(m.get('rss_start'))} / {mib(m.get('rss_max'))} / {mib(m.get('rss_end_window'))} | "
                        f"{', '.join(num(t, 1) for t in m.get('checkpoints_at') or []) or 'none'} |")
        lines += ["", f"![on-disk and logical bytes, {ds}](sat_bytes_{ds}.png)", "",
                  f"![RSS and dedup backlog, {ds}](sat_rss_{ds}.png)", ""]


def targets(data):
    rows = []
    groups = by_key(data["load"])
    # ratio targets: --dedup + zstd at 4 and 16 clients on the two named data sets; throughput
    # and latency: every data set and client count present ("at the same concurrency")
    keys = sorted(groups, key=lambda k: (k[0] not in TARGET_DATASETS, k))
    for ds, c in keys:
        g = groups[(ds, c)]
        if ds in TARGET_DATASETS and c in TARGET_CLIENTS:
            for r in g.get("dedup_zstd", [])[:1]:
                if not ok(r):
                    continue
                m = load_metrics(r)
                ref = m.get("ref")
                if ref:
                    v = m.get("ratio_at_30s")
                    rows.append((ds, f"{c} clients: on-disk ratio 30 s after the load, --dedup + zstd, ≥ "
                                 f"{RATIO_AFTER} × dedup_bench's {num(ref, 1)}", num(v, 1),
                                 num(RATIO_AFTER * ref, 1), verdict(None if v is None else v >= RATIO_AFTER * ref)))
                    v = m.get("ratio_min_during")
                    rows.append((ds, f"{c} clients: lowest on-disk ratio during the load (from "
                                 f"{DURING_MIN_FRACTION:.0%} of the data on, load end included), ≥ {RATIO_DURING} × {num(ref, 1)}",
                                 num(v, 1), num(RATIO_DURING * ref, 1),
                                 verdict(None if v is None else v >= RATIO_DURING * ref)))
        base = tput(g.get("snappy", []))
        for cfg in ("dedup_snappy", "dedup_zstd"):
            t = tput(g.get(cfg, []))
            if not (t and base):
                continue
            q = t["docs_per_s"] / base["docs_per_s"]
            rows.append((ds, f"{c} clients: docs/s {CONFIG_NAMES[cfg]} / snappy (goal {THROUGHPUT_GOAL})",
                         num(q, 3), f"≥ {THROUGHPUT_MIN}", verdict(q >= THROUGHPUT_MIN)))
            q = t["p99_ms"] / base["p99_ms"]
            rows.append((ds, f"{c} clients: p99 insert_many latency {CONFIG_NAMES[cfg]} / snappy",
                         num(q, 2), f"≤ {P99_MAX}", verdict(q <= P99_MAX)))
    for r in data["mixed"]:
        if "error" in r:
            continue
        mm = mixed_metrics(r)
        lim = mm.get("rss_limit")
        for what, k in (("at the end of the load", "rss_load_end"), ("at the end of the idle window", "rss_end")):
            v = mm.get(k)
            rows.append(("mixed", f"{CONFIG_NAMES[r['config']]}, {r['clients']} clients: RSS {what} ≤ "
                         f"{RSS_FACTOR} × (RSS at start + configured caches)", mib(v) + " MiB",
                         mib(lim) + " MiB", verdict(None if v is None or lim is None else v <= lim)))
    for r in data["startup"]:
        if "error" in r:
            continue
        rs = r["restart"]
        rows.append(("start-up", f"{CONFIG_NAMES[r['config']]}, {r['records']:,} records: first ping",
                     num(rs["ping_s"], 2) + " s", f"≈ {STARTUP_PING_S} s",
                     verdict(rs["ping_s"] <= STARTUP_PING_S)))
        lim = READY_S_PER_200K * r["records"] / 200_000
        rows.append(("start-up", f"{CONFIG_NAMES[r['config']]}, {r['records']:,} records: dedup ready",
                     "not reported" if rs["ready_s"] is None else num(rs["ready_s"], 2) + " s",
                     f"≤ {num(lim, 1)} s", verdict(None if rs["ready_s"] is None else rs["ready_s"] <= lim)))
    return rows


def mixed_metrics(r):
    S = r.get("samples") or []
    rss = [(s["t"], s.get("rss_bytes")) for s in S if s.get("rss_bytes")]
    start = (r.get("process_at_server_start") or {}).get("VmRSS_bytes")
    caches = (r.get("configured_cache_bytes") or {}).get("total")
    m = {"rss_start": start, "rss_before_load": (r.get("process_before_load") or {}).get("VmRSS_bytes"),
         "rss_load_end": (r.get("process_at_load_end") or {}).get("VmRSS_bytes"),
         "rss_end": (r.get("process_end") or {}).get("VmRSS_bytes"),
         "rss_max": max((v for _, v in rss), default=None), "caches": caches,
         "rss_limit": RSS_FACTOR * (start + caches) if start and caches else None}
    ls, le = r.get("load_start_s"), r.get("load_end_s")
    if ls is not None and le is not None and le - ls > 60:
        # levelling off: the RSS growth over the last third of the load against the first third
        third = (le - ls) / 3
        first = [v for t, v in rss if ls <= t <= ls + third]
        last = [v for t, v in rss if le - third <= t <= le]
        if first and last:
            m["rss_growth_first_third"] = first[-1] - first[0]
            m["rss_growth_last_third"] = last[-1] - last[0]
    dd = r.get("server_status_dedup_end") or {}
    m["dedup_memory_end"] = dd.get("memoryBytes")
    m["wt_cache_end"] = r.get("wt_cache_bytes_end")
    return m


def mixed_section(runs, lines):
    for r in runs:
        lines += [f"### {CONFIG_NAMES.get(r['config'], r['config'])}, {r['clients']} clients, "
                  f"{num(r['minutes'], 1)} min on {r['dataset']}", ""]
        if "error" in r:
            lines += [f"FAILED: {r['error'][:300]}", ""]
            continue
        mix = ", ".join(f"{k} {v:g}" for k, v in r["mix"].items())
        lines += [f"Preload {r['preload_records']:,} records ({num(r['preload_bytes'] / 1e6, 1)} MB); "
                  f"operation weights: {mix}; {r['clients']} connections in {r['processes']} processes. "
                  f"{num(r['ops_total_per_s'])} operations/s in all; errors: {r.get('errors') or 'none'}; "
                  f"{r.get('count_end', 0):,} documents at the end.", "",
                  "| operation | per s | p50 ms | p99 ms |", "|---|---:|---:|---:|"]
        for k, o in r["ops"].items():
            lines.append(f"| {k} | {num(o.get('per_s'))} | {num(o.get('p50_us', 0) / 1e3, 2)} | "
                         f"{num(o.get('p99_us', 0) / 1e3, 2)} |")
        m = mixed_metrics(r)
        lines += ["", "| RSS MiB at server start | after preload | max | at load end | after the idle window | "
                      "configured caches MiB | limit (1.5 × (start + caches)) | dedup memoryBytes MiB at end | "
                      "WiredTiger cache in use MiB at end | RSS growth, first / last third of the load MiB |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                  f"| {mib(m['rss_start'])} | {mib(m['rss_before_load'])} | {mib(m['rss_max'])} | "
                  f"{mib(m['rss_load_end'])} | {mib(m['rss_end'])} | {mib(m['caches'])} | {mib(m['rss_limit'])} | "
                  f"{mib(m['dedup_memory_end'])} | {mib(m['wt_cache_end'])} | "
                  f"{mib(m.get('rss_growth_first_third'))} / {mib(m.get('rss_growth_last_third'))} |", "",
                  f"Configured caches: {', '.join(f'{k} {mib(v)} MiB' for k, v in (r.get('configured_cache_bytes') or {}).items() if k != 'total')}. "
                  f"tcmalloc section at the end: {'present' if r.get('server_status_tcmalloc_end') else 'absent'}.", "",
                  f"![RSS during and after the mixed load, {r['config']}](sat_mixed_{r['config']}.png)", ""]


def startup_section(runs, lines):
    if not runs:
        return
    runs = sorted(runs, key=lambda r: (CONFIG_ORDER.index(r["config"]) if r.get("config") in CONFIG_ORDER else 9,
                                       r.get("records", 0)))
    # Wall times depend on what else the machine runs: the load average and the restarted
    # process's CPU time say how much of the cores it had.
    lines += ["| server | records | body GB | on disk MB | shutdown s | first ping s | dedup ready s | "
              "collectionsBeingRebuilt 0 s | startupRebuild | CPU s of the restarted process | load average (1 min) | "
              "RSS after restart MiB | after restart: read back / new versions encoded |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|"]
    for r in runs:
        if "error" in r:
            lines.append(f"| {CONFIG_NAMES.get(r['config'])} | {r['records']:,} | FAILED: {r['error'][:200]} ||||||||")
            continue
        rs, ck = r["restart"], r.get("check_after_restart") or {}
        sr = (r.get("dedup_after_restart") or {}).get("startupRebuild")
        lines.append(
            f"| {CONFIG_NAMES.get(r['config'])} | {r['records']:,} | {num(r['body_bytes'] / 1e9, 2)} | "
            f"{num(r['on_disk']['data_allocated_bytes'] / 1e6, 1)} | {num(r['shutdown_s'], 2)} | {num(rs['ping_s'], 2)} | "
            f"{'not reported' if rs['ready_s'] is None else num(rs['ready_s'], 2)} | "
            f"{'—' if rs['rebuild_idle_s'] is None else num(rs['rebuild_idle_s'], 2)} | "
            f"`{json.dumps(sr, separators=(',', ':')) if sr is not None else '—'}` | "
            f"{num((r.get('process_after_restart') or {}).get('cpu_s'), 2)} | "
            f"{num((r.get('loadavg_end') or [None])[0], 1)} | "
            f"{mib((r.get('process_after_restart') or {}).get('VmRSS_bytes'))} | "
            f"{ck.get('read_mismatches', '—')} bad of {ck.get('read_back', '—')} / "
            f"{ck.get('records_encoded_delta', '—')} of {ck.get('new_versions', '—')} |")
    for r in runs:
        tl = [e for e in (r.get("restart") or {}).get("log_timeline") or []
              if e[1] in ("STORAGE", "DEDUP") or e[2] in ("MongoDB starting", "Waiting for connections")]
        # periodic progress lines (same message as the one before): the first and the last only
        progress = [i for i, e in enumerate(tl) if i > 0 and e[2] == tl[i - 1][2]
                    or i + 1 < len(tl) and e[2] == tl[i + 1][2]]
        drop = set(progress[1:-1])
        if tl:
            lines += ["", f"Server log after the restart with {r['records']:,} records (ms since its first line"
                      f"{'; ' + str(len(drop)) + ' progress lines left out' if drop else ''}):", "", "```"]
            lines += [f"{e[0]:>7} {e[1]:<8} {e[2]}" + (f" {json.dumps(e[3])[:150]}" if e[1] == "DEDUP" and e[3] else "")
                      for i, e in enumerate(tl) if i not in drop][:16] + ["```"]
    lines += ["", "![start-up times](sat_startup.png)", ""]


def write_report(results=DEFAULT_RESULTS, out=None, plots=True):
    results = os.path.abspath(results)
    data = load_dir(results)
    labels = sorted({r.get("label") for m in data.values() for r in m if r.get("label")})
    smoke = any(l != "full" for l in labels)
    if out is None:  # the full run's report sits beside the scripts; others beside their results
        out = os.path.join(HERE, "SATURATION.md") if results == DEFAULT_RESULTS else \
            os.path.join(results, f"SATURATION_{'_'.join(labels).upper()}.md" if smoke else "SATURATION.md")
    fig_dir = os.path.dirname(os.path.abspath(out))
    if plots:
        import sat_plots
        sat_plots.make_all(data, fig_dir)
    run_info = []
    if os.path.exists(os.path.join(results, "run_info.json")):
        with open(os.path.join(results, "run_info.json")) as f:
            run_info = [json.loads(l) for l in f if l.strip()]
    gb = lambda rs: ", ".join(sorted({f"{r.get('wt_cache_gb'):g}" if r.get("wt_cache_gb") else "(server default)"
                                      for r in rs})) or "—"
    cache_txt, startup_cache_txt = gb(data["load"] + data["mixed"]), gb(data["startup"])
    interval_txt = ", ".join(sorted({f"{r.get('load_sample_interval_s', r.get('sample_interval_s')):g}"
                                     for r in data["load"]})) or "—"
    post_txt = ", ".join(sorted({f"{r.get('post_load_s'):g}" for r in data["load"]})) or "—"
    L = ["# dbDedup under saturation: on-disk bytes, throughput, memory, start-up (issue 9)", ""]
    if smoke:
        L += [f"> **{', '.join(labels).upper()} RUN — NOT THE FINAL FIGURES.** Reduced sizes "
              "(see the commands below); it shows that the harness works, not how the server performs.", ""]
    L += ["## How to reproduce", "", "```sh", "PY=/opt/mongo-dedup-deps/tools-v1/venv/bin/python",
          "$PY buildscripts/bench/dedup_server/saturation.py            # full run (~40 min), writes SATURATION.md",
          "$PY buildscripts/bench/dedup_server/saturation.py --modes load      # saturation loads only (~22 min)",
          "$PY buildscripts/bench/dedup_server/saturation.py --modes mixed     # 64-client mixed load (~12 min)",
          "$PY buildscripts/bench/dedup_server/saturation.py --modes startup   # start-up at 200k and 1M records (~7 min)",
          "$PY buildscripts/bench/dedup_server/sat_report.py            # report and figures again from the JSON",
          "# quick check (~6 min): --limit-mb 20 --clients 1,4 --post-load-s 10 --mixed-minutes 1 --mixed-post-s 10 \\",
          "#   --startup-records 50000 --out buildscripts/bench/dedup_server/results/saturation_smoke --label smoke",
          "```", "", "Durations are estimates for 2 idle cores; `--help` lists every option (data sets: "
          "`--datasets all` adds se-posthistory and email-ham, about 22 min more; `--rounds N` repeats the loads).", ""]
    for ri in run_info[-5:]:
        L.append(f"- ran: `{' '.join(os.path.basename(a) if i == 0 else a for i, a in enumerate(ri['argv']))}` "
                 f"({num(ri['seconds'] / 60, 1)} min, label {ri['label']}, failures: {len(ri['failures'])})")
    L += ["", "## What is measured", "",
          "- **Load**: a fresh mongod per data set × server × client count (a copy of `build/install/bin/mongod`). "
          "P client processes (pymongo, one connection each) send `insert_many` batches (ordered) of their contiguous share of "
          "the data set's history with no pauses; process i takes records [i·N/P, (i+1)·N/P) in file order, so versions of one "
          "document arrive in order within a process. Documents are the data set's lines with every field, pre-encoded BSON. "
          "**Throughput** = documents (logical MB) / wall time from the first client's start to the last client's end; "
          "**latency** = one `insert_many` round trip, percentiles over all batches.",
          f"- **Servers**: `--wiredTigerCollectionBlockCompressor snappy`; the same with `--dedup`; `--dedup` with zstd. "
          f"Every server runs with `--wiredTigerCacheSizeGB {cache_txt}` (`--wt-cache-gb`): with the default cache (half "
          "the RAM) a 100 MB load stays in the cache until the next checkpoint (every 60 s) and the data files do not move "
          "at all during the load; a cache far smaller than the data, as production data sets have, makes eviction write "
          f"pages while the clients load. The start-up server uses {startup_cache_txt} (`--startup-wt-cache-gb`).",
          f"- **On-disk bytes**: every {interval_txt} s during the load and every second for {post_txt} s after it, with "
          "no `compact` and no `fsync`: the sum over the data directory's files of st_blocks × 512 (what the file system "
          "allocates; the figure the ratios use) and of st_size, excluding `journal/` (WiredTiger preallocates its log; "
          "its bytes are sampled separately), `mongod.lock` and `diagnostic.data/`. **Logical bytes** = BSON bytes the "
          "clients had acknowledged at the sample. Ratio = logical / on-disk. Data that only sits in WiredTiger's cache "
          "and journal is not in the data files yet, so early in a load the ratio can look high for every server: "
          "compare with the snappy row at the same moment. 'after fsync, end' is one more figure after the window "
          "(an fsync forces a checkpoint), for reference only.",
          "- **Reference**: `dedup_bench` on the same records (`--limit N`, flags matching mongod's dedup defaults), its "
          "'paged' figure: stored forms packed into 32 KB pages and compressed with the server's block compressor, "
          "as WiredTiger leaf pages are. The targets use it for --dedup + zstd.",
          "- **Dedup backlog**: serverStatus().dedup `pendingInserts` + `writeBacks.pending` every second, and every field "
          "whose name mentions a backlog, pending work, readiness or a rebuild (kept in the JSON samples).",
          "- **RSS**: VmRSS of the mongod process from /proc every second.",
          "- **Mixed load** and **start-up**: see `sat_mixed.py` and `sat_startup.py` (docstrings) and below.", "",
          "## Targets", "", "| | target | measured | threshold | result |", "|---|---|---:|---:|---|"]
    for row in targets(data):
        L.append("| " + " | ".join(str(x) for x in row) + " |")
    L += ["", "## Saturation loads", ""]
    load_section(data["load"], L)
    if data["mixed"]:
        L += ["## Mixed load, memory", ""]
        mixed_section(data["mixed"], L)
    if data["startup"]:
        L += ["## Start-up", "", "Records are the four data sets over and over (each pass a new version); the "
              "same server grows from one count to the next. Times from the spawn of the restarted process.", ""]
        startup_section(data["startup"], L)
    allr = [r for m in data.values() for r in m]
    if allr:
        mach = allr[0].get("machine") or {}
        builds = sorted({(r.get("mongod") or {}).get("sha256", "")[:12] + " built " +
                         str((r.get("mongod") or {}).get("mtime")) for r in allr})
        la = [x for r in allr for x in (r.get("loadavg_start") or [None])[:1] if x is not None]
        L += ["## Machine and build", "",
              f"- {mach.get('nproc')} CPUs ({mach.get('cpu_model')}), {num((mach.get('mem_total_bytes') or 0) / 2**30, 1)} GiB RAM, "
              f"shared with other work; 1-minute load average at the start of the runs {num(min(la), 2)}–{num(max(la), 2)}."
              if la else "",
              f"- mongod: {'; '.join(builds)}.",
              f"- Runs from {min(r.get('started_at', '') for r in allr)} to {max(r.get('started_at', '') for r in allr)}; "
              f"raw results in `{os.path.relpath(results, fig_dir)}/`.", ""]
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")
    print(f"wrote {out}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=DEFAULT_RESULTS)
    ap.add_argument("--out", default=None)
    ap.add_argument("--no-plots", action="store_true")
    args = ap.parse_args()
    write_report(args.results, args.out, not args.no_plots)


if __name__ == "__main__":
    main()
