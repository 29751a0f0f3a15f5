#!/usr/bin/env python3
"""Writes a data set in the order the saturation benchmark's range-split clients insert it
(buildscripts/bench/dedup_server/saturation.py: client i of P takes records [i*N/P, (i+1)*N/P)
and sends them in insert_many batches of 20), approximated as the P ranges interleaved batch by
batch. dedup_bench on the result shows what concurrent loaders do to the engine's ratio without
a server (REPORT.md section 12).
usage: python interleave.py DATASET P [--data DIR] [--out FILE]
"""
import argparse
import os
import subprocess

BATCH = 20


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("dataset")
    ap.add_argument("parts", type=int)
    ap.add_argument("--data", default=os.path.join(here, "../../../../shared/data"))
    ap.add_argument("--out")
    a = ap.parse_args()
    raw = subprocess.run(["zstd", "-dc", "--long=27", os.path.join(a.data, a.dataset + ".jsonl.zst")],
                         capture_output=True, check=True).stdout
    lines = [line for line in raw.split(b"\n") if line]
    n, p = len(lines), a.parts
    ranges = [lines[i * n // p:(i + 1) * n // p] for i in range(p)]
    out, k = [], 0
    while any(k < len(r) for r in ranges):
        for r in ranges:
            out.extend(r[k:k + BATCH])
        k += BATCH
    path = a.out or "%s.c%d.jsonl" % (a.dataset, p)
    with open(path, "wb") as f:
        f.write(b"\n".join(out) + b"\n")
    print(path, len(out))


if __name__ == "__main__":
    main()
