"""Result records of the server benchmark (run_bench.py): latency percentiles, merging the
rounds of one configuration, and results/summary.json over every result file present."""
import glob
import json
import os
import statistics

from mongod_process import machine_facts


def percentiles(samples_s):
    """Latency summary in microseconds (nearest-rank percentiles)."""
    if not samples_s:
        return {"n": 0}
    s = sorted(samples_s)
    n = len(s)
    pick = lambda p: s[max(0, min(n - 1, -(-p * n // 100) - 1))] * 1e6
    return {"n": n, "p50_us": pick(50), "p90_us": pick(90), "p95_us": pick(95), "p99_us": pick(99),
            "max_us": s[-1] * 1e6, "mean_us": sum(s) / n * 1e6}


def combine(rounds):
    """One result from the rounds of a configuration: round 1's record (bytes, stats, server
    sections) with insert throughput = median of the rounds and latency percentiles over the
    pooled samples of all rounds; every round's own figures under 'rounds'."""
    bad = [r for r in rounds if "error" in r]
    if bad:
        for r in rounds:
            r.pop("_samples", None)
        return dict(bad[0], rounds_completed=len(rounds) - len(bad))
    out = dict(rounds[0])
    pooled = {k: [x for r in rounds for x in r["_samples"][k]] for k in ("insert", "latest", "old")}
    out["rounds"] = [{"docs_per_s": r["insert"]["docs_per_s"], "mb_per_s": r["insert"]["mb_per_s"],
                      "server_cpu_s": r["insert"]["server_cpu_s"], "insert_latency": r["insert"]["latency"],
                      "reads": r["reads"], "data_bytes": r["on_disk"]["data_bytes"], "ratio": r["ratio"],
                      "data_bytes_after_compact": (r.get("on_disk_after_compact") or {}).get("data_bytes"),
                      "drain_s": r["drain"]["seconds"], "verify": r.get("verify"),
                      "loadavg_start": r["loadavg_start"], "started_at": r["started_at"]} for r in rounds]
    med = lambda f: statistics.median(r["insert"][f] for r in rounds)
    out["insert"] = dict(out["insert"], docs_per_s=med("docs_per_s"), mb_per_s=med("mb_per_s"),
                         seconds=med("seconds"), latency=percentiles(pooled["insert"]))
    if all(r["insert"]["server_cpu_s"] is not None for r in rounds):
        out["insert"]["server_cpu_s"] = med("server_cpu_s")
    out["reads"] = dict(out["reads"], missing=sum(r["reads"]["missing"] for r in rounds))
    for k in ("latest", "old"):
        out["reads"][k] = dict(percentiles(pooled[k]), pool=out["reads"][k]["pool"])
    vs = [r["verify"] for r in rounds if r.get("verify")]
    if vs:
        out["verify"] = dict(vs[0], mismatches=sum(v["mismatches"] for v in vs),
                             ok=all(v["ok"] for v in vs), rounds=len(vs))
    out["run_seconds"] = sum(r["run_seconds"] for r in rounds)
    out["loadavg_end"] = rounds[-1]["loadavg_end"]
    out["aggregation"] = ("insert docs/s, MB/s, seconds, server CPU: median of rounds; latency "
                          "percentiles: pooled samples of all rounds; bytes and server stats: round 1")
    for r in rounds:
        r.pop("_samples", None)
    out.pop("_samples", None)
    return out


def write_summary(out):
    runs = []
    for p in sorted(glob.glob(os.path.join(out, "*__*.json"))):
        with open(p) as f:
            r = json.load(f)
        runs.append({k: r.get(k) for k in (
            "dataset", "config", "limit", "records", "distinct_keys", "logical_bytes", "ratio",
            "ratio_net_of_empty",
            "insert", "drain", "reads", "dedup_memory", "verify", "error", "mongod", "started_at",
            "rounds",
            "run_seconds", "loadavg_start", "loadavg_end")} | {
            "on_disk_data_bytes": (r.get("on_disk") or {}).get("data_bytes"),
            "on_disk_empty_data_bytes": (r.get("on_disk_empty") or {}).get("data_bytes"),
            "on_disk_after_compact_data_bytes": (r.get("on_disk_after_compact") or {}).get("data_bytes"),
            "ratio_after_compact": r.get("ratio_after_compact"),
            "dedup_memory_after_load": r.get("dedup_memory_after_load"),
            "on_disk_journal_bytes": (r.get("on_disk") or {}).get("journal_bytes"),
            "on_disk_after_shutdown_data_bytes": (r.get("on_disk_after_shutdown") or {}).get("data_bytes"),
            "coll_storage_size": (r.get("coll_stats") or {}).get("storageSize"),
            "coll_total_index_size": (r.get("coll_stats") or {}).get("totalIndexSize"),
            "coll_stats_dedup": (r.get("coll_stats") or {}).get("dedup")})
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"machine": machine_facts(), "runs": runs}, f, indent=1)
