"""Figures of the saturation report (called by sat_report.py; reads only the result records):
  sat_bytes_<dataset>.png  on-disk bytes (st_blocks*512 and st_size) and logical bytes against
                           time, one panel per client count x server, with the size the
                           0.8 x dedup_bench target allows and the end of the load
  sat_rss_<dataset>.png    mongod RSS and the dedup backlog against time
  sat_mixed_<config>.png   RSS, WiredTiger cache, dedup memory and operations/s of the mixed load
  sat_startup.png          time to first ping and to dedup ready against records
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sat_report import (AFTER_LOAD_S, CONFIG_NAMES, CONFIG_ORDER, RATIO_AFTER, by_key, dedup_pending,  # noqa: E402
                        ok, ref_ratio)

COLORS = {"snappy": "tab:gray", "dedup_snappy": "tab:blue", "dedup_zstd": "tab:green"}


def _series(S, key):
    pts = [(s["t"], s.get(key)) for s in S if s.get(key) is not None]
    return [p[0] for p in pts], [p[1] for p in pts]


def bytes_figure(ds, groups, out_dir):
    clients = sorted(c for d, c in groups if d == ds)
    cfgs = [c for c in CONFIG_ORDER if any(c in groups[(ds, k)] for k in clients)]
    if not clients or not cfgs:
        return
    fig, axes = plt.subplots(len(clients), len(cfgs), figsize=(4.6 * len(cfgs), 3.2 * len(clients)),
                             squeeze=False, sharey=True)
    for i, c in enumerate(clients):
        for j, cfg in enumerate(cfgs):
            ax = axes[i][j]
            rs = [r for r in groups[(ds, c)].get(cfg, []) if ok(r)]
            ax.set_title(f"{CONFIG_NAMES[cfg]}, {c} client{'s' if c > 1 else ''}", fontsize=9)
            if not rs:
                ax.text(0.5, 0.5, "no result", ha="center", transform=ax.transAxes)
                continue
            r = rs[0]
            S = [s for s in r.get("samples") or [] if "data_allocated_bytes" in s]
            t, y = _series(S, "logical_bytes")
            ax.plot(t, [v / 1e6 for v in y], color="black", lw=1.2, label="logical (acknowledged)")
            t, y = _series(S, "data_allocated_bytes")
            ax.plot(t, [v / 1e6 for v in y], color=COLORS[cfg], lw=1.8, label="on disk, st_blocks×512")
            t, y = _series(S, "data_bytes")
            ax.plot(t, [v / 1e6 for v in y], color=COLORS[cfg], lw=1, ls="--", label="on disk, st_size")
            ref = ref_ratio(r)
            if ref:
                t, y = _series(S, "logical_bytes")
                ax.plot(t, [v / (RATIO_AFTER * ref) / 1e6 for v in y], color="tab:red", lw=0.8, ls=":",
                        label=f"logical / ({RATIO_AFTER} × dedup_bench {ref:.0f}x)")
            end = r.get("load_end_s")
            if end is not None:
                ax.axvline(end, color="tab:orange", lw=0.8)
                last = S[-1]["t"] if S else end
                ax.axvspan(end, min(end + AFTER_LOAD_S, last), color="tab:orange", alpha=0.08)
            ax.set_yscale("log")
            ax.grid(True, which="both", alpha=0.25)
            if i == len(clients) - 1:
                ax.set_xlabel("seconds since the load started")
            if j == 0:
                ax.set_ylabel("MB")
            if i == 0 and j == len(cfgs) - 1:
                ax.legend(fontsize=7, loc="lower right")
    fig.suptitle(f"{ds}: data-directory bytes during and after a saturating load "
                 f"(orange: load end and the next {AFTER_LOAD_S:.0f} s)", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, f"sat_bytes_{ds}.png"), dpi=90)
    plt.close(fig)


def rss_figure(ds, groups, out_dir):
    clients = sorted(c for d, c in groups if d == ds)
    if not clients:
        return
    fig, axes = plt.subplots(2, len(clients), figsize=(4.6 * len(clients), 6), squeeze=False)
    for j, c in enumerate(clients):
        for cfg in CONFIG_ORDER:
            for r in [r for r in groups[(ds, c)].get(cfg, []) if ok(r)][:1]:
                S = r.get("samples") or []
                t, y = _series(S, "rss_bytes")
                axes[0][j].plot(t, [v / 2**20 for v in y], color=COLORS[cfg], label=CONFIG_NAMES[cfg])
                pts = [(s["t"], dedup_pending(s)) for s in S if dedup_pending(s) is not None]
                if pts and cfg != "snappy":
                    axes[1][j].plot([p[0] for p in pts], [p[1] for p in pts], color=COLORS[cfg],
                                    label=CONFIG_NAMES[cfg])
                if r.get("load_end_s") is not None:
                    for a in (axes[0][j], axes[1][j]):
                        a.axvline(r["load_end_s"], color=COLORS[cfg], lw=0.6, ls=":")
        axes[0][j].set_title(f"{c} client{'s' if c > 1 else ''}: mongod RSS", fontsize=9)
        axes[0][j].set_ylabel("MiB")
        axes[1][j].set_title("dedup backlog: pendingInserts + writeBacks.pending", fontsize=9)
        axes[1][j].set_xlabel("seconds since the load started (dotted: load end)")
        for a in axes[:, j]:
            a.grid(True, alpha=0.25)
        axes[0][j].legend(fontsize=7)
    fig.suptitle(f"{ds}: memory and dedup backlog", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, f"sat_rss_{ds}.png"), dpi=90)
    plt.close(fig)


def mixed_figure(r, out_dir):
    S = r.get("samples") or []
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    t, y = _series(S, "rss_bytes")
    ax.plot(t, [v / 2**20 for v in y], color="black", label="mongod RSS")
    t, y = _series(S, "wt_cache_bytes")
    ax.plot(t, [v / 2**20 for v in y], color="tab:blue", label="WiredTiger cache in use")
    pts = [(s["t"], (s.get("dedup") or {}).get("memoryBytes")) for s in S]
    pts = [p for p in pts if p[1] is not None]
    if pts:
        ax.plot([p[0] for p in pts], [p[1] / 2**20 for p in pts], color="tab:green", label="dedup memoryBytes")
    for k in ("load_start_s", "load_end_s"):
        if r.get(k) is not None:
            ax.axvline(r[k], color="tab:orange", lw=0.8)
            ax2.axvline(r[k], color="tab:orange", lw=0.8)
    ax.set_ylabel("MiB")
    ax.grid(True, alpha=0.25)
    ax.legend(fontsize=8)
    keys = list((S[-1].get("ops") or {}).keys()) if S else []
    for k in keys:
        xs, ys = [], []
        last = None
        for s in S:
            if "ops" not in s:
                continue
            if last is not None and s["t"] > last[0]:
                xs.append(s["t"])
                ys.append((s["ops"][k] - last[1]) / (s["t"] - last[0]))
            last = (s["t"], s["ops"][k])
        ax2.plot(xs, ys, lw=0.8, label=k)
    ax2.set_ylabel("operations / s")
    ax2.set_xlabel("seconds since the server started (orange: mixed load start and end)")
    ax2.grid(True, alpha=0.25)
    ax2.legend(fontsize=8, ncol=5)
    fig.suptitle(f"Mixed load, {CONFIG_NAMES.get(r['config'])}, {r['clients']} clients", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, f"sat_mixed_{r['config']}.png"), dpi=90)
    plt.close(fig)


def startup_figure(runs, out_dir):
    runs = [r for r in runs if "error" not in r]
    if not runs:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for cfg in CONFIG_ORDER:
        rs = sorted((r for r in runs if r["config"] == cfg), key=lambda r: r["records"])
        if not rs:
            continue
        x = [r["records"] for r in rs]
        ax.plot(x, [r["restart"]["ping_s"] for r in rs], "o-", color=COLORS[cfg],
                label=f"{CONFIG_NAMES[cfg]}: first ping")
        rd = [(r["records"], r["restart"]["ready_s"] if r["restart"]["ready_s"] is not None
               else r["restart"]["rebuild_idle_s"]) for r in rs]
        rd = [p for p in rd if p[1] is not None]
        if rd:
            ax.plot([p[0] for p in rd], [p[1] for p in rd], "s--", color=COLORS[cfg],
                    label=f"{CONFIG_NAMES[cfg]}: dedup ready (or collectionsBeingRebuilt 0)")
    xs = sorted({r["records"] for r in runs})
    ax.plot(xs, [x / 200_000 for x in xs], color="tab:red", lw=0.8, ls=":", label="target: 1 s per 200k records")
    ax.axhline(1.0, color="tab:red", lw=0.6)
    ax.set_xlabel("records")
    ax.set_ylabel("seconds after the process started")
    ax.grid(True, alpha=0.25)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "sat_startup.png"), dpi=90)
    plt.close(fig)


def make_all(data, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    groups = by_key(data["load"])
    for ds in sorted({d for d, _ in groups}):
        bytes_figure(ds, groups, out_dir)
        rss_figure(ds, groups, out_dir)
    for r in data["mixed"]:
        if "error" not in r:
            mixed_figure(r, out_dir)
    startup_figure(data["startup"], out_dir)
