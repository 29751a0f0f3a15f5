"""The TTL monitor on servers of its own: ttlMonitorSleepSecs set at startup (--setParameter),
expiry with and without --dedup (the dedup layer's chains and reference counts stay consistent),
a TTL index that survives a restart, a large expiry done in batches while clients keep writing,
and a clean shutdown while the monitor is deleting."""
import datetime
import time

import pytest

OLD = datetime.datetime(2000, 1, 1)


def wait_for(fn, timeout=30, what="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if fn():
            return
        time.sleep(0.1)
    raise AssertionError("timed out waiting for " + what)


def versions(n, expired_every=2):
    """Similar documents (so that --dedup stores them as deltas), every other one expired."""
    body = " ".join("word%d" % (i % 97) for i in range(2000))
    return [{"_id": i, "body": body[: 4000 + i] + " edit %d" % i,
             "exp": OLD if i % expired_every else datetime.datetime(2100, 1, 1)} for i in range(n)]


@pytest.mark.parametrize("extra", [[], ["--dedup"]], ids=["plain", "dedup"])
def test_expiry_at_startup_sleep_secs_and_restart(mongod_factory, extra):
    m = mongod_factory(["--setParameter", "ttlMonitorSleepSecs=1"] + extra)
    with m.client() as c:
        assert c.admin.command("getParameter", 1, ttlMonitorSleepSecs=1)["ttlMonitorSleepSecs"] == 1
        coll = c.ttl.c
        coll.insert_many(versions(200))
        coll.create_index("exp", expireAfterSeconds=0)
        wait_for(lambda: coll.count_documents({}) == 100, what="expired documents deleted")
        assert sorted(d["_id"] for d in coll.find({}, {"_id": 1})) == list(range(0, 200, 2))
        v = c.ttl.command("validate", "c", full=True)
        assert v["valid"], v
        if "--dedup" in extra:
            assert v["dedup"]["refCountMismatches"] == 0 and v["dedup"]["undecodableRecords"] == 0, v
        ttl = c.admin.command("serverStatus")["metrics"]["ttl"]
        assert ttl["deletedDocuments"] >= 100 and ttl["passes"] >= 1 and ttl["subPasses"] >= ttl["passes"], ttl
    # The index keeps expiring documents after a restart.
    assert m.stop() == 0
    m.start()
    with m.client() as c:
        c.ttl.c.insert_one({"_id": "late", "exp": OLD})
        wait_for(lambda: c.ttl.c.count_documents({"_id": "late"}) == 0, what="expiry after restart")
        assert c.ttl.c.count_documents({}) == 100


def test_batches_interleave_with_clients_and_shutdown_is_clean(mongod_factory):
    m = mongod_factory(["--setParameter", "ttlMonitorSleepSecs=1", "--setParameter", "ttlIndexDeleteTargetDocs=500"])
    with m.client() as c:
        coll = c.ttl.big
        docs = [{"_id": i, "exp": OLD, "pad": "x" * 200} for i in range(10000)]
        for i in range(0, len(docs), 5000):
            coll.insert_many(docs[i:i + 5000])
        coll.create_index("exp", expireAfterSeconds=0)
        # Clients write while the monitor deletes in batches of 500 (sub-passes).
        wait_for(lambda: coll.count_documents({}) < 10000, what="the first deletes")
        start = time.time()
        c.ttl.other.insert_many([{"_id": i} for i in range(200)])
        assert time.time() - start < 10, "client writes must not wait for the whole expiry"
        wait_for(lambda: coll.count_documents({}) == 0, timeout=120, what="everything expired")
        assert c.admin.command("serverStatus")["metrics"]["ttl"]["deletedDocuments"] >= 10000
        # A shutdown while the monitor is deleting stops it between documents.
        coll.insert_many([{"_id": i, "exp": OLD, "pad": "x" * 200} for i in range(10000)])
        wait_for(lambda: coll.count_documents({}) < 10000, what="deletes of the second batch")
    assert m.stop() == 0, m.tail()
    assert "Finished shutting down TTL collection monitor thread" in open(m.log_path).read()
