"""Client processes of the read benchmark (read_bench.py): a pool of forked processes, one
pymongo connection each, that load a data set or run one read phase at saturation on command.

Why processes and not threads: one Python process cannot keep a server busy (the GIL), and the
saturation benchmark (saturation.py) loads the same way. The pool is forked once per data set,
before any server or pymongo client exists in the parent, and serves every server of that data
set in turn (one connection per command, made before "ready", so never timed).

Protocol, per command (the parent drives every worker the same way, see ClientPool):
  parent -> worker  {"kind": ..., "port": ..., ...}    worker connects, answers "ready"
  parent -> worker  t_go (time.monotonic(); CLOCK_MONOTONIC is shared by all processes)
                    or None to abort; the worker sleeps until t_go, runs, answers its figures
  parent -> worker  None instead of a command: the worker exits
Phases run from t_go for warmup_s + duration_s; only operations that START in the window
[t_go + warmup_s, t_go + warmup_s + duration_s) are counted and timed (scans: documents that
arrive in it). Latencies travel as array('d') bytes (seconds).
"""
import array
import gc
import multiprocessing as mp
import random
import signal
import time

import pymongo
from bson.codec_options import CodecOptions
from bson.raw_bson import RawBSONDocument

RAW = CodecOptions(document_class=RawBSONDocument)
# set by the parent before ClientPool forks; read (copy-on-write) by the workers
STATE = {"docs": [], "ids": []}  # docs: (_id, raw BSON with k); ids: the _ids in load order


def _err(e):
    return f"{type(e).__name__}: {e}"[:500]


def _load(coll, cmd, t_go):
    """insert_many batches of this worker's contiguous share, ordered, no pauses."""
    docs = STATE["docs"][cmd["lo"]:cmd["hi"]]
    batches = [[RawBSONDocument(raw) for _, raw in docs[i:i + cmd["batch"]]]
               for i in range(0, len(docs), cmd["batch"])]
    lat, done, err = array.array("d"), 0, None
    _sleep_until(t_go)
    t0 = time.monotonic()
    try:
        for b in batches:
            a = time.monotonic()
            coll.insert_many(b, ordered=True)
            lat.append(time.monotonic() - a)
            done += len(b)
    except pymongo.errors.PyMongoError as e:
        err = _err(e)
    return {"docs": done, "bytes": sum(len(r) for _, r in docs), "t_start": t0, "t_end": time.monotonic(),
            "lat": lat.tobytes(), "error": err}


def _point(coll, cmd, t_go):
    """find_one by _id ("id") or by the indexed k ("k"), random keys, no pauses."""
    ids, n = STATE["ids"], len(STATE["ids"])
    rng = random.Random(cmd["seed"])
    by_k = cmd["kind"] == "k"
    lat, missing, errors = array.array("d"), 0, {}
    for a, measured in _op_starts(cmd, t_go):
        j = rng.randrange(n)
        try:
            d = coll.find_one({"k": j} if by_k else {"_id": ids[j]})
        except pymongo.errors.PyMongoError as e:
            errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1
            continue
        if measured:
            lat.append(time.monotonic() - a)
            missing += d is None
    return {"ops": len(lat), "lat": lat.tobytes(), "missing": missing, "errors": errors}


def _scan(coll, cmd, t_go):
    """find({}) with batch_size, read to exhaustion, again and again; documents and bytes that
    arrive in the window are counted, and the duration of every scan that lies wholly in it."""
    docs = nbytes = 0
    scan_s, errors = [], {}
    _sleep_until(t_go)
    t_meas, t_end = t_go + cmd["warmup_s"], t_go + cmd["warmup_s"] + cmd["duration_s"]
    while time.monotonic() < t_end:
        a = time.monotonic()
        cur = coll.find({}, batch_size=cmd["batch_size"])
        complete = True
        try:
            for i, d in enumerate(cur):
                if i % 64 == 0:
                    now = time.monotonic()
                    if now >= t_end:
                        complete = False
                        break
                    counting = now >= t_meas
                if counting:
                    docs += 1
                    nbytes += len(d.raw)
        except pymongo.errors.PyMongoError as e:
            errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1
            complete = False
        finally:
            cur.close()
        if complete and a >= t_meas:
            scan_s.append(time.monotonic() - a)
    return {"docs": docs, "bytes": nbytes, "scan_s": scan_s, "errors": errors}


def _mixed(coll, cmd, t_go):
    """update_fraction update_one({_id}, {$set: {r: <int>}}), the rest find_one({_id})."""
    ids, n = STATE["ids"], len(STATE["ids"])
    rng = random.Random(cmd["seed"])
    frac = cmd["update_fraction"]
    lat = {"find": array.array("d"), "update": array.array("d")}
    missing, errors = 0, {}
    for a, measured in _op_starts(cmd, t_go):
        upd = rng.random() < frac
        _id = ids[rng.randrange(n)]
        try:
            if upd:
                r = coll.update_one({"_id": _id}, {"$set": {"r": rng.randrange(1 << 30)}})
                miss = r.matched_count == 0
            else:
                miss = coll.find_one({"_id": _id}) is None
        except pymongo.errors.PyMongoError as e:
            k = ("update: " if upd else "find: ") + type(e).__name__
            errors[k] = errors.get(k, 0) + 1
            continue
        if measured:
            lat["update" if upd else "find"].append(time.monotonic() - a)
            missing += miss
    return {"ops": sum(len(v) for v in lat.values()), "lat_find": lat["find"].tobytes(),
            "lat_update": lat["update"].tobytes(), "missing": missing, "errors": errors}


KINDS = {"load": _load, "id": _point, "k": _point, "scan": _scan, "mixed": _mixed}


def _op_starts(cmd, t_go):
    """From t_go, the start time of each next operation until the phase ends (no pauses), and
    whether it lies in the measured window (after the warm-up)."""
    _sleep_until(t_go)
    t_meas, t_end = t_go + cmd["warmup_s"], t_go + cmd["warmup_s"] + cmd["duration_s"]
    while True:
        a = time.monotonic()
        if a >= t_end:
            return
        yield a, a >= t_meas


def _sleep_until(t):
    d = t - time.monotonic()
    if d > 0:
        time.sleep(d)


def _worker(conn):
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's handler is not for us
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop
    try:
        while True:
            cmd = conn.recv()
            if cmd is None:
                return
            # A connection per command, closed while its server still runs: closing a client
            # whose server has gone waits serverSelectionTimeoutMS (30 s) to end its sessions.
            client = None
            try:
                try:
                    client = pymongo.MongoClient("127.0.0.1", cmd["port"], directConnection=True,
                                                 maxPoolSize=1, socketTimeoutMS=600_000)
                    client.admin.command("ping")
                    coll = client.get_database("bench", codec_options=RAW).get_collection("docs")
                except Exception as e:
                    conn.send({"error": _err(e)})
                    continue
                conn.send("ready")
                t_go = conn.recv()
                if t_go is None:
                    continue
                gc.collect()
                gc.disable()  # no collector pauses inside the timed loop
                try:
                    res = KINDS[cmd["kind"]](coll, cmd, t_go)
                except Exception as e:
                    res = {"error": _err(e)}
                finally:
                    gc.enable()
                client.close()  # before answering: the parent may stop the server next
                client = None
                conn.send(res)
            finally:
                if client is not None:
                    client.close()
    except (EOFError, OSError):
        return  # the parent went away


class ClientPool:
    """n forked worker processes; run() sends one command to all of them and gathers their
    answers. Create it before any server or pymongo client exists in this process."""

    def __init__(self, n):
        ctx = mp.get_context("fork")
        self.procs, self.conns, self.broken = [], [], False
        for _ in range(n):
            parent_end, child_end = ctx.Pipe()
            p = ctx.Process(target=_worker, args=(child_end,), daemon=True)
            p.start()
            child_end.close()
            self.procs.append(p)
            self.conns.append(parent_end)

    def run(self, cmds, alive, start_delay=0.3, timeout=None):
        """Sends cmds[i] to worker i, waits for every "ready", sets one t_go for all, returns
        (t_go, answers). alive() is polled while waiting; it raises if the server is gone. On
        any failure the workers' pending answers are drained (so the next command starts in
        step) before the error propagates; a worker that does not answer breaks the pool."""
        if self.broken:
            raise RuntimeError("the client pool is broken (a worker stopped answering)")
        stage = ["cmd"] * len(self.conns)  # what each worker owes: "cmd" (ready), "go" (result), None
        try:
            for c, cmd in zip(self.conns, cmds):
                c.send(cmd)
            errors = []
            for i, c in enumerate(self.conns):
                if not self._poll(c, 120, alive):
                    raise RuntimeError("a client process did not answer")
                msg = c.recv()
                stage[i] = "waiting" if msg == "ready" else None
                if msg != "ready":
                    errors.append(msg.get("error") if isinstance(msg, dict) else str(msg))
            if errors:
                raise RuntimeError(f"client processes could not connect: {errors[:2]}")
            t_go = time.monotonic() + start_delay
            for i, c in enumerate(self.conns):
                c.send(t_go)
                stage[i] = "go"
            out = []
            for i, c in enumerate(self.conns):
                if not self._poll(c, timeout, alive):
                    raise RuntimeError("a client process did not finish in time")
                out.append(c.recv())
                stage[i] = None
            return t_go, out
        except Exception:
            self._drain(stage, timeout)
            raise
        except BaseException:  # interrupted: no waiting, close() terminates the workers
            self.broken = True
            raise

    def _drain(self, stage, timeout):
        for i, c in enumerate(self.conns):
            try:
                if stage[i] == "waiting":
                    c.send(None)  # connected and waiting for t_go: release it
                elif stage[i] in ("cmd", "go"):
                    if not c.poll((timeout or 600) + 60):
                        self.broken = True
                        continue
                    if c.recv() == "ready" and stage[i] == "cmd":
                        c.send(None)
            except (OSError, EOFError):
                self.broken = True

    @staticmethod
    def _poll(c, timeout, alive):
        deadline = None if timeout is None else time.monotonic() + timeout
        while not c.poll(1.0):
            alive()
            if deadline is not None and time.monotonic() > deadline:
                return False
        return True

    def close(self):
        for c in self.conns:
            try:
                c.send(None)
            except OSError:
                pass
        for p in self.procs:
            p.join(0 if self.broken else 10)
            if p.is_alive():
                p.terminate()
                p.join(5)
        for c in self.conns:
            c.close()
        self.procs, self.conns = [], []
