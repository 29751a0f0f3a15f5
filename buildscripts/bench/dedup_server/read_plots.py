"""Figures of the read benchmark's report (called by read_report.py; reads only the result):
  <prefix>_throughput_<dataset>.png  per phase: reads/s (documents/s for scans) per server,
                                     median over repetitions with min..max bars, ratio to snappy
  <prefix>_p99_<dataset>.png         p99 latency per server: point reads by _id and by k, the
                                     mixed phase's finds and updates (median, min..max bars)
  <prefix>_deltas_<dataset>.png      deltas applied per read (serverStatus().dedup.reads
                                     .deltasPerRead during each phase), when the build reports it
make_all() returns the names of the files it wrote.
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from read_report import (BUCKETS, CONFIG_NAMES, DEDUP_CONFIGS, GET, MAIN_METRIC, PHASE_NAMES,  # noqa: E402
                         aggregate, configs_of, histogram, phases_of)

COLORS = {"snappy": "tab:gray", "zstd": "tab:brown", "dedup": "tab:blue", "dedup_zstd": "tab:green"}


def _bars(ax, entry, cfgs, ph, key, ratio_labels):
    xs, meds, lo, hi = [], [], [], []
    for i, cfg in enumerate(cfgs):
        s = aggregate(entry, cfg, ph, key)
        v = s["value"]
        if not v:
            continue
        xs.append(i)
        meds.append(v["median"])
        lo.append(v["median"] - v["min"])
        hi.append(v["max"] - v["median"])
        ax.bar(i, v["median"], color=COLORS[cfg], width=0.7)
        r = s["ratio"]
        if ratio_labels and r and cfg != "snappy":
            ax.annotate(f"{r['median']:.2f}×", (i, v["max"]), ha="center", va="bottom", fontsize=7,
                        xytext=(0, 2), textcoords="offset points")
    if xs:
        ax.errorbar(xs, meds, yerr=[lo, hi], fmt="none", ecolor="black", capsize=3, lw=1)
    ax.set_xticks(range(len(cfgs)))
    ax.set_xticklabels([CONFIG_NAMES[c].replace(" (default compressor)", "\n(default)").replace(", ", "\n")
                        for c in cfgs], fontsize=7)
    ax.grid(True, axis="y", alpha=0.25)
    ax.margins(y=0.12)


def throughput_figure(result, ds, entry, path):
    cfgs, phases = configs_of(result), phases_of(result)
    fig, axes = plt.subplots(1, len(phases), figsize=(3.6 * len(phases), 3.6), squeeze=False)
    for ax, ph in zip(axes[0], phases):
        key = MAIN_METRIC[ph]
        _bars(ax, entry, cfgs, ph, key, True)
        ax.set_title(PHASE_NAMES[ph], fontsize=9)
        ax.set_ylabel(GET[key][0])
    fig.suptitle(f"{ds}: throughput at saturation, median over repetitions (bars: min..max; label: "
                 f"ratio to snappy of the same repetition, median)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def p99_figure(result, ds, entry, path):
    cfgs, phases = configs_of(result), phases_of(result)
    panels = [(ph, "p99_ms") for ph in ("id", "k") if ph in phases]
    if "mixed" in phases:
        panels += [("mixed", "find_p99_ms"), ("mixed", "update_p99_ms")]
    if not panels:
        return False
    fig, axes = plt.subplots(1, len(panels), figsize=(3.4 * len(panels), 3.6), squeeze=False)
    for ax, (ph, key) in zip(axes[0], panels):
        _bars(ax, entry, cfgs, ph, key, True)
        ax.set_title(f"{PHASE_NAMES[ph]}" if ph != "mixed" else f"mixed: {GET[key][0].split()[0]}", fontsize=9)
        ax.set_ylabel("p99 latency, ms")
    fig.suptitle(f"{ds}: p99 latency of one operation (client round trip), median over repetitions "
                 "(bars: min..max; label: ratio to snappy)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def deltas_figure(result, ds, entry, path):
    cfgs = [c for c in configs_of(result) if c in DEDUP_CONFIGS]
    phases = phases_of(result)
    hs = {(c, ph): histogram(result, entry, c, ph) for c in cfgs for ph in phases}
    cfgs = [c for c in cfgs if any(hs[(c, ph)] for ph in phases)]
    if not cfgs:
        return False
    fig, axes = plt.subplots(1, len(cfgs), figsize=(5.5 * len(cfgs), 3.6), squeeze=False, sharey=True)
    w = 0.8 / len(phases)
    for ax, cfg in zip(axes[0], cfgs):
        for j, ph in enumerate(phases):
            h = hs[(cfg, ph)]
            if not h:
                continue
            tot = sum(v or 0 for v in h.values()) or 1
            ax.bar([i + (j - (len(phases) - 1) / 2) * w for i in range(len(BUCKETS))],
                   [(h[b] or 0) / tot for b in BUCKETS], width=w, label=ph)
        ax.set_xticks(range(len(BUCKETS)))
        ax.set_xticklabels(BUCKETS)
        ax.set_yscale("log")  # most reads need no delta; the tail is what matters
        ax.set_xlabel("deltas applied to serve one read")
        ax.set_title(CONFIG_NAMES[cfg], fontsize=9)
        ax.grid(True, axis="y", alpha=0.25)
        ax.legend(fontsize=7, title="phase", title_fontsize=7)
    axes[0][0].set_ylabel("share of the phase's reads (log)")
    fig.suptitle(f"{ds}: serverStatus().dedup.reads.deltasPerRead during each phase (all repetitions)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def make_all(result, out_dir, prefix):
    os.makedirs(out_dir, exist_ok=True)
    made = set()
    for ds, entry in (result.get("datasets") or {}).items():
        if not any("phases" in r for r in entry.get("runs", [])):
            continue
        name = f"{prefix}_throughput_{ds}.png"
        throughput_figure(result, ds, entry, os.path.join(out_dir, name))
        made.add(name)
        for kind, fn in (("p99", p99_figure), ("deltas", deltas_figure)):
            name = f"{prefix}_{kind}_{ds}.png"
            if fn(result, ds, entry, os.path.join(out_dir, name)):
                made.add(name)
    return made
