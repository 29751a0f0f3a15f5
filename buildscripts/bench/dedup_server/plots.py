#!/usr/bin/env python3
"""Draws the server benchmark's figures from results/*.json and writes REPORT.md (report.py).

  plots.py [--results DIR] [--out DIR]   (figures and REPORT.md go to --out, default: here)
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import report  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
COLORS = {"logical": "#999999", "snappy": "#4c72b0", "dedup_snappy": "#dd8452", "dedup_zstd": "#55a868"}


def grouped_bars(ax, datasets, series, values, log=False, hatch=None, alpha=1.0, labels=True):
    """values[(dataset, series)] -> number or None; one group per data set."""
    width = 0.8 / len(series)
    for i, s in enumerate(series):
        xs, ys = [], []
        for j, ds in enumerate(datasets):
            v = values.get((ds, s))
            if v is not None and (v > 0 or not log):
                xs.append(j - 0.4 + width * (i + 0.5))
                ys.append(v)
        ax.bar(xs, ys, width, color=COLORS.get(s), hatch=hatch, alpha=alpha, edgecolor="black",
               linewidth=0.4, label=report.CONFIG_NAMES.get(s, s) if labels else None)
    ax.set_xticks(range(len(datasets)))
    ax.set_xticklabels(datasets)
    if log:
        ax.set_yscale("log")
    ax.grid(axis="y", which="both", alpha=0.3)


def ok_runs(results):
    return {(ds, cfg): r for ds, runs in results.items() for cfg, r in runs.items() if report.ok(r)}


def fig_bytes(results, datasets, path):
    runs = ok_runs(results)
    vals = {k: r["on_disk"]["data_bytes"] for k, r in runs.items()}
    for (ds, _), r in runs.items():
        vals[(ds, "logical")] = r["logical_bytes"]
    fig, ax = plt.subplots(figsize=(9, 5))
    grouped_bars(ax, datasets, ["logical"] + report.CONFIGS, vals, log=True)
    for j, ds in enumerate(datasets):
        empty = [report.get(r, "on_disk_empty", "data_bytes") for (d, _), r in runs.items() if d == ds]
        empty = [e for e in empty if e]
        if empty:
            ax.hlines(min(empty), j - 0.45, j + 0.45, colors="black", linestyles="dashed", linewidth=1,
                      label="empty data directory" if j == 0 else None)
    ax.set_ylabel("bytes (log scale)")
    ax.set_title("Logical bytes and on-disk bytes after fsync (data files, journal excluded)")
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles, [("logical (BSON)" if lb == "logical" else lb) for lb in labels], fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_ratio(results, datasets, path):
    runs = ok_runs(results)
    vals = {k: r["ratio"] for k, r in runs.items()}
    fig, ax = plt.subplots(figsize=(9, 5))
    grouped_bars(ax, datasets, report.CONFIGS, vals, log=True)
    labelled = set()

    def once(label):
        if label in labelled:
            return None
        labelled.add(label)
        return label
    for j, ds in enumerate(datasets):
        ref = report.REFERENCE_RATIO.get(ds)
        if ref:
            ax.hlines(ref, j - 0.45, j + 0.45, colors="black", linestyles="solid", linewidth=1,
                      label=once("dedup_bench reference"))
            ax.hlines(ref * report.RATIO_FRACTION, j - 0.45, j + 0.45, colors="red", linestyles="dashed",
                      linewidth=1.2, label=once(f"target ({report.RATIO_FRACTION} x reference)"))
        snappy = vals.get((ds, "snappy"))
        if ds in report.VS_SNAPPY and snappy:
            ax.hlines(snappy * report.VS_SNAPPY[ds], j - 0.45, j + 0.45, colors="purple", linestyles="dotted",
                      linewidth=1.2, label=once(f"target ({report.VS_SNAPPY[ds]:.0f} x snappy's ratio)"))
    for (ds, cfg), v in vals.items():
        if ds in datasets and cfg in report.CONFIGS:
            x = datasets.index(ds) - 0.4 + 0.8 / 3 * (report.CONFIGS.index(cfg) + 0.5)
            ax.text(x, v, report.ratio_fmt(v), ha="center", va="bottom", fontsize=7)
    ax.set_ylabel("logical / on-disk bytes (log scale)")
    ax.set_title("Compression ratio per data set and configuration")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_throughput(results, datasets, path):
    runs = ok_runs(results)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, field, label in ((axes[0], "docs_per_s", "documents / s"), (axes[1], "mb_per_s", "logical MB / s")):
        vals = {k: r["insert"][field] for k, r in runs.items()}
        grouped_bars(ax, datasets, report.CONFIGS, vals)
        ax.set_ylabel(label)
        ax.tick_params(axis="x", labelsize=8)
    axes[0].legend(fontsize=8)
    fig.suptitle("Insert throughput (one insert_one per document, file order)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_latency(results, datasets, path):
    runs = ok_runs(results)
    parts = [("inserts", ("insert", "latency")), ("latest-version reads", ("reads", "latest")),
             ("old-version reads", ("reads", "old"))]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8), sharey=True)
    for ax, (title, path_) in zip(axes, parts):
        p99 = {k: report.get(r, *path_, "p99_us") for k, r in runs.items()}
        p50 = {k: report.get(r, *path_, "p50_us") for k, r in runs.items()}
        grouped_bars(ax, datasets, report.CONFIGS, p99, log=True, alpha=0.45, hatch="//", labels=False)
        grouped_bars(ax, datasets, report.CONFIGS, p50, log=True)
        ax.set_title(title)
        ax.tick_params(axis="x", labelsize=8)
    axes[0].set_ylabel("µs (log scale): solid p50, hatched p99")
    axes[0].legend(fontsize=8)
    fig.suptitle("Latency seen by pymongo over loopback")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    ap.add_argument("--out", default=HERE)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    results = report.load_results(args.results)
    if not results:
        raise SystemExit(f"no results in {args.results}: run run_bench.py first")
    datasets = report.ordered(results)
    draw = [fig_bytes, fig_ratio, fig_throughput, fig_latency]
    for (fname, _), fn in zip(report.FIGURES, draw):
        fn(results, datasets, os.path.join(args.out, fname))
        print(f"wrote {os.path.join(args.out, fname)}")
    out = os.path.join(args.out, "REPORT.md")
    with open(out, "w") as f:
        f.write(report.render(args.results, args.out))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
