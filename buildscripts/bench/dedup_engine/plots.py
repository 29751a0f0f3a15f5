#!/usr/bin/env python3
"""Draws the parameter-sweep figures of REPORT.md from results/*.json (run_sweeps.py) and
prints the report's tables as Markdown.

  plots.py [--results DIR] [--out DIR] [--tables-only]

Figures (PNG, in --out): fig10_chunk_size.png, fig6_10_sketch_size.png,
fig15_anchor_interval.png, fig14_hop_distance.png.
"""
import argparse
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATASETS = ["wiki-python", "peps-history", "se-posthistory", "email-ham"]
TARGETS = {"wiki-python": 357, "peps-history": 34.5, "se-posthistory": 5.5, "email-ham": 3.7}


def load(results):
    r = {}
    for p in glob.glob(os.path.join(results, "*.json")):
        r[os.path.basename(p)[:-5]] = json.load(open(p))
    return r


def fig10(r, out, plt):
    fig, axes = plt.subplots(2, 4, figsize=(16, 7))
    for i, ds in enumerate(DATASETS):
        ax, axm = axes[0][i], axes[1][i]
        labels, alone, withz, mem = [], [], [], []
        for mode, cs in [("dbdedup", 1024), ("dbdedup", 64), ("trad", 4096), ("trad", 64)]:
            k = f"fig10.{ds}.{mode}.{cs}"
            if k not in r:
                continue
            d = r[k]
            labels.append(f"{'dbDedup' if mode == 'dbdedup' else 'trad'}\n{cs} B")
            alone.append(d["ratio"])
            withz.append(d["ratio_zstd"])
            mem.append(d["index_bytes"] / 1e6)
        none = r.get(f"main.{ds}.none")
        if none:
            labels.append("zstd\nonly")
            alone.append(1.0)
            withz.append(none["ratio_zstd"])
            mem.append(0)
        x = range(len(labels))
        ax.bar([j - 0.2 for j in x], alone, 0.4, label="dedup alone", color="#d77")
        ax.bar([j + 0.2 for j in x], withz, 0.4, label="+ zstd per record", color="#a33")
        ax.set_xticks(list(x))
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_title(ds)
        ax.set_yscale("log")
        if i == 0:
            ax.set_ylabel("compression ratio (log)")
            ax.legend(fontsize=8)
        axm.bar(list(x), mem, 0.5, color="#37a")
        axm.set_xticks(list(x))
        axm.set_xticklabels(labels, fontsize=8)
        if i == 0:
            axm.set_ylabel("index memory (MB)")
    fig.suptitle("Fig. 10 analogue: compression ratio and index memory, dbDedup vs trad-dedup")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig10_chunk_size.png"), dpi=110)


def fig_sketch(r, out, plt):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for cs in [64, 1024, 4096]:
        ks, ys = [], []
        for k in [1, 2, 4, 8, 16, 32]:
            d = r.get(f"sketch.wiki-python.c{cs}.k{k}")
            if d:
                ks.append(k)
                ys.append(d["ratio"])
        ax.plot(ks, ys, marker="o", label=f"chunk {cs} B")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("sketch size K (features per record)")
    ax.set_ylabel("compression ratio (dedup alone)")
    ax.set_title("Fig. 6.10 analogue: sketch size, wiki-python (hop, H=16)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig6_10_sketch_size.png"), dpi=110)


def fig_anchor(r, out, plt):
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    ax2 = ax.twinx()
    xs = [8, 16, 32, 64, 128, 256]
    for ds, style in [("wiki-python", "-"), ("peps-history", "--")]:
        ratio, speed, xx = [], [], []
        for a in xs:
            d = r.get(f"anchor.codec.{ds}.a{a}")
            if d:
                xx.append(a)
                ratio.append(1.0 / d["codec"]["delta_ratio"])
                speed.append(d["codec"]["encode_mb_per_s"])
        ax.plot(xx, ratio, "o" + style, color="#a33", label=f"{ds}: compression (target/delta)")
        ax2.plot(xx, speed, "s" + style, color="#37a", label=f"{ds}: encode MB/s")
        nr, ns, nx = [], [], []
        for a in xs:
            d = r.get(f"anchor.codec.{ds}.a{a}.nogap")
            if d:
                nx.append(a)
                nr.append(1.0 / d["codec"]["delta_ratio"])
                ns.append(d["codec"]["encode_mb_per_s"])
        ax.plot(nx, nr, "^" + style, color="#e99", label=f"{ds}: Algorithm 1 only")
        ax2.plot(nx, ns, "v" + style, color="#8ad", label=f"{ds}: Algorithm 1 only, MB/s")
        x = r.get(f"xdelta.{ds}")
        if x:
            ax.axhline(1.0 / x["xdelta3_9_ratio"], color="#a33", linestyle=":", alpha=0.6)
            ax.text(xs[-1], 1.0 / x["xdelta3_9_ratio"], f" xdelta3 -9 ({ds.split('-')[0]}, sampled pairs)",
                    fontsize=7, va="bottom", ha="right")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("anchor interval (bytes)")
    ax.set_ylabel("delta compression ratio (target bytes / delta bytes)", color="#a33")
    ax2.set_ylabel("encode throughput, MB/s per core (CPU time)", color="#37a")
    ax.set_title("Fig. 15 analogue: anchor interval (codec on consecutive versions)")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="center left")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig15_anchor_interval.png"), dpi=110)


def fig_hop(r, out, plt):
    base = r.get("hop.wiki-python.backward")
    if not base:
        return
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.3))
    hs = [2, 4, 8, 16, 32, 64]
    for scheme, color in [("hop", "#a33"), ("bounded-hop", "#37a"), ("version-jumping", "#777")]:
        xx, norm, worst, wb = [], [], [], []
        for h in hs:
            d = r.get(f"hop.wiki-python.{scheme}.h{h}")
            if not d:
                continue
            xx.append(h)
            norm.append(d["ratio"] / base["ratio"])
            worst.append(d["worst_decode_chain"])
            wb.append(d["write_backs"]["applied"])
        axes[0].plot(xx, norm, marker="o", color=color, label=scheme)
        axes[1].plot(xx, worst, marker="o", color=color, label=scheme)
        axes[2].plot(xx, wb, marker="o", color=color, label=scheme)
    bound = [h + __import__("math").floor(__import__("math").log(1000, h) + 1e-9) for h in hs]
    axes[1].plot(hs, bound, linestyle=":", color="black", label="H + floor(log_H N), N=1000")
    axes[1].axhline(base["worst_decode_chain"], color="#3a3", linestyle="--",
                    label=f"backward: {base['worst_decode_chain']}")
    axes[2].axhline(base["write_backs"]["applied"], color="#3a3", linestyle="--", label="backward")
    axes[0].set_ylabel("compression ratio / backward encoding's")
    axes[1].set_ylabel("worst decode steps (from storage)")
    axes[1].set_yscale("log")
    axes[2].set_ylabel("write-backs applied")
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("hop distance H (cluster size for version jumping)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Fig. 14 analogue: hop encoding vs version jumping, wiki-python (1,000 versions)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig14_hop_distance.png"), dpi=110)


def tables(r):
    print("### Compression ratios (logical bytes / stored bytes)\n")
    print("| data set | config | dedup | + snappy | + zstd | + zstd paged | oplog | worst decode | index B/rec | insert MB/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    cfgs = [("none", "no dedup"), ("default", "engine defaults (bounded-hop, K=8, size filter)"),
            ("bounded-hop.nofilter", "bounded-hop, no filter"),
            ("bounded-hop.nofilter.k16", "bounded-hop, no filter, K=16"),
            ("hop.nofilter", "hop (paper), no filter"),
            ("backward.nofilter", "backward, no filter"),
            ("backward.nofilter.k16", "backward, no filter, K=16"),
            ("backward.nofilter.compressed", "backward, no filter, compressed deltas"),
            ("backward.nofilter.nogap", "backward, no filter, Algorithm 1 only (no gap search)"),
            ("version-jumping.nofilter", "version jumping, no filter")]
    for ds in DATASETS:
        for key, label in cfgs:
            d = r.get(f"main.{ds}.{key}")
            if not d:
                continue
            print(f"| {ds} | {label} | {d['ratio']:.2f} | {d['ratio_snappy']:.2f} | {d['ratio_zstd']:.2f} | "
                  f"{d['paged']['ratio_zstd']:.2f} | {d['oplog_ratio']:.2f} | {d.get('worst_decode_chain', 0)} | "
                  f"{d['index_bytes_per_record']:.1f} | {d.get('insert_mb_per_s', 0):.0f} |")
        for cs in [4096, 64]:
            d = r.get(f"fig10.{ds}.trad.{cs}")
            if d:
                print(f"| {ds} | trad-dedup {cs} B | {d['ratio']:.2f} | {d['ratio_snappy']:.2f} | {d['ratio_zstd']:.2f} | "
                      f"{d['paged']['ratio_zstd']:.2f} | {d['oplog_ratio']:.2f} | 0 | {d['index_bytes_per_record']:.1f} | "
                      f"{d.get('insert_mb_per_s', 0):.0f} |")
    print("\n### Delta codec alone (consecutive versions of each key; CPU-time throughput)\n")
    print("| data set | pairs | delta / target, plain | compressed bodies | Algorithm 1 only | encode MB/s | encode MB/s (Alg. 1 only) | decode MB/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for ds in DATASETS:
        c = r.get(f"main.{ds}.codec")
        cz = r.get(f"main.{ds}.codec.compressed")
        cn = r.get(f"anchor.codec.{ds}.a64.nogap")
        if not c:
            continue
        print(f"| {ds} | {c['codec']['pairs']} | {c['codec']['delta_ratio']:.4f} | "
              f"{cz['codec']['delta_ratio'] if cz else 0:.4f} | {cn['codec']['delta_ratio'] if cn else float('nan'):.4f} | "
              f"{c['codec']['encode_mb_per_s']:.0f} | {cn['codec']['encode_mb_per_s'] if cn else float('nan'):.0f} | "
              f"{c['codec']['decode_mb_per_s']:.0f} |")
    print("\n### Against xdelta3 on the same sampled revision pairs (delta bytes / target bytes)\n")
    print("| data set | pairs | ours, plain | ours, compressed bodies | xdelta3 -9 | xdelta3 -9 -S none |")
    print("|---|---:|---:|---:|---:|---:|")
    for ds in ["wiki-python", "peps-history"]:
        x = r.get(f"xdelta.{ds}")
        if x:
            print(f"| {ds} | {x['pairs']} | {x['ours_plain_ratio']:.4f} | {x['ours_compressed_ratio']:.4f} | "
                  f"{x['xdelta3_9_ratio']:.4f} | {x['xdelta3_9_nosecondary_ratio']:.4f} |")
    print("\n### Baselines (zstd level 3)\n")
    print("| data set | zstd per record | snappy per record | (a) prev. version of key as dict | (b) most similar earlier record as dict | target (dedup + zstd) |")
    print("|---|---:|---:|---:|---:|---:|")
    for ds in DATASETS:
        d = r.get(f"main.{ds}.none")
        if d and "baselines" in d:
            b = d["baselines"]
            print(f"| {ds} | {b['zstd_per_record']['ratio']:.2f} | {b['snappy_per_record']['ratio']:.2f} | "
                  f"{b['zstd_prev_key_dict']['ratio']:.2f} | {b['zstd_similar_dict']['ratio']:.2f} | {TARGETS[ds]} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", default=os.path.join(HERE, "results"))
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--tables-only", action="store_true")
    a = ap.parse_args()
    r = load(a.results)
    if not a.tables_only:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig10(r, a.out, plt)
        fig_sketch(r, a.out, plt)
        fig_anchor(r, a.out, plt)
        fig_hop(r, a.out, plt)
    tables(r)


if __name__ == "__main__":
    main()
