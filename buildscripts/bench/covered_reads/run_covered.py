#!/usr/bin/env python3
"""Covered against fetched reads on deduplicated data (issue 19, item 8): "indexed lookups with
covering projections should cost no more with --dedup than without".

  run_covered.py [--datasets wiki-python,peps-history] [--configs snappy,dedup_snappy,dedup_zstd]
                 [--rounds 3] [--clients 4] [--seconds covered=12,fetched=8,...] [--phases ...]
                 [--limit N] [--quick | --smoke] [--mongod PATH] [--data DIR] [--out DIR]

Per data set: one fresh mongod per configuration (a copy of the binary, so a rebuild during the
run changes nothing), the collection created ({dedup: true} in the dedup configurations), the
records {_id, key, ts, body} inserted by the --clients processes at once with insert_many
(batches of --load-batch, no pauses), the dedup queues drained, index {key: 1, ts: 1} built,
fsync, on-disk bytes; then once per server, untimed: every phase's plan checked with explain
and every key's answers checked exactly (phases.py); a short warm-up of every phase. All three
servers stay up while the rounds run: round r, for each phase, each configuration in turn
(the order rotated each round), --clients processes run the phase flat out for its seconds,
keys drawn from a seeded generator (the same sequence on every server). Recorded per
measurement: ops/s, latency percentiles, server CPU (per op and in cores), client CPU, ops per
CPU-second of server + clients, RSS, the machine's busy cores and load average at start and
end. results/<dataset>.json holds everything; covered_report.py draws the figures and writes
REPORT.md. Exits non-zero on a wrong answer, a failed operation or a plan that does not answer
from the index where it must.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dedup_server"))

import pymongo  # noqa: E402
from bench_results import percentiles  # noqa: E402
from bson.codec_options import CodecOptions  # noqa: E402
from bson.raw_bson import RawBSONDocument  # noqa: E402
from mongod_process import Server, dir_bytes, log, machine_facts, proc_facts, stable_binary  # noqa: E402
from run_bench import CONFIGS, jsonable, load_records, wait_for_writebacks  # noqa: E402

import phases  # noqa: E402
from clients import ClientPool  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RAW = CodecOptions(document_class=RawBSONDocument)
PLAIN = "snappy"  # the baseline every ratio is taken against
REQUIRED_PLANS = ("covered", "fetched", "count", "distinct")


def machine_cpu():
    """(busy, total) jiffies of all CPUs from /proc/stat."""
    with open("/proc/stat") as f:
        vals = [int(x) for x in f.readline().split()[1:]]
    idle = vals[3] + (vals[4] if len(vals) > 4 else 0)
    return sum(vals) - idle, sum(vals)


def numeric_delta(before, after, prefix=""):
    """Changed numeric leaves of two serverStatus sections, as {dotted.path: after - before}."""
    out = {}
    for k, v in (after or {}).items():
        b = (before or {}).get(k)
        if isinstance(v, dict):
            out.update(numeric_delta(b if isinstance(b, dict) else {}, v, f"{prefix}{k}."))
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and isinstance(b, (int, float)) and v != b:
            out[prefix + k] = v - b
    return out


def dedup_section(srv):
    dd = srv.client.admin.command("serverStatus").get("dedup")
    return jsonable(dd) if dd and dd.get("enabled") is not False else None


def setup_server(binary, cfg, docs, sample_key, ts_sorted, pool, args, workroot, info):
    """Starts and loads one server; fills info (also on failure); returns the Server."""
    compressor, dedup = CONFIGS[cfg]
    srv_args = ["--wiredTigerCollectionBlockCompressor", compressor] + (["--dedup"] if dedup else [])
    workdir = tempfile.mkdtemp(prefix=f"{cfg}.", dir=workroot)
    srv = Server(binary, workdir, srv_args)
    info.update({"config": cfg, "block_compressor": compressor, "dedup": dedup, "workdir": workdir})
    srv.start()
    info["mongod_cmd"] = srv.cmd
    log(f"  {cfg}: mongod pid {srv.proc.pid} port {srv.port}")
    db = srv.client.get_database("bench", codec_options=RAW)
    db.create_collection(phases.COLL, **({"dedup": True} if dedup else {}))
    loadavg = os.getloadavg()
    cpu0 = proc_facts(srv.proc.pid)
    t0 = time.perf_counter()
    answers = pool.load(srv.port, args.load_batch)
    wall = max(a["seconds"] for a in answers)
    cpu1 = proc_facts(srv.proc.pid)
    logical = sum(len(r) for _, _, r in docs)
    info["load"] = {"clients": len(pool), "batch": args.load_batch, "seconds": wall,
                    "docs_per_s": len(docs) / wall, "mb_per_s": logical / wall / 1e6,
                    "batch_latency": percentiles([x for a in answers for x in a["latency_s"]]),
                    "server_cpu_s": cpu1["cpu_s"] - cpu0["cpu_s"], "call_seconds": time.perf_counter() - t0,
                    "loadavg_start": loadavg, "loadavg_end": os.getloadavg()}
    info["drain"] = wait_for_writebacks(srv.client.admin, len(docs), args.drain_timeout)
    t = time.perf_counter()
    db[phases.COLL].create_index([("key", 1), ("ts", 1)])
    info["create_index_seconds"] = time.perf_counter() - t
    srv.client.admin.command("fsync", 1)
    info["logical_bytes"] = logical
    info["on_disk_data_bytes"] = dir_bytes(srv.dbpath)["data_bytes"]
    cs = db.command("collStats", phases.COLL)
    info["coll_stats"] = {k: jsonable(cs.get(k)) for k in ("count", "size", "storageSize", "totalIndexSize", "dedup")}
    info["dedup_after_load"] = dedup_section(srv)
    info["explain"] = phases.explain_all(db, sample_key)
    t = time.perf_counter()
    info["verify"] = phases.verify_answers(db, docs, ts_sorted)
    info["verify"]["seconds"] = time.perf_counter() - t
    for name in args.phase_list:  # warm caches; not recorded
        pool.start_phase(srv.port, name, "warmup", args.warmup)
        pool.finish_phase()
    info["process_after_setup"] = proc_facts(srv.proc.pid)
    log(f"  {cfg}: loaded {len(docs)} docs in {wall:.1f} s, drained in {info['drain']['seconds']:.1f} s, "
        f"{info['on_disk_data_bytes']:,} B on disk; verify {'ok' if info['verify']['ok'] else 'FAILED'}; "
        f"covered plan {info['explain']['covered']['stages']}")
    return srv


def measure(pool, srv, cfg, name, seed, seconds):
    """One timed phase on one server."""
    m = {"config": cfg, "phase": name, "loadavg_start": os.getloadavg()}
    dd0 = dedup_section(srv) if CONFIGS[cfg][1] else None
    start = pool.start_phase(srv.port, name, seed, seconds)
    while time.monotonic() < start:
        time.sleep(0.002)
    f0, c0, w0 = proc_facts(srv.proc.pid), machine_cpu(), time.monotonic()
    answers = pool.finish_phase()
    f1, c1, w1 = proc_facts(srv.proc.pid), machine_cpu(), time.monotonic()
    m["loadavg_end"] = os.getloadavg()
    if dd0 is not None:
        m["dedup_delta"] = numeric_delta(dd0, dedup_section(srv))
    lat = [x for a in answers for x in a["latency_s"]]
    ops = sum(a["ops"] for a in answers)
    wall = w1 - w0
    tick = os.sysconf("SC_CLK_TCK")
    srv_cpu = (f1["cpu_s"] - f0["cpu_s"]) if f0 and f1 else None
    client_cpu = sum(a["client_cpu_s"] for a in answers)
    busy = (c1[0] - c0[0]) / tick
    m.update({
        "seconds": seconds, "wall_s": wall, "ops": ops,
        "ops_per_s": sum(a["ops"] / a["seconds"] for a in answers if a["seconds"] > 0),
        "latency": percentiles(lat), "_samples": lat,
        "server_cpu_s": srv_cpu, "server_cpu_cores": srv_cpu / wall if srv_cpu is not None else None,
        "server_cpu_us_per_op": srv_cpu / ops * 1e6 if srv_cpu is not None and ops else None,
        "client_cpu_cores": client_cpu / wall,
        # operations per CPU-second of the server and the bench clients together: the throughput
        # per core this work would reach with the machine to itself (other people's jobs take a
        # varying share of the 2 cores, and the raw ops/s follows that share)
        "ops_per_bench_cpu_s": ops / (srv_cpu + client_cpu) if srv_cpu is not None and srv_cpu + client_cpu > 0 else None,
        "machine_busy_cores": busy / wall,
        "other_busy_cores": (busy - (srv_cpu or 0) - client_cpu) / wall,
        "rss_bytes": (f1 or {}).get("VmRSS_bytes"), "hwm_bytes": (f1 or {}).get("VmHWM_bytes"),
        "wrong": sum(a["wrong"] for a in answers), "errors": sum(a["errors"] for a in answers),
        "first_problem": next((a["first_problem"] for a in answers if a["first_problem"]), None),
        "per_client_ops": [a["ops"] for a in answers],
    })
    return m


def summarize(measurements, configs, phase_list):
    """Per phase and configuration: medians over rounds, pooled latency percentiles; per round
    the ratio of each configuration's ops/s to the plain one's."""
    out = {}
    for name in phase_list:
        ph = out[name] = {"configs": {}, "ratio_per_round": {}}
        for cfg in configs:
            ms = [m for m in measurements if m["phase"] == name and m["config"] == cfg]
            if not ms:
                continue
            med = lambda f: statistics.median(m[f] for m in ms) if all(m[f] is not None for m in ms) else None
            ph["configs"][cfg] = {
                "rounds": len(ms), "ops_per_s_median": med("ops_per_s"),
                "ops_per_s_rounds": [m["ops_per_s"] for m in ms],
                "latency_pooled": percentiles([x for m in ms for x in m["_samples"]]),
                "p50_us_median": statistics.median(m["latency"].get("p50_us", 0) for m in ms),
                "server_cpu_us_per_op_median": med("server_cpu_us_per_op"),
                "ops_per_bench_cpu_s_median": med("ops_per_bench_cpu_s"),
                "server_cpu_cores_median": med("server_cpu_cores"),
                "client_cpu_cores_median": med("client_cpu_cores"),
                "other_busy_cores_median": med("other_busy_cores"),
                "rss_bytes_max": max(m["rss_bytes"] or 0 for m in ms),
                "wrong": sum(m["wrong"] for m in ms), "errors": sum(m["errors"] for m in ms)}
        # ratio_per_round: ops/s, the figure; cpu_ratio_per_round: server CPU per
        # operation, which other work on the machine disturbs much less than throughput
        for key, field in (("ratio_per_round", "ops_per_s"), ("cpu_ratio_per_round", "server_cpu_us_per_op"),
                           ("norm_ratio_per_round", "ops_per_bench_cpu_s")):
            base = {m["round"]: m[field] for m in measurements if m["phase"] == name and m["config"] == PLAIN}
            ph.setdefault(key, {})
            for cfg in configs:
                if cfg == PLAIN:
                    continue
                rs = [m[field] / base[m["round"]] for m in measurements
                      if m["phase"] == name and m["config"] == cfg and base.get(m["round"]) and m[field] is not None]
                ph[key][cfg] = {"rounds": rs, "median": statistics.median(rs) if rs else None}
    return out


def targets(summary, configs):
    """The issue's two checks, per dedup configuration."""
    out = {}
    cov, fet = summary.get("covered"), summary.get("fetched")
    for cfg in configs:
        if not CONFIGS[cfg][1] or cov is None:
            continue
        r = cov["ratio_per_round"].get(cfg, {})
        c = cov["configs"].get(cfg, {}).get("ops_per_s_median")
        f = (fet or {}).get("configs", {}).get(cfg, {}).get("ops_per_s_median")
        cn = cov["configs"].get(cfg, {}).get("ops_per_bench_cpu_s_median")
        fn = (fet or {}).get("configs", {}).get(cfg, {}).get("ops_per_bench_cpu_s_median")
        out[cfg] = {"covered_ratio_median": r.get("median"),
                    "covered_over_fetched_per_cpu": cn / fn if cn and fn else None,
                    "covered_ratio_min": min(r["rounds"]) if r.get("rounds") else None,
                    "covered_at_least_0_95": r.get("median") is not None and r["median"] >= 0.95,
                    "covered_cpu_per_op_ratio_median": cov["cpu_ratio_per_round"].get(cfg, {}).get("median"),
                    "covered_norm_ratio_median": cov["norm_ratio_per_round"].get(cfg, {}).get("median"),
                    "covered_norm_at_least_0_95": (cov["norm_ratio_per_round"].get(cfg, {}).get("median") or 0) >= 0.95,
                    "fetched_cpu_per_op_ratio_median": (fet or {}).get("cpu_ratio_per_round", {}).get(cfg, {}).get("median"),
                    "covered_over_fetched": c / f if c and f else None,
                    "covered_faster_than_fetched": bool(c and f and c > f)}
    return out


def run_dataset(ds, binary, binfo, pool, args, workroot):
    path = os.path.join(args.data, f"{ds}.jsonl.zst")
    docs = load_records(path, args.limit)
    sizes, ts_sorted = phases.expected_by_key(docs)
    keys = sorted(sizes)
    sample_key = max(keys, key=lambda k: (sizes[k]["docs"], k))  # the most versions: the most work
    pool.set_dataset(docs, keys, sizes)
    log(f"{ds}: {len(docs)} records, {len(keys)} keys, {sum(len(r) for _, _, r in docs):,} BSON bytes")
    res = {"dataset": ds, "dataset_file": os.path.abspath(path), "records": len(docs), "keys": len(keys),
           "docs_per_key": {"max": max(s["docs"] for s in sizes.values()),
                            "median": statistics.median(s["docs"] for s in sizes.values())},
           "limit": args.limit, "mongod": binfo, "machine": machine_facts(), "args": vars(args),
           "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "loadavg_start": os.getloadavg(),
           "phase_queries": {p: PHASES_DESC[p] for p in args.phase_list}, "servers": {}, "measurements": []}
    servers, problems = {}, []
    t_all = time.perf_counter()
    try:
        for cfg in args.config_list:
            info = res["servers"][cfg] = {}
            try:
                servers[cfg] = setup_server(binary, cfg, docs, sample_key, ts_sorted, pool, args, workroot, info)
            except Exception as e:
                info["error"] = f"{type(e).__name__}: {e}"
                problems.append(f"{ds}/{cfg}: setup failed: {info['error']}")
                log(f"  {cfg}: FAILED {info['error']}")
            if not info.get("verify", {}).get("ok", False) and "verify" in info:
                problems.append(f"{ds}/{cfg}: wrong answers {info['verify']['first']}")
            for p in REQUIRED_PLANS:
                if p in args.phase_list and "explain" in info and not info["explain"][p]["ok"]:
                    problems.append(f"{ds}/{cfg}: {p} plan {info['explain'][p]}")
        live = [c for c in args.config_list if c in servers]
        for rnd in range(1, args.rounds + 1):
            order = live[(rnd - 1) % len(live):] + live[:(rnd - 1) % len(live)]
            for name in args.phase_list:
                for cfg in order:
                    m = measure(pool, servers[cfg], cfg, name, f"{args.seed}:{ds}:{name}:{rnd}",
                                args.phase_seconds[name])
                    m["round"] = rnd
                    res["measurements"].append(m)
                    log(f"{ds} r{rnd} {name:15s} {cfg:13s} {m['ops_per_s']:9.1f} ops/s  p50 "
                        f"{m['latency'].get('p50_us', 0):9.0f} us  srv {m['server_cpu_us_per_op'] or 0:8.0f} "
                        f"us/op  load {m['loadavg_start'][0]:.1f}->{m['loadavg_end'][0]:.1f}")
                    if m["wrong"] or m["errors"]:
                        problems.append(f"{ds}/{cfg}/{name} round {rnd}: {m['wrong']} wrong, "
                                        f"{m['errors']} errors: {m['first_problem']}")
    finally:
        for cfg, srv in servers.items():
            info = res["servers"][cfg]
            info["process_end"] = proc_facts(srv.proc.pid) if srv.proc else None
            try:
                pool.forget(srv.port)
            except Exception as e:  # a dead worker must not keep the server alive
                log(f"  forget {cfg}: {e}")
            info["shutdown_exit_code"] = srv.stop()
            srv.kill()
            info["server_log_warnings"] = srv.log_problems()
            if info["shutdown_exit_code"] != 0:
                problems.append(f"{ds}/{cfg}: shutdown exit code {info['shutdown_exit_code']}")
                info["mongod_log_tail"] = srv.log_tail()
            else:
                shutil.rmtree(info["workdir"], ignore_errors=True)
    res["summary"] = summarize(res["measurements"], live, args.phase_list)
    res["targets"] = targets(res["summary"], live)
    for m in res["measurements"]:
        m.pop("_samples", None)
    res["problems"] = problems
    res["loadavg_end"] = os.getloadavg()
    res["run_seconds"] = time.perf_counter() - t_all
    return res


PHASES_DESC = {p: v[2] for p, v in phases.PHASES.items()}


def default_data_dir():
    """../shared/data beside the checkout; from a git worktree, beside the main checkout."""
    here = os.path.join(REPO, "..", "shared", "data")
    if os.path.isdir(here):
        return here
    try:
        common = subprocess.run(["git", "-C", REPO, "rev-parse", "--path-format=absolute", "--git-common-dir"],
                                capture_output=True, text=True, check=True).stdout.strip()
        return os.path.join(os.path.dirname(common), "..", "shared", "data")
    except (OSError, subprocess.CalledProcessError):
        return here


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default="wiki-python,peps-history")
    ap.add_argument("--configs", default="snappy,dedup_snappy,dedup_zstd")
    ap.add_argument("--phases", default=",".join(phases.PHASES))
    ap.add_argument("--seconds", default=",".join(f"{k}={v}" for k, v in phases.DEFAULT_SECONDS.items()),
                    help="timed seconds per phase: name=s,... or one number for all")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clients", type=int, default=4,
                    help="client processes: they load the records (each a share) and run each read phase")
    ap.add_argument("--load-batch", type=int, default=16)
    ap.add_argument("--warmup", type=float, default=1.0, help="untimed seconds of each phase per server")
    ap.add_argument("--limit", type=int, default=None, help="load only the first N records")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--drain-timeout", type=float, default=120.0)
    ap.add_argument("--quick", action="store_true", help="200 records, 1 round, 1 s phases (about a minute)")
    ap.add_argument("--smoke", action="store_true",
                    help="wiki-python, 40 records, 2 clients, 0.5 s phases, figures and report into a "
                         "temporary directory: checks that the script works (seconds)")
    ap.add_argument("--mongod", default=os.path.join(REPO, "build", "install", "bin", "mongod"))
    ap.add_argument("--data", default=None, help="(default: ../shared/data beside the checkout)")
    ap.add_argument("--out", default=None, help="results directory (default: results/ here; "
                                                "--quick and --smoke: a temporary one)")
    args = ap.parse_args(argv)
    if args.quick:
        args.limit, args.rounds, args.seconds, args.warmup = args.limit or 200, 1, "1", 0.3
    if args.smoke:
        args.datasets, args.limit, args.rounds, args.seconds, args.warmup = "wiki-python", 40, 1, "0.5", 0.1
        args.clients = min(args.clients, 2)
    args.dataset_list = [d for d in args.datasets.split(",") if d]
    args.config_list = [c for c in args.configs.split(",") if c]
    args.phase_list = [p for p in args.phases.split(",") if p]
    for c in args.config_list:
        if c not in CONFIGS:
            ap.error(f"unknown config {c}; known: {', '.join(CONFIGS)}")
    for p in args.phase_list:
        if p not in phases.PHASES:
            ap.error(f"unknown phase {p}; known: {', '.join(phases.PHASES)}")
    if PLAIN not in args.config_list:
        ap.error(f"--configs must include {PLAIN} (the baseline of every ratio)")
    if "=" in args.seconds:
        given = dict(kv.split("=") for kv in args.seconds.split(","))
        args.phase_seconds = {p: float(given.get(p, phases.DEFAULT_SECONDS[p])) for p in args.phase_list}
    else:
        args.phase_seconds = {p: float(args.seconds) for p in args.phase_list}
    args.data = os.path.normpath(args.data or default_data_dir())
    if args.out is None:
        args.out = (tempfile.mkdtemp(prefix="covered_reads.") if args.quick or args.smoke
                    else os.path.join(HERE, "results"))
    return args


def main(argv=None):
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    workroot = tempfile.mkdtemp(prefix="covered_reads_work.")
    problems = []
    t0 = time.perf_counter()
    pool = ClientPool(args.clients)
    try:
        binary = os.path.join(workroot, "mongod")
        binfo = stable_binary(args.mongod, binary)
        log(f"mongod {binfo['sha256'][:12]} (built {binfo['mtime']}); {args.clients} clients; out {args.out}")
        for ds in args.dataset_list:
            res = run_dataset(ds, binary, binfo, pool, args, workroot)
            problems += res["problems"]
            with open(os.path.join(args.out, f"{ds}.json"), "w") as f:
                json.dump(res, f, indent=1)
            for cfg, t in res["targets"].items():
                f = lambda k: "—" if t.get(k) is None else f"{t[k]:.3f}"
                log(f"{ds} {cfg}: covered ops/s vs plain {f('covered_ratio_median')} (target >= 0.95: "
                    f"{'met' if t['covered_at_least_0_95'] else 'NOT met'}), per bench CPU-second "
                    f"{f('covered_norm_ratio_median')}, server CPU/op {f('covered_cpu_per_op_ratio_median')}; "
                    f"covered/fetched ops/s {f('covered_over_fetched')}")
    finally:
        pool.close()
        shutil.rmtree(workroot, ignore_errors=True)
        log(f"total {time.perf_counter() - t0:.0f} s")
    if args.smoke or args.quick:
        import covered_report
        covered_report.write_all(args.out, args.out)
        log(f"smoke/quick report: {os.path.join(args.out, 'REPORT.md')}")
    if problems:
        print("\n*** FAILED ***\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
