#!/usr/bin/env python3
"""REPORT.md and figures from run_repl_dedup.py's results.json.

    python buildscripts/bench/dedup_repl/report.py [--results DIR/results.json] [--out DIR]

Figures: fig1_wire_bytes.png (bytes between members per configuration and data set),
fig2_throughput.png (w: majority throughput and median latency), fig3_failover.png (ratio of
inserted to shipped bytes after a kill -9 of the primary, per window of inserts).
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG_ORDER = ["plain", "snappy", "zstd", "dedup", "dedup_zstd"]


def by_dataset(runs):
    out = {}
    for r in runs:
        out.setdefault(r["dataset"], {})[r["config"]] = r
    return out


def mb(x):
    return x / 1e6


def fig_bars(data, value, ylabel, title, path, log=False):
    """One bar per configuration for each data set: value(run)."""
    datasets = list(data)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.16
    for k, cfg in enumerate(CONFIG_ORDER):
        xs = [i + (k - 2) * width for i in range(len(datasets))]
        ax.bar(xs, [value(data[d][cfg]) if cfg in data[d] else 0 for d in datasets], width, label=cfg)
    if log:
        ax.set_yscale("log")
    ax.set_xticks(range(len(datasets)))
    ax.set_xticklabels(datasets)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_failover(dips, path):
    fig, ax = plt.subplots(figsize=(8, 4))
    for d in dips:
        xs = [w["inserts_since_failover"] for w in d["windows"]]
        ys = [w["ratio"] for w in d["windows"]]
        line, = ax.plot(xs, ys, marker="o", ms=3, label="%s after failover" % d["dataset"])
        ax.axhline(d["steady_ratio"], color=line.get_color(), ls="--", lw=1,
                   label="%s: before the failover" % d["dataset"])
    ax.set_xlabel("inserts since the primary was killed")
    ax.set_ylabel("inserted / shipped bytes (new primary)")
    ax.set_title("Compression after failover (no dip: the new primary's index is warm)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def report(res, out):
    data = by_dataset(res["runs"])
    lines = ["# dbDedup in replication: benchmark", "",
             "Written by `report.py` from `results.json` (`run_repl_dedup.py`, started %s, %s CPUs). Three members on"
             " this machine, every (configuration, data set) on a fresh set; %d clients insert batches of %d documents of"
             " the data set (file order, round robin) with w: \"majority\", as fast as the server takes them. Bytes between"
             " members are counted on the wire by a proxy in front of each member (heartbeats included); clients connect"
             " to the members directly." % (res["started"], res["machine"]["cpus"], res["clients"], res["batch"]), "",
             "Configurations: `plain` (no dedup, no network compression), `snappy` / `zstd` (network compression only),"
             " `dedup` (`--dedup`, no network compression), `dedup_zstd` (both).", ""]
    for ds, cfgs in data.items():
        plain = cfgs.get("plain")
        snappy = cfgs.get("snappy")
        any_run = next(iter(cfgs.values()))
        lines += ["## %s (%d documents, %.1f MB of BSON)" % (ds, any_run["docs"], mb(any_run["bytes"])), "",
                  "| config | load s | MB/s | p50 / p99 ms | lag max s | MB between members | x fewer than plain |"
                  " x fewer than snappy | replication ratio | storage ratio | oplog MB (size / on disk) |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for cfg in CONFIG_ORDER:
            r = cfgs.get(cfg)
            if not r:
                continue
            sent = (r.get("dedup_replication") or {}).get("sent") or {}
            rr = sent.get("ratio") if sent.get("sentBytes") else None
            lines.append("| %s | %.1f | %.1f | %.0f / %.0f | %.2f | %.2f | %s | %s | %s | %s | %.1f / %.1f |" % (
                cfg, r["seconds"], r["throughput_mb_s"], r["latency_ms"]["p50"], r["latency_ms"]["p99"], r["lag_max_s"],
                mb(r["wire_bytes"]),
                "%.1f" % (plain["wire_bytes"] / r["wire_bytes"]) if plain else "-",
                "%.1f" % (snappy["wire_bytes"] / r["wire_bytes"]) if snappy else "-",
                "%.2f" % rr if rr else "-",
                "%.2f" % r["dedup"]["ratio"] if r["dedup"].get("recordsExamined") else "-",
                mb(r["oplog"]["size"] or 0), mb(r["oplog"]["storageSize"] or 0)))
        if plain and "dedup" in cfgs:
            lines += ["", "w: majority throughput with `--dedup`: %.2f of `plain`." % (
                cfgs["dedup"]["throughput_mb_s"] / plain["throughput_mb_s"])]
        lines.append("")
    if res.get("dips"):
        lines += ["## After a failover", "",
                  "`--dedup` set: 60% of the data set loaded, the primary killed with SIGKILL, then up to 2,000 more"
                  " documents inserted on the new primary in windows of 100; each window's ratio of inserted to shipped"
                  " bytes (serverStatus().dedup.replication.sent on the new primary; one secondary left to fetch). The"
                  " steady ratio is that of the last (up to) 1,000 inserts before the failover.", "",
                  "| data set | election s | ratio before (inserts) | first 1,000 after (mean of windows) | first 100 after |",
                  "|---|---|---|---|---|"]
        for d in res["dips"]:
            w = d["windows"]
            first = w[:10]
            avg = sum(x["ratio"] for x in first) / len(first) if first else float("nan")
            lines.append("| %s | %.1f | %.2f (%d) | %.2f | %.2f |" % (
                d["dataset"], d["election_s"], d["steady_ratio"], d.get("steady_inserts", 1000), avg,
                w[0]["ratio"] if w else float("nan")))
        lines.append("")
    lines += ["![bytes between members](fig1_wire_bytes.png)", "", "![throughput](fig2_throughput.png)", ""]
    if res.get("dips"):
        lines += ["![failover](fig3_failover.png)", ""]
    with open(os.path.join(out, "REPORT.md"), "w") as f:
        f.write("\n".join(lines))
    fig_bars(data, lambda r: mb(r["wire_bytes"]), "MB sent between members (log)",
             "Replication traffic, 3 members, w: majority", os.path.join(out, "fig1_wire_bytes.png"), log=True)
    fig_bars(data, lambda r: r["throughput_mb_s"], "MB/s inserted (w: majority)", "Throughput at saturation",
             os.path.join(out, "fig2_throughput.png"))
    if res.get("dips"):
        fig_failover(res["dips"], os.path.join(out, "fig3_failover.png"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(HERE, "results.json"))
    ap.add_argument("--out", default=HERE)
    args = ap.parse_args()
    with open(args.results) as f:
        res = json.load(f)
    report(res, args.out)


if __name__ == "__main__":
    main()
