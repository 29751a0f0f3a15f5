#!/usr/bin/env python3
"""What access control costs on CRUD at saturation (issue 17, point 8: at least 0.97 of the
throughput without it). Starts two fresh servers from the same binary, one plain and one with
--auth (clients authenticated with SCRAM-SHA-256 as a readWrite user of the database), and runs
the same load against each in turn, ROUNDS times alternating: CLIENTS processes, each doing
insert_one + find_one by _id + update_one by _id in a loop for SECONDS. Prints ops/s per run and
the ratio of the medians.

  python buildscripts/bench/auth/auth_overhead.py --mongod build/install/bin/mongod
"""
import argparse
import multiprocessing as mp
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time

import pymongo


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(mongod, args, tmp):
    port = free_port()
    dbpath = os.path.join(tmp, "db%d" % port)
    os.makedirs(dbpath)
    log = open(os.path.join(tmp, "mongod%d.log" % port), "wb")
    proc = subprocess.Popen([mongod, "--port", str(port), "--bind_ip", "127.0.0.1", "--dbpath", dbpath] + args,
                            stdout=log, stderr=subprocess.STDOUT)
    uri = "mongodb://127.0.0.1:%d/?directConnection=true" % port
    for _ in range(100):
        try:
            pymongo.MongoClient(uri, serverSelectionTimeoutMS=300).admin.command("ping")
            return proc, port
        except pymongo.errors.PyMongoError:
            time.sleep(0.1)
    raise RuntimeError("mongod did not start")


def worker(uri, seconds, wid, out):
    c = pymongo.MongoClient(uri)
    coll = c.bench.c
    n = 0
    i = 0
    deadline = time.time() + seconds
    while time.time() < deadline:
        _id = "%s-%d" % (wid, i)
        coll.insert_one({"_id": _id, "v": i, "s": "x" * 100})
        coll.find_one({"_id": _id})
        coll.update_one({"_id": _id}, {"$inc": {"v": 1}})
        n += 3
        i += 1
    out.put(n)


def run(uri, clients, seconds, tag):
    q = mp.Queue()
    ps = [mp.Process(target=worker, args=(uri, seconds, "%s-%d" % (tag, w), q)) for w in range(clients)]
    for p in ps:
        p.start()
    total = sum(q.get() for _ in ps)
    for p in ps:
        p.join()
    return total / seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mongod", default="build/install/bin/mongod")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="auth-bench-")
    plain, pport = start(a.mongod, [], tmp)
    auth, aport = start(a.mongod, ["--auth"], tmp)
    try:
        admin = pymongo.MongoClient("mongodb://127.0.0.1:%d/?directConnection=true" % aport).admin
        admin.command("createUser", "root", pwd="pw", roles=["root"])
        pymongo.MongoClient("mongodb://root:pw@127.0.0.1:%d/?directConnection=true" % aport).bench.command(
            "createUser", "app", pwd="pw", roles=["readWrite"])
        uris = {"plain": "mongodb://127.0.0.1:%d/?directConnection=true" % pport,
                "auth": "mongodb://app:pw@127.0.0.1:%d/bench?directConnection=true" % aport}
        results = {"plain": [], "auth": []}
        for r in range(a.rounds):
            for name in ("plain", "auth") if r % 2 == 0 else ("auth", "plain"):
                ops = run(uris[name], a.clients, a.seconds, "r%d" % r)
                results[name].append(ops)
                print("round %d %-5s %8.0f ops/s" % (r, name, ops), flush=True)
        ratio = statistics.median(results["auth"]) / statistics.median(results["plain"])
        print("median plain %.0f ops/s, auth %.0f ops/s, ratio %.3f" %
              (statistics.median(results["plain"]), statistics.median(results["auth"]), ratio))
    finally:
        for p in (plain, auth):
            p.terminate()
            p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
