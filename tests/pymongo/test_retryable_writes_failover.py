"""Retryable writes across a failover (issue 10, item 5), on one three-member set for the file:
secondaries derive config.transactions and config.image_collection from the oplog's session fields
(as MongoDB's applier does), so after the primary is killed (kill -9, its writes majority-committed)
the new primary answers the retries of insert, update, delete and findAndModify from those records
and applies nothing twice; and pymongo's own retry (retryWrites=true, the default) carries an
insert load across replSetStepDown without losing or duplicating a write. The raw commands go over
a plain socket (wire.py) so that a retry is exactly a resend (pymongo would replace the lsid)."""

import threading
import time

import pymongo
import pytest
from bson import Int64

import replset_helpers
from replset_helpers import initiate, make_members, primary_of, stop_all, wait_for
from test_retryable_writes import as_retry, new_lsid, raw, raw_code, strip

SET = "rsretry3"


@pytest.fixture(scope="module")
def rs(tmp_path_factory):
    members = make_members(tmp_path_factory.mktemp("rsretry3"), SET, 3)
    initiate(members, SET)
    yield members
    stop_all(members)


def rs_client(members, **kw):
    kw.setdefault("serverSelectionTimeoutMS", 30000)
    return replset_helpers.rs_client(members, SET, **kw)


class FailedInserts(pymongo.monitoring.CommandListener):
    """The insert attempts the server refused (what pymongo then retried)."""

    def __init__(self):
        self.refused = []

    def started(self, event):
        pass

    def succeeded(self, event):
        # A write concern error is a "successful" reply pymongo may retry.
        if event.command_name == "insert" and "writeConcernError" in event.reply:
            self.refused.append(event.reply)

    def failed(self, event):
        if event.command_name == "insert":
            self.refused.append(event.failure)


def test_pymongo_retries_across_step_down(rs):
    acknowledged, failures = [], []
    stop = threading.Event()
    listener = FailedInserts()
    with rs_client(rs, heartbeatFrequencyMS=500, event_listeners=[listener]) as c:
        c.test.drop_collection("load")

        def load():
            i = 0
            while not stop.is_set():
                try:
                    c.test.load.insert_one({"_id": i})
                    acknowledged.append(i)
                except pymongo.errors.PyMongoError as e:  # a retry that failed too (none expected)
                    failures.append((i, repr(e)))
                i += 1

        t = threading.Thread(target=load)
        t.start()
        try:
            wait_for(lambda: len(acknowledged) >= 20, 20, "inserts before the step-down")
            old = primary_of(rs)
            with old.client() as oc:
                # The next insert waits (past the primary check) while the primary steps down:
                # it then fails as a whole with NotWritablePrimary, labelled, and pymongo
                # retries it on the new primary.
                oc.admin.command("configureFailPoint", "failCommand", mode={"times": 1},
                                 data={"failCommands": ["insert"], "blockConnection": True, "blockTimeMS": 1500})
                time.sleep(0.5)
                try:
                    oc.admin.command("replSetStepDown", 10, secondaryCatchUpPeriodSecs=5)
                except pymongo.errors.AutoReconnect:
                    pass
            new = wait_for(lambda: (lambda p: p if p is not None and p is not old else None)(primary_of(rs)),
                           30, "a new primary")
            n = len(acknowledged)
            wait_for(lambda: len(acknowledged) >= n + 20, 30, "inserts on the new primary")
        finally:
            stop.set()
            t.join()
        assert failures == []
        # Some attempt met the step-down (NotWritablePrimary, InterruptedDueToReplStateChange or a
        # closed connection) and was retried: server errors carry the RetryableWriteError label.
        assert listener.refused, "no insert met the step-down"
        for f in listener.refused:
            if isinstance(f, dict) and "code" in f:
                assert "RetryableWriteError" in f.get("errorLabels", []), f
        ids = sorted(d["_id"] for d in c.test.load.find({}, {"_id": 1}))
        # Every acknowledged insert is there once; at most the one in flight at the stop beyond.
        assert set(acknowledged) <= set(ids) and len(ids) == len(set(ids))
        assert ids == list(range(len(ids)))
        assert new is not old


def test_retries_after_failover_are_answered_from_the_record(rs):
    p = wait_for(lambda: primary_of(rs), 30, "a primary")
    maj = {"w": "majority", "wtimeout": 20000}
    run = lambda m, cmd: raw(m.port, "test", dict(cmd, writeConcern=maj))
    with p.client() as c:
        c.test.drop_collection("fo")
        c.test.fo.insert_many([{"_id": "u"}, {"_id": "d1", "d": 1}, {"_id": "d2", "d": 1}, {"_id": "f", "x": 0}],
                              )
    cmds = {
        "insert": {"insert": "fo", "documents": [{"_id": 1}, {"_id": 2}], "lsid": new_lsid(), "txnNumber": Int64(5)},
        "update": {"update": "fo", "updates": [{"q": {"_id": "u"}, "u": {"$inc": {"n": 1}}},
                                               {"q": {"_id": "up"}, "u": {"$set": {"v": 1}}, "upsert": True}],
                   "lsid": new_lsid(), "txnNumber": Int64(6)},
        "delete": {"delete": "fo", "deletes": [{"q": {"d": 1}, "limit": 1}], "lsid": new_lsid(),
                   "txnNumber": Int64(7)},
        "famNew": {"findAndModify": "fo", "query": {"_id": "f"}, "update": {"$inc": {"x": 1}}, "new": True,
                   "lsid": new_lsid(), "txnNumber": Int64(8)},
        "famRemove": {"findAndModify": "fo", "query": {"_id": "u"}, "remove": True, "lsid": new_lsid(),
                      "txnNumber": Int64(9)},
    }
    order = ["insert", "update", "delete", "famNew", "famRemove"]
    first = {k: run(p, cmds[k]) for k in order}
    assert "writeConcernError" not in first["famRemove"]
    with p.client() as c:
        expected = sorted(c.test.fo.find(), key=lambda d: str(d["_id"]))
        records = {k: c.config.transactions.find_one({"_id.id": cmds[k]["lsid"]["id"]}) for k in order}
        image = c.config.image_collection.find_one({"_id.id": cmds["famNew"]["lsid"]["id"]})
        n_entries = c.local["oplog.rs"].count_documents({"ns": "test.fo"})
    assert image["image"] == {"_id": "f", "x": 1}

    # Every secondary derived the same records (and the image) from the oplog.
    others = [m for m in rs if m is not p and m.proc.poll() is None]
    for s in others:
        with s.client(read_preference=pymongo.ReadPreference.SECONDARY) as sc:
            for k in order:
                rec = wait_for(lambda: sc.config.transactions.find_one({"_id.id": cmds[k]["lsid"]["id"]}), 20,
                               "the record of %s on a secondary" % k)
                assert rec == records[k], k
            img = sc.config.image_collection.find_one({"_id.id": cmds["famNew"]["lsid"]["id"]})
            assert img == image

    p.kill9()
    new = wait_for(lambda: primary_of(others), 60, "a new primary")
    stmts = {"insert": [0, 1], "update": [0, 1], "delete": [0], "famNew": [0], "famRemove": [0]}
    for k in order:
        assert strip(run(new, cmds[k])) == as_retry(first[k], stmts[k]), k
    with new.client() as c:
        assert sorted(c.test.fo.find(), key=lambda d: str(d["_id"])) == expected  # nothing applied twice
        assert c.local["oplog.rs"].count_documents({"ns": "test.fo"}) == n_entries
        assert c.admin.command("serverStatus")["transactions"]["retriedStatementsCount"] >= 6
    # An older txnNumber than the record's is still refused on the new primary.
    older = dict(cmds["famNew"], txnNumber=Int64(1))
    assert raw_code(new.port, "test", older) == 225
