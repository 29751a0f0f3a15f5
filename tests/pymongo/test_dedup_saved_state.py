"""The dedup engine's state saved at a clean shutdown (storage/dedup/dedup_saved_state.h): the
next start-up loads it instead of reading every stored record and sketching the raw ones,
removes the file before it accepts a write, and rebuilds from storage whatever the file does
not describe exactly (a crash, a damaged or stale file)."""
import os
import shutil
import time

from dedup_helpers import history, wait_settled

SAVED = "dedup-state.saved"


def load_versions(client, articles=12, versions=25, seed=3):
    hist = [history(a, versions, seed=seed) for a in range(articles)]
    docs = [h[v] for v in range(versions) for h in hist]
    for i in range(0, len(docs), 50):
        client.sv.c.insert_many(docs[i:i + 50])
    return docs


def wait_ready(client, timeout=60):
    deadline = time.time() + timeout
    while True:
        s = client.admin.command("serverStatus")["dedup"]
        if s["startupRebuild"]["ready"]:
            return wait_settled(client)
        assert time.time() < deadline, s["startupRebuild"]
        time.sleep(0.05)


def check_documents(client, docs):
    got = {d["_id"]: d for d in client.sv.c.find()}
    assert len(got) == len(docs)
    assert all(got[d["_id"]] == d for d in docs)
    v = client.sv.command("validate", "c", full=True)
    assert v["valid"] and v["dedup"]["refCountMismatches"] == 0, v


def test_clean_restart_loads_the_saved_state(mongod_factory):
    m = mongod_factory(["--dedup"])
    client = m.client()
    docs = load_versions(client)
    client.sv.c.delete_one({"_id": docs[len(docs) // 2]["_id"]})  # a retained record, if others decode through it
    del docs[len(docs) // 2]
    before = wait_settled(client)
    assert before["recordsEncoded"] > len(docs) // 2, before
    dbpath = m.dbpath
    assert m.stop() == 0
    assert os.path.exists(os.path.join(dbpath, SAVED))
    assert "Saved the dedup state for the next start-up" in open(m.log_path).read()

    m = mongod_factory(["--dedup"], dbpath=dbpath)
    client = m.client()
    # Taken (and its removal made durable) before the server answers.
    assert not os.path.exists(os.path.join(dbpath, SAVED))
    after = wait_ready(client)
    rebuild = after["startupRebuild"]
    assert rebuild["collectionsFromSavedState"] == 1, rebuild
    assert rebuild["records"] >= len(docs), rebuild
    assert rebuild["recordsIndexed"] > 0, rebuild
    for k in ("logicalBytes", "storedBytes"):
        assert after[k] == before[k], (k, before[k], after[k])
    log = open(m.log_path).read()
    assert "Loaded the dedup state saved at shutdown" in log
    assert "Dedup links rebuilt" not in log  # nothing read back from storage
    check_documents(client, docs)
    # Deduplication goes on against the loaded index.
    more = [history(a, 27, seed=3)[25:] for a in range(3)]
    more = [d for h in more for d in h]
    client.sv.c.insert_many(more)
    assert wait_settled(client)["recordsEncoded"] == after["recordsEncoded"] + len(more)
    check_documents(client, docs + more)


def loaded_and_stopped(mongod_factory, articles, versions):
    """A --dedup server loaded with load_versions(articles, versions), settled and stopped cleanly
    (so it saved its state). Returns (the stopped server, its documents)."""
    m = mongod_factory(["--dedup"])
    client = m.client()
    docs = load_versions(client, articles=articles, versions=versions)
    wait_settled(client)
    assert m.stop() == 0
    return m, docs


def restart_and_add_versions(mongod_factory, m, new_versions):
    """Restarts m (which saved its state) and inserts new_versions more versions of each of the
    6 articles of load_versions(articles=6, versions=20). Returns (server, the new documents)."""
    m = mongod_factory(["--dedup"], dbpath=m.dbpath)
    client = m.client()
    wait_ready(client)
    more = [d for a in range(6) for d in history(a, 20 + new_versions, seed=3)[20:]]
    client.sv.c.insert_many(more)
    wait_settled(client)
    return m, more


def test_after_a_crash_the_state_is_rebuilt_from_storage(mongod_factory):
    m, docs = loaded_and_stopped(mongod_factory, 6, 20)
    dbpath = m.dbpath
    m, more = restart_and_add_versions(mongod_factory, m, 2)
    m.kill9()  # no state saved, and the one taken at start-up is gone
    assert not os.path.exists(os.path.join(dbpath, SAVED))
    m = mongod_factory(["--dedup"], dbpath=dbpath)
    client = m.client()
    rebuild = wait_ready(client)["startupRebuild"]
    assert rebuild["collectionsFromSavedState"] == 0, rebuild
    assert rebuild["records"] >= len(docs) + len(more), rebuild
    check_documents(client, docs + more)


def restart_with_stale_state_and_check(mongod_factory, m, old_state, docs):
    """Kills m, puts the saved state old_state back, restarts: the state must be refused (the
    collection rebuilt from storage, said in the log) and every document read back as docs."""
    dbpath = m.dbpath
    m.kill9()
    shutil.copy(old_state, os.path.join(dbpath, SAVED))
    m = mongod_factory(["--dedup"], dbpath=dbpath)
    client = m.client()
    rebuild = wait_ready(client)["startupRebuild"]
    assert rebuild["collectionsFromSavedState"] == 0, rebuild
    assert "does not match a collection; rebuilding it from storage" in open(m.log_path).read()
    check_documents(client, docs)


def test_a_stale_saved_state_is_not_used(mongod_factory, tmp_path):
    """A saved state from before later writes (put back by hand) does not match the records:
    the collection is rebuilt from storage and every document reads back."""
    m, docs = loaded_and_stopped(mongod_factory, 6, 20)
    dbpath = m.dbpath
    shutil.copy(os.path.join(dbpath, SAVED), tmp_path / "old")
    m, more = restart_and_add_versions(mongod_factory, m, 3)
    restart_with_stale_state_and_check(mongod_factory, m, tmp_path / "old", docs + more)


def test_a_stale_saved_state_is_not_used_after_updates_in_the_middle(mongod_factory, tmp_path):
    """The same with no insert since: documents in the middle of the collection updated after
    the state was saved (record count unchanged, stored bytes not) are caught as well."""
    m, docs = loaded_and_stopped(mongod_factory, 6, 20)
    dbpath = m.dbpath
    shutil.copy(os.path.join(dbpath, SAVED), tmp_path / "old")
    m = mongod_factory(["--dedup"], dbpath=dbpath)
    client = m.client()
    wait_ready(client)
    for d in docs[len(docs) // 3:len(docs) // 3 + 5]:
        client.sv.c.update_one({"_id": d["_id"]}, {"$set": {"touched": True}})
        d["touched"] = True
    wait_settled(client)
    restart_with_stale_state_and_check(mongod_factory, m, tmp_path / "old", docs)


def test_a_damaged_saved_state_is_ignored(mongod_factory):
    m, docs = loaded_and_stopped(mongod_factory, 4, 15)
    dbpath = m.dbpath
    path = os.path.join(dbpath, SAVED)
    data = bytearray(open(path, "rb").read())
    data[len(data) // 2] ^= 0x5A
    open(path, "wb").write(bytes(data))
    m = mongod_factory(["--dedup"], dbpath=dbpath)
    client = m.client()
    assert not os.path.exists(path)
    rebuild = wait_ready(client)["startupRebuild"]
    assert rebuild["collectionsFromSavedState"] == 0, rebuild
    assert "Ignoring the saved dedup state" in open(m.log_path).read()
    check_documents(client, docs)


def test_records_the_engine_never_learned_stay_unknown_to_it(mongod_factory):
    """Inserts still waiting for the encoder at shutdown (and those the backlog let go) are
    stored whole and unknown to the engine: the saved state does not list them, and after the
    start-up the engine knows what it knew before (they stay stored whole, with no dependents);
    reads, updates and deletes of them work and later versions are deduplicated."""
    m = mongod_factory(["--dedup"])
    client = m.client()
    docs = load_versions(client, articles=6, versions=20)
    wait_settled(client)
    client.admin.command("configureFailPoint", "hangDedupEncoder", mode="alwaysOn")
    queued = [d for a in range(6) for d in history(a, 24, seed=3)[20:]]
    client.sv.c.insert_many(queued)
    assert client.admin.command("serverStatus")["dedup"]["backlog"]["inserts"] == len(queued)
    dbpath = m.dbpath
    assert m.stop() == 0
    m = mongod_factory(["--dedup"], dbpath=dbpath)
    client = m.client()
    after = wait_ready(client)
    rebuild = after["startupRebuild"]
    assert rebuild["collectionsFromSavedState"] == 1, rebuild
    assert rebuild["records"] == len(docs), rebuild
    check_documents(client, docs + queued)
    # Updating and deleting them works, and new versions are still deduplicated.
    client.sv.c.update_one({"_id": queued[0]["_id"]}, {"$set": {"touched": 1}})
    client.sv.c.delete_one({"_id": queued[1]["_id"]})
    more = [d for a in range(6) for d in history(a, 25, seed=3)[24:]]
    client.sv.c.insert_many(more)
    assert wait_settled(client)["recordsEncoded"] >= after["recordsEncoded"] + len(more) - 1
    v = client.sv.command("validate", "c", full=True)
    assert v["valid"] and v["dedup"]["refCountMismatches"] == 0, v
