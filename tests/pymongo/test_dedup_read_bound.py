"""mongod --dedup: reading any document applies at most a small, fixed number of deltas
(serverStatus().dedup.maxDecodeSteps, --dedupMaxDecodeSteps; 29 for the default bounded-hop
chains at hop distance 16), whatever the length of the history, the updates and deletes in
between, concurrent writers, and across restarts.

The steps are checked on the stored forms: validate {full: true} reports dedup.longestChain,
the most deltas any stored record (live or retained) takes to decode, measured by following the
bases the stored forms name. serverStatus().dedup.longestChain is the engine's own figure (from
its last idle walk); both must stay within the bound.

test_long_history_on_the_suite_server runs in the pymongo_dedup suite, on its server; the others
start servers of their own and run once, in the pymongo suite.
"""
import os
import random
import threading
import time

import pytest
import dedup_helpers
from conftest import run_mongod

SUITE = os.environ.get("RESMOKE_SUITE")
DEFAULT_BOUND = 29  # 16 + floor(log_16(2^32 - 1)) + 16/2 - 2

own_servers = pytest.mark.skipif(SUITE == "pymongo_dedup",
                                 reason="starts its own --dedup servers; run once, in the pymongo suite")


def history(name, versions, seed):
    """Versions of one document, each a couple of words different from the one before."""
    return dedup_helpers.history(name, versions, seed, size_words=250, edits=2)


def load(coll, histories, batch=20, seed=1):
    """One writer thread per history, insert_many after insert_many; between batches each
    writer updates one of its older versions and deletes another."""
    errors = []

    def run(docs, wseed):
        rng = random.Random(wseed)
        try:
            for i in range(0, len(docs), batch):
                coll.insert_many(docs[i:i + batch])
                if i >= 2 * batch:
                    older = docs[rng.randrange(i)]["_id"]
                    coll.update_one({"_id": older}, {"$set": {"body": "edited " + older}})
                    coll.delete_one({"_id": docs[rng.randrange(i)]["_id"]})
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(h, seed * 100 + k)) for k, h in enumerate(histories)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def dedup_status(client):
    return client.admin.command("serverStatus")["dedup"]


def wait_settled(client, timeout=60):
    """Until start-up's rebuild is done and no insert or write-back waits."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = dedup_status(client)
        if s["startupRebuild"]["ready"] and s["backlog"]["inserts"] == 0 and s["writeBacks"]["pending"] == 0:
            return s
        time.sleep(0.1)
    raise AssertionError("dedup work still queued after %ds: %r" % (timeout, dedup_status(client)))


def stored_longest_chain(db, coll="c"):
    v = db.command("validate", coll, full=True)
    assert v["valid"], v
    assert v["dedup"]["undecodableRecords"] == 0, v
    return v["dedup"]["longestChain"]


def wait_within(client, db, bound, timeout=60):
    """Until validate's longest chain (on the stored forms) is within the bound: records found
    too deep at start-up are rewritten by the garbage collection passes (every 2 s)."""
    deadline = time.time() + timeout
    while True:
        wait_settled(client)
        longest = stored_longest_chain(db)
        if longest <= bound or time.time() > deadline:
            return longest
        time.sleep(0.5)


def engine_longest_chain(client, timeout=20):
    """serverStatus' figure, from a walk after the writes stopped (every 2 s when idle)."""
    walked_after = time.time() + 2.5
    deadline = time.time() + timeout
    while time.time() < walked_after and time.time() < deadline:
        time.sleep(0.25)
    return dedup_status(client)["longestChain"]


def expect_documents(coll, histories):
    """Every version not deleted reads back as written (or as updated)."""
    got = {d["_id"]: d for d in coll.find()}
    for h in histories:
        for d in h:
            if d["_id"] in got and not got[d["_id"]]["body"].startswith("edited "):
                assert got[d["_id"]] == d


@pytest.mark.skipif(SUITE != "pymongo_dedup", reason="needs the suite's --dedup server (pymongo_dedup)")
def test_long_history_on_the_suite_server(client, db):
    bound = dedup_status(client)["maxDecodeSteps"]
    assert bound == DEFAULT_BOUND
    histories = [history("a", 1200, 1), history("b", 300, 2), history("c", 300, 3)]
    load(db.c, histories)
    wait_settled(client)
    longest = stored_longest_chain(db)
    assert 8 <= longest <= bound, longest  # the chains grew, and stayed within the bound
    expect_documents(db.c, histories)


@own_servers
def test_long_history_and_restart_stay_within_the_bound(mongod_factory):
    m = mongod_factory(["--dedup"])
    client = m.client()
    db = client.rb
    s = dedup_status(client)
    assert s["chainScheme"] == "bounded-hop"
    assert s["maxDecodeSteps"] == DEFAULT_BOUND
    histories = [history("a", 1500, 11), history("b", 400, 12), history("c", 400, 13), history("d", 400, 14)]
    load(db.c, histories)
    wait_settled(client)
    longest = stored_longest_chain(db)
    assert 8 <= longest <= DEFAULT_BOUND, longest

    client.close()
    m.restart()
    client = m.client()
    db = client.rb
    wait_settled(client)
    assert stored_longest_chain(db) <= DEFAULT_BOUND
    more = [history("a2", 400, 21), history("b2", 200, 22)]
    load(db.c, more, seed=2)
    wait_settled(client)
    assert stored_longest_chain(db) <= DEFAULT_BOUND
    assert engine_longest_chain(client) <= DEFAULT_BOUND
    assert dedup_status(client)["ratio"] > 3
    expect_documents(db.c, histories + more)


@own_servers
def test_start_up_repairs_chains_longer_than_the_bound(mongod_factory):
    # hop chains have no bound: a long history decodes in dozens of steps.
    m = mongod_factory(["--dedup", "--dedupChainScheme", "hop"])
    client = m.client()
    db = client.rb
    assert dedup_status(client)["maxDecodeSteps"] == 0
    histories = [history("a", 700, 31), history("b", 200, 32)]
    load(db.c, histories)
    wait_settled(client)
    before = stored_longest_chain(db)
    assert before > DEFAULT_BOUND, before

    # Restarted with the default scheme: the records too deep are rewritten, in the background.
    client.close()
    m.extra_args = ["--dedup"]
    m.restart()
    client = m.client()
    db = client.rb
    assert wait_within(client, db, DEFAULT_BOUND) <= DEFAULT_BOUND
    assert dedup_status(client)["ratio"] > 3
    expect_documents(db.c, histories)

    # And with a smaller bound.
    client.close()
    m.extra_args = ["--dedup", "--dedupMaxDecodeSteps", "8"]
    m.restart()
    client = m.client()
    db = client.rb
    assert dedup_status(client)["maxDecodeSteps"] == 8
    assert wait_within(client, db, 8) <= 8
    expect_documents(db.c, histories)


@own_servers
def test_max_decode_steps_option(mongod_factory):
    m = mongod_factory(["--dedup", "--dedupMaxDecodeSteps", "4"])
    client = m.client()
    db = client.rb
    assert dedup_status(client)["maxDecodeSteps"] == 4
    parsed = client.admin.command("getCmdLineOpts")["parsed"]
    assert parsed["storage"]["dedup"]["maxDecodeSteps"] == 4
    histories = [history("a", 600, 41), history("b", 200, 42)]
    load(db.c, histories)
    wait_settled(client)
    assert 2 <= stored_longest_chain(db) <= 4
    assert dedup_status(client)["ratio"] > 2
    expect_documents(db.c, histories)


@own_servers
@pytest.mark.parametrize("value", ["-1", "65536", "ten"])
def test_bad_max_decode_steps_is_refused(mongod_bin, tmp_path, value):
    code, out, err = run_mongod(mongod_bin, ["--dedup", "--dedupMaxDecodeSteps", value], tmp_path)
    assert code == 2, (code, out[-2000:], err[-2000:])
    assert "maxDecodeSteps" in err, (out[-2000:], err[-2000:])
