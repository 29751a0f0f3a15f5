"""Starting, measuring and stopping one mongod for the server benchmark (run_bench.py):
the process (Server), its CPU time and memory, the bytes of its data directory, the machine."""
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import time

import pymongo

EXCLUDED = ("mongod.lock", "diagnostic.data")  # never counted as on-disk bytes


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_facts(pid):
    """Server CPU seconds and memory from /proc (None once the process is gone)."""
    out = {}
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        out["cpu_s"] = (int(fields[11]) + int(fields[12])) / tick
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM"):
                    out[k + "_bytes"] = int(v.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return out


def dir_bytes(dbpath):
    """Sizes of the files under dbpath: data files (everything but journal/ and EXCLUDED), the
    journal separately; apparent sizes (st_size) and allocated (st_blocks * 512)."""
    res = {"data_bytes": 0, "data_allocated_bytes": 0, "journal_bytes": 0,
           "journal_allocated_bytes": 0, "files": {}, "excluded": []}
    for root, dirs, files in os.walk(dbpath):
        rel_root = os.path.relpath(root, dbpath)
        if rel_root.split(os.sep)[0] in EXCLUDED:
            res["excluded"].append(rel_root)
            dirs[:] = []
            continue
        for name in files:
            rel = os.path.normpath(os.path.join(rel_root, name))
            if rel in EXCLUDED:
                res["excluded"].append(rel)
                continue
            try:
                st = os.stat(os.path.join(root, name))
            except FileNotFoundError:
                continue
            kind = "journal" if rel.split(os.sep)[0] == "journal" else "data"
            res[kind + "_bytes"] += st.st_size
            res[kind + "_allocated_bytes"] += st.st_blocks * 512
            res["files"][rel] = st.st_size
    res["total_bytes"] = res["data_bytes"] + res["journal_bytes"]
    return res


class Server:
    """One mongod on a private dbpath; stop() always leaves no process behind. reuse=True starts
    it on the data directory an earlier Server left in workdir (a restart on kept data)."""

    def __init__(self, binary, workdir, args, reuse=False):
        self.binary, self.args = binary, args
        self.dbpath = os.path.join(workdir, "db")
        self.logpath = os.path.join(workdir, "mongod.log")
        if reuse:
            if not os.path.isdir(self.dbpath):
                raise RuntimeError(f"no data directory to reuse at {self.dbpath}")
        else:
            os.makedirs(self.dbpath)
        self.proc = self.client = None

    def start(self, timeout=60):
        for attempt in range(3):  # the free port may be taken between probe and bind
            self.port = free_port()
            cmd = [self.binary, "--dbpath", self.dbpath, "--port", str(self.port),
                   "--bind_ip", "127.0.0.1"] + self.args
            self.cmd = cmd
            with open(self.logpath, "ab") as logf:
                self.proc = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT,
                                             start_new_session=True)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.proc.poll() is None:
                c = None
                try:
                    c = pymongo.MongoClient("127.0.0.1", self.port, serverSelectionTimeoutMS=500,
                                            socketTimeoutMS=600_000, directConnection=True)
                    c.admin.command("ping")
                    self.client = c
                    return
                except pymongo.errors.PyMongoError:
                    if c is not None:
                        c.close()
                    time.sleep(0.2)
            self.kill()
            if attempt == 2 or time.monotonic() >= deadline:
                raise RuntimeError(f"mongod did not answer ping: {' '.join(cmd)}\n{self.log_tail()}")

    def log_tail(self, n=30):
        try:
            with open(self.logpath, errors="replace") as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return ""

    def log_problems(self, keep=5):
        """Warning/error lines of the server's structured log: their count and the first few
        (the access-control startup warning is expected here and not counted)."""
        count, first = 0, []
        try:
            with open(self.logpath, errors="replace") as f:
                for line in f:
                    if '"id":22120,' in line:  # "Access control is not enabled": expected here
                        continue
                    if '"s":"W"' in line or '"s":"E"' in line or '"s":"F"' in line:
                        count += 1
                        if len(first) < keep:
                            first.append(line.strip()[:400])
        except OSError:
            pass
        return {"count": count, "first": first}

    def stop(self, timeout=120):
        """Clean shutdown through the shutdown command; kill if it does not exit in time."""
        if self.proc is None:
            return None
        if self.proc.poll() is None and self.client is not None:
            try:
                self.client.admin.command("shutdown")
            except pymongo.errors.PyMongoError:
                pass  # the connection closes as the server exits
        if self.client is not None:
            self.client.close()
            self.client = None
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            log("  mongod did not exit after shutdown; killing it")
            self.kill()
            rc = None
        self.proc = None if rc is not None else self.proc
        return rc

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def machine_facts():
    facts = {"nproc": os.cpu_count()}
    try:
        with open("/proc/meminfo") as f:
            facts["mem_total_bytes"] = int(f.readline().split()[1]) * 1024
        with open("/proc/cpuinfo") as f:
            facts["cpu_model"] = next((l.split(":", 1)[1].strip() for l in f
                                       if l.startswith("model name")), None)
    except OSError:
        pass
    return facts


def stable_binary(path, dest):
    """Copies mongod so a rebuild during the run cannot change it; waits while it is missing."""
    for _ in range(20):
        if os.path.exists(path):
            try:
                shutil.copy2(path, dest)
                break
            except OSError:
                pass
        log(f"{path} missing or busy (being rebuilt?); retrying in 30 s")
        time.sleep(30)
    else:
        raise RuntimeError(f"no mongod binary at {path}")
    with open(dest, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    return {"path": path, "sha256": sha, "mtime": time.strftime(
        "%Y-%m-%dT%H:%M:%S", time.localtime(os.stat(path).st_mtime))}
