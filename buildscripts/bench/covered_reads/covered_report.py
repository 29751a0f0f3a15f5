#!/usr/bin/env python3
"""Figures and REPORT.md of the covered-reads benchmark from results/<dataset>.json (written by
run_covered.py) and nothing else; notes.md beside the results, if present, is appended as the
discussion of the run (hand-written, so keep it in step with the figures).

  covered_report.py [--results DIR] [--out DIR]   (default: results/ and this folder)
"""
import argparse
import glob
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dedup_server"))
from report import CONFIG_NAMES, get, num  # noqa: E402

COLORS = {"snappy": "#4c72b0", "dedup_snappy": "#dd8452", "dedup_zstd": "#55a868"}
DATASETS = ["wiki-python", "peps-history"]
FIGURES = [("fig1_throughput.png", "Throughput per phase (median of rounds; dots: each round)"),
           ("fig2_ratio.png", "With --dedup / without, per round (dots) and median (bars): throughput, "
                       "throughput per CPU-second, server CPU per operation"),
           ("fig3_latency.png", "Latency p50 / p95 / p99 (pooled over rounds)"),
           ("fig4_server_cpu.png", "Server CPU time per operation (median of rounds)")]


def load_results(results_dir):
    out = {}
    for p in sorted(glob.glob(os.path.join(results_dir, "*.json"))):
        with open(p) as f:
            r = json.load(f)
        if r.get("dataset") and "summary" in r:
            out[r["dataset"]] = r
    return dict(sorted(out.items(), key=lambda kv: (kv[0] not in DATASETS, DATASETS.index(kv[0])
                                                    if kv[0] in DATASETS else 0, kv[0])))


def configs_of(r):
    return [c for c in ("snappy", "dedup_snappy", "dedup_zstd") if c in r["servers"] and "error" not in r["servers"][c]]


def phases_of(r):
    return list(r["summary"])


def plain_log(ax):
    """Log y axis with plain numbers (1, 0.9, 2000) on the major and minor ticks."""
    ax.set_yscale("log")
    f = FuncFormatter(lambda y, _: f"{y:g}")
    ax.yaxis.set_major_formatter(f)

    def minor(y, _):  # every minor tick on a narrow axis, else 2 and 5 only
        lo, hi = ax.get_ylim()
        return f"{y:g}" if hi / max(lo, 1e-12) < 12 or f"{y:e}"[0] in "25" else ""
    ax.yaxis.set_minor_formatter(FuncFormatter(minor))
    ax.tick_params(axis="y", which="minor", labelsize=7)


def grid(results, title):
    fig, axes = plt.subplots(1, len(results), figsize=(6.5 * len(results), 4.6), squeeze=False)
    fig.suptitle(title)
    return fig, axes[0]


def bars(ax, r, value, rounds=None, log=True, ylabel=""):
    """Grouped bars: one group per phase, one bar per configuration; dots for each round."""
    cfgs, phs = configs_of(r), phases_of(r)
    w = 0.8 / max(1, len(cfgs))
    any_positive = False
    for i, cfg in enumerate(cfgs):
        xs, ys = [], []
        for j, ph in enumerate(phs):
            v = value(r, ph, cfg)
            x = j - 0.4 + w * (i + 0.5)
            if v:
                xs.append(x)
                ys.append(v)
                any_positive = any_positive or v > 0
            for rv in (rounds(r, ph, cfg) if rounds else []):
                ax.plot([x], [rv], "k.", markersize=3)
        ax.bar(xs, ys, w, color=COLORS.get(cfg), edgecolor="black", linewidth=0.4, label=CONFIG_NAMES.get(cfg, cfg))
    ax.set_xticks(range(len(phs)))
    ax.set_xticklabels(phs, rotation=15, fontsize=8)
    if log and any_positive:
        plain_log(ax)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", which="both", alpha=0.3)
    ax.set_title(f"{r['dataset']} ({r['records']:,} records, {r['keys']:,} keys)", fontsize=10)


def draw(results, out):
    cs = lambda r, ph, cfg: get(r, "summary", ph, "configs", cfg)
    fig, axes = grid(results, FIGURES[0][1])
    for ax, r in zip(axes, results.values()):
        bars(ax, r, lambda r, ph, c: get(cs(r, ph, c), "ops_per_s_median"),
             lambda r, ph, c: get(cs(r, ph, c), "ops_per_s_rounds") or [], ylabel="operations / s")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, FIGURES[0][0]), dpi=110)
    plt.close(fig)

    rows = [("ratio_per_round", "ops/s: --dedup / snappy, same round"),
            ("norm_ratio_per_round", "ops per CPU-second (server + clients):\n--dedup / snappy, same round"),
            ("cpu_ratio_per_round", "server CPU per op: --dedup / snappy")]
    fig, axes2 = plt.subplots(len(rows), len(results), figsize=(6.5 * len(results), 4.1 * len(rows)), squeeze=False)
    fig.suptitle(FIGURES[1][1])
    for ax, r, (key, ylabel) in [(axes2[i][j], r, row) for i, row in enumerate(rows)
                                 for j, r in enumerate(results.values())]:
        phs = phases_of(r)
        dcfgs = [c for c in configs_of(r) if c != "snappy"]
        w = 0.8 / max(1, len(dcfgs))
        for i, cfg in enumerate(dcfgs):
            for j, ph in enumerate(phs):
                rr = get(r, "summary", ph, key, cfg) or {}
                x = j - 0.4 + w * (i + 0.5)
                if rr.get("median"):
                    ax.bar([x], [rr["median"]], w, color=COLORS[cfg], edgecolor="black", linewidth=0.4,
                           label=CONFIG_NAMES[cfg] if j == 0 else None)
                ax.plot([x] * len(rr.get("rounds", [])), rr.get("rounds", []), "k.", markersize=4)
        ax.axhline(1.0, color="black", linewidth=0.8)
        if key != "cpu_ratio_per_round":
            ax.axhline(0.95, color="red", linewidth=0.8, linestyle="--", label="0.95 (target for covered)")
        ax.set_ylabel(ylabel, fontsize=9)
        plain_log(ax)
        ax.set_xticks(range(len(phs)))
        ax.set_xticklabels(phs, rotation=15, fontsize=8)
        ax.set_title(r["dataset"], fontsize=10)
        ax.grid(axis="y", which="both", alpha=0.3)
    axes2[0][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, FIGURES[1][0]), dpi=110)
    plt.close(fig)

    fig, axes = grid(results, FIGURES[2][1])
    for ax, r in zip(axes, results.values()):
        bars(ax, r, lambda r, ph, c: (get(cs(r, ph, c), "latency_pooled", "p50_us") or 0) / 1e3,
             ylabel="ms (bar: p50)")
        cfgs, phs = configs_of(r), phases_of(r)
        w = 0.8 / max(1, len(cfgs))
        for i, cfg in enumerate(cfgs):
            for j, ph in enumerate(phs):
                lat = get(cs(r, ph, cfg), "latency_pooled") or {}
                x = j - 0.4 + w * (i + 0.5)
                if lat.get("p95_us"):
                    ax.plot([x, x], [lat["p50_us"] / 1e3, lat["p99_us"] / 1e3], color="black", linewidth=0.8)
                    ax.plot([x], [lat["p95_us"] / 1e3], "k_", markersize=6)
                    ax.plot([x], [lat["p99_us"] / 1e3], "kv", markersize=3)
    axes[0].legend(fontsize=8, title="line: p50 to p99, dash p95", title_fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, FIGURES[2][0]), dpi=110)
    plt.close(fig)

    fig, axes = grid(results, FIGURES[3][1])
    for ax, r in zip(axes, results.values()):
        bars(ax, r, lambda r, ph, c: get(cs(r, ph, c), "server_cpu_us_per_op_median"),
             ylabel="server CPU µs / operation")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, FIGURES[3][0]), dpi=110)
    plt.close(fig)


def fmt(x, d=0):
    return num(x, d) if x is not None else "—"


def ratio(x):
    return f"{x:.3f}" if x is not None else "—"


def summary_rows(r, phs, cfgs):
    """(phase, config, its summary, ratios(kind) -> {rounds, median}) for every measured pair."""
    for ph in phs:
        for cfg in cfgs:
            c = get(r, "summary", ph, "configs", cfg)
            if c:
                yield ph, cfg, c, lambda kind, ph=ph, cfg=cfg: get(r, "summary", ph, kind, cfg) or {}


def dataset_section(r):
    cfgs, phs = configs_of(r), phases_of(r)
    L = [f"### {r['dataset']}", "",
         f"{r['records']:,} records{' (first ' + str(r['limit']) + ')' if r.get('limit') else ' (whole file)'}, "
         f"{r['keys']:,} distinct keys, {r['docs_per_key']['median']:g} records per key (median), "
         f"{r['docs_per_key']['max']:,} at most. Load average at start {r['loadavg_start'][0]:.2f}, "
         f"at end {r['loadavg_end'][0]:.2f}; run {r['run_seconds']:.0f} s.", "",
         "**Servers after loading** (index built, fsync):", "",
         "| config | load docs/s (clients) | drain s | on-disk data bytes | collStats storageSize | "
         "index bytes | verify (all keys, every phase) | covered plan | count plan | count_documents plan | distinct plan |",
         "|---|---:|---:|---:|---:|---:|---|---|---|---|---|"]
    for cfg in cfgs:
        s = r["servers"][cfg]
        pl = lambda p: " → ".join(get(s, "explain", p, "stages") or []) + \
            f" (docs examined {fmt(get(s, 'explain', p, 'totalDocsExamined'))})"
        v = s.get("verify", {})
        L.append(f"| {CONFIG_NAMES[cfg]} | {fmt(s['load']['docs_per_s'])} ({s['load']['clients']}) | "
                 f"{s['drain']['seconds']:.1f} | {fmt(s['on_disk_data_bytes'])} | "
                 f"{fmt(get(s, 'coll_stats', 'storageSize'))} | {fmt(get(s, 'coll_stats', 'totalIndexSize'))} | "
                 f"{'ok' if v.get('ok') else 'FAILED: ' + '; '.join(v.get('first', []))} ({v.get('keys')} keys) | "
                 f"{pl('covered')} | {pl('count')} | {pl('count_documents')} | {pl('distinct')} |")
    s0 = r["servers"][cfgs[0]]
    if get(s0, "explain", "covered_as_written"):
        L += ["", f"The brief's literal covered query `find({{key: k}}, {{key: 1, ts: 1, _id: 0}})` is planned "
              f"{' → '.join(get(s0, 'explain', 'covered_as_written', 'stages'))} (docs examined "
              f"{get(s0, 'explain', 'covered_as_written', 'totalDocsExamined')}) and `distinct('ts', {{key: k}})` "
              f"{' → '.join(get(s0, 'explain', 'distinct_as_written', 'stages'))}: without a predicate on `ts` "
              "the filter does not prove `ts` present, so this server fetches (see Setup)."]
    L += ["", "**Throughput** (median of rounds; ratio = the configuration's figure / snappy's in the same "
          "round; ops per CPU-second = operations / CPU seconds of the server and the bench clients):", "",
          "| phase | config | ops/s median | ops/s per round | ratio per round | ratio median | "
          "ops per CPU-s median | its ratio per round | its ratio median |",
          "|---|---|---:|---|---|---:|---:|---|---:|"]
    for ph, cfg, c, ratios in summary_rows(r, phs, cfgs):
        rr, nr = ratios("ratio_per_round"), ratios("norm_ratio_per_round")
        L.append(f"| {ph} | {CONFIG_NAMES[cfg]} | {fmt(c['ops_per_s_median'], 1)} | "
                 f"{', '.join(fmt(x, 1) for x in c['ops_per_s_rounds'])} | "
                 f"{', '.join(ratio(x) for x in rr.get('rounds', [])) or '—'} | {ratio(rr.get('median'))} | "
                 f"{fmt(c.get('ops_per_bench_cpu_s_median'), 1)} | "
                 f"{', '.join(ratio(x) for x in nr.get('rounds', [])) or '—'} | {ratio(nr.get('median'))} |")
    L += ["", "**Cost** (latency pooled over rounds; the rest median of rounds; cores = CPU seconds / wall "
          "seconds of the phase; other = the machine's busy cores less this server's and the clients'):", "",
          "| phase | config | p50 / p95 / p99 µs | server CPU µs/op | its ratio per round | its ratio median | "
          "server cores | client cores | other cores | max RSS MB |",
          "|---|---|---:|---:|---|---:|---:|---:|---:|---:|"]
    for ph, cfg, c, ratios in summary_rows(r, phs, cfgs):
        cr = ratios("cpu_ratio_per_round")
        lat = c["latency_pooled"]
        L.append(f"| {ph} | {CONFIG_NAMES[cfg]} | "
                 f"{fmt(lat.get('p50_us'))} / {fmt(lat.get('p95_us'))} / {fmt(lat.get('p99_us'))} | "
                 f"{fmt(c['server_cpu_us_per_op_median'])} | "
                 f"{', '.join(ratio(x) for x in cr.get('rounds', [])) or '—'} | {ratio(cr.get('median'))} | "
                 f"{fmt(c['server_cpu_cores_median'], 2)} | {fmt(c['client_cpu_cores_median'], 2)} | "
                 f"{fmt(c['other_busy_cores_median'], 2)} | {fmt(c['rss_bytes_max'] / 2**20, 0)} |")
    L += ["", "**Targets:**", ""]
    for cfg, t in r["targets"].items():
        L.append(f"- {CONFIG_NAMES[cfg]}: covered reads, ops/s / snappy's: median of the rounds' ratios "
                 f"{ratio(t['covered_ratio_median'])} (lowest round {ratio(t['covered_ratio_min'])}) — target ≥ 0.95 "
                 f"**{'met' if t['covered_at_least_0_95'] else 'not met'}** on raw throughput; per CPU-second "
                 f"{ratio(t.get('covered_norm_ratio_median'))} — "
                 f"**{'met' if t.get('covered_norm_at_least_0_95') else 'not met'}** on throughput per CPU-second; "
                 f"server CPU per covered read / snappy's {ratio(t['covered_cpu_per_op_ratio_median'])} "
                 f"(per fetched read {ratio(t['fetched_cpu_per_op_ratio_median'])}). Covered ops/s / fetched ops/s "
                 f"{ratio(t['covered_over_fetched'])} (per CPU-second {ratio(t.get('covered_over_fetched_per_cpu'))}) "
                 f"— covered faster than fetched **{'yes' if t['covered_faster_than_fetched'] else 'no'}**.")
    L += ["", "**Load average (1 min) at the start → end of each measurement**, in run order:", ""]
    rows = {}
    for m in r["measurements"]:
        rows.setdefault((m["round"], m["phase"]), []).append(
            f"{m['config']} {m['loadavg_start'][0]:.1f}→{m['loadavg_end'][0]:.1f} "
            f"(busy {m['machine_busy_cores']:.2f} cores)")
    for (rnd, ph), v in rows.items():
        L.append(f"- round {rnd}, {ph}: {'; '.join(v)}")
    if r.get("problems"):
        L += ["", "**Problems:**", ""] + [f"- {p}" for p in r["problems"]]
    return L


def commands(results, out_rel):
    """run_covered.py's options that reproduce the results (from the args each recorded): one
    command per set of options, with the data sets that were run with it."""
    groups = {}
    for r in results.values():
        key = command_args(dict(r["args"], out_rel=out_rel), datasets=False)
        groups.setdefault(key, []).append(r["dataset"])
    return [f"--datasets {','.join(ds)} {key}" for key, ds in groups.items()]


def command_args(a, datasets=True):
    """run_covered.py's options of one run (from the args recorded in its results)."""
    secs = ",".join(f"{p}={v:g}" for p, v in a["phase_seconds"].items())
    parts = ([f"--datasets {a['datasets']}"] if datasets else []) + [f"--configs {a['configs']}", f"--phases {a['phases']}",
             f"--seconds {secs}", f"--rounds {a['rounds']}", f"--clients {a['clients']}", f"--seed {a['seed']}"]
    if a.get("limit"):
        parts.append(f"--limit {a['limit']}")
    if a.get("out_rel"):
        parts.append(f"--out {a['out_rel']}")
    return " ".join(parts)


def write_report(results, out, results_dir):
    r0 = next(iter(results.values()))
    a = dict(r0["args"])
    repo = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
    rel = lambda p: os.path.relpath(os.path.abspath(p), repo) if os.path.abspath(p).startswith(repo + os.sep) \
        else os.path.abspath(p)
    a["out_rel"], a["report_rel"] = rel(results_dir), rel(out)
    m = r0["machine"]
    L = ["# Covered against fetched reads on deduplicated data (issue 19, item 8)", "",
         f"Generated by `covered_report.py` from `{a['out_rel']}/*.json`; the discussion at the end is "
         f"hand-written (`{a['out_rel']}/notes.md`).", "",
         "## How to reproduce", "", "The run reported here:", "", "```sh", "PY=/opt/mongo-dedup-deps/tools-v1/venv/bin/python",
         *[f"$PY buildscripts/bench/covered_reads/run_covered.py {c}" for c in commands(results, a["out_rel"])],
         f"$PY buildscripts/bench/covered_reads/covered_report.py --results {a['out_rel']} --out {a['report_rel']}",
         "```", "", "Without options `run_covered.py` runs the default (both data sets, three configurations, every "
         "phase, 3 rounds, 4 clients: about 15 minutes) into `results/`, and `covered_report.py` draws from "
         "there into this folder.", "",
         "`--quick` (200 records, one round, 1 s phases, about a minute) and `--smoke` (40 records of "
         "wiki-python, 0.5 s phases, seconds; checks that the script, the plans and the answers are right) "
         "write into a temporary directory and draw their own report there. `--help` lists the options "
         "(data sets, configurations, phases and their seconds, rounds, clients, record limit).", "",
         "## Setup", "",
         f"- Machine: {m.get('nproc')} CPUs ({m.get('cpu_model')}), "
         f"{(m.get('mem_total_bytes') or 0) / 2**30:.0f} GiB, shared with other people's builds and test "
         "runs: the load average and the busy cores of the whole machine are recorded around every "
         "measurement ('other cores' = machine busy − this server − the bench clients; it includes the "
         "two idle servers of the other configurations).",
         f"- mongod: a copy of `build/install/bin/mongod` (sha256 {r0['mongod']['sha256'][:12]}, built "
         f"{r0['mongod']['mtime']}), one per configuration: `--wiredTigerCollectionBlockCompressor snappy`; "
         "`--dedup` (snappy); `--dedup --wiredTigerCollectionBlockCompressor zstd`. The collection is created "
         "with `{dedup: true}` in the dedup configurations (as in `../dedup_server`).",
         f"- Data: `../shared/data/<name>.jsonl.zst`, records reduced to `{{_id, key, ts, body}}` "
         f"(`dedup_server/run_bench.py`'s loader). Loaded by {a['clients']} client processes at once "
         f"(process i inserts records i, i+{a['clients']}, … in file order with `insert_many` of "
         f"{a['load_batch']}, no pauses), then `serverStatus().dedup` polled until `pendingInserts` and "
         "`writeBacks.pending` are 0 and every record was examined; then index `{key: 1, ts: 1}`, fsync.",
         "- Checks before timing, on every server: each phase's plan with explain (executionStats) for the key "
         "with the most versions; every key's answers compared exactly with the data (covered: the (key, ts) "
         "pairs and no other field; fetched: the stored BSON byte for byte; counts; distinct ts). During the "
         "timed phases each answer's size is checked against the data too (wrong / errors columns in the JSON).",
         f"- Phases: {a['clients']} client processes (pymongo, one connection each, documents kept as raw BSON "
         "so the clients do not decode them), all starting at one instant and running flat out for the "
         "phase's seconds; each draws keys uniformly from the sorted distinct keys with its own seeded "
         "generator (seed, data set, phase, round, client), so every server of a round gets the same key "
         "sequence. Untimed warm-up of each phase on each server first. All three servers stay up during the "
         "rounds; in round r each phase runs on each configuration in turn, the order of the configurations "
         "rotated by one each round, so a slow spell of the machine does not always hit the same one.",
         "- Metrics: ops/s = Σ over clients of its operations / its elapsed time; latency = perf_counter "
         "around each whole operation (all getMores included), percentiles by nearest rank; server CPU = "
         "utime+stime of mongod from /proc over the phase, per operation and in cores; client CPU = the "
         "clients' process time; ops per CPU-second = operations / (server + client CPU seconds), the "
         "throughput per core the work would reach on a machine of its own, since the 2 cores are always "
         "busy and the raw ops/s follows the share other people's jobs leave; RSS = VmRSS after the phase.", "",
         "| phase | seconds | query |", "|---|---:|---|"]
    for ph, q in r0["phase_queries"].items():
        L.append(f"| {ph} | {a['phase_seconds'][ph]:g} | `{q}` |")
    L += ["", f"Rounds: {a['rounds']}; seed {a['seed']}; warm-up {a['warmup']:g} s per phase and server.", "",
          "## Figures", ""]
    for fname, title in FIGURES:
        L += [f"**{title}**", "", f"![{title}]({fname})", ""]
    L += ["## Results", ""]
    for r in results.values():
        L += dataset_section(r) + [""]
    notes = os.path.join(results_dir, "notes.md")
    if os.path.exists(notes):
        with open(notes) as f:
            L += ["## Discussion", "", f.read().strip(), ""]
    with open(os.path.join(out, "REPORT.md"), "w") as f:
        f.write("\n".join(L) + "\n")


def write_all(results_dir, out):
    os.makedirs(out, exist_ok=True)
    results = load_results(results_dir)
    if not results:
        raise SystemExit(f"no results in {results_dir}")
    draw(results, out)
    write_report(results, out, results_dir)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    ap.add_argument("--out", default=HERE)
    args = ap.parse_args()
    write_all(args.results, args.out)


if __name__ == "__main__":
    main()
