"""Change streams (issue 10): pymongo's watch() on a collection, a database and the cluster of a
one-member replica set (module fixture), the events of MongoDB 7.0 (insert, update with its
updateDescription, replace, delete, drop, rename, dropDatabase, invalidate) compared whole,
fullDocument: updateLookup, pipelines after $changeStream, resume tokens (resumeAfter, startAfter
an invalidate, startAtOperationTime, postBatchResumeToken), and MongoDB's refusals. The majority
gating of a three-member set is in test_replica_set_members.py."""

import time

import pymongo
import pytest
from bson import Timestamp

from replset_helpers import one_member_set

SET = "cs1"


def code_of(fn):
    with pytest.raises(pymongo.errors.PyMongoError) as e:
        fn()
    return getattr(e.value, "code", None)


@pytest.fixture(scope="module")
def member(tmp_path_factory):
    yield from one_member_set(tmp_path_factory, SET)


@pytest.fixture
def c(member):
    with member.client() as client:
        yield client


def strip(event):
    """The event without what varies from run to run (token, times)."""
    return {k: v for k, v in event.items() if k not in ("_id", "clusterTime", "wallTime")}


def next_events(stream, n):
    out = []
    while len(out) < n:
        e = stream.try_next()
        if e is not None:
            out.append(e)
    return out


def test_collection_stream_events(c):
    coll = c.cs.events
    coll.insert_one({"_id": 0})  # before the stream: not shown
    with coll.watch(max_await_time_ms=200) as s:
        # (sub keeps a large field, so the oplog's diff describes sub by its changes, not whole.)
        coll.insert_one({"_id": 1, "a": 1, "arr": [1, 2, 3], "sub": {"x": 1, "big": "b" * 100}})
        coll.update_one({"_id": 1}, {"$set": {"a": 2, "sub.y": 2}, "$unset": {"sub.x": ""}})
        coll.update_one({"_id": 1}, {"$pop": {"arr": 1}})
        coll.replace_one({"_id": 1}, {"b": 1})
        coll.delete_one({"_id": 1})
        c.cs.other.insert_one({"_id": 1})  # another collection: not shown
        events = next_events(s, 5)
    ns = {"db": "cs", "coll": "events"}
    assert [strip(e) for e in events] == [
        {"operationType": "insert", "fullDocument": {"_id": 1, "a": 1, "arr": [1, 2, 3],
                                                     "sub": {"x": 1, "big": "b" * 100}}, "ns": ns,
         "documentKey": {"_id": 1}},
        {"operationType": "update", "ns": ns, "documentKey": {"_id": 1},
         "updateDescription": {"updatedFields": {"a": 2, "sub.y": 2}, "removedFields": ["sub.x"],
                               "truncatedArrays": []}},
        {"operationType": "update", "ns": ns, "documentKey": {"_id": 1},
         "updateDescription": {"updatedFields": {}, "removedFields": [],
                               "truncatedArrays": [{"field": "arr", "newSize": 2}]}},
        {"operationType": "replace", "fullDocument": {"_id": 1, "b": 1}, "ns": ns, "documentKey": {"_id": 1}},
        {"operationType": "delete", "ns": ns, "documentKey": {"_id": 1}},
    ]
    for e in events:
        assert isinstance(e["clusterTime"], Timestamp) and e["wallTime"] is not None
        assert set(e["_id"]) == {"_data"}
    times = [e["clusterTime"] for e in events]
    assert times == sorted(times) and len(set(times)) == 5


def test_update_lookup_and_pipeline(c):
    coll = c.cs.lookup
    with coll.watch([{"$match": {"operationType": {"$in": ["update", "insert"]}}},
                     {"$project": {"operationType": 1, "fullDocument": 1, "documentKey": 1}}],
                    full_document="updateLookup", max_await_time_ms=200) as s:
        coll.insert_one({"_id": 1, "v": 1})
        coll.update_one({"_id": 1}, {"$inc": {"v": 1}})
        coll.delete_one({"_id": 1})  # filtered out by the $match
        coll.insert_one({"_id": 2, "v": 9})
        events = next_events(s, 3)
    assert [strip(e) for e in events] == [
        {"operationType": "insert", "fullDocument": {"_id": 1, "v": 1}, "documentKey": {"_id": 1}},
        # updateLookup reads the document when the event is produced: already deleted -> null.
        {"operationType": "update", "fullDocument": None, "documentKey": {"_id": 1}},
        {"operationType": "insert", "fullDocument": {"_id": 2, "v": 9}, "documentKey": {"_id": 2}},
    ]


def test_update_lookup_sees_the_current_document(c):
    coll = c.cs.lookup2
    coll.insert_one({"_id": 1, "v": 1})
    with coll.watch(full_document="updateLookup", max_await_time_ms=200) as s:
        coll.update_one({"_id": 1}, {"$set": {"v": 2}})
        e, = next_events(s, 1)
    assert e["fullDocument"] == {"_id": 1, "v": 2}


def test_drop_and_rename_invalidate_a_collection_stream(c):
    coll = c.cs.dropped
    coll.insert_one({"_id": 0})
    with coll.watch(max_await_time_ms=200) as s:
        coll.insert_one({"_id": 1})
        coll.drop()
        events = next_events(s, 3)
        assert [e["operationType"] for e in events] == ["insert", "drop", "invalidate"]
        assert strip(events[1]) == {"operationType": "drop", "ns": {"db": "cs", "coll": "dropped"}}
        assert not s.alive
    invalidate = events[2]
    # Resumed after the drop (a driver whose batch ended there): the invalidate still follows.
    with coll.watch(resume_after=events[1]["_id"], max_await_time_ms=200) as s:
        assert [e["operationType"] for e in next_events(s, 1)] == ["invalidate"]
    # startAfter an invalidate opens a stream after it; resumeAfter may not (260).
    assert code_of(lambda: coll.watch(resume_after=invalidate["_id"]).try_next()) == 260
    with coll.watch(start_after=invalidate["_id"], max_await_time_ms=200) as s:
        coll.insert_one({"_id": 5})
        e, = next_events(s, 1)
        assert e["operationType"] == "insert" and e["documentKey"] == {"_id": 5}
    c.cs.renamed_from.insert_one({"_id": 0})
    with c.cs.renamed_from.watch(max_await_time_ms=200) as s:
        c.cs.renamed_from.rename("renamed_to")
        events = next_events(s, 2)
    assert [strip(e) for e in events] == [
        {"operationType": "rename", "ns": {"db": "cs", "coll": "renamed_from"}, "to": {"db": "cs", "coll": "renamed_to"}},
        {"operationType": "invalidate"},
    ]


def test_database_and_cluster_streams(c):
    c.drop_database("csdb")
    with c.csdb.watch(max_await_time_ms=200) as dbs, c.watch(max_await_time_ms=200) as cluster:
        c.csdb.a.insert_one({"_id": 1})
        c.csdb.b.insert_one({"_id": 2})
        c.csother.c.insert_one({"_id": 3})
        c.drop_database("csdb")
        db_events = next_events(dbs, 6)
        cluster_events = next_events(cluster, 6)
    assert [(e["operationType"], e.get("ns")) for e in db_events] == [
        ("insert", {"db": "csdb", "coll": "a"}), ("insert", {"db": "csdb", "coll": "b"}),
        ("drop", {"db": "csdb", "coll": "a"}), ("drop", {"db": "csdb", "coll": "b"}),
        ("dropDatabase", {"db": "csdb"}), ("invalidate", None)]
    # The cluster's stream sees every database (never invalidated).
    assert [(e["operationType"], e.get("ns")) for e in cluster_events] == [
        ("insert", {"db": "csdb", "coll": "a"}), ("insert", {"db": "csdb", "coll": "b"}),
        ("insert", {"db": "csother", "coll": "c"}),
        ("drop", {"db": "csdb", "coll": "a"}), ("drop", {"db": "csdb", "coll": "b"}),
        ("dropDatabase", {"db": "csdb"})]


def test_resume_after_and_start_at_operation_time(c):
    coll = c.cs.resume
    with coll.watch(max_await_time_ms=200) as s:
        for i in range(5):
            coll.insert_one({"_id": i})
        events = next_events(s, 5)
    with coll.watch(resume_after=events[1]["_id"], max_await_time_ms=200) as s:
        assert [e["documentKey"]["_id"] for e in next_events(s, 3)] == [2, 3, 4]
    with coll.watch(start_at_operation_time=events[3]["clusterTime"], max_await_time_ms=200) as s:
        assert [e["documentKey"]["_id"] for e in next_events(s, 2)] == [3, 4]
    # Before the oldest oplog entry: the history is lost (286).
    assert code_of(lambda: coll.watch(start_at_operation_time=Timestamp(1, 1)).try_next()) == 286


def test_post_batch_resume_token(c):
    coll = c.cs.pbrt
    r = c.cs.command({"aggregate": "pbrt", "pipeline": [{"$changeStream": {}}], "cursor": {}})
    first = r["cursor"]["postBatchResumeToken"]
    assert r["cursor"]["firstBatch"] == [] and r["cursor"]["id"] != 0
    c.cs.unrelated.insert_one({"x": 1})  # not an event of this stream, but moves the high-water mark
    more = c.cs.command({"getMore": r["cursor"]["id"], "collection": "pbrt", "maxTimeMS": 200})
    assert more["cursor"]["nextBatch"] == []
    assert more["cursor"]["postBatchResumeToken"]["_data"] > first["_data"]
    coll.insert_one({"_id": 1})
    more = c.cs.command({"getMore": r["cursor"]["id"], "collection": "pbrt", "maxTimeMS": 1000})
    ev, = more["cursor"]["nextBatch"]
    assert more["cursor"]["postBatchResumeToken"] == ev["_id"]
    c.cs.command({"killCursors": "pbrt", "cursors": [r["cursor"]["id"]]})


def test_refusals(c, member):
    def agg(db, coll, pipeline):
        return lambda: c[db].command({"aggregate": coll, "pipeline": pipeline, "cursor": {}})
    assert code_of(agg("cs", "x", [{"$match": {}}, {"$changeStream": {}}])) == 40602
    assert code_of(agg("cs", "x", [{"$changeStream": {}}, {"$sort": {"a": 1}}])) == 20
    assert code_of(agg("cs", "x", [{"$changeStream": {"bogus": 1}}])) == 40415
    assert code_of(agg("cs", "x", [{"$changeStream": {"fullDocument": "nope"}}])) == 2
    assert code_of(agg("cs", "x", [{"$changeStream": {"fullDocument": "required"}}])) == 238
    assert code_of(agg("cs", "x", [{"$changeStream": {"resumeAfter": {"_data": "zz"}}}])) == 260
    assert code_of(agg("cs", "x", [{"$changeStream": {"startAtOperationTime": Timestamp(5, 1),
                                                      "startAfter": {"_data": "82" + "0" * 16 + "00"}}}])) == 40674
    assert code_of(agg("admin", "x", [{"$changeStream": {}}])) == 73
    assert code_of(agg("cs", "system.views", [{"$changeStream": {}}])) == 73
    assert code_of(lambda: c.cs.command({"aggregate": 1, "pipeline": [{"$changeStream": {"allChangesForCluster": True}}],
                                         "cursor": {}})) == 72
    c.cs.command({"create": "aview", "viewOn": "events", "pipeline": []})
    assert code_of(agg("cs", "aview", [{"$changeStream": {}}])) == 166
    # Modifying the event's _id (its resume token) ends the stream with 280.
    coll = c.cs.modified
    with coll.watch([{"$project": {"_id": 0}}], max_await_time_ms=200) as s:
        coll.insert_one({"x": 1})
        assert code_of(lambda: next_events(s, 1)) == 280


def test_resume_token_not_in_the_oplog(c):
    coll = c.cs.missing
    with coll.watch(max_await_time_ms=200) as s:
        coll.insert_one({"_id": 1})
        e, = next_events(s, 1)
    # A token of the same second with an increment no entry has: resuming from it fails (280)
    # rather than silently going on from there.
    ts = e["clusterTime"]
    fake = {"_data": "82%016X00" % ((ts.time << 32) | (ts.inc + 100000))}
    with coll.watch(resume_after=fake, max_await_time_ms=200) as s:
        coll.insert_one({"_id": 2})
        # An entry past the token's time: one of a later second (the insert above is of the
        # token's second, before it; the stream used to wait for the next write of the server,
        # the session cache's refresh five minutes later).
        time.sleep(1.1)
        coll.insert_one({"_id": 3})
        assert code_of(lambda: next_events(s, 1)) == 280


def test_resumable_errors_are_labelled(c):
    """Drivers resume a stream only after errors labelled ResumableChangeStreamError."""
    r = c.cs.command({"aggregate": "labels", "pipeline": [{"$changeStream": {}}], "cursor": {}})
    plain = c.cs.command({"find": "events", "batchSize": 0})
    c.admin.command({"configureFailPoint": "failCommand", "mode": {"times": 2},
                     "data": {"failCommands": ["getMore"], "errorCode": 262}})
    try:
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            c.cs.command({"getMore": r["cursor"]["id"], "collection": "labels"})
        assert e.value.code == 262 and "ResumableChangeStreamError" in e.value.details.get("errorLabels", [])
        with pytest.raises(pymongo.errors.OperationFailure) as e:
            c.cs.command({"getMore": plain["cursor"]["id"], "collection": "events"})
        assert e.value.code == 262 and "ResumableChangeStreamError" not in e.value.details.get("errorLabels", [])
    finally:
        c.admin.command({"configureFailPoint": "failCommand", "mode": "off"})
