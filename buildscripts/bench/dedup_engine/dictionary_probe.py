#!/usr/bin/env python3
"""Would a zstd dictionary trained per collection store the records that stay whole in fewer
bytes than WiredTiger's zstd pages already do? (issue 9, point 7)

Under backward encoding the records stored whole are mostly the newest version of each
document (the head of its chain). For each data set this takes the last line of every `key`
as those records (JSON text, a close stand-in for their BSON), and compares:
  paged     the records packed in file order into 32 KB pages, each page zstd-compressed
            (what WiredTiger's block compressor sees);
  per_rec   each record zstd-compressed alone;
  dict_NK   each record zstd-compressed alone with a dictionary of N KB trained on the first
            fifth of the data set's lines (what a server could train on early), plus the
            dictionary once.
Writes results/dictionary_probe.json and prints one line per data set.
usage: python dictionary_probe.py [--data ../shared/data] [--level 3]
"""
import argparse
import json
import os
import subprocess

import zstandard

DATASETS = ["wiki-python", "peps-history", "se-posthistory", "email-ham"]
PAGE = 32768


def read_lines(path):
    raw = subprocess.run(["zstd", "-dc", "--long=27", path], capture_output=True, check=True).stdout
    return [line for line in raw.split(b"\n") if line]


def paged_bytes(records, level):
    cctx = zstandard.ZstdCompressor(level=level)
    total, page = 0, bytearray()
    for rec in records:
        if page and len(page) + len(rec) > PAGE:
            total += len(cctx.compress(bytes(page)))
            page = bytearray()
        page += rec
    if page:
        total += len(cctx.compress(bytes(page)))
    return total


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(here, "../../../../shared/data"))
    ap.add_argument("--level", type=int, default=3)
    args = ap.parse_args()
    out = {"level": args.level, "page_bytes": PAGE, "datasets": {}}
    for name in DATASETS:
        lines = read_lines(os.path.join(args.data, name + ".jsonl.zst"))
        last = {}
        for i, line in enumerate(lines):
            last[json.loads(line)["key"]] = i
        heads = [lines[i] for i in sorted(last.values())]
        cctx = zstandard.ZstdCompressor(level=args.level)
        row = {"records": len(heads), "raw": sum(map(len, heads)),
               "paged": paged_bytes(heads, args.level),
               "per_rec": sum(len(cctx.compress(h)) for h in heads)}
        sample = lines[:max(100, len(lines) // 5)]
        for kb in (32, 110):
            d = zstandard.train_dictionary(kb * 1024, sample, level=args.level)
            dctx = zstandard.ZstdCompressor(level=args.level, dict_data=d)
            row[f"dict_{kb}K"] = sum(len(dctx.compress(h)) for h in heads) + len(d.as_bytes())
        out["datasets"][name] = row
        print(name, row, flush=True)
    with open(os.path.join(here, "results", "dictionary_probe.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
