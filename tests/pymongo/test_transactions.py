"""Multi-document transactions on a replica set (issue 18), through pymongo's session API and, where
a test needs exact resends, raw commands over a socket (wire.py). One three-member set for the file:
  - a transaction's writes are invisible to others until commitTransaction, then visible together,
    logged as one applyOps entry (lsid, txnNumber, null prevOpTime) that the secondaries apply, with
    the session's config.transactions record {state: "committed"} on every member;
  - abortTransaction (or a failed command of the transaction) leaves nothing: no document, no entry,
    sizes unchanged; reads inside see one snapshot plus the transaction's own writes; a cursor opened
    inside reads the transaction's snapshot in its getMores;
  - concurrency is WiredTiger's: a write-write conflict between transactions is WriteConflict (112)
    with TransientTransactionError; a write outside a transaction waits for the transaction that
    holds its document (or its unique key) and then goes on; the drivers' with_transaction loop
    converges under contention (a bank transfer load whose balances always sum to the total in
    snapshot reads, also read on a secondary afterwards);
  - MongoDB 7.0's errors and labels for the protocol (NoSuchTransaction, TransactionCommitted,
    TransactionTooOld, ConflictingOperationInProgress, OperationNotSupportedInTransaction,
    InvalidOptions), a retried commit answered from the outcome, transactionLifetimeLimitSeconds;
  - a transaction committed with w: majority survives kill -9 of the primary, and the new primary
    answers the retried commit from the replicated record;
  - on --dedup members, documents inserted in a transaction are deduplicated once it commits, and
    its updates and deletes of deduplicated documents are seen by the transaction at once and by
    others at its commit (nothing of them after an abort).
"""

import os
import random
import threading
import time

import pymongo
import pytest
from bson import Int64, Timestamp
from pymongo.read_concern import ReadConcern
from pymongo.write_concern import WriteConcern

import replset_helpers
from replset_helpers import initiate, make_members, primary_of, stop_all, wait_for
from test_retryable_writes import CommandFailed, new_lsid, raw, raw_code

SET = "rstxn3"

# The members are this file's own processes (plain, and --dedup for the last test): once is enough.
pytestmark = pytest.mark.skipif(os.environ.get("RESMOKE_SUITE") == "pymongo_dedup",
                                reason="starts its own members; runs in the pymongo suite")


@pytest.fixture(scope="module")
def rs(tmp_path_factory):
    members = make_members(tmp_path_factory.mktemp(SET), SET, 3)
    initiate(members, SET)
    yield members
    stop_all(members)


@pytest.fixture
def c(rs):
    with replset_helpers.rs_client(rs, SET) as client:
        yield client


@pytest.fixture
def db(c, request):
    name = "txn_" + request.node.name[:40]
    c.drop_database(name)
    yield c[name]


def secondaries(rs):
    p = primary_of(rs)
    return [m for m in rs if m is not p and m.proc is not None and m.proc.poll() is None]


def applyops_entries(c, lsid_id, txn_number):
    return list(c.local.oplog.rs.find({"op": "c", "ns": "admin.$cmd", "lsid.id": lsid_id,
                                       "txnNumber": Int64(txn_number)}))


def test_commit_makes_writes_visible_together_and_replicates_one_applyops_entry(rs, c, db):
    db.a.insert_one({"_id": 0, "v": 0})
    db.b.insert_one({"_id": 0, "v": 0})
    with c.start_session() as s:
        s.start_transaction(write_concern=WriteConcern("majority"))
        db.a.insert_one({"_id": 1, "v": 1}, session=s)
        db.a.update_one({"_id": 0}, {"$set": {"v": 10}}, session=s)
        db.b.delete_one({"_id": 0}, session=s)
        db.b.insert_one({"_id": 2}, session=s)
        # Inside: the transaction's own writes; outside: nothing of them yet.
        assert sorted(d["_id"] for d in db.a.find({}, session=s)) == [0, 1]
        assert db.a.find_one({"_id": 0}, session=s)["v"] == 10
        assert list(db.b.find({}, session=s)) == [{"_id": 2}]
        assert list(db.a.find({})) == [{"_id": 0, "v": 0}]
        assert list(db.b.find({})) == [{"_id": 0, "v": 0}]
        s.commit_transaction()
        lsid_id = s.session_id["id"]
    assert sorted(d["_id"] for d in db.a.find({})) == [0, 1]
    assert list(db.b.find({})) == [{"_id": 2}]
    entries = list(c.local.oplog.rs.find({"op": "c", "ns": "admin.$cmd", "lsid.id": lsid_id}))
    assert len(entries) == 1, entries
    e = entries[0]
    ops = e["o"]["applyOps"]
    assert [(o["op"], o["ns"]) for o in ops] == [("i", db.a.full_name), ("u", db.a.full_name),
                                                 ("d", db.b.full_name), ("i", db.b.full_name)]
    assert e["prevOpTime"] == {"ts": Timestamp(0, 0), "t": -1}
    assert "stmtId" not in e
    # No entry of its own for any of the transaction's writes.
    assert c.local.oplog.rs.count_documents({"ns": db.a.full_name, "o._id": 1}) == 0
    # Every member holds the same documents and the session's committed record.
    for m in secondaries(rs):
        with m.client() as mc:
            wait_for(lambda: mc.local.oplog.rs.count_documents({"op": "c", "lsid.id": lsid_id}) == 1, 20, "the entry")
            mdb = mc[db.name]
            assert sorted(d["_id"] for d in mdb.a.find({})) == [0, 1]
            assert mdb.a.find_one({"_id": 0})["v"] == 10
            assert list(mdb.b.find({})) == [{"_id": 2}]
            rec = mc.config.transactions.find_one({"_id.id": lsid_id})
            assert rec["state"] == "committed" and rec["lastWriteOpTime"]["ts"] == e["ts"]


def test_change_stream_shows_a_committed_transaction_and_resumes_inside_it(c, db):
    db.create_collection("a")
    with db.a.watch() as stream:
        with c.start_session() as s:
            with s.start_transaction():
                db.a.insert_one({"_id": 1}, session=s)
                db.other.insert_one({"_id": 1}, session=s)
                db.a.update_one({"_id": 1}, {"$set": {"x": 1}}, session=s)
                db.a.delete_one({"_id": 1}, session=s)
            lsid = s.session_id
        events = [stream.next() for _ in range(3)]
    assert [e["operationType"] for e in events] == ["insert", "update", "delete"]
    assert len({e["clusterTime"] for e in events}) == 1
    assert all(e["lsid"]["id"] == lsid["id"] and "uid" in e["lsid"] and "txnNumber" in e for e in events)
    # Resuming after the first event gives the transaction's later events, exactly.
    with db.a.watch(resume_after=events[0]["_id"]) as stream:
        assert [stream.next()["operationType"] for _ in range(2)] == ["update", "delete"]


def test_a_transaction_over_16mb_commits_as_a_chain_of_entries(rs, c, db):
    db.create_collection("big")
    big = "x" * (1024 * 1024)
    with db.big.watch() as stream:
        with c.start_session() as s:
            with s.start_transaction(write_concern=WriteConcern("majority")):
                db.big.insert_many([{"_id": i, "pad": big} for i in range(40)], session=s)
                db.big.delete_one({"_id": 0}, session=s)
            lsid_id = s.session_id["id"]
        events = [stream.next() for _ in range(41)]
    assert [e["operationType"] for e in events] == ["insert"] * 40 + ["delete"]
    assert len({e["clusterTime"] for e in events}) == 1
    entries = list(c.local.oplog.rs.find({"op": "c", "lsid.id": lsid_id}, {"o.applyOps.o.pad": 0}).sort("ts", 1))
    assert len(entries) >= 3
    assert all(e["o"].get("partialTxn") is True for e in entries[:-1])
    assert "partialTxn" not in entries[-1]["o"] and entries[-1]["o"]["count"] == 41
    assert [e["prevOpTime"]["ts"] for e in entries[1:]] == [e["ts"] for e in entries[:-1]]
    assert db.big.count_documents({}) == 39
    for m in secondaries(rs):
        with m.client() as mc:
            wait_for(lambda: mc[db.name].big.count_documents({}) == 39, 30, "the transaction on %d" % m.port)
            assert mc.config.transactions.find_one({"_id.id": lsid_id})["state"] == "committed"


def test_abort_leaves_nothing_and_sizes_stay_right(c, db):
    db.a.insert_many([{"_id": i} for i in range(5)])
    before_entries = c.local.oplog.rs.count_documents({})
    with c.start_session() as s:
        s.start_transaction()
        db.a.insert_many([{"_id": i} for i in range(5, 10)], session=s)
        db.a.delete_many({"_id": {"$lt": 3}}, session=s)
        assert db.a.count_documents({}, session=s) == 7
        s.abort_transaction()
    assert sorted(d["_id"] for d in db.a.find({})) == list(range(5))
    assert db.a.estimated_document_count() == 5  # the collection's size counters
    assert c.local.oplog.rs.count_documents({"op": "c", "ns": "admin.$cmd", "ts": {"$gt": Timestamp(0, 0)},
                                             "o.applyOps.ns": db.a.full_name}) == 0
    # A committed one moves the counters by what it did.
    with c.start_session() as s:
        with s.start_transaction():
            db.a.insert_many([{"_id": i} for i in range(5, 8)], session=s)
            db.a.delete_one({"_id": 0}, session=s)
    assert db.a.estimated_document_count() == 7 == db.a.count_documents({})
    assert c.local.oplog.rs.count_documents({}) > before_entries


def test_reads_see_one_snapshot_and_own_writes_and_cursors_keep_it(c, db):
    db.a.insert_many([{"_id": i} for i in range(10)])
    with c.start_session() as s:
        s.start_transaction()
        assert db.a.count_documents({}, session=s) == 10  # the snapshot is taken here
        db.a.insert_one({"_id": 100})  # outside the transaction, committed at once
        db.a.delete_one({"_id": 0})
        assert db.a.count_documents({}, session=s) == 10
        db.a.insert_one({"_id": 50}, session=s)
        # A cursor in small batches: its getMores read the same snapshot.
        ids = [d["_id"] for d in db.a.find({}, session=s).sort("_id", 1).batch_size(3)]
        assert ids == list(range(10)) + [50]
        s.commit_transaction()
    assert sorted(d["_id"] for d in db.a.find({})) == list(range(1, 10)) + [50, 100]


def test_write_conflict_between_transactions_is_transient(c, db):
    db.a.insert_one({"_id": 1, "v": 0})
    s1, s2 = c.start_session(), c.start_session()
    try:
        s1.start_transaction()
        s2.start_transaction()
        db.a.update_one({"_id": 1}, {"$set": {"v": 1}}, session=s1)
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            db.a.update_one({"_id": 1}, {"$set": {"v": 2}}, session=s2)
        assert e.value.code == 112
        assert e.value.has_error_label("TransientTransactionError")
        s1.commit_transaction()
        # The conflict aborted s2's transaction.
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            s2.commit_transaction()
        assert e.value.code == 251 and e.value.has_error_label("TransientTransactionError")
    finally:
        s1.end_session()
        s2.end_session()
    assert db.a.find_one({"_id": 1})["v"] == 1


def test_a_write_outside_waits_for_the_transaction_holding_its_document_or_key(c, db):
    db.a.insert_one({"_id": 1, "v": 0})
    with c.start_session() as s:
        s.start_transaction()
        db.a.update_one({"_id": 1}, {"$set": {"v": 1}}, session=s)
        db.a.insert_one({"_id": 2, "t": True}, session=s)
        done = {}

        def outside():
            db.a.update_one({"_id": 1}, {"$inc": {"v": 10}})
            try:
                db.a.insert_one({"_id": 2})
            except pymongo.errors.DuplicateKeyError:
                done["dup"] = True
            done["at"] = time.time()

        t = threading.Thread(target=outside)
        t.start()
        time.sleep(1.0)
        assert "at" not in done  # still waiting for the transaction
        committed_at = time.time()
        s.commit_transaction()
        t.join(20)
    assert done["at"] >= committed_at
    assert done.get("dup")  # the key the transaction committed
    assert db.a.find_one({"_id": 1})["v"] == 11
    assert db.a.find_one({"_id": 2}) == {"_id": 2, "t": True}


def test_a_key_taken_by_another_open_transaction_is_a_write_conflict(c, db):
    s1, s2 = c.start_session(), c.start_session()
    try:
        s1.start_transaction()
        s2.start_transaction()
        db.a.insert_one({"_id": "k"}, session=s1)
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            db.a.insert_one({"_id": "k", "other": 1}, session=s2)
        assert e.value.code == 112 and e.value.has_error_label("TransientTransactionError")
        s1.abort_transaction()
    finally:
        s1.end_session()
        s2.end_session()
    db.a.insert_one({"_id": "k"})  # free again after the abort
    assert db.a.count_documents({}) == 1


def test_a_duplicate_key_in_a_transaction_aborts_it(c, db):
    db.a.insert_one({"_id": 1})
    with c.start_session() as s:
        s.start_transaction()
        db.a.insert_one({"_id": 2}, session=s)
        with pytest.raises(pymongo.errors.DuplicateKeyError):
            db.a.insert_one({"_id": 1}, session=s)
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            s.commit_transaction()
        assert e.value.code == 251
    assert db.a.count_documents({}) == 1


class Bank:
    """N accounts; transfer threads move money between two random ones in with_transaction
    (commit w: "majority"); a reader sums every balance in snapshot transactions. Every sum it
    sees must be the total."""

    def __init__(self, rs, db, n=10):
        self.rs, self.db_name, self.n, self.total = rs, db.name, n, n * 1000
        db.acc.insert_many([{"_id": i, "bal": 1000} for i in range(n)])
        self.stop = threading.Event()
        self.done, self.errors, self.sums = [0], [], []
        self.threads = [threading.Thread(target=self.transfer, args=(i,)) for i in range(4)]
        self.threads.append(threading.Thread(target=self.reader))

    def client(self):
        return replset_helpers.rs_client(self.rs, SET, heartbeatFrequencyMS=500, serverSelectionTimeoutMS=60000)

    def transfer(self, seed):
        rnd = random.Random(seed)
        with self.client() as cc:
            acc = cc[self.db_name].acc
            while not self.stop.is_set():
                a, b = rnd.sample(range(self.n), 2)
                amount = rnd.randint(1, 50)

                def cb(s):
                    acc.update_one({"_id": a}, {"$inc": {"bal": -amount}}, session=s)
                    acc.update_one({"_id": b}, {"$inc": {"bal": amount}}, session=s)
                try:
                    with cc.start_session() as s:
                        s.with_transaction(cb, write_concern=WriteConcern("majority"))
                    self.done[0] += 1
                except pymongo.errors.PyMongoError as e:
                    self.errors.append(repr(e))

    def reader(self):
        with self.client() as cc:
            acc = cc[self.db_name].acc
            while not self.stop.is_set():
                try:
                    with cc.start_session() as s:
                        with s.start_transaction(read_concern=ReadConcern("snapshot")):
                            self.sums.append(sum(d["bal"] for d in acc.find({}, session=s)))
                except pymongo.errors.PyMongoError:
                    time.sleep(0.1)  # during the failover: nothing read, nothing to check

    def run(self, seconds, during=None):
        for t in self.threads:
            t.start()
        try:
            time.sleep(seconds)
            if during:
                during()
                time.sleep(seconds)
        finally:
            self.stop.set()
            for t in self.threads:
                t.join(120)

    def check_members(self, c):
        # The secondaries applied every committed transfer atomically too.
        c[self.db_name].command("insert", "marker", documents=[{"_id": 1}], writeConcern={"w": 3, "wtimeout": 60000})
        for m in self.rs:
            with m.client() as mc:
                assert sum(d["bal"] for d in mc[self.db_name].acc.find({})) == self.total, m.port


def test_bank_transfers_converge_and_snapshot_sums_hold(rs, c, db):
    bank = Bank(rs, db)
    bank.run(4)
    assert not bank.errors, bank.errors[:3]
    assert bank.done[0] > 20 and bank.sums
    assert set(bank.sums) == {bank.total}
    assert sum(d["bal"] for d in db.acc.find({})) == bank.total
    status = c.admin.command("serverStatus")["transactions"]
    assert status["totalCommitted"] >= bank.done[0] and status["currentOpen"] == 0
    bank.check_members(c)


def test_bank_sums_hold_across_kill9_of_the_primary_and_its_restart(rs, c, db):
    bank = Bank(rs, db)
    victim = []

    def kill_primary():
        victim.append(primary_of(rs))
        victim[0].kill9()
        wait_for(lambda: primary_of(rs), 40, "a new primary")

    try:
        bank.run(3, during=kill_primary)
    finally:
        if victim:
            victim[0].start()
    wait_for(lambda: sorted(m["stateStr"] for m in replset_helpers.status(primary_of(rs))["members"]) ==
             ["PRIMARY", "SECONDARY", "SECONDARY"], 90, "the set to heal")
    # with_transaction carries every transfer through the failover (TransientTransactionError,
    # UnknownTransactionCommitResult and the retried commit answered by the new primary).
    assert not bank.errors, bank.errors[:3]
    assert bank.done[0] > 10 and bank.sums
    assert set(bank.sums) == {bank.total}
    assert sum(d["bal"] for d in db.acc.find({})) == bank.total
    bank.check_members(c)


def test_protocol_errors_and_retried_commit(rs):
    port = primary_of(rs).port
    lsid = new_lsid()

    def tx(cmd, n, start=False, **more):
        body = dict(cmd, lsid=lsid, txnNumber=Int64(n), autocommit=False, **more)
        if start:
            body["startTransaction"] = True
        return body

    raw(port, "txnerr", tx({"insert": "c", "documents": [{"_id": 1}]}, 1, start=True))
    # Later commands: no readConcern, no writeConcern, only the commands 7.0 allows.
    assert raw_code(port, "txnerr", tx({"find": "c"}, 1, readConcern={"level": "local"})) == 72
    assert raw_code(port, "txnerr", tx({"insert": "c", "documents": [{}]}, 1, writeConcern={"w": 1})) == 72
    assert raw_code(port, "txnerr", tx({"count": "c"}, 1)) == 263
    # Continuing a transaction that was never started.
    assert raw_code(port, "txnerr", tx({"find": "c"}, 5)) == 251
    # Starting one with the number of the one in progress.
    assert raw_code(port, "txnerr", tx({"find": "c"}, 1, start=True)) == 117
    assert raw_code(port, "txnerr", dict(tx({"find": "c"}, 1), autocommit=True)) == 72
    raw(port, "admin", tx({"commitTransaction": 1}, 1))
    # A retried commit is answered from the outcome; an abort after it is refused.
    raw(port, "admin", tx({"commitTransaction": 1}, 1))
    assert raw_code(port, "admin", tx({"abortTransaction": 1}, 1)) == 256
    assert raw_code(port, "txnerr", tx({"find": "c"}, 1)) == 256
    # An older number.
    raw(port, "txnerr", tx({"find": "c"}, 3, start=True))
    assert raw_code(port, "txnerr", tx({"find": "c"}, 2, start=True)) == 225
    raw(port, "admin", tx({"abortTransaction": 1}, 3))
    with pytest.raises(CommandFailed) as e:
        raw(port, "admin", tx({"commitTransaction": 1}, 3))
    assert e.value.code == 251 and e.value.details.get("errorLabels") == ["TransientTransactionError"]
    # Transactions are not for the local, admin or config databases.
    assert raw_code(port, "config", tx({"find": "transactions"}, 4, start=True)) == 263


def test_idle_transactions_in_current_op_and_refused_operations(c, db):
    db.create_collection("capped", capped=True, size=4096)
    db.a.insert_one({"_id": 1})
    with c.start_session() as s:
        s.start_transaction(read_concern=ReadConcern("snapshot"))
        db.a.insert_one({"_id": 2}, session=s)
        idle = [op for op in c.admin.aggregate([{"$currentOp": {"idleSessions": True}}])
                if op.get("type") == "idleSession" and op["lsid"]["id"] == s.session_id["id"]]
        assert len(idle) == 1 and idle[0]["desc"] == "inactive transaction"
        assert idle[0]["transaction"]["parameters"]["autocommit"] is False
        assert idle[0]["transaction"]["parameters"]["readConcern"] == {"level": "snapshot"}
        assert not [op for op in c.admin.aggregate([{"$currentOp": {"idleSessions": False}}])
                    if op.get("type") == "idleSession"]
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            db.capped.insert_one({"x": 1}, session=s)
        assert e.value.code == 263
        s.abort_transaction()
        s.start_transaction()
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            list(db.a.aggregate([{"$match": {}}, {"$out": "copy"}], session=s))
        assert e.value.code == 263
        s.abort_transaction()
        s.start_transaction()
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            list(db.a.aggregate([{"$changeStream": {}}], session=s))
        assert e.value.code == 263
        s.abort_transaction()
    assert db.a.count_documents({}) == 1 and db.capped.count_documents({}) == 0


def test_cursors_stay_with_their_transaction(rs, c, db):
    db.a.insert_many([{"_id": i} for i in range(10)])
    port = primary_of(rs).port
    lsid = new_lsid()
    txn = {"lsid": lsid, "txnNumber": Int64(1), "autocommit": False}
    first = raw(port, db.name, dict({"find": "a", "batchSize": 2}, startTransaction=True, **txn))
    cid = first["cursor"]["id"]
    # Outside the transaction (no session fields): refused, the cursor stays the transaction's.
    assert raw_code(port, db.name, {"getMore": cid, "collection": "a"}) == 50740
    assert len(raw(port, db.name, dict({"getMore": cid, "collection": "a", "batchSize": 2}, **txn))
               ["cursor"]["nextBatch"]) == 2
    raw(port, "admin", dict({"commitTransaction": 1}, **txn))
    # The transaction's cursor died with it.
    assert raw_code(port, db.name, dict({"getMore": cid, "collection": "a"}, **txn)) == 256
    assert raw_code(port, db.name, {"getMore": cid, "collection": "a"}) == 43
    # A cursor opened outside is not continued inside a transaction (the failed command aborts
    # the transaction, as any).
    outside = raw(port, db.name, {"find": "a", "batchSize": 2})["cursor"]["id"]
    txn2 = dict(txn, txnNumber=Int64(2))
    raw(port, db.name, dict({"find": "a", "batchSize": 1}, startTransaction=True, **txn2))
    assert raw_code(port, db.name, dict({"getMore": outside, "collection": "a"}, **txn2)) == 263
    assert raw_code(port, "admin", dict({"commitTransaction": 1}, **txn2)) == 251
    assert len(raw(port, db.name, {"getMore": outside, "collection": "a"})["cursor"]["nextBatch"]) == 8


def test_a_writer_waiting_for_a_transaction_does_not_deadlock_its_ddl(c, db):
    db.a.insert_one({"_id": 0})
    with c.start_session() as s:
        s.start_transaction()
        db.a.insert_one({"_id": "k"}, session=s)
        result = {}

        def outside():
            try:
                db.a.insert_one({"_id": "k"})  # waits: the key is the transaction's, uncommitted
                result["ok"] = True
            except pymongo.errors.DuplicateKeyError:
                result["dup"] = True

        t = threading.Thread(target=outside)
        t.start()
        time.sleep(0.5)
        # The transaction's implicit create needs the catalog lock the waiting writer holds
        # shared: LockTimeout (transient) after maxTransactionLockRequestTimeoutMillis, not a hang.
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            db.newcoll.insert_one({"x": 1}, session=s)
        assert e.value.code == 24 and e.value.has_error_label("TransientTransactionError")
        t.join(20)
    assert result == {"ok": True}
    assert db.a.count_documents({"_id": "k"}) == 1


def test_collections_and_indexes_a_transaction_creates_appear_at_its_commit(rs, c, db):
    db.existing.insert_one({"_id": 0})
    result = {}

    def outside_insert():
        try:
            db.made.insert_one({"_id": "outside"})
            result["ok"] = True
        except Exception as e:  # noqa: BLE001 - reported by the assertion below
            result["error"] = repr(e)

    with c.start_session() as s:
        s.start_transaction(write_concern=WriteConcern("majority"))
        db.create_collection("made", session=s, check_exists=False)
        db.made.create_index([("x", 1)], name="x_1", session=s)
        db.made.insert_many([{"_id": 1, "x": 1}, {"_id": 2, "x": [2, 3]}], session=s)  # multikey
        db.implicit.insert_one({"_id": 3}, session=s)
        db.byindex.create_index([("y", 1)], name="y_1", session=s)  # creates the collection too
        # Inside: the collections, their documents, and the index answering a query.
        assert db.made.find_one({"x": 3}, session=s) == {"_id": 2, "x": [2, 3]}
        assert db.implicit.find_one({}, session=s) == {"_id": 3}
        # Outside: none of it.
        assert db.list_collection_names() == ["existing"]
        assert db.made.find_one({}) is None and db.made.index_information() == {}
        # A second transaction creating one of them conflicts (transient); a writer outside
        # waits for the transaction and then writes into the committed collection.
        with c.start_session() as s2:
            s2.start_transaction()
            with pytest.raises(pymongo.errors.OperationFailure) as e:
                db.create_collection("made", session=s2, check_exists=False)
            assert e.value.code == 112 and e.value.has_error_label("TransientTransactionError")
        t = threading.Thread(target=outside_insert)
        t.start()
        time.sleep(0.5)
        assert t.is_alive() and not result
        # An index on a collection that existed before the transaction, or after documents
        # went in: refused as MongoDB 7.0 refuses them (and the transaction aborted).
        with c.start_session() as s3:
            s3.start_transaction()
            with pytest.raises(pymongo.errors.OperationFailure) as e:
                db.existing.create_index([("z", 1)], session=s3)
            assert e.value.code == 263
        s.commit_transaction()
        lsid_id = s.session_id["id"]
    t.join(30)
    assert result == {"ok": True}
    assert set(db.list_collection_names()) == {"existing", "made", "implicit", "byindex"}
    assert "x_1" in db.made.index_information() and "y_1" in db.byindex.index_information()
    assert sorted(d["_id"] for d in db.made.find({"x": {"$gte": 1}}).hint("x_1")) == [1, 2]
    plan = db.made.find({"x": 3}).explain()["queryPlanner"]["winningPlan"]
    assert "x_1" in str(plan)
    # One applyOps entry holds the creations, as MongoDB 7.0 logs them; no entry of their own.
    entries = list(c.local.oplog.rs.find({"op": "c", "ns": "admin.$cmd", "lsid.id": lsid_id}))
    assert len(entries) == 1
    ops = entries[0]["o"]["applyOps"]
    ddl = [(o["ns"], next(iter(o["o"])), next(iter(o["o"].values()))) for o in ops if o["op"] == "c"]
    cmd_ns = db.name + ".$cmd"
    assert ddl == [(cmd_ns, "create", "made"), (cmd_ns, "createIndexes", "made"), (cmd_ns, "create", "implicit"),
                   (cmd_ns, "create", "byindex"), (cmd_ns, "createIndexes", "byindex")], ddl
    assert c.local.oplog.rs.count_documents({"ns": cmd_ns, "o.create": {"$in": ["made", "implicit"]}}) == 0
    for m in secondaries(rs):
        with m.client() as mc:
            mdb = mc[db.name]
            wait_for(lambda: mdb.made.count_documents({}) == 3, 20, "the transaction on " + str(m.port))
            assert "x_1" in mdb.made.index_information() and "y_1" in mdb.byindex.index_information()
            assert mdb.made.find_one({"x": 3}) == {"_id": 2, "x": [2, 3]}
            assert mdb.implicit.find_one({}) == {"_id": 3}


def test_collections_a_transaction_created_are_gone_after_it_aborts(rs, c, db):
    with c.start_session() as s:
        s.start_transaction()
        db.gone.insert_one({"_id": 1, "x": 1}, session=s)
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            db.gone.create_index([("x", 1)], session=s)  # not empty any more
        assert e.value.code == 263
    with c.start_session() as s:
        s.start_transaction()
        db.create_collection("gone2", session=s, check_exists=False)
        db.gone2.create_index([("y", 1)], session=s)
        db.gone2.insert_one({"_id": 1}, session=s)
        s.abort_transaction()
    assert db.list_collection_names() == []
    # The names are free again: created outside a transaction, empty, with their _id index only.
    db.gone.insert_one({"_id": "after"})
    db.create_collection("gone2")
    assert list(db.gone.find({})) == [{"_id": "after"}]
    assert list(db.gone2.index_information()) == ["_id_"]
    assert db.command("validate", "gone2")["valid"]
    p = primary_of(rs)
    with p.client() as pc:
        entries = list(pc.local.oplog.rs.find({"ns": db.name + ".$cmd", "o.create": {"$exists": True}}))
    assert [e["o"]["create"] for e in entries] == ["gone", "gone2"]


def test_ddl_around_a_transaction_that_creates_a_collection(c, db):
    db.existing.create_index([("k", 1)], name="k_1")
    with c.start_session() as s:
        s.start_transaction()
        # An index that exists already is answered as outside a transaction.
        r = db.command("createIndexes", "existing", indexes=[{"key": {"k": 1}, "name": "k_1"}], session=s)
        assert r["note"] == "all indexes already exist"
        s.commit_transaction()
        # No system collection and no view in a transaction (a refusal aborts it, as any).
        for cmd in ({"create": "system.js"}, {"create": "v", "viewOn": "existing", "pipeline": []}):
            s.start_transaction()
            with pytest.raises(pymongo.errors.OperationFailure) as e:
                db.command(cmd, session=s)
            assert e.value.code == 263, cmd
            s.abort_transaction()
    results = {}

    def outside(name, fn):
        try:
            results[name] = fn()
        except pymongo.errors.PyMongoError as e:
            results[name] = getattr(e, "code", repr(e))

    # A view of the name a transaction is creating, a drop of that name and a drop of its
    # database wait for the transaction (they are running meanwhile), then act on what it made.
    cases = (("view", {"create": "view", "viewOn": "existing", "pipeline": []}, 48),
             ("drop", {"drop": "drop"}, 1.0),
             ("dropDatabase", {"dropDatabase": 1}, 1.0))
    for name, cmd, expect in cases:
        with c.start_session() as s:
            s.start_transaction()
            db.create_collection(name, session=s, check_exists=False)
            t = threading.Thread(target=outside, args=(name, lambda: db.command(cmd)["ok"]))
            t.start()
            wait_for(lambda: any(op.get("command", {}).get(next(iter(cmd))) == cmd[next(iter(cmd))]
                                 for op in c.admin.aggregate([{"$currentOp": {}}])), 10, name + " running")
            time.sleep(0.3)
            assert name not in results, results
            s.commit_transaction()
            t.join(30)
            assert not t.is_alive()
        assert results[name] == expect, results  # NamespaceExists; drops that came after the commit
        if name == "drop":
            assert "drop" not in db.list_collection_names()
    assert db.list_collection_names() == []


def test_a_newer_txn_number_ends_the_transaction_in_progress(rs, c, db):
    port = primary_of(rs).port
    lsid = new_lsid()
    raw(port, db.name, {"insert": "a", "documents": [{"_id": 1}], "lsid": lsid, "txnNumber": Int64(1),
                        "autocommit": False, "startTransaction": True})
    # A retryable write with a newer number: the transaction is aborted, the write done.
    raw(port, db.name, {"insert": "a", "documents": [{"_id": 2}], "lsid": lsid, "txnNumber": Int64(2)})
    assert raw_code(port, "admin", {"commitTransaction": 1, "lsid": lsid, "txnNumber": Int64(1),
                                    "autocommit": False}) == 225
    assert sorted(d["_id"] for d in db.a.find({})) == [2]
    assert c.admin.command("serverStatus")["transactions"]["currentOpen"] == 0


def test_a_step_down_aborts_open_transactions_and_the_member_applies_the_new_primarys_writes(rs, c, db):
    db.a.insert_one({"_id": 1, "v": 0})
    old = primary_of(rs)
    port = old.port
    lsid = new_lsid()
    raw(port, db.name, {"update": "a", "updates": [{"q": {"_id": 1}, "u": {"$set": {"v": "txn"}}}], "lsid": lsid,
                        "txnNumber": Int64(1), "autocommit": False, "startTransaction": True})
    with old.client() as oc:
        oc.admin.command("replSetStepDown", 20, secondaryCatchUpPeriodSecs=10)
    new = wait_for(lambda: primary_of(rs) if primary_of(rs) is not old else None, 40, "a new primary")
    with new.client() as nc:
        # The old primary holds an uncommitted write to this document: it must still apply this.
        nc[db.name].a.update_one({"_id": 1}, {"$set": {"v": "new"}})
        nc[db.name].command("insert", "marker", documents=[{}], writeConcern={"w": 3, "wtimeout": 30000})
    with old.client() as oc:
        assert oc[db.name].a.find_one({"_id": 1})["v"] == "new"
        assert oc.admin.command("serverStatus")["transactions"]["currentOpen"] == 0
    assert raw_code(port, "admin", {"commitTransaction": 1, "lsid": lsid, "txnNumber": Int64(1),
                                    "autocommit": False}) in (251, 10107)


def test_a_transaction_past_its_lifetime_limit_is_aborted(rs, c, db):
    c.admin.command("setParameter", 1, transactionLifetimeLimitSeconds=1)
    try:
        with c.start_session() as s:
            s.start_transaction()
            db.a.insert_one({"_id": 1}, session=s)
            wait_for(lambda: c.admin.command("serverStatus")["transactions"]["currentOpen"] == 0, 10,
                     "the reaper to abort the transaction")
            with pytest.raises(pymongo.errors.OperationFailure) as e:
                db.a.insert_one({"_id": 2}, session=s)
            assert e.value.code == 251
    finally:
        c.admin.command("setParameter", 1, transactionLifetimeLimitSeconds=60)
    assert db.a.count_documents({}) == 0


def test_a_committed_transaction_survives_kill9_and_its_commit_retry_is_answered(rs, c):
    port = primary_of(rs).port
    lsid = new_lsid()
    body = {"insert": "k9", "documents": [{"_id": i} for i in range(5)], "lsid": lsid, "txnNumber": Int64(7),
            "autocommit": False, "startTransaction": True}
    raw(port, "txnk9", body)
    commit = {"commitTransaction": 1, "lsid": lsid, "txnNumber": Int64(7), "autocommit": False,
              "writeConcern": {"w": "majority"}}
    raw(port, "admin", commit)
    old = primary_of(rs)
    old.kill9()
    try:
        new = wait_for(lambda: primary_of(rs), 40, "a new primary")
        with new.client() as nc:
            assert nc.txnk9.k9.count_documents({}) == 5
        reply = raw(new.port, "admin", commit)
        assert reply["ok"] == 1
        abort = {"abortTransaction": 1, "lsid": lsid, "txnNumber": Int64(7), "autocommit": False}
        assert raw_code(new.port, "admin", abort) == 256
    finally:
        old.start()
        wait_for(lambda: sorted(m["stateStr"] for m in replset_helpers.status(primary_of(rs))["members"]) ==
                 ["PRIMARY", "SECONDARY", "SECONDARY"], 60, "the set to heal")


def test_standalone_refuses_transactions(mongod_factory):
    m = mongod_factory()
    with m.client() as mc:
        with mc.start_session() as s:
            s.start_transaction()
            with pytest.raises(pymongo.errors.OperationFailure) as e:
                mc.t.c.insert_one({}, session=s)
            assert e.value.code == 20


@pytest.fixture(scope="module")
def dedup_set(tmp_path_factory):
    members = make_members(tmp_path_factory.mktemp("rstxnd"), "rstxnd", 1, lambda i: ["--dedup"])
    initiate(members, "rstxnd")
    yield members
    stop_all(members)


def test_dedup_members_deduplicate_transaction_writes(dedup_set):
    members = dedup_set
    if True:
        with replset_helpers.rs_client(members, "rstxnd") as cc:
            coll = cc.txnd.v
            body = "".join("line %d of a long versioned text document\n" % i for i in range(200))
            coll.insert_one({"_id": 0, "body": body})
            for i in range(1, 21):
                with cc.start_session() as s:
                    with s.start_transaction():
                        coll.insert_one({"_id": i, "body": body + "edit %d\n" % i}, session=s)
            with cc.start_session() as s:
                s.start_transaction()
                coll.insert_one({"_id": 99, "body": body}, session=s)
                s.abort_transaction()
            assert coll.count_documents({}) == 21
            assert [d["body"].endswith("edit %d\n" % d["_id"]) for d in coll.find({"_id": {"$gt": 0}})] == [True] * 20
            wait_for(lambda: cc.txnd.command("collStats", "v")["dedup"]["storedSize"] <
                     cc.txnd.command("collStats", "v")["size"] / 3, 30, "the transaction's inserts deduplicated")
            # Updates and deletes of deduplicated documents: the transaction sees them at once,
            # others at its commit; an abort leaves the documents as they were.
            with cc.start_session() as s:
                s.start_transaction()
                coll.update_one({"_id": 1}, {"$set": {"x": 1}}, session=s)
                coll.replace_one({"_id": 2}, {"body": body + "replaced\n"}, session=s)
                coll.delete_one({"_id": 3}, session=s)
                assert coll.find_one({"_id": 1}, session=s)["x"] == 1
                assert coll.find_one({"_id": 2}, session=s)["body"].endswith("replaced\n")
                assert coll.count_documents({}, session=s) == 20
                assert [d["_id"] for d in coll.find({"_id": {"$lte": 4}}, session=s).sort("_id", 1)] == [0, 1, 2, 4]
                assert coll.find_one({"_id": 1}).get("x") is None and coll.count_documents({}) == 21
                s.commit_transaction()
            assert coll.find_one({"_id": 1})["x"] == 1 and coll.find_one({"_id": 3}) is None
            assert coll.find_one({"_id": 2})["body"].endswith("replaced\n")
            with cc.start_session() as s:
                s.start_transaction()
                coll.update_one({"_id": 4}, {"$set": {"y": 1}}, session=s)
                coll.delete_one({"_id": 5}, session=s)
                s.abort_transaction()
            assert coll.find_one({"_id": 4}).get("y") is None and coll.find_one({"_id": 5}) is not None
            # Every version still reads back whole once the engine has settled.
            for d in coll.find({"_id": {"$gte": 4}}):
                assert d["body"] == body + "edit %d\n" % d["_id"]
            stats = cc.txnd.command("validate", "v", full=True)
            assert stats["valid"], stats


def test_dedup_transactions_under_concurrent_load_match_a_model(dedup_set):
    """Threads own disjoint documents of one deduplicated collection of versioned texts and run
    random transactions on them (updates, replacements, deletes, inserts; committed through
    with_transaction or aborted) while a thread writes its own documents outside transactions
    and the engine encodes and writes back: every document ends as the threads' models say."""
    text = "".join("paragraph %d of a long document that changes a little between versions\n" % i
                   for i in range(150))
    with replset_helpers.rs_client(dedup_set, "rstxnd") as cc:
        coll = cc.txndl.v
        coll.drop()
        coll.insert_many([{"_id": t * 1000 + i, "v": 0, "body": text} for t in range(4) for i in range(30)])
        errors = []

        def version(v):
            return text + "".join("edit %d\n" % k for k in range(v))

        def in_transactions(t):
            rnd = random.Random(t)
            model = {t * 1000 + i: 0 for i in range(30)}
            with replset_helpers.rs_client(dedup_set, "rstxnd") as c2:
                col = c2.txndl.v
                for _ in range(int(os.environ.get("TXN_DEDUP_ROUNDS", "60"))):
                    plan = []
                    for _ in range(rnd.randint(1, 4)):
                        live = sorted(model)
                        kind = rnd.choice(["update", "update", "replace", "delete", "insert"])
                        if kind == "insert" or not live:
                            i = max(list(model) + [t * 1000]) + 1
                            plan.append(("insert", i, 0))
                            model_v = 0
                        else:
                            i = rnd.choice(live)
                            model_v = (model[i] + 1) if kind != "delete" else None
                            plan.append((kind, i, model_v))
                    commit = rnd.random() < 0.8

                    def cb(s):
                        for kind, i, v in plan:
                            if kind == "insert":
                                col.insert_one({"_id": i, "v": v, "body": version(v)}, session=s)
                            elif kind == "update":
                                col.update_one({"_id": i}, {"$set": {"v": v, "body": version(v)}}, session=s)
                            elif kind == "replace":
                                col.replace_one({"_id": i}, {"v": v, "body": version(v)}, session=s)
                            else:
                                col.delete_one({"_id": i}, session=s)
                    # Two steps of the plan on one document: only the last counts.
                    seen = {}
                    for kind, i, v in plan:
                        seen[i] = (kind, v)
                    if len(seen) != len(plan):
                        continue
                    try:
                        with c2.start_session() as s:
                            if commit:
                                s.with_transaction(cb)
                            else:
                                s.start_transaction()
                                cb(s)
                                s.abort_transaction()
                    except pymongo.errors.PyMongoError as e:
                        errors.append(repr(e))
                        return
                    if commit:
                        for i, (kind, v) in seen.items():
                            if kind == "delete":
                                model.pop(i, None)
                            else:
                                model[i] = v
                for i, v in model.items():
                    d = col.find_one({"_id": i})
                    if d is None or d["v"] != v or d["body"] != version(v):
                        errors.append("document %d: %s, model says v=%d" % (i, None if d is None else d["v"], v))
                extra = col.count_documents({"_id": {"$gte": t * 1000, "$lt": t * 1000 + 1000}}) - len(model)
                if extra:
                    errors.append("thread %d: %d documents the model does not have" % (t, extra))

        def outside():
            with replset_helpers.rs_client(dedup_set, "rstxnd") as c2:
                col = c2.txndl.v
                for n in range(1, 80):
                    i = 3000 + n % 30
                    try:
                        col.update_one({"_id": i}, {"$set": {"v": n, "body": version(n % 20)}})
                    except pymongo.errors.PyMongoError as e:
                        errors.append("outside: " + repr(e))
                        return

        threads = [threading.Thread(target=in_transactions, args=(t,)) for t in range(3)]
        threads.append(threading.Thread(target=outside))
        for th in threads:
            th.start()
        for th in threads:
            th.join(300)
        assert not errors, errors[:5]
        assert cc.txndl.command("validate", "v", full=True)["valid"]
        # Conflicts are found before the engine plans: it never had to relearn the collection.
        assert cc.admin.command("serverStatus")["dedup"]["resyncs"] == 0
