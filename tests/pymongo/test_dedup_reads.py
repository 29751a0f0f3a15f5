"""Reads of deduplicated records (issue 16): records stored as deltas read back exactly, through
the decoded record cache (--dedupReadCacheMB) that reads share; a scan decodes each base once;
serverStatus().dedup.reads counts what reads cost and explain's executionStats.dedupReads shows
one query's share; updates of records that others decode through are never served stale.

These tests start servers of their own (options, clean counters), so they run in the pymongo
suite only.
"""
import os
import threading

import pytest
from conftest import run_mongod
from dedup_helpers import history, wait_settled

pytestmark = pytest.mark.skipif(os.environ.get("RESMOKE_SUITE") == "pymongo_dedup",
                                reason="starts its own --dedup servers; run once, in the pymongo suite")


def load_versions(client, articles=6, versions=40, seed=3):
    """Histories of `articles` documents, interleaved; returns them by _id, once encoded."""
    coll = client.rd.c
    hist = [history(a, versions, seed) for a in range(articles)]
    docs = [h[v] for v in range(versions) for h in hist]
    for i in range(0, len(docs), 20):
        coll.insert_many(docs[i:i + 20])
    status = wait_settled(client)
    assert status["recordsEncoded"] >= len(docs) // 2, status
    return {d["_id"]: d for d in docs}


def reads(client):
    return client.admin.command("serverStatus")["dedup"]["reads"]


def explain_find(client, flt):
    return client.rd.command("explain", {"find": "c", "filter": flt}, verbosity="executionStats")["executionStats"]


def test_reads_are_exact_and_counted(mongod_factory):
    m = mongod_factory(["--dedup"])
    client = m.client()
    docs = load_versions(client)
    before = reads(client)
    for _id, doc in docs.items():
        assert client.rd.c.find_one({"_id": _id}) == doc
    after = reads(client)
    n = after["records"] - before["records"]
    assert n == len(docs)
    assert after["decodedRecords"] - before["decodedRecords"] > len(docs) // 2, after
    hist = after["deltasPerRead"]
    assert sum(hist.values()) == after["records"], after
    assert after["maxDeltasPerRead"] >= 1
    cache = after["cache"]
    assert cache["capacityBytes"] == 32 << 20
    assert 0 < cache["bytes"] <= cache["capacityBytes"], cache
    assert cache["hits"] > 0 and cache["entries"] > 0, cache
    # Read again: now the records come whole from the cache, with no delta applied.
    mid = reads(client)
    for _id, doc in docs.items():
        assert client.rd.c.find_one({"_id": _id}) == doc
    again = reads(client)
    assert again["deltasApplied"] - mid["deltasApplied"] < (again["decodedRecords"] - mid["decodedRecords"]) // 4, again
    assert again["cacheServed"] > mid["cacheServed"]


def test_a_scan_decodes_each_base_once(mongod_factory):
    m = mongod_factory(["--dedup"])
    client = m.client()
    docs = load_versions(client, articles=4, versions=60)
    got = list(client.rd.c.find({}).sort("$natural", 1))
    assert len(got) == len(docs)
    for d in got:
        assert d == docs[d["_id"]]
    # A cold cache (restart), then one scan under explain: every record stored as a delta is
    # rebuilt once, as the target or as a base on the way, never once per record.
    m.restart()
    client = m.client()
    es = explain_find(client, {})
    dr = es["dedupReads"]
    assert dr["records"] == len(docs) == es["nReturned"]
    assert dr["decodedRecords"] > len(docs) // 2, dr
    assert dr["deltasApplied"] <= dr["decodedRecords"], dr
    assert dr["cacheHits"] > 0, dr


def test_without_the_cache_reads_still_exact_and_cost_more(mongod_factory):
    m = mongod_factory(["--dedup", "--dedupReadCacheMB", "0"])
    client = m.client()
    docs = load_versions(client, articles=4, versions=60)
    es = explain_find(client, {})
    dr = es["dedupReads"]
    assert dr["cacheHits"] == 0 and dr["decodedRecords"] > 0, dr
    assert dr["deltasApplied"] > dr["decodedRecords"], dr
    for d in client.rd.c.find({}):
        assert d == docs[d["_id"]]
    cache = reads(client)["cache"]
    assert cache["capacityBytes"] == 0 and cache["bytes"] == 0 and cache["entries"] == 0, cache
    opts = client.admin.command("getCmdLineOpts")["parsed"]
    assert opts["storage"]["dedup"]["readCacheMB"] == 0


def test_explain_omits_dedup_reads_for_plain_collections(mongod_factory):
    m = mongod_factory([])
    client = m.client()
    client.rd.c.insert_many([{"_id": i} for i in range(10)])
    assert "dedupReads" not in explain_find(client, {})


def test_updated_records_are_never_served_stale(mongod_factory):
    """Writers replace records the cache holds (decoded by earlier reads) and insert the next
    version of each, so the replaced record is soon stored as a delta again, while readers read
    everything: each read returns a version the record really had, and once the writers stop,
    the last one."""
    m = mongod_factory(["--dedup"])
    client = m.client()
    docs = load_versions(client, articles=3, versions=40)
    for d in client.rd.c.find({}):  # the cache now holds the records stored as deltas
        assert d == docs[d["_id"]]
    valid = {_id: [d] for _id, d in docs.items()}
    targets = sorted(docs)[::3]
    stop = threading.Event()
    errors = []
    lock = threading.Lock()

    def writer(seed):
        try:
            coll = m.client().rd.c
            r = 0
            while not stop.is_set() and r < 3:
                for _id in targets[seed::2]:
                    cur = valid[_id][-1]
                    new = dict(cur, body=cur["body"] + " edit %d" % r, rev=r)
                    nxt = dict(new, _id="%s-next%d" % (_id, r), body=new["body"] + " next")
                    with lock:
                        valid[_id].append(new)
                        valid[nxt["_id"]] = [nxt]
                    coll.replace_one({"_id": _id}, new)
                    coll.insert_one(nxt)
                r += 1
        except Exception as e:
            errors.append(e)

    def reader():
        try:
            coll = m.client().rd.c
            while not stop.is_set():
                for d in coll.find({}):
                    with lock:
                        ok = d in valid[d["_id"]]
                    if not ok:
                        errors.append(AssertionError("read %s as a version it never had" % d["_id"]))
                        return
        except Exception as e:
            errors.append(e)

    writers = [threading.Thread(target=writer, args=(i,)) for i in range(2)]
    readers = [threading.Thread(target=reader) for _ in range(2)]
    for t in writers + readers:
        t.start()
    for t in writers:
        t.join(120)
    stop.set()
    for t in readers:
        t.join(60)
    assert not errors, errors[:3]
    wait_settled(client)
    status = client.admin.command("serverStatus")["dedup"]
    assert status["reads"]["cache"]["hits"] > 0, status["reads"]
    for d in client.rd.c.find({}):
        assert d == valid[d["_id"]][-1]
    for _id in valid:
        assert client.rd.c.find_one({"_id": _id}) == valid[_id][-1]
    v = client.rd.command("validate", "c", full=True)
    assert v["valid"], v


def test_deletes_and_drop_recreate_read_back_right(mongod_factory):
    m = mongod_factory(["--dedup"])
    client = m.client()
    docs = load_versions(client, articles=3, versions=30)
    for d in client.rd.c.find({}):  # fill the cache
        assert d == docs[d["_id"]]
    gone = sorted(docs)[::2]
    client.rd.c.delete_many({"_id": {"$in": gone}})
    left = {k: v for k, v in docs.items() if k not in gone}
    assert {d["_id"]: d for d in client.rd.c.find({})} == left
    client.rd.c.drop()
    again = load_versions(client, articles=3, versions=30, seed=9)
    assert {d["_id"]: d for d in client.rd.c.find({})} == again


@pytest.mark.parametrize("value", ["-1", "abc", "1048577"])
def test_read_cache_option_is_validated(mongod_bin, tmp_path, value):
    code, out, err = run_mongod(mongod_bin, ["--dedup", "--dedupReadCacheMB", value], tmp_path)
    assert code == 2, (code, out, err)
    assert "dedupReadCacheMB" in out + err or "readCacheMB" in out + err
