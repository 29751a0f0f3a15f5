"""mongod --dedup under sustained concurrent load: several clients insert versioned documents
as fast as they can (insert_many, no pauses). The encoder keeps pace beside them, so the
collection's file stays near the deduplicated size while they load, with no compact; the
space that write-backs free inside the file is reported (collStats/dbStats freeStorageSize)
and reused; a full backlog is handled as --dedupBacklogPolicy says; every document reads back
as written.

These tests start servers of their own, so they run in the pymongo suite only.
"""
import os
import random
import threading
import time

import pytest
from conftest import run_mongod
from dedup_helpers import ARTICLES, history, wait_settled

pytestmark = pytest.mark.skipif(os.environ.get("RESMOKE_SUITE") == "pymongo_dedup",
                                reason="starts its own --dedup servers; run once, in the pymongo suite")

def load(client, dbname, per_client, clients, versions, seed=1, batch=20):
    """`clients` threads, each inserting the histories of its own articles, interleaved,
    insert_many(batch) after insert_many with no pause. Returns every inserted document."""
    docs_of = []
    for c in range(clients):
        mine = [history(a, versions, seed) for a in range(c, ARTICLES * clients, clients)][:per_client]
        interleaved = [h[v] for v in range(versions) for h in mine]
        docs_of.append(interleaved)
    errors = []

    def run(docs):
        try:
            coll = client[dbname].c
            for i in range(0, len(docs), batch):
                coll.insert_many(docs[i:i + batch])
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(d,)) for d in docs_of]
    for t in threads:
        t.start()
    return threads, errors, [d for docs in docs_of for d in docs]


def forget_saved_state(dbpath):
    """Removes the dedup state a clean shutdown saves (test_dedup_saved_state.py), so that the
    next start-up rebuilds it from the stored records, as after a crash."""
    path = os.path.join(dbpath, "dedup-state.saved")
    assert os.path.exists(path), "a clean shutdown saves the dedup state"
    os.remove(path)


def restart_when_rebuilt(mongod_factory, m, timeout):
    """Stops m cleanly, starts --dedup again on its data with the engine's state rebuilt from the
    stored records (not from the state saved at shutdown) and waits until the start-up rebuild
    says ready. Returns the new server's client."""
    dbpath = m.dbpath
    assert m.stop() == 0
    forget_saved_state(dbpath)
    client = mongod_factory(["--dedup"], dbpath=dbpath).client()
    deadline = time.time() + timeout
    while not client.admin.command("serverStatus")["dedup"]["startupRebuild"]["ready"]:
        assert time.time() < deadline
        time.sleep(0.1)
    return client


def test_concurrent_loaders_keep_files_near_dedup_size(mongod_factory):
    # Checkpoints every 2 s (MongoDB's default is 60): the file is written, and its free space
    # reused, many times during the load.
    m = mongod_factory(["--dedup", "--wiredTigerCollectionBlockCompressor", "zstd", "--syncdelay", "2"])
    client = m.client()
    client.ld.create_collection("c")
    threads, errors, docs = load(client, "ld", per_client=4, clients=4, versions=60)
    peak_storage = 0
    peak_backlog = 0
    while any(t.is_alive() for t in threads):
        stats = client.ld.command("collStats", "c")
        peak_storage = max(peak_storage, stats["storageSize"])
        peak_backlog = max(peak_backlog, client.admin.command("serverStatus")["dedup"]["backlog"]["bytes"])
        time.sleep(0.1)
    for t in threads:
        t.join()
    assert not errors, errors
    logical = sum(len(d["body"]) for d in docs)
    status = wait_settled(client)
    assert status["backlog"]["storedRaw"] == 0, status["backlog"]
    assert status["recordsEncoded"] > len(docs) // 2, status
    assert peak_backlog <= status["backlog"]["maxBytes"], (peak_backlog, status["backlog"])
    # Two checkpoints after the last write-back: the file holds what the engine stores.
    time.sleep(5)
    stats = client.ld.command("collStats", "c")
    print("logical %d B, engine stored %d B, file %d B (peak during load %d B), free %d B" %
          (logical, status["storedBytes"], stats["storageSize"], peak_storage, stats["freeStorageSize"]))
    assert stats["storageSize"] < logical / 5, stats
    assert peak_storage < logical / 2, (peak_storage, logical)
    assert stats["storageSize"] <= 2 * status["storedBytes"] + (1 << 20), (stats, status["storedBytes"])
    # Every document reads back as written.
    got = {d["_id"]: d for d in client.ld.c.find()}
    assert len(got) == len(docs)
    for d in docs:
        assert got[d["_id"]] == d


def test_deduplicated_collections_use_their_own_page_layout(mongod_factory):
    # Pages of a deduplicated collection shrink to a few hundred bytes per record once their
    # write-backs land: 512-byte allocation units, 64 KB leaf pages, and first-fit allocation
    # so the space rewritten pages free gathers at the end of the file (where a checkpoint
    # gives it back). collStats shows the table's creation string, as MongoDB does.
    dedup = mongod_factory(["--dedup"]).client()
    dedup.pl.create_collection("c")
    wt = dedup.pl.command("collStats", "c")["wiredTiger"]
    assert wt["type"] == "file" and wt["uri"].startswith("statistics:table:collection-"), wt
    config = wt["creationString"]
    for setting in ("allocation_size=512B", "leaf_page_max=65536B", "block_allocation=first",
                    "block_compressor=snappy"):
        assert setting in config, (setting, config)
    plain = mongod_factory([]).client()
    plain.pl.create_collection("c")
    config = plain.pl.command("collStats", "c")["wiredTiger"]["creationString"]
    assert "block_allocation=best" in config and "allocation_size=4KB" in config, config


def test_write_backs_free_space_that_is_reported_and_reused(mongod_factory):
    m = mongod_factory(["--dedup", "--syncdelay", "0", "--dedupAutoCompact=false"])
    client = m.client()
    coll = client.fs.c
    rounds = 8
    hist = [history(a, rounds, seed=7) for a in range(200)]
    # Round by round, each article's newest version reaches the disk raw (a checkpoint); the
    # next round's write-backs store it as a delta, freeing its raw bytes inside the file.
    sizes = []
    for r in range(rounds):
        coll.insert_many([h[r] for h in hist])
        wait_settled(client)
        client.admin.command("fsync")
        client.admin.command("fsync")
        stats = client.fs.command("collStats", "c")
        sizes.append((stats["storageSize"], stats["freeStorageSize"]))
        if r == 1:
            db_stats = client.fs.command("dbStats", freeStorage=1)
            assert db_stats["freeStorageSize"] == stats["freeStorageSize"], db_stats
            assert db_stats["totalFreeStorageSize"] >= db_stats["freeStorageSize"], db_stats
            assert "freeStorageSize" not in client.fs.command("dbStats")
    print("file and free bytes after each round: %r" % sizes)
    raw_round = sum(len(h[0]["body"]) for h in hist)
    # The write-backs freed space, and collStats says so.
    assert max(free for _, free in sizes[1:]) > raw_round // 4, sizes
    # Later rounds fill the freed space: the free space does not pile up round after round,
    # and the file grows by much less than a raw round per round.
    assert sizes[-1][1] < 2 * max(free for _, free in sizes[1:3]), sizes
    assert sizes[-1][0] - sizes[1][0] < (rounds - 2) * raw_round // 3, sizes
    assert coll.count_documents({}) == 200 * rounds


@pytest.mark.parametrize("policy", ["throttle", "storeRaw"])
def test_full_backlog_follows_the_policy(mongod_factory, policy):
    m = mongod_factory(["--dedup", "--dedupBacklogMB", "1", "--dedupBacklogPolicy", policy])
    client = m.client()
    threads, errors, docs = load(client, "bp", per_client=4, clients=6, versions=25)
    for t in threads:
        t.join()
    assert not errors, errors
    status = wait_settled(client)
    backlog = status["backlog"]
    assert backlog["policy"] == policy and backlog["maxBytes"] == 1 << 20, backlog
    if policy == "throttle":
        # Writers waited for room rather than have a record skip deduplication.
        assert backlog["storedRaw"] == 0, backlog
    else:
        assert backlog["throttledWrites"] == 0, backlog
        # Inserts past the bound were stored whole, then deduplicated when the encoder got to
        # them (test_inserts_past_a_full_backlog_are_deduplicated_later holds the encoder).
        assert backlog["storedRaw"] == 0, backlog
        assert status["recordsExamined"] == len(docs), status
    # Whatever the policy did, every document is there and reads back as written.
    got = {d["_id"]: d for d in client.bp.c.find()}
    assert len(got) == len(docs)
    for d in docs:
        assert got[d["_id"]] == d
    assert client.bp.command("validate", "c", full=True)["valid"]


def test_inserts_past_a_full_backlog_are_deduplicated_later(mongod_factory):
    """storeRaw: with the encoder held, inserts past --dedupBacklogMB are stored whole at once
    (the writer never waits) and set aside past the bound; once the encoder runs they are
    deduplicated like the rest, after the backlog."""
    m = mongod_factory(["--dedup", "--dedupBacklogMB", "1"])
    client = m.client()
    client.admin.command("configureFailPoint", "hangDedupEncoder", mode="alwaysOn")
    hist = [history(a, 12, seed=3) for a in range(40)]
    docs = [h[v] for v in range(12) for h in hist]
    for i in range(0, len(docs), 20):
        client.bl.c.insert_many(docs[i:i + 20])
    logical = sum(len(d["body"]) for d in docs)
    assert logical > 2 << 20, logical  # well past the 1 MB bound
    backlog = client.admin.command("serverStatus")["dedup"]["backlog"]
    assert backlog["inserts"] == len(docs), backlog
    assert 0 < backlog["bytes"] <= backlog["maxBytes"] + max(len(d["body"]) for d in docs) + 1024, backlog
    assert backlog["deferred"] > 0 and backlog["deferredBytes"] > 0, backlog
    assert backlog["deferred"] == backlog["deferredTotal"], backlog
    assert backlog["storedRaw"] == 0 and backlog["throttledWrites"] == 0, backlog
    client.admin.command("configureFailPoint", "hangDedupEncoder", mode="off")
    status = wait_settled(client)
    assert status["recordsExamined"] == len(docs), status
    assert status["recordsEncoded"] >= len(docs) - 2 * len(hist), status
    assert status["backlog"]["deferred"] == 0 and status["backlog"]["deferredBytes"] == 0, status["backlog"]
    got = {d["_id"]: d for d in client.bl.c.find()}
    assert all(got[d["_id"]] == d for d in docs)


@pytest.mark.parametrize("args", [["--dedupBacklogPolicy", "drop"], ["--dedupBacklogMB", "0"],
                                  ["--dedupBacklogMB", "5000"]])
def test_backlog_options_are_validated(mongod_bin, tmp_path, args):
    code, out, err = run_mongod(mongod_bin, ["--dedup"] + args, tmp_path)
    assert code == 2, (code, out[-2000:], err[-2000:])
    assert "storage.dedup.backlog" in err, (out[-2000:], err[-2000:])


def test_auto_compact_command(mongod_factory):
    m = mongod_factory(["--dedup"])
    admin = m.client().admin
    # On by default under --dedup: starting it again is refused until it is stopped.
    with pytest.raises(Exception) as e:
        admin.command("autoCompact", True)
    assert e.value.code == 314, e.value.details
    assert admin.command("autoCompact", False)["ok"] == 1
    assert admin.command("autoCompact", False)["ok"] == 1
    assert admin.command({"autoCompact": True, "freeSpaceTargetMB": 1, "runOnce": False})["ok"] == 1
    with pytest.raises(Exception) as e:
        admin.command("autoCompact", 1)
    assert e.value.code == 14
    with pytest.raises(Exception) as e:
        admin.command({"autoCompact": False, "freeSpaceTargetMB": 0})
    assert e.value.code == 2
    with pytest.raises(Exception) as e:
        admin.command({"autoCompact": False, "bogus": 1})
    assert e.value.code == 40415
    with pytest.raises(Exception) as e:
        m.client().other.command("autoCompact", False)
    assert e.value.code == 13


def test_startup_serves_while_dedup_state_rebuilds(mongod_factory):
    m = mongod_factory(["--dedup"])
    client = m.client()
    hist = [history(a, 30, seed=11) for a in range(40)]
    docs = [h[v] for v in range(30) for h in hist]
    for i in range(0, len(docs), 100):
        client.rb.c.insert_many(docs[i:i + 100])
    before = wait_settled(client)
    assert before["recordsEncoded"] > len(docs) // 2, before
    dbpath = m.dbpath
    assert m.stop() == 0
    forget_saved_state(dbpath)
    # The rebuild held before its first step: the server answers and serves reads anyway.
    m = mongod_factory(["--dedup", "--setParameter", 'failpoint.hangDedupRebuildBeforeLinks={"mode": "alwaysOn"}'],
                       dbpath=dbpath)
    client = m.client()
    assert client.admin.command("ping")["ok"] == 1
    rebuild = client.admin.command("serverStatus")["dedup"]["startupRebuild"]
    assert rebuild["state"] == "links" and rebuild["ready"] is False, rebuild
    got = {d["_id"]: d for d in client.rb.c.find()}
    assert len(got) == len(docs) and all(got[d["_id"]] == d for d in docs)
    client.rb.c.insert_one({"_id": "during", "body": "inserted while the rebuild waits"})
    # Updates must know who decodes through the record they change: they wait for the links.
    r = client.rb.command("update", "c", updates=[{"q": {"_id": docs[0]["_id"]}, "u": {"$set": {"x": 1}}}],
                          maxTimeMS=300)
    assert r["nModified"] == 0 and r["writeErrors"][0]["code"] == 50, r
    # Let it go on, holding it again before the features are indexed.
    client.admin.command("configureFailPoint", "hangDedupRebuildBeforeIndexing", mode="alwaysOn")
    client.admin.command("configureFailPoint", "hangDedupRebuildBeforeLinks", mode="off")
    deadline = time.time() + 30
    while client.admin.command("serverStatus")["dedup"]["startupRebuild"]["state"] != "indexing":
        assert time.time() < deadline
        time.sleep(0.05)
    assert client.rb.c.update_one({"_id": docs[0]["_id"]}, {"$set": {"x": 1}}).modified_count == 1
    client.admin.command("configureFailPoint", "hangDedupRebuildBeforeIndexing", mode="off")
    while not client.admin.command("serverStatus")["dedup"]["startupRebuild"]["ready"]:
        assert time.time() < deadline
        time.sleep(0.05)
    rebuild = client.admin.command("serverStatus")["dedup"]["startupRebuild"]
    assert rebuild["state"] == "done" and rebuild["records"] >= len(docs), rebuild
    assert 0 < rebuild["recordsIndexed"] <= rebuild["recordsToIndex"], rebuild
    log = open(m.log_path).read()
    for msg in ("Rebuilding dedup state from the stored records in the background", "Dedup links rebuilt",
                "Rebuilt dedup state"):
        assert msg in log, msg
    validate = client.rb.command("validate", "c", full=True)
    assert validate["valid"] and validate["dedup"]["refCountMismatches"] == 0, validate
    # Deduplication works after it: the next versions find their sources in the index.
    encoded = wait_settled(client)["recordsEncoded"]
    more = history(0, 33, seed=11)[30:] + history(1, 33, seed=11)[30:]
    client.rb.c.insert_many(more)
    assert wait_settled(client)["recordsEncoded"] >= encoded + len(more) - 1


def test_small_updates_keep_documents_deduplicated(mongod_factory):
    """An update stores the new bytes whole; once committed, the encoder stores them against the
    record's chain again. A round of small $set updates over every document must not undo the
    deduplication (it used to leave every updated document stored whole)."""
    m = mongod_factory(["--dedup"])
    client = m.client()
    coll = client.up.c
    hist = [history(a, 30, seed=5) for a in range(8)]
    docs = [h[v] for v in range(30) for h in hist]
    for i in range(0, len(docs), 20):
        coll.insert_many(docs[i:i + 20])
    wait_settled(client)

    def stored():
        d = client.up.command("collStats", "c")["dedup"]
        return d["storedSize"], d["logicalSize"]

    before, logical = stored()
    assert before < logical / 4, (before, logical)
    for n, d in enumerate(docs):
        coll.update_one({"_id": d["_id"]}, {"$set": {"touched": n}})
    status = wait_settled(client)
    assert status["updatesReencoded"] >= len(docs) // 2, status
    # Garbage collection passes (every 2 s once writes pause) move records off the retained old
    # versions; on a busy machine the first may come late.
    deadline = time.time() + 30
    while True:
        wait_settled(client)
        after, logical_after = stored()
        if after < logical_after / 3 or time.time() > deadline:
            break
        time.sleep(0.5)
    # Whole again is the logical size (what every update used to leave). Not yet back to where
    # it was: moving dependents off the retained old versions still stores some whole.
    assert after < logical_after / 3, (before, after, logical_after,
                                       client.admin.command("serverStatus")["dedup"],
                                       client.up.command("validate", "c", full=True).get("dedup"))
    for d in docs:
        got = coll.find_one({"_id": d["_id"]})
        assert got.pop("touched") is not None
        assert got == d
    v = client.up.command("validate", "c", full=True)
    assert v["valid"], v


def test_restart_with_many_records_restores_every_link(mongod_factory):
    """Start-up reads a large collection's stored forms as two id ranges on two threads (from
    50,000 records): the engine must learn every record's links exactly as before the restart,
    whichever range a record and its base fell in."""
    m = mongod_factory(["--dedup"])
    client = m.client()
    rng = random.Random(4)
    words = ["w%04d" % i for i in range(3000)]
    articles = [[rng.choice(words) for _ in range(120)] for _ in range(500)]
    n, batch = 0, []
    for v in range(110):
        for a, text in enumerate(articles):
            text[rng.randrange(len(text))] = rng.choice(words)  # one word changes per version
            batch.append({"_id": n, "a": a, "v": v, "body": " ".join(text)})
            n += 1
            if len(batch) == 1000:
                client.many.c.insert_many(batch)
                batch = []
    if batch:
        client.many.c.insert_many(batch)
    before = wait_settled(client, timeout=120)
    assert before["recordsEncoded"] > n // 2, before
    client = restart_when_rebuilt(mongod_factory, m, 60)
    after = wait_settled(client)
    assert after["startupRebuild"]["records"] == n, after["startupRebuild"]
    for k in ("logicalBytes", "storedBytes"):
        assert after[k] == before[k], (k, before[k], after[k])
    v = client.many.command("validate", "c", full=True)
    assert v["valid"] and v["dedup"]["refCountMismatches"] == 0, v
    for i in rng.sample(range(n), 300):
        d = client.many.c.find_one({"_id": i})
        assert d["_id"] == i and d["v"] == i // 500 and d["a"] == i % 500
    # Deduplication goes on against what the rebuild indexed.
    text = articles[7]
    text[0] = "changed"
    client.many.c.insert_one({"_id": n, "a": 7, "v": 110, "body": " ".join(text)})
    assert wait_settled(client)["recordsEncoded"] == after["recordsEncoded"] + 1


def test_restart_indexes_many_raw_records_on_two_threads(mongod_factory):
    """Start-up indexes the features of the records stored whole on two threads when there are
    50,000 or more: every one of them is indexed, from either half, and new versions of records
    in both halves are deduplicated against them."""
    m = mongod_factory(["--dedup"])
    client = m.client()
    rng = random.Random(11)
    n = 52000
    docs = [{"_id": i, "body": " ".join("%x" % rng.getrandbits(40) for _ in range(60))} for i in range(n)]
    for i in range(0, n, 2000):
        client.raw.c.insert_many(docs[i:i + 2000])
    wait_settled(client, timeout=120)
    client = restart_when_rebuilt(mongod_factory, m, 120)
    after = wait_settled(client)
    rebuild = after["startupRebuild"]
    assert rebuild["recordsToIndex"] >= 50000, rebuild
    assert rebuild["recordsIndexed"] == rebuild["recordsToIndex"], rebuild
    for i in (3, n - 3):
        client.raw.c.insert_one({"_id": n + i, "body": docs[i]["body"] + " and one more sentence"})
    assert wait_settled(client)["recordsEncoded"] == after["recordsEncoded"] + 2

