"""Client processes of the covered-reads benchmark: a pool of N worker processes (spawned once,
kept for the whole run) that load documents or run one timed read phase against a server,
all starting at the same instant and running flat out (no pauses) until a common deadline.

Contract: ClientPool is driven by one thread of the parent; each call sends one command to
every worker and waits for all answers. Workers keep one MongoClient per port until forget().
"""
import multiprocessing
import random
import time
import traceback

START_LEAD_S = 0.3  # every worker is connected and waiting before the common start
MAX_ERRORS = 50     # a phase stops early once a worker has this many failed operations


def _worker(conn, index):
    import pymongo
    from bson.codec_options import CodecOptions
    from bson.raw_bson import RawBSONDocument

    import phases
    raw = CodecOptions(document_class=RawBSONDocument)
    clients, dataset = {}, {}

    def db(port):
        if port not in clients:
            clients[port] = pymongo.MongoClient("127.0.0.1", port, directConnection=True,
                                                socketTimeoutMS=600_000, maxPoolSize=1)
        return clients[port].get_database("bench", codec_options=raw)

    def wait_until(t):
        while (d := t - time.monotonic()) > 0:
            time.sleep(min(d, 0.05))

    def load(port, batch, start_at):
        coll = db(port)[phases.COLL]
        docs = [RawBSONDocument(r) for r in dataset["slice"]]
        lat = []
        wait_until(start_at)
        t0 = time.monotonic()
        for i in range(0, len(docs), batch):
            a = time.perf_counter()
            coll.insert_many(docs[i:i + batch], ordered=True)
            lat.append(time.perf_counter() - a)
        return {"docs": len(docs), "seconds": time.monotonic() - t0, "latency_s": lat}

    def prepare(port, name):
        phases.PHASES[name][0](db(port), dataset["keys"][0])  # connect, first round trip
        return True

    def phase(port, name, seed, start_at, seconds):
        op, size_kind, _ = phases.PHASES[name]
        keys, sizes = dataset["keys"], dataset["sizes"]
        d = db(port)
        rng = random.Random(seed)
        lat, wrong, errors, first_problem = [], 0, 0, None
        wait_until(start_at)
        deadline = start_at + seconds
        cpu0 = time.process_time()
        while time.monotonic() < deadline and errors < MAX_ERRORS:
            k = keys[rng.randrange(len(keys))]
            a = time.perf_counter()
            try:
                n = op(d, k)
            except Exception as e:  # recorded: a failed read is a finding, not a crash of the bench
                errors += 1
                first_problem = first_problem or f"{name} key={k!r}: {type(e).__name__}: {e}"
                continue
            lat.append(time.perf_counter() - a)
            if n != sizes[k][size_kind]:
                wrong += 1
                first_problem = first_problem or f"{name} key={k!r}: {n} results, expected {sizes[k][size_kind]}"
        end = time.monotonic()
        return {"ops": len(lat), "seconds": end - start_at, "latency_s": lat, "wrong": wrong,
                "errors": errors, "first_problem": first_problem,
                "client_cpu_s": time.process_time() - cpu0}

    while True:
        cmd, args = conn.recv()
        try:
            if cmd == "quit":
                break
            if cmd == "dataset":
                dataset = args
                out = True
            elif cmd == "load":
                out = load(**args)
            elif cmd == "prepare":
                out = prepare(**args)
            elif cmd == "phase":
                out = phase(**args)
            elif cmd == "forget":
                c = clients.pop(args["port"], None)
                if c is not None:
                    c.close()
                out = True
            else:
                raise ValueError(f"unknown command {cmd}")
            conn.send(("ok", out))
        except Exception:
            conn.send(("error", f"worker {index}: {traceback.format_exc()}"))
    for c in clients.values():
        c.close()


class ClientPool:
    """N spawned worker processes (spawn, not fork: the parent holds MongoClients)."""

    def __init__(self, n):
        ctx = multiprocessing.get_context("spawn")
        self.conns, self.procs = [], []
        for i in range(n):
            parent, child = ctx.Pipe()
            p = ctx.Process(target=_worker, args=(child, i), daemon=True)
            p.start()
            self.conns.append(parent)
            self.procs.append(p)

    def __len__(self):
        return len(self.conns)

    def _all(self, cmd, args_per_worker):
        """Sends cmd to every worker (None: it was sent already) and collects the answers."""
        for conn, args in zip(self.conns, args_per_worker):
            if cmd is not None:
                conn.send((cmd, args))
        out = []
        for conn in self.conns:
            status, val = conn.recv()
            if status != "ok":
                raise RuntimeError(val)
            out.append(val)
        return out

    def set_dataset(self, docs, keys, sizes):
        """Worker i loads docs[i::n] (file order within its share); all read the same keys."""
        n = len(self)
        self._all("dataset", [{"slice": [raw for _, _, raw in docs[i::n]], "keys": keys, "sizes": sizes}
                              for i in range(n)])

    def load(self, port, batch):
        """Every worker inserts its share with insert_many(batch) flat out; returns the answers."""
        start = time.monotonic() + START_LEAD_S + 0.5
        return self._all("load", [{"port": port, "batch": batch, "start_at": start}] * len(self))

    def start_phase(self, port, name, seed, seconds):
        """Starts one timed phase: every worker connects and sends one operation, then all run
        from a common instant (returned, time.monotonic()) for `seconds`; worker i draws keys
        from Random(f"{seed}:{i}"). finish_phase() collects the answers."""
        self._all("prepare", [{"port": port, "name": name}] * len(self))
        start = time.monotonic() + START_LEAD_S
        for i, conn in enumerate(self.conns):
            conn.send(("phase", {"port": port, "name": name, "seed": f"{seed}:{i}", "start_at": start,
                                 "seconds": seconds}))
        return start

    def finish_phase(self):
        return self._all(None, [None] * len(self))

    def forget(self, port):
        self._all("forget", [{"port": port}] * len(self))

    def close(self):
        for conn in self.conns:
            try:
                conn.send(("quit", None))
            except OSError:
                pass
        for p in self.procs:
            p.join(10)
            if p.is_alive():
                p.terminate()
                p.join()
