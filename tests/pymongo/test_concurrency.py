"""Many clients at once: 50 threads with their own connections doing writes and reads,
atomic $inc under contention, and a burst of raw connections."""
import threading

import pymongo

import wire
from conftest import URI, host_port

THREADS = 50


def test_fifty_concurrent_clients(client):
    coll_name = "concurrent"
    client.pytest_concurrency[coll_name].drop()
    barrier = threading.Barrier(THREADS)
    errors = []

    def worker(t):
        try:
            c = pymongo.MongoClient(URI, maxPoolSize=1, serverSelectionTimeoutMS=20000)
            coll = c.pytest_concurrency[coll_name]
            c.admin.command("ping")
            barrier.wait(timeout=60)
            for i in range(100):
                coll.insert_one({"_id": "%d-%d" % (t, i), "t": t, "i": i})
            assert coll.count_documents({"t": t}) == 100
            for i in range(0, 100, 10):
                coll.update_one({"_id": "%d-%d" % (t, i)}, {"$set": {"seen": True}})
            assert len(list(coll.find({"t": t, "seen": True}))) == 10
            c.close()
        except Exception as e:  # reported below
            errors.append("thread %d: %r" % (t, e))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
    assert not errors, errors[:5]
    coll = client.pytest_concurrency[coll_name]
    assert coll.count_documents({}) == THREADS * 100
    assert coll.count_documents({"seen": True}) == THREADS * 10
    client.drop_database("pytest_concurrency")


def test_connections_are_counted(client):
    clients = [pymongo.MongoClient(URI, maxPoolSize=1, serverSelectionTimeoutMS=10000) for _ in range(THREADS)]
    try:
        for c in clients:
            c.admin.command("ping")
        current = client.admin.command("serverStatus")["connections"]["current"]
        # Each client holds a monitoring connection and a pooled one.
        assert current >= THREADS, current
    finally:
        for c in clients:
            c.close()


def test_inc_is_atomic_under_contention(client):
    coll = client.pytest_concurrency.counter
    coll.drop()
    coll.insert_one({"_id": 1, "n": 0})
    errors = []

    def worker():
        try:
            c = pymongo.MongoClient(URI, maxPoolSize=1, serverSelectionTimeoutMS=20000)
            for _ in range(100):
                c.pytest_concurrency.counter.update_one({"_id": 1}, {"$inc": {"n": 1}})
            c.close()
        except Exception as e:
            errors.append(repr(e))

    threads = [threading.Thread(target=worker) for _ in range(20)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
    assert not errors, errors[:5]
    assert coll.find_one({"_id": 1})["n"] == 2000
    client.drop_database("pytest_concurrency")


def test_shared_client_many_threads_with_unique_index(client):
    coll = client.pytest_concurrency.uniq
    coll.drop()
    coll.create_index("k", unique=True)
    wins = []
    lock = threading.Lock()

    def worker(t):
        for k in range(50):
            try:
                coll.insert_one({"k": k, "t": t})
                with lock:
                    wins.append(k)
            except pymongo.errors.DuplicateKeyError:
                pass

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(16)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
    assert sorted(wins) == list(range(50)), "exactly one insert per key wins"
    assert coll.count_documents({}) == 50
    client.drop_database("pytest_concurrency")


def test_burst_of_raw_connections():
    host, port = host_port()
    socks = []
    try:
        for _ in range(200):
            socks.append(wire.connect(host, port))
        for i, s in enumerate(socks):
            s.sendall(wire.op_msg({"hello": 1, "$db": "admin"}, request_id=i + 1))
        for i, s in enumerate(socks):
            _, doc, response_to, _ = wire.read_reply(s)
            assert response_to == i + 1 and doc["ok"] == 1.0
    finally:
        for s in socks:
            s.close()
