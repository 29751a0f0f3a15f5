"""Start-up mode of the saturation benchmark (saturation.py --modes startup): how soon a
restarted mongod --dedup answers, and how soon its dedup engine is ready, with many records
(issue 9, "Start-up does not wait for the engine").

Per server config (--startup-configs): one fresh mongod; records are loaded up to each count of
--startup-records in turn (200,000 then 1,000,000 by default; the same server keeps growing).
The records are every data set of --data in turn, over and over, each pass a new version of the
last (body + "[pass N]", _id "<pass>:<n>"), as rebuild_time.py makes them, inserted with
insert_many of 500 by --startup-processes client processes (contiguous shares). At each count:
wait until the dedup queues are empty, clean shutdown, start again and measure from the spawn
of the process:
  ping_s    first successful ping (a fresh connection tried every 20 ms once the port accepts)
  ready_s   first serverStatus().dedup that says ready: `ready: true` or
            `startupRebuild.state == "done"`; null if this build reports neither
  rebuild_idle_s  first serverStatus() whose dedup.collectionsBeingRebuilt is 0 (if reported)
then checks dedup after the restart: 200 random records read back, 200 new versions inserted
(recordsEncoded before/after). -> <out>/startup/<config>__<records>.json
"""
import datetime
import json
import multiprocessing as mp
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time

import bson
import pymongo

from mongod_process import Server, dir_bytes, log, machine_facts, proc_facts
from sat_common import (available_datasets, dataset_path, dedup_ready, dedup_sample, get_path,
                        jsonable, load_records, server_args, wait_dedup_idle, write_json)

_BASE = []  # (key, ts, body) of every data set in turn; set before the loaders fork


def make_doc(i):
    base = _BASE[i % len(_BASE)]
    passno = i // len(_BASE)
    return {"_id": f"{passno}:{i}", "key": base[0], "ts": base[1],
            "body": base[2] if passno == 0 else base[2] + f"\n[pass {passno}]"}


def _loader(lo, hi, port, conn):
    try:
        client = pymongo.MongoClient("127.0.0.1", port, directConnection=True, maxPoolSize=1,
                                     socketTimeoutMS=600_000)
        coll = client.bench.docs
        nbytes = 0
        for s in range(lo, hi, 500):
            batch = [make_doc(i) for i in range(s, min(hi, s + 500))]
            nbytes += sum(len(d["body"]) for d in batch)
            coll.insert_many(batch, ordered=True)
        client.close()
        conn.send({"body_bytes": nbytes})
    except Exception as e:
        conn.send({"error": f"{type(e).__name__}: {e}"[:1000]})


def load_range(port, lo, hi, n_procs):
    """Inserts records [lo, hi) with n_procs forked loaders; returns their body bytes."""
    ctx = mp.get_context("fork")
    procs, conns = [], []
    for p_i in range(n_procs):
        a, b = lo + (hi - lo) * p_i // n_procs, lo + (hi - lo) * (p_i + 1) // n_procs
        parent_end, child_end = ctx.Pipe()
        p = ctx.Process(target=_loader, args=(a, b, port, child_end), daemon=True)
        p.start()
        procs.append(p)
        conns.append(parent_end)
    out = [c.recv() for c in conns]
    for p in procs:
        p.join()
    errs = [o["error"] for o in out if "error" in o]
    if errs:
        raise RuntimeError(f"loader errors: {errs[:2]}")
    return sum(o["body_bytes"] for o in out)


def port_open(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def timed_start(srv, timeout):
    """Starts srv's process on its previous port and measures ping and dedup readiness."""
    with open(srv.logpath, "ab") as logf:
        log_offset = logf.tell()
        t0 = time.monotonic()
        srv.proc = subprocess.Popen(srv.cmd, stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
    out = {"ping_s": None, "ready_s": None, "rebuild_idle_s": None, "ready_field": None}
    deadline = t0 + timeout
    while time.monotonic() < deadline and srv.proc.poll() is None:
        if port_open(srv.port):
            c = pymongo.MongoClient("127.0.0.1", srv.port, directConnection=True,
                                    serverSelectionTimeoutMS=300, connectTimeoutMS=300)
            try:
                c.admin.command("ping")
                out["ping_s"] = time.monotonic() - t0
                srv.client = c
                break
            except pymongo.errors.PyMongoError:
                c.close()
        time.sleep(0.02)
    if out["ping_s"] is None:
        raise RuntimeError(f"no ping within {timeout} s after restart\n{srv.log_tail()}")
    first, trace = None, []
    while time.monotonic() < deadline:
        dd = srv.client.admin.command("serverStatus").get("dedup")
        now = time.monotonic() - t0
        if first is None:
            first = jsonable(dd)
        trace.append({"t": now, "dedup": dedup_sample(dd),
                      "rss_bytes": (proc_facts(srv.proc.pid) or {}).get("VmRSS_bytes")})
        ready = dedup_ready(dd)
        if ready is not None:
            out["ready_field"] = "ready" if isinstance((dd or {}).get("ready"), bool) else "startupRebuild.state"
        if out["rebuild_idle_s"] is None and get_path(dd, "collectionsBeingRebuilt") == 0:
            out["rebuild_idle_s"] = now
        if ready:
            out["ready_s"] = now
        if (ready or ready is None) and (out["rebuild_idle_s"] is not None
                                         or get_path(dd, "collectionsBeingRebuilt") is None):
            break
        time.sleep(0.1)
    out["dedup_first_status"] = first
    out["trace"] = trace[:600]
    with open(srv.logpath, errors="replace") as f:
        f.seek(log_offset)
        new_lines = f.readlines()
    out["log_rebuild_lines"] = [ln.strip()[:400] for ln in new_lines
                                if "ebuild" in ln or "restor" in ln.lower()][:30]
    out["log_timeline"] = log_timeline(new_lines)
    return out


def log_timeline(lines, keep=300):
    """[ms since the log's first line, component, msg] of the start-up's structured log lines up
    to 'Waiting for connections' and the dedup lines after it: where the start-up time goes."""
    out, t_first, seen_wait = [], None, False
    for ln in lines:
        try:
            d = json.loads(ln)
            t = datetime.datetime.fromisoformat(d["t"]["$date"].replace("Z", "+00:00")).timestamp()
        except (ValueError, KeyError, TypeError):
            continue
        t_first = t if t_first is None else t_first
        if seen_wait and d.get("c") != "DEDUP":
            continue
        out.append([round((t - t_first) * 1000), d.get("c"), d.get("msg"), d.get("attr")])
        seen_wait = seen_wait or d.get("msg") == "Waiting for connections"
        if len(out) >= keep:
            break
    return out


def check_after_restart(client, n, seed=11):
    """200 random records read back; 200 new versions inserted and the dedup counters."""
    rng = random.Random(seed)
    coll = client.bench.docs
    ids = rng.sample(range(n), min(200, n))
    bad = [i for i in ids if (coll.find_one({"_id": make_doc(i)["_id"]}) or {}).get("body") != make_doc(i)["body"]]
    before = client.admin.command("serverStatus").get("dedup") or {}
    new = []
    for i in ids:
        d = make_doc(i)
        d["_id"] = f"after-restart:{n}:{i}"
        d["body"] += "\n[after restart]"
        new.append(d)
    coll.insert_many(new)
    drain = wait_dedup_idle(client, 120)
    after = client.admin.command("serverStatus").get("dedup") or {}
    delta = lambda k: (after.get(k) - before.get(k)) if isinstance(after.get(k), (int, float)) and \
        isinstance(before.get(k), (int, float)) else None
    return {"read_back": len(ids), "read_mismatches": len(bad), "new_versions": len(new),
            "records_encoded_delta": delta("recordsEncoded"), "records_examined_delta": delta("recordsExamined"),
            "drain": drain}


def run_startup(binary, config, args, workroot):
    global _BASE
    _BASE = []
    names = available_datasets(args.data)
    for name in names:
        for _, _, raw in load_records(dataset_path(args.data, name)):
            d = bson.decode(raw)
            _BASE.append((d.get("key"), d.get("ts"), d.get("body", "")))
    counts = sorted(args.startup_records)
    workdir = tempfile.mkdtemp(prefix=f"sat.startup.{config}.", dir=workroot)
    srv = Server(binary, workdir, server_args(config, args.dedup_args, args.server_args, args.startup_wt_cache_gb))
    results, loaded, body_bytes = [], 0, 0
    try:
        srv.start()
        srv.client.bench.create_collection("docs")
        for n in counts:
            res = {"mode": "startup", "label": args.label, "config": config, "records": n,
                   "datasets": names, "base_records": len(_BASE), "mongod_cmd": srv.cmd, "wt_cache_gb": args.startup_wt_cache_gb,
                   "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "loadavg_start": os.getloadavg()}
            try:
                t = time.monotonic()
                body_bytes += load_range(srv.port, loaded, n, args.startup_processes)
                res["load_seconds_this_step"] = time.monotonic() - t
                loaded = n
                res["body_bytes"] = body_bytes
                log(f"startup / {config}: {n} records loaded ({res['load_seconds_this_step']:.0f} s); "
                    f"waiting for the dedup queues")
                res["drain"] = wait_dedup_idle(srv.client, args.startup_timeout, expect_examined=None)
                ss = srv.client.admin.command("serverStatus")
                res["dedup_before_restart"] = jsonable(ss.get("dedup"))
                res["process_before_restart"] = proc_facts(srv.proc.pid)
                t = time.monotonic()
                cmd = srv.cmd
                srv.stop()
                srv.cmd = cmd
                res["shutdown_s"] = time.monotonic() - t
                res["on_disk"] = {k: v for k, v in dir_bytes(srv.dbpath).items() if k != "files"}
                res["restart"] = timed_start(srv, args.startup_timeout)
                r = res["restart"]
                log(f"startup / {config}: {n} records: ping after {r['ping_s']:.2f} s, ready after "
                    f"{'n/a' if r['ready_s'] is None else '%.2f s' % r['ready_s']}, "
                    f"collectionsBeingRebuilt 0 after "
                    f"{'n/a' if r['rebuild_idle_s'] is None else '%.2f s' % r['rebuild_idle_s']}")
                res["dedup_after_restart"] = jsonable(srv.client.admin.command("serverStatus").get("dedup"))
                res["process_after_restart"] = proc_facts(srv.proc.pid)
                res["check_after_restart"] = check_after_restart(srv.client, n)
            except Exception as e:
                res["error"] = f"{type(e).__name__}: {e}"
                res["mongod_log_tail"] = srv.log_tail()
            res["loadavg_end"] = os.getloadavg()
            results.append(res)
            if "error" in res:
                break
        srv.stop()
    finally:
        srv.kill()
        _BASE = []
        if results and all("error" not in r for r in results):
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            log(f"startup / {config}: kept {workdir}")
    return results


def mode_startup(args, binaries, workroot, failures):
    for cfg in args.startup_configs:
        for res in run_startup(binaries["mongod"], cfg, args, workroot):
            res["mongod"] = binaries["mongod_info"]
            res["machine"] = machine_facts()
            write_json(os.path.join(args.out, "startup", f"{cfg}__{res['records']}.json"), res)
            if "error" in res:
                failures.append(f"startup {cfg}/{res['records']}: {res['error']}")
            elif res["check_after_restart"]["read_mismatches"]:
                failures.append(f"startup {cfg}/{res['records']}: records read back wrong after restart")
