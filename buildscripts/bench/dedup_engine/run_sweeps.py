#!/usr/bin/env python3
"""Runs the dedup engine benchmarks behind REPORT.md, one at a time, at low priority.

Every run is one dedup_bench invocation whose JSON output is saved as results/<name>.json;
runs whose result already exists are skipped, so the script can be interrupted and resumed.

  run_sweeps.py [--bench PATH] [--data DIR] [--out DIR] [--groups main,fig10,...] [--force]

Groups: main (every mode/scheme per data set, with the zstd baselines), fig10 (chunk size,
dbDedup vs trad-dedup), sketch (K x chunk size, wiki), anchor (anchor interval, wiki, plus
the codec alone), hop (hop distance x scheme, wiki), xdelta (our codec vs xdelta3 -9 on the
same revision pairs).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DATASETS = ["wiki-python", "peps-history", "se-posthistory", "email-ham"]


def runs(groups):
    out = []
    def add(group, name, ds, *args):
        if group in groups:
            out.append((name, ds, list(args)))
    for ds in DATASETS:
        add("main", f"main.{ds}.none", ds, "--mode", "none")  # carries the baselines
        add("main", f"main.{ds}.default", ds, "--no-baselines")  # engine defaults
        for scheme in ["bounded-hop", "hop", "backward"]:
            add("main", f"main.{ds}.{scheme}.nofilter", ds, "--scheme", scheme, "--no-size-filter",
                "--no-baselines")
        add("main", f"main.{ds}.version-jumping.nofilter", ds, "--mode", "version-jumping",
            "--no-size-filter", "--no-baselines")
        add("main", f"main.{ds}.backward.nofilter.k16", ds, "--scheme", "backward",
            "--no-size-filter", "--sketch", "16", "--no-baselines")
        add("main", f"main.{ds}.bounded-hop.nofilter.k16", ds, "--scheme", "bounded-hop",
            "--no-size-filter", "--sketch", "16", "--no-baselines")
        add("main", f"main.{ds}.backward.nofilter.nogap", ds, "--scheme", "backward",
            "--no-size-filter", "--no-gap-search", "--no-baselines")
        add("main", f"main.{ds}.codec", ds, "--mode", "codec")
        add("main", f"main.{ds}.codec.compressed", ds, "--mode", "codec", "--compress-deltas")
        add("main", f"main.{ds}.backward.nofilter.compressed", ds, "--scheme", "backward",
            "--no-size-filter", "--compress-deltas", "--no-baselines")
        for cs in [64, 256, 1024, 4096]:
            add("fig10", f"fig10.{ds}.dbdedup.{cs}", ds, "--scheme", "hop", "--chunk-size", str(cs),
                "--no-baselines")
            add("fig10", f"fig10.{ds}.trad.{cs}", ds, "--mode", "trad", "--chunk-size", str(cs),
                "--no-baselines")
    for cs in [64, 1024, 4096]:
        for k in [1, 2, 4, 8, 16, 32]:
            add("sketch", f"sketch.wiki-python.c{cs}.k{k}", "wiki-python", "--scheme", "hop",
                "--chunk-size", str(cs), "--sketch", str(k), "--no-baselines", "--no-size-filter")
    for a in [8, 16, 32, 64, 128, 256]:
        add("anchor", f"anchor.wiki-python.a{a}", "wiki-python", "--scheme", "hop",
            "--anchor-interval", str(a), "--no-baselines", "--no-size-filter")
        for ds in ["wiki-python", "peps-history"]:
            add("anchor", f"anchor.codec.{ds}.a{a}", ds, "--mode", "codec", "--anchor-interval", str(a))
            add("anchor", f"anchor.codec.{ds}.a{a}.nogap", ds, "--mode", "codec", "--anchor-interval",
                str(a), "--no-gap-search")
    for h in [2, 4, 8, 16, 32, 64]:
        for scheme in ["hop", "bounded-hop", "version-jumping"]:
            add("hop", f"hop.wiki-python.{scheme}.h{h}", "wiki-python", "--scheme", scheme,
                "--hop-distance", str(h), "--no-baselines", "--no-size-filter")
    add("hop", "hop.wiki-python.backward", "wiki-python", "--scheme", "backward",
        "--no-baselines", "--no-size-filter")
    return out


def run_bench(bench, data, ds, args):
    cmd = ["nice", "-n", "10", bench, "--input", os.path.join(data, ds + ".jsonl.zst"),
           "--label", ds] + args
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    res = json.loads(p.stdout)
    res["command"] = " ".join(cmd[3:])
    res["wall_s"] = time.time() - t0
    return res


def xdelta_compare(bench, data, out_dir, force):
    """Our codec (plain and compressed bodies) and xdelta3 -9 (default and -S none) on the same
    sampled revision pairs."""
    for ds in ["wiki-python", "peps-history"]:
        path = os.path.join(out_dir, f"xdelta.{ds}.json")
        if os.path.exists(path) and not force:
            continue
        every = "10" if ds == "wiki-python" else "50"
        sizes = {}
        with tempfile.TemporaryDirectory() as tmp:
            for variant, extra in [("ours_plain", []), ("ours_compressed", ["--compress-deltas"])]:
                d = os.path.join(tmp, variant)
                os.makedirs(d)
                run_bench(bench, data, ds, ["--mode", "codec", "--dump-pairs", d, "--dump-every", every] + extra)
                sizes[variant] = [line.rstrip("\n").split("\t") for line in open(os.path.join(d, "pairs.tsv"))]
            xd = xdn = tgt = 0
            t_xd = 0.0
            for base, tsize, _ in sizes["ours_plain"]:
                tgt += int(tsize)
                t0 = time.time()
                xd += len(subprocess.run(["nice", "-n", "10", "xdelta3", "-9", "-e", "-c", "-s",
                                          base + ".src", base + ".tgt"],
                                         capture_output=True, check=True).stdout)
                t_xd += time.time() - t0
                xdn += len(subprocess.run(["nice", "-n", "10", "xdelta3", "-9", "-S", "none", "-e",
                                           "-c", "-s", base + ".src", base + ".tgt"],
                                          capture_output=True, check=True).stdout)
        plain = sum(int(x[2]) for x in sizes["ours_plain"])
        packed = sum(int(x[2]) for x in sizes["ours_compressed"])
        res = {"dataset": ds, "pairs": len(sizes["ours_plain"]), "target_bytes": tgt,
               "ours_plain_bytes": plain, "ours_compressed_bytes": packed,
               "xdelta3_9_bytes": xd, "xdelta3_9_nosecondary_bytes": xdn,
               "ours_plain_ratio": plain / tgt, "ours_compressed_ratio": packed / tgt,
               "xdelta3_9_ratio": xd / tgt, "xdelta3_9_nosecondary_ratio": xdn / tgt,
               "xdelta3_wall_mb_per_s_incl_process_start": tgt / t_xd / 1e6}
        json.dump(res, open(path, "w"), indent=1)
        print(f"xdelta {ds}: ours plain {plain} compressed {packed} xdelta3-9 {xd} "
              f"xdelta3-9-Snone {xdn} ({res['pairs']} pairs)", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=os.environ.get(
        "DEDUP_BENCH", os.path.join(REPO, "build", "install", "bin", "dedup_bench")))
    ap.add_argument("--data", default=os.path.abspath(os.path.join(REPO, "..", "shared", "data")))
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--groups", default="main,fig10,sketch,anchor,hop,xdelta")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    groups = set(a.groups.split(","))
    os.makedirs(a.out, exist_ok=True)
    for name, ds, args in runs(groups):
        path = os.path.join(a.out, name + ".json")
        if os.path.exists(path) and not a.force:
            continue
        res = run_bench(a.bench, a.data, ds, args)
        if "codec" in args:
            # Throughput on a shared machine is noisy: keep the best of three runs (the
            # compression figures are identical).
            for _ in range(2):
                again = run_bench(a.bench, a.data, ds, args)
                for k in ("encode_mb_per_s", "decode_mb_per_s"):
                    res["codec"][k] = max(res["codec"][k], again["codec"][k])
            res["codec"]["note"] = "throughputs: best of 3 runs"
        json.dump(res, open(path, "w"), indent=1)
        print(f"{name}: ratio {res.get('ratio', 0):.2f} zstd {res.get('ratio_zstd', 0):.2f} "
              f"({res['wall_s']:.0f}s)", flush=True)
    if "xdelta" in groups:
        xdelta_compare(a.bench, a.data, a.out, a.force)


if __name__ == "__main__":
    sys.exit(main())
