"""Malformed commands get MongoDB's error codes; deep nesting is refused without recursing
unboundedly; regressions found by test_command_fuzz.py; and the aggregation pipeline's depth and
memory limits, with the minimal reproductions the fuzzing found them by."""
import time

import bson
import pymongo
import pytest

from command_fuzz_cases import FUZZ_DB, nested
from command_fuzz_runner import Runner, SuiteServer, limited_mongod_factory, reply_problem, short  # noqa: F401


def expect_error(runner, db, pairs, code):
    """Runs pairs; the reply (or its first write error) must carry `code`."""
    reply = runner.run("catalogue", db, pairs)
    assert reply is not None, runner.problems[-1]
    got = reply["writeErrors"][0] if reply.get("ok") == 1 and reply.get("writeErrors") else reply
    assert got.get("code") == code, "%s -> %s, expected code %d" % (short(pairs), short(reply), code)
    assert got.get("errmsg"), reply


C = "cat"
# (database, command, expected code): MongoDB 7.0's code for each malformed request.
CATALOGUE = [
    (FUZZ_DB, [("find", C), ("filter", "x")], 14),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$bogus": 1}})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"$and": []})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"$or": [1]})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"$nor": {}})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$regex": "("}})], 51091),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$regex": "a", "$options": "z"}})], 51108),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$regex": "a", "$options": "\u00fc"}})], 51108),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {"a": {"$regex": "a", "$options": "\u00fc"}}, "u": {"$set": {"x": 1}}}])],
     51108),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$project": {"m": {"$regexMatch": {"input": "$a", "regex": "x",
                                                                                   "options": "\u00fc"}}}}]),
               ("cursor", {})], 51108),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$type": "bogus"}})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$mod": [0, 1]}})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$mod": [1]}})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$size": -1}})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$in": 1}})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"a": {"$not": {}}})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"$not": {"a": 1}})], 2),
    (FUZZ_DB, [("find", C), ("filter", {"$expr": {"$bogus": 1}})], 168),
    (FUZZ_DB, [("find", C), ("filter", {"$expr": {"$add": 1, "$sub": 2}})], 15983),
    (FUZZ_DB, [("find", C), ("sort", {"a": 2})], 15975),
    (FUZZ_DB, [("find", C), ("sort", "x")], 14),
    (FUZZ_DB, [("find", C), ("projection", {"a": 1, "b": 0})], 31254),
    (FUZZ_DB, [("find", C), ("hint", {"zz": 1})], 2),
    (FUZZ_DB, [("find", C), ("skip", -1)], 51024),
    (FUZZ_DB, [("find", C), ("limit", "x")], 14),
    (FUZZ_DB, [("find", C), ("bogus", 1)], 40415),
    (FUZZ_DB, [("find", 1)], 73),
    (FUZZ_DB, [("find", "a$b")], 73),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {}, "u": {"$bogus": {"a": 1}}}])], 9),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {}, "u": {"$inc": {"a": "x"}}}])], 14),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {}, "u": {"$set": {"a": 1, "a.b": 1}}}])], 40),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {}, "u": {"$push": {"c": {"$each": 1}}}}])], 2),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {}, "u": {"$set": {"c.$[i]": 1}}}])], 2),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {}, "u": {"$set": {"c.$[i]": 1}},
                                            "arrayFilters": [{"i": 1}, {"i": 2}]}])], 9),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {}, "u": {"$set": {"c.$[i]": 1}},
                                            "arrayFilters": [{"i": 1}, {"j": 2}]}])], 9),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {}, "u": {"$set": {"": 1}}}])], 56),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {"_id": 1}, "u": {"$set": {"_id": 2}}}])], 66),
    (FUZZ_DB, [("update", C), ("updates", [{"q": {}, "u": {"x": 1}, "multi": True}])], 9),
    (FUZZ_DB, [("update", C), ("updates", [])], 16),
    (FUZZ_DB, [("update", C)], 40414),
    (FUZZ_DB, [("aggregate", C), ("pipeline", "x"), ("cursor", {})], 14),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [])], 9),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$group": {"a": {"$sum": 1}}}]), ("cursor", {})], 15955),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$lookup": {"from": "x"}}]), ("cursor", {})], 9),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$bogus": 1}]), ("cursor", {})], 40324),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$match": 1}]), ("cursor", {})], 15959),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$limit": 0}]), ("cursor", {})], 15958),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$skip": -1}]), ("cursor", {})], 15956),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$sort": {}}]), ("cursor", {})], 15976),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$unwind": "a"}]), ("cursor", {})], 28818),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$count": ""}]), ("cursor", {})], 40156),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$match": {}, "$limit": 1}]), ("cursor", {})], 40323),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$project": {"a": {"$divide": ["$a", 0]}}}]), ("cursor", {})], 2),
    (FUZZ_DB, [("aggregate", C), ("pipeline", [{"$project": {"b": {"$substr": ["x"]}}}]), ("cursor", {})], 16020),
    (FUZZ_DB, [("count", C), ("query", "x")], 14),
    (FUZZ_DB, [("count", C), ("skip", -1)], 9),
    (FUZZ_DB, [("distinct", C), ("key", 1)], 14),
    (FUZZ_DB, [("findAndModify", C), ("query", {})], 9),
    (FUZZ_DB, [("findAndModify", C), ("query", {}), ("remove", True), ("update", {"$set": {"a": 1}})], 9),
    (FUZZ_DB, [("createIndexes", C), ("indexes", [{"key": {"a": "bogus"}, "name": "x"}])], 67),
    (FUZZ_DB, [("createIndexes", C), ("indexes", [{"key": {}, "name": "x"}])], 67),
    (FUZZ_DB, [("createIndexes", C), ("indexes", [{"key": {"a": 1}, "name": ""}])], 67),
    (FUZZ_DB, [("createIndexes", C), ("indexes", [{"key": {"a": 1}, "name": "x", "bogus": 1}])], 197),
    (FUZZ_DB, [("createIndexes", C), ("indexes", [])], 2),
    (FUZZ_DB, [("insert", C), ("documents", [{"_id": [1]}])], 2),
    (FUZZ_DB, [("insert", C), ("documents", [])], 16),
    (FUZZ_DB, [("explain", {"find": C}), ("verbosity", "bogus")], 9),
    (FUZZ_DB, [("getMore", 1), ("collection", C)], 14),
    (FUZZ_DB, [("killCursors", C)], 40414),
    (FUZZ_DB, [("noSuchCommand", 1)], 59),
    (FUZZ_DB, [("getCmdLineOpts", 1)], 13),
    ("admin", [("configureFailPoint", "noSuchFailPoint"), ("mode", "off")], 266),
]


def test_malformed_commands_get_mongodb_error_codes(db):
    runner = Runner(SuiteServer(), keep_going=False)
    runner.run("setup", FUZZ_DB, [("insert", C), ("documents", [{"_id": 1, "a": 1, "c": [1, 2]}])])
    try:
        for case_db, pairs, code in CATALOGUE:
            expect_error(runner, case_db, pairs, code)
        assert not runner.problems, runner.problems
        # failCommand with an errorCode that is no error code: refused when it fires.
        runner.run("setup", "admin", [("configureFailPoint", "failCommand"), ("mode", {"times": 1}),
                                      ("data", {"failCommands": ["ping"], "errorCode": 0})])
        expect_error(runner, FUZZ_DB, [("ping", 1)], 72)
    finally:
        runner.run("cleanup", "admin", [("configureFailPoint", "failCommand"), ("mode", "off")])
        runner.run("cleanup", FUZZ_DB, [("dropDatabase", 1)])


def deep(n, make, leaf):
    """make(inner) applied n times around leaf."""
    v = leaf
    for _ in range(n):
        v = make(v)
    return v


def test_deeply_nested_requests_are_refused_not_overflowing_the_stack(db):
    """MongoDB: a match expression tree deeper than 100 is BadValue (2); a message nested deeper
    than 200 BSON levels is refused at the wire (Overflow, 15); a stored document deeper than the
    user nesting limit is Overflow (15). Nothing recurses unboundedly on user input."""
    runner = Runner(SuiteServer(), keep_going=False)
    runner.run("setup", FUZZ_DB, [("insert", C), ("documents", [{"_id": 1, "a": 1, "c": [1, 2]}])])
    try:
        def find(filt):
            return runner.run("deep", FUZZ_DB, [("find", C), ("filter", filt)])

        not_chain = lambda n: {"a": deep(n, lambda v: {"$not": v}, {"$eq": 5})}  # noqa: E731
        and_chain = lambda n: deep(n, lambda v: {"$and": [v]}, {"a": 1})  # noqa: E731
        elem_chain = lambda n: {"a": deep(n, lambda v: {"$elemMatch": v}, {"$eq": 1})}  # noqa: E731
        assert find(not_chain(50))["ok"] == 1
        assert find(and_chain(98))["ok"] == 1  # $and costs two BSON levels: the wire limit comes first
        for filt in (not_chain(120), elem_chain(150)):
            reply = find(filt)
            assert (reply["ok"], reply.get("code")) == (0, 2), short(reply)
        # Deeper than the wire allows: built as raw bytes (pymongo's encoder would recurse).
        for depth in (201, 1000, 100000):
            reply = find({"a": nested(depth, "$not", leaf=bson.encode({"$eq": 1}))})
            assert (reply["ok"], reply.get("code")) == (0, 15), short(reply)
            reply = find(nested(depth, "$and", leaf=bson.encode({"a": 1}), as_array=True))
            assert (reply["ok"], reply.get("code")) == (0, 15), short(reply)
        # Documents: stored nesting is limited; updates that would exceed it fail.
        reply = runner.run("deep", FUZZ_DB, [("insert", C), ("documents", [{"_id": 2, "d": nested(150)}])])
        assert reply["writeErrors"][0]["code"] == 15, short(reply)
        reply = runner.run("deep", FUZZ_DB, [("update", C), ("updates", [{"q": {"_id": 1},
                                                                           "u": {"$set": {"d": nested(150)}}}])])
        assert reply["writeErrors"][0]["code"] == 15, short(reply)
        long_path = ".".join(["p"] * 150)
        reply = runner.run("deep", FUZZ_DB, [("update", C), ("updates", [{"q": {"_id": 1},
                                                                           "u": {"$set": {long_path: 1}}}])])
        assert reply["writeErrors"][0]["code"] == 15, short(reply)
        # Expressions, projections and sorts as deep as the wire allows: any well-formed reply.
        for pairs in ([("find", C), ("filter", {"$expr": deep(95, lambda v: {"$not": [v]}, True)})],
                      [("find", C), ("projection", nested(190))],
                      [("find", C), ("sort", {".".join(["s"] * 190): 1})],
                      [("aggregate", C), ("pipeline", [{"$project": {"x": deep(95, lambda v: {"$add": [v, 1]}, 1)}}]),
                       ("cursor", {})],
                      [("aggregate", C), ("pipeline", deep(60, lambda v: [{"$facet": {"f": v}}], [])),
                       ("cursor", {})],
                      [("aggregate", C), ("pipeline", deep(60, lambda v: [{"$lookup": {"from": C, "as": "x",
                                                                                         "pipeline": v}}], [])),
                       ("cursor", {})]):
            runner.run("deep", FUZZ_DB, pairs)
        assert not runner.problems, "\n".join(runner.problems)
        assert runner.alive()
    finally:
        runner.run("cleanup", FUZZ_DB, [("dropDatabase", 1)])


def test_getmore_after_the_plans_index_is_dropped_is_query_plan_killed(db):
    """Found by the concurrent phase: a cursor planned on an index kept a pointer to the index's
    descriptor; after dropIndexes the next getMore used the freed descriptor and hit the index
    catalog's invariant (SIGABRT). MongoDB kills such a cursor with QueryPlanKilled (175)."""
    db.c.insert_many([{"a": i} for i in range(10)])
    for batch_size in (0, 1):
        db.c.create_index("a")
        reply = db.command("find", "c", filter={"a": {"$gte": 0}}, hint="a_1", batchSize=batch_size)
        assert reply["cursor"]["id"]
        db.c.drop_index("a_1")
        with pytest.raises(pymongo.errors.OperationFailure) as err:
            db.command("getMore", reply["cursor"]["id"], collection="c")
        assert (err.value.code, err.value.details["codeName"]) == (175, "QueryPlanKilled")
        assert db.command("ping")["ok"] == 1


def test_a_collection_takes_at_most_64_indexes(db):
    """MongoDB's limit (the _id index included): the 65th index is CannotCreateIndex (67)."""
    db.c.insert_one({"x": 1})
    for i in range(63):
        db.c.create_index("f%d" % i)
    with pytest.raises(pymongo.errors.OperationFailure) as err:
        db.c.create_index("one_too_many")
    assert err.value.code == 67 and "too many indexes" in str(err.value), err.value.details
    assert len(db.c.index_information()) == 64


def test_explain_of_writes_changes_nothing(db):
    docs = [{"_id": i, "a": i} for i in range(3)]
    db.e.insert_many(docs)
    for inner in ({"update": "e", "updates": [{"q": {}, "u": {"$set": {"x": 1}}, "multi": True}]},
                  {"update": "e", "updates": [{"q": {"_id": 99}, "u": {"$set": {"x": 1}}, "upsert": True}]},
                  {"delete": "e", "deletes": [{"q": {}, "limit": 0}]},
                  {"findAndModify": "e", "query": {}, "remove": True},
                  {"findAndModify": "e", "query": {}, "update": {"$set": {"y": 1}}, "upsert": True}):
        for verbosity in ("queryPlanner", "executionStats", "allPlansExecution"):
            db.command("explain", inner, verbosity=verbosity)
    assert list(db.e.find().sort("_id", 1)) == docs


def test_max_time_ms_stops_a_scan_of_slow_matches(db):
    """A backtracking $regex costs ~0.3 s per document (PCRE2's match limit); the executor
    checked for interruption every 128 documents, so maxTimeMS 1000 let this run ~7 s."""
    db.rx.insert_many([{"s": "a" * 40 + "b"} for _ in range(20)])
    start = time.monotonic()
    with pytest.raises(pymongo.errors.ExecutionTimeout):
        db.command("count", "rx", query={"s": {"$regex": "(a+)+$"}}, maxTimeMS=1000)
    assert time.monotonic() - start < 4


def test_count_limit_extremes(db):
    """A negative count limit counts like its absolute value; -2^63 (whose negation overflowed,
    undefined behaviour caught by UBSan under the fuzzing) is no limit at all."""
    db.n.insert_many([{"i": i} for i in range(5)])
    assert db.command("count", "n", limit=-2)["n"] == 2
    assert db.command("count", "n", query={"i": {"$gte": 0}}, limit=bson.Int64(-2 ** 63))["n"] == 5
    assert db.command("count", "n", limit=bson.Int64(2 ** 63 - 1))["n"] == 5


def reduce_nesting(n):
    return {"$reduce": {"input": {"$range": [0, n]}, "initialValue": {}, "in": {"a": "$$value"}}}


# Found by this fuzzing in the aggregation pipeline (they exhausted the stack or memory before
# the pipeline had depth and memory limits): (id, pipeline or update, MongoDB 7.0's answer). Each
# runs on a server of its own, limited to FUZZ_MEMORY_LIMIT_MB, with maxTimeMS; the server must
# answer with that error (for writes: as the first write error), promptly.
PIPELINE_KNOWN_ISSUES = [
    # Value/Document::appendTo recursed once per level: a document built 100000 levels deep by
    # $reduce overflowed the stack when the result was turned into BSON (SIGSEGV). MongoDB refuses
    # to serialize past 200 levels (Overflow); this server also refuses to build values deeper
    # than 1000 levels (Overflow too), so no walk over a value recurses deeply.
    ("deep_result_document", [("aggregate", C), ("pipeline", [{"$project": {"x": reduce_nesting(100000)}}]),
                              ("cursor", {})], 15),
    ("deep_document_in_update", [("update", C), ("updates", [{"q": {}, "u": [{"$set": {"x": reduce_nesting(100000)}}]}])],
     15),
    # ...and 1000 levels came back in the reply, deeper than any driver accepts.
    ("deep_result_document_1000", [("aggregate", C), ("pipeline", [{"$project": {"x": reduce_nesting(1000)}}]),
                                   ("cursor", {})], 15),
    ("deep_result_document_250", [("aggregate", C), ("pipeline", [{"$project": {"x": reduce_nesting(250)}}]),
                                  ("cursor", {})], 15),
    # $range materializes any number of elements (10^9 here) until the allocator fails; MongoDB
    # caps the memory $range may use (ExceededMemoryLimit).
    ("range_memory", [("aggregate", C), ("pipeline", [{"$project": {"x": {"$range": [0, 10 ** 9]}}}]),
                      ("cursor", {})], 146),
    # $concat doubling in $reduce grew a string to gigabytes (std::length_error / bad_alloc).
    # MongoDB builds the result (under its 64 MB buffer limit, 13548) and then refuses it as a
    # Value: strings of 16 MB or more are "Tried to create string longer than 16MB" (16493).
    ("concat_memory", [("aggregate", C), ("pipeline", [{"$project": {"x": {"$reduce": {
        "input": {"$range": [0, 40]}, "initialValue": "ab", "in": {"$concat": ["$$value", "$$value"]}}}}}]),
        ("cursor", {})], 16493),
    # ...and a single $concat of more than 64 MB fails in MongoDB's buffer first (13548).
    ("concat_buffer_limit", [("aggregate", C), ("pipeline", [{"$project": {"x": {"$let": {
        "vars": {"s": {"$reduce": {"input": {"$range": [0, 22]}, "initialValue": "ab",
                                   "in": {"$concat": ["$$value", "$$value"]}}}},
        "in": {"$concat": ["$$s"] * 9}}}}}]), ("cursor", {})], 13548),
    # $densify generates documents without limit (10^11 here; the machine's OOM killer ended it
    # when unlimited); MongoDB stops at internalQueryMaxDensifyDocs (500000) with 5897900.
    ("densify_unbounded", [("aggregate", C), ("pipeline", [{"$densify": {"field": "a", "range": {
        "step": 10, "bounds": [0, 10 ** 12]}, "partitionByFields": ["b"]}}, {"$count": "n"}]), ("cursor", {})],
     5897900),
    # $sort/$group held everything in memory even with allowDiskUse: false; MongoDB refuses past
    # 100 MB (QueryExceededMemoryLimitNoDiskUseAllowed, 292).
    ("sort_memory_no_disk_use", [("aggregate", C), ("pipeline", [
        {"$project": {"x": {"$range": [0, 300000]}}}, {"$unwind": "$x"},
        {"$project": {"x": 1, "pad": {"$literal": "p" * 1000}}}, {"$sort": {"x": -1}}, {"$count": "n"}]),
        ("cursor", {}), ("allowDiskUse", False)], 292),
    ("group_memory_no_disk_use", [("aggregate", C), ("pipeline", [
        {"$project": {"x": {"$range": [0, 300000]}}}, {"$unwind": "$x"},
        {"$group": {"_id": "$x", "pad": {"$first": {"$literal": "p" * 1000}}}}, {"$count": "n"}]),
        ("cursor", {}), ("allowDiskUse", False)], 292),
]


@pytest.mark.parametrize("name,pairs,code", PIPELINE_KNOWN_ISSUES, ids=[c[0] for c in PIPELINE_KNOWN_ISSUES])
def test_pipeline_known_issues(limited_mongod_factory, name, pairs, code):
    m = limited_mongod_factory(limit_mb=2048)  # runs out of memory sooner
    runner = Runner(m, keep_going=False)
    runner.run("setup", FUZZ_DB, [("insert", C), ("documents", [{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 5, "b": 2}])])
    start = time.monotonic()
    reply = runner.run(name, FUZZ_DB, pairs + [("maxTimeMS", 5000)])
    elapsed = time.monotonic() - start
    assert reply is not None, "no reply: " + "; ".join(runner.problems) + "\n" + m.tail(20)
    assert reply_problem(reply) is None, reply_problem(reply)
    if pairs[0][0] == "update":
        assert reply.get("ok") == 1 and reply.get("writeErrors"), short(reply)
        assert reply["writeErrors"][0].get("code") == code, short(reply)
    else:
        assert (reply.get("ok"), reply.get("code")) == (0, code), short(reply)
    assert elapsed < 5, "took %.1f s" % elapsed
    assert runner.alive()


def test_blocking_stages_with_allow_disk_use_run_in_memory(limited_mongod_factory):
    """allowDiskUse (absent: allowDiskUseByDefault, true as in MongoDB 6.0+) lets $sort and $group
    go past 100 MB; this server cannot spill, so it keeps going in memory (up to a hard cap)."""
    m = limited_mongod_factory(limit_mb=2048)
    runner = Runner(m, keep_going=False)
    sort = [{"$project": {"x": {"$range": [0, 150000]}}}, {"$unwind": "$x"},
            {"$project": {"x": 1, "pad": {"$literal": "p" * 1000}}}, {"$sort": {"x": -1}}, {"$count": "n"}]
    for extra in ([], [("allowDiskUse", True)]):
        reply = runner.run("sort", FUZZ_DB, [("aggregate", 1), ("pipeline", [{"$documents": [{}]}] + sort),
                                             ("cursor", {})] + extra)
        assert reply is not None and reply.get("ok") == 1, short(reply)
        assert reply["cursor"]["firstBatch"] == [{"n": 150000}], short(reply)
    assert runner.alive()


def test_find_blocking_sort_memory_limit(db):
    """find's blocking sort holds at most internalQueryMaxBlockingSortMemoryUsageBytes (100 MB)
    without allowDiskUse (292, as MongoDB); with a limit only the top documents are kept; with
    allowDiskUse (the default) this server sorts on in memory."""
    pad = "p" * (1 << 20)
    db.big.insert_many([{"i": i, "pad": pad} for i in range(110)])
    with pytest.raises(pymongo.errors.OperationFailure) as err:
        list(db.big.find().sort("i", -1).allow_disk_use(False))
    assert err.value.code == 292, err.value.details
    assert "Sort exceeded memory limit of 104857600 bytes" in str(err.value)
    top = db.big.find({}, {"i": 1, "_id": 0}).sort("i", -1).limit(2).allow_disk_use(False)
    assert [d["i"] for d in top] == [109, 108]
    assert [d["i"] for d in db.big.find().sort("i", 1).skip(105)] == [105, 106, 107, 108, 109]
