"""Bad commands never crash the server and always get a MongoDB-style error reply.

Every command listCommands reports is sent malformed variants over the raw wire protocol: odd
values (every BSON type, NaN, huge numbers, deep nesting, MinKey/MaxKey, invalid regexes...)
for the command's own field and each of its arguments, unknown and duplicated fields, bad
generic arguments; and the query-bearing commands get random, mostly well-shaped but wrong
filters, updates, pipelines, projections, sorts, arrayFilters and index specs; then indexed
queries over mixed-type data (hints, min/max, multikey/partial/wildcard indexes); then random
cases plus cursor/DDL/killOp churn from four connections at once. Each reply must decode and be
a document with ok 0 or 1, an ok: 0 reply must carry a positive code, a codeName and a
non-empty errmsg (command_fuzz_runner.reply_problem), requests must honour maxTimeMS, and the
server must keep answering. Data in a database the fuzzing never names must survive untouched,
through a restart.

The fuzzing runs against a mongod of its own (mongod_factory), so commands that change server
state (setParameter, profile, configureFailPoint, dropDatabase...) cannot disturb other tests.
Knobs: FUZZ_SEED (default fixed), FUZZ_SCALE (multiplies the random cases; default 3),
FUZZ_P_WEIRD (chance of an odd value inside random cases), FUZZ_MEMORY_LIMIT_MB (the fuzzed
server's address-space limit, default 4096, 0 for none), FUZZ_KEEP_GOING=1 (restart the server
after a crash and report every crash at the end, for debugging), FUZZ_STATS=1 (print how each
command answered).
"""
import os
import random
import threading
import time
import uuid

import bson
import pytest
from bson import Decimal128, Int64, MaxKey, MinKey, Regex

from command_fuzz_cases import (ALIASES, COLL, FUZZ_DB, GENERIC_ARGS, OTHER, Gen, command_table, nested,
                                odd_values)
from command_fuzz_runner import Runner, ServerDied, limited_mongod_factory  # noqa: F401

SEED = int(os.environ.get("FUZZ_SEED", "20261121"))
SCALE = float(os.environ.get("FUZZ_SCALE", "3"))
P_WEIRD = float(os.environ.get("FUZZ_P_WEIRD", "0.1"))
MAX_TIME_MS = 3000  # on the random cases; they must stop by then (command_fuzz_runner.SLOW_SECONDS)

# Never sent: they stop the server or block by design.
SKIP = {"shutdown@admin"}
# Commands whose variants may drop or rename the seeded collections: re-seed after them.
RESEEDING = {"drop", "dropDatabase", "dropIndexes", "deleteIndexes", "renameCollection", "delete", "findAndModify",
             "findandmodify", "update", "aggregate", "create"}

SEED_DOCS = [
    {"_id": 1, "a": 1, "b": "x", "c": [1, 2, 3], "d": {"e": 1, "f": [{"g": 1}, {"g": 2}]}, "s": "hello", "n": 3},
    {"_id": 2, "a": [{"b": 1}, {"b": [1, 2]}], "c": [], "d": None, "arr": [[1, 2], [3]], "n": 0.5},
    {"_id": 3, "a": 2.5, "b": Decimal128("1.5"), "dt": bson.datetime_ms.DatetimeMS(0), "s": "\u00e9t\u00e9"},
    {"_id": 4, "a": "str", "loc": [0, 0], "geo": {"type": "Point", "coordinates": [1, 1]}, "c": [{"x": 1}]},
    {"_id": 5, "a": {"b": {"c": {"d": 1}}}, "t": bson.Timestamp(1, 1), "c": [[1], [2, [3]]]},
    {"_id": "s", "a": MinKey(), "b": MaxKey(), "c": "abc"},
    {"_id": {"x": 1}, "a": float("nan"), "bin": bson.Binary(b"\x01\x02", 0), "b": Regex("^a", "i")},
    {"_id": 7, "a": Int64(2 ** 62), "b": -0.0, "c": float("inf"), "d": {"e": [1, {"f": 2}]}},
]
OTHER_DOCS = [{"_id": i, "a": i % 3, "b": [i, i + 1], "x": "v%d" % i, "n": i * 2} for i in range(6)]


def reseed(runner):
    """Puts the seeded collections back the way the cases expect them."""
    for coll, docs in ((COLL, SEED_DOCS), (OTHER, OTHER_DOCS)):
        runner.run("reseed", FUZZ_DB, [("delete", coll), ("deletes", [{"q": {}, "limit": 0}])])
        runner.run("reseed", FUZZ_DB, [("insert", coll), ("documents", docs)])
    runner.run("reseed", FUZZ_DB, [("createIndexes", COLL), ("indexes", [
        {"key": {"a": 1}, "name": "a_1"}, {"key": {"d.e": 1, "b": -1}, "name": "de_b"},
        {"key": {"loc": "2d"}, "name": "loc_2d"}])])


def case_list(table, commands, rng, gen):
    """The structured cases: (label, db, pairs) for every command's malformed variants."""
    odd = odd_values()
    for name in sorted(commands):
        base = ALIASES.get(name, name)
        db, pairs = table.get(base, (FUZZ_DB, [(name, 1)]))
        pairs = [(name, pairs[0][1])] + list(pairs[1:])
        args = pairs[1:]

        def variant(label, p, target_db=db):
            if "%s@%s" % (name, target_db) in SKIP:
                return None
            return ("%s:%s" % (name, label), target_db, p)

        yield variant("valid", pairs)
        yield variant("bare", pairs[:1])
        for v in odd:
            yield variant("first=odd", [(name, v)] + args)
        for i, (k, _) in enumerate(args):
            if name == "waitForFailPoint" and k == "maxTimeMS":
                continue
            for v in rng.sample(odd, 18):
                yield variant("%s=odd" % k, pairs[:1 + i] + [(k, v)] + pairs[2 + i:])
            yield variant("%s=missing" % k, pairs[:1 + i] + pairs[2 + i:])
            yield variant("%s=duplicate" % k, pairs + [(k, rng.choice(odd))])
            yield variant("%s=random" % k, pairs[:1 + i] + [(k, gen.value())] + pairs[2 + i:])
        for k, values in GENERIC_ARGS.items():
            if name == "waitForFailPoint" and k == "maxTimeMS":
                continue
            for v in values:
                yield variant("generic %s" % k, pairs + [(k, v)])
        for _ in range(4):
            yield variant("random args", pairs[:1] + [(gen.field() or "f", gen.value()) for _ in range(3)])
        for v in (nested(120), nested(199), [nested(100)] * 3):
            yield variant("first=deep", [(name, v)] + args)
        if args:
            k = args[0][0]
            yield variant("%s=deep" % k, pairs[:1] + [(k, nested(190))] + pairs[2:])
        # Every non-admin command sent to admin, local and config must not crash either (the
        # read-only ones; writes there could damage the server's own metadata).
        if db == FUZZ_DB and name in ("find", "count", "distinct", "listCollections", "listIndexes", "collStats",
                                      "dbStats", "aggregate", "validate"):
            for other_db in ("admin", "local", "config"):
                yield variant("other db", [(name, "system.version" if pairs[0][1] == COLL else pairs[0][1])] + args,
                              other_db)
        # Admin-only commands elsewhere are refused.
        if db == "admin":
            yield variant("not admin", pairs, FUZZ_DB)


QUERY_COMMANDS = ["find", "aggregate", "update", "delete", "findAndModify", "count", "distinct", "createIndexes",
                  "explain", "insert", "listCollections", "create"]


def random_query_case(g):
    """One random query-language case: (label, db, pairs)."""
    kind = g.pick(QUERY_COMMANDS)
    r = g.r
    if kind == "find":
        p = [("find", COLL)]
        for k, f in (("filter", g.filter), ("sort", g.sort), ("projection", g.projection),
                     ("hint", lambda: g.pick([{"a": 1}, "a_1", {"zz": 1}, {"$natural": g.pick([1, -1, 0, "x"])}, ""])),
                     ("skip", g.number), ("limit", g.number), ("batchSize", g.number), ("min", lambda: {"a": g.value()}),
                     ("max", lambda: {"a": g.value()}), ("let", lambda: {"x": g.expr()})):
            if g.chance(0.5):
                p.append((k, g.maybe(f)))
        return "find", FUZZ_DB, p
    if kind == "aggregate":
        p = [("aggregate", g.pick([COLL, COLL, OTHER, 1, "missing"])), ("pipeline", g.pipeline())]
        p.append(("cursor", g.maybe(lambda: {"batchSize": g.pick([0, 1, 101])})))
        if g.chance(0.1):
            p.append(("explain", True))
        if g.chance(0.1):
            p.append(("let", g.maybe(lambda: {g.pick(["x", "ROOT", "", "$x", "NOW"]): g.expr()})))
        return "aggregate", FUZZ_DB, p
    # Writes mostly target documents that exist, so the update/delete code actually runs.
    target = lambda: g.pick([{}, {}, {"_id": g.pick([d["_id"] for d in SEED_DOCS])}, g.filter(),  # noqa: E731
                             {"_id": g.pick([d["_id"] for d in SEED_DOCS]), "a": g.value()}])
    if kind == "update":
        stmt = {"q": g.maybe(target), "u": g.update(), "multi": g.chance(0.5)}
        for k, f in (("upsert", lambda: g.pick([True, True, g.plain()])), ("arrayFilters", g.array_filters),
                     ("hint", lambda: g.pick([{"a": 1}, "a_1", {}])), ("c", lambda: {"x": g.expr()})):
            if g.chance(0.3):
                stmt[k] = f()
        if g.chance(0.15) and "$[i]" not in repr(stmt):
            stmt["u"] = {"$set": {"c.$[i]": g.value()}}
            stmt["arrayFilters"] = g.array_filters()
        return "update", FUZZ_DB, [("update", COLL), ("updates", [stmt]), ("ordered", g.plain())]
    if kind == "delete":
        return "delete", FUZZ_DB, [("delete", COLL), ("deletes", [{"q": g.filter(), "limit": g.pick([0, 1, 2, "x", -1])}])]
    if kind == "findAndModify":
        p = [("findAndModify", COLL), ("query", g.maybe(target))]
        if g.chance(0.8):
            p.append(("update", g.update()))
        for k, f in (("sort", g.sort), ("fields", g.projection), ("new", g.plain), ("upsert", g.plain),
                     ("remove", g.plain), ("arrayFilters", g.array_filters)):
            if g.chance(0.3):
                p.append((k, f()))
        return "findAndModify", FUZZ_DB, p
    if kind == "count":
        return "count", FUZZ_DB, [("count", COLL), ("query", g.maybe(g.filter)), ("limit", g.number()),
                                  ("skip", g.pick([0, 1, -1]))]
    if kind == "distinct":
        return "distinct", FUZZ_DB, [("distinct", COLL), ("key", g.maybe(g.field)), ("query", g.maybe(g.filter))]
    if kind == "createIndexes":
        return "createIndexes", FUZZ_DB, [("createIndexes", "idx"),
                                          ("indexes", g.maybe(lambda: [g.index_spec() for _ in range(r.randrange(0, 3))]))]
    if kind == "explain":
        _, _, inner = random_query_case(g)
        if inner[0][0] in ("create", "createIndexes", "insert", "listCollections", "explain"):
            inner = [("find", COLL), ("filter", g.filter())]
        return "explain", FUZZ_DB, [("explain", dict(inner)),
                                    ("verbosity", g.maybe(lambda: g.pick(["queryPlanner", "executionStats",
                                                                          "allPlansExecution", "bogus"])))]
    if kind == "insert":
        docs = [g.maybe(lambda: {g.field() or "f": g.value() for _ in range(r.randrange(0, 4))})
                for _ in range(r.randrange(0, 3))]
        return "insert", FUZZ_DB, [("insert", g.pick(["ins", COLL])), ("documents", docs), ("ordered", g.plain())]
    if kind == "listCollections":
        return "listCollections", FUZZ_DB, [("listCollections", 1), ("filter", g.maybe(g.filter))]
    # create: validators and views with random filters/pipelines, dropped right after
    p = [("create", "v")]
    if g.chance(0.5):
        p += [("viewOn", g.maybe(lambda: COLL)), ("pipeline", g.pipeline())]
    else:
        p += [("validator", g.maybe(g.filter))]
    return "create", FUZZ_DB, p


def restore_state(runner, name):
    """Undoes server-wide settings a case may have changed."""
    if name == "setParameter":
        runner.run("restore", "admin", [("setParameter", 1), ("logLevel", 0)])
    elif name == "profile":
        runner.run("restore", FUZZ_DB, [("profile", 0), ("filter", "unset"), ("slowms", 100), ("sampleRate", 1.0)])
    elif name == "setFeatureCompatibilityVersion":
        runner.run("restore", "admin", [("setFeatureCompatibilityVersion", "7.0"), ("confirm", True)])
    elif name == "configureFailPoint":
        runner.run("restore", "admin", [("configureFailPoint", "failPointTestPoint"), ("mode", "off")])


SENTINEL_DB = "fuzz_sentinel"
SENTINEL_DOCS = [{"_id": i, "v": "value %d" % i, "n": {"k": [i, str(i)]}} for i in range(200)]


def sentinel_snapshot(client):
    coll = client[SENTINEL_DB]["keep"]
    return list(coll.find({}, sort=[("_id", 1)])), sorted(i["name"] for i in coll.list_indexes())


@pytest.fixture
def fuzz_server(limited_mongod_factory):
    m = limited_mongod_factory()
    with m.client() as c:
        c[SENTINEL_DB]["keep"].insert_many(SENTINEL_DOCS)
        c[SENTINEL_DB]["keep"].create_index("v", unique=True)
    return m


CHURN_DB = "fuzz_churn"


def churn_case(g, lsid):
    """Cursor and DDL operations that race each other when run from several connections (on
    their own database, which they also drop)."""
    roll = g.r.random()
    coll = lambda: g.pick(["c2", "c3", "cap"])  # noqa: E731
    if roll < 0.3:
        return "churn find", CHURN_DB, [("find", coll()), ("batchSize", g.pick([0, 1, 2])),
                                       ("filter", g.pick([{}, {"a": {"$gte": 0}}, {"b": {"$in": [1, 2, -3]}}])),
                                       ("sort", g.pick([{}, {"a": 1}, {"b": -1}])), ("lsid", lsid)]
    if roll < 0.4:
        return "churn aggregate", CHURN_DB, [("aggregate", coll()), ("pipeline", g.pick([
            [{"$sort": {"a": -1}}], [{"$match": {"a": {"$gt": 2}}}],
            [{"$lookup": {"from": coll(), "localField": "a", "foreignField": "a", "as": "x"}}],
            [{"$unionWith": coll()}], [{"$group": {"_id": "$a", "n": {"$sum": 1}}}]])),
            ("cursor", {"batchSize": 1}), ("lsid", lsid)]
    docs = lambda: [{"a": i, "b": [i, -i], "s": "x" * g.r.randrange(300)} for i in range(g.r.randrange(1, 20))]  # noqa
    ops = [
        [("drop", coll())], [("insert", coll()), ("documents", docs())], [("insert", "cap"), ("documents", docs())],
        [("create", "cap"), ("capped", True), ("size", 4096), ("max", g.pick([3, 10]))],
        [("createIndexes", coll()), ("indexes", [{"key": {g.pick(["a", "b", "a.b"]): g.pick([1, -1])},
                                                  "name": "i%d" % g.r.randrange(3), "unique": g.chance(0.2)}])],
        [("dropIndexes", coll()), ("index", g.pick(["*", "i0", "i1"]))],
        [("renameCollection", CHURN_DB + ".c2"), ("to", CHURN_DB + ".c3"), ("dropTarget", True)],
        [("renameCollection", CHURN_DB + ".c3"), ("to", CHURN_DB + ".c2"), ("dropTarget", g.pick([True, False]))],
        [("update", coll()), ("updates", [{"q": {}, "u": {"$inc": {"a": 1}}, "multi": True}])],
        [("update", coll()), ("updates", [{"q": {"a": g.r.randrange(20)}, "u": {"$set": {"s": "y" * 500}},
                                           "upsert": True}])],
        [("delete", coll()), ("deletes", [{"q": {"a": {"$gt": g.r.randrange(20)}}, "limit": 0}])],
        [("findAndModify", coll()), ("query", {}), ("sort", {"a": 1}), ("remove", True)],
        [("collStats", coll())], [("validate", coll())], [("listIndexes", coll())], [("listCollections", 1)],
        [("count", coll()), ("query", {"a": {"$gte": 1}})], [("distinct", coll()), ("key", "b")],
        [("killAllSessions", [])], [("killSessions", [lsid])], [("create", coll())], [("dbStats", 1)],
        [("dropDatabase", 1)],
    ]
    p = g.pick(ops)
    return "churn " + p[0][0], "admin" if p[0][0] == "renameCollection" else CHURN_DB, p


def run_concurrently(m, seed, threads, per_thread):
    """Random query cases, cursors (getMore/killCursors on each other's cursors), DDL and killOp
    from several connections at once. Returns (problems, crash message or None)."""
    cursor_ids = []
    lock = threading.Lock()
    problems = []
    crash = []

    def worker(k):
        g = Gen(random.Random(seed * 1000 + k), p_weird=P_WEIRD)
        # DDL waits for the catalog lock behind other threads' reads (each up to MAX_TIME_MS).
        runner = Runner(m, keep_going=False, slow_seconds=20)
        lsid = {"id": uuid.UUID(int=k + 1)}
        try:
            for _ in range(per_thread):
                if crash:
                    return
                roll = g.r.random()
                if roll < 0.45:
                    label, db, pairs = random_query_case(g)
                    pairs = pairs + [("maxTimeMS", MAX_TIME_MS)]
                elif roll < 0.85:
                    label, db, pairs = churn_case(g, lsid)
                elif roll < 0.95 and cursor_ids:
                    with lock:
                        cid, db, coll = g.pick(cursor_ids)
                    if g.chance(0.7):
                        label, pairs = "churn getMore", [("getMore", cid), ("collection", coll), ("batchSize", 1)]
                    else:
                        label, pairs = "churn killCursors", [("killCursors", coll), ("cursors", [cid])]
                else:
                    ops = runner.run("churn currentOp", "admin", [("currentOp", 1)]) or {}
                    ids = [op["opid"] for op in ops.get("inprog", []) if op.get("active") and "opid" in op]
                    label, db, pairs = "churn killOp", "admin", [("killOp", 1), ("op", g.pick(ids) if ids else 0)]
                reply = runner.run(label, db, pairs)
                cursor = (reply or {}).get("cursor") or {}
                if cursor.get("id"):
                    with lock:
                        cursor_ids.append((cursor["id"],) + tuple(cursor["ns"].split(".", 1)))
                        del cursor_ids[:-50]
        except ServerDied as e:
            crash.append(str(e))
        finally:
            with lock:
                problems.extend(runner.problems)
            runner.sock.close()

    workers = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return problems, (crash[0] if crash else None)


IX_DB = "fuzz_ix"
IX_FIELDS = ["a", "b", "c.d", "arr", "s", "u", "a.x", "arr.0", "c", "arr.k"]
IX_SPECS = [{"key": {"a": 1}, "name": "a"}, {"key": {"a": 1, "b": -1}, "name": "ab"}, {"key": {"c.d": 1}, "name": "cd"},
            {"key": {"arr": 1}, "name": "arr"}, {"key": {"a.$**": 1}, "name": "wc"},
            {"key": {"s": 1}, "name": "s", "partialFilterExpression": {"s": {"$exists": True}}},
            {"key": {"u": 1}, "name": "u", "unique": True, "sparse": True}, {"key": {"b": -1, "arr": 1}, "name": "barr"},
            {"key": {"arr.k": 1, "a": 1}, "name": "ak"}]


class IndexedQueries:
    """Well-formed queries, updates and deletes with hints, sorts, min/max and projections over
    documents of mixed types (arrays at several levels, MinKey/MaxKey, NaN, regexes...) in a
    collection with multikey, compound, partial, sparse-unique and wildcard indexes: the index
    bounds, planner and index scans see every kind of value."""

    SCALARS = [None, 0, 1, -1, 2.5, Int64(5), Decimal128("1.0"), "x", "y", "", float("nan"), float("inf"), MinKey(),
               MaxKey(), True, False, [], [1, 2], [[1]], {}, {"x": 1}, Regex("^x"), bson.ObjectId("5f0000000000000000000001"),
               bson.Timestamp(1, 1), bson.Binary(b"ab", 0), bson.datetime_ms.DatetimeMS(0)]

    def __init__(self, g):
        self.g = g

    def value(self, depth=0):
        g = self.g
        if depth < 2 and g.chance(0.25):
            return [self.value(depth + 1) for _ in range(g.r.randrange(0, 4))]
        if depth < 2 and g.chance(0.15):
            return {g.pick(["x", "d", "k", "0"]): self.value(depth + 1)}
        return g.pick(self.SCALARS)

    def doc(self):
        d = {f: self.value() for f in ["a", "b", "c", "arr", "s", "u"] if self.g.chance(0.7)}
        if self.g.chance(0.3):
            d["c"] = {"d": self.value()}
        return d

    def filter(self):
        g = self.g
        f = g.pick(IX_FIELDS)
        op = g.pick(["$eq", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$ne", "$exists", "$type", "$regex", "$elemMatch",
                     "$all", "$size", "$not"])
        v = {"$in": lambda: [self.value() for _ in range(g.r.randrange(0, 5))], "$exists": lambda: g.chance(0.5),
             "$type": lambda: g.pick(["number", "string", "array", "null", "minKey", 2, 10]),
             "$regex": lambda: g.pick(["^x", "x", "^", "^\\\\", "(?i)x", "^x.*y"]),
             "$elemMatch": lambda: g.pick([{"$gt": 0}, {"x": 1}, {"$in": [1, 2]}]), "$size": lambda: g.pick([0, 1, 2]),
             "$not": lambda: g.pick([{"$gt": 1}, Regex("^x"), {"$in": [None]}])}
        v["$nin"] = v["$all"] = v["$in"]
        out = {f: {op: v.get(op, self.value)()}}
        if g.chance(0.4):
            out[g.pick(IX_FIELDS)] = self.value()
        if g.chance(0.2):
            out = {g.pick(["$and", "$or", "$nor"]): [out, {g.pick(IX_FIELDS): self.value()}]}
        return out

    def case(self):
        g = self.g
        hint = g.pick([s["name"] for s in IX_SPECS] + ["_id_", None, None, {"$natural": 1}])
        hinted = [("hint", hint)] if hint else []
        roll = g.r.random()
        if roll < 0.6:
            p = [("find", "ix"), ("filter", self.filter())] + hinted
            for k, choices, chance in (
                    ("sort", [{"a": 1}, {"a": -1, "b": 1}, {"b": -1}, {"arr": 1}, {"c.d": -1}, {"u": 1}, {"a": 1, "_id": -1},
                              {"$natural": -1}, {"s": 1}], 0.5),
                    ("projection", [{"a": 1}, {"arr.$": 1}, {"arr": {"$slice": -1}}, {"arr": {"$elemMatch": {"$gt": 0}}},
                                    {"_id": 0, "b": 1}], 0.3),
                    ("limit", [1, 2, 10], 0.3), ("skip", [1, 5], 0.3), ("batchSize", [0, 1], 0.3)):
                if g.chance(chance):
                    p.append((k, g.pick(choices)))
            for k in ("min", "max"):
                if g.chance(0.15):
                    p.append((k, {"a": self.value()}))
            return p
        if roll < 0.7:
            return [("count", "ix"), ("query", self.filter())] + hinted
        if roll < 0.8:
            return [("distinct", "ix"), ("key", g.pick(IX_FIELDS)), ("query", self.filter())] + hinted
        if roll < 0.9:
            u = g.pick([{"$set": {g.pick(IX_FIELDS): self.value()}}, {"$push": {"arr": self.value()}}, {"$inc": {"a": 1}},
                        {"$unset": {g.pick(IX_FIELDS): 1}}, {"$set": {"arr.$": 1}}, {"$pull": {"arr": {"$in": [1, None]}}}])
            return [("update", "ix"), ("updates", [{"q": self.filter(), "u": u, "multi": g.chance(0.5),
                                                     "upsert": g.chance(0.2)}])]
        if roll < 0.95:
            return [("delete", "ix"), ("deletes", [{"q": self.filter(), "limit": g.pick([0, 1])}])]
        return [("findAndModify", "ix"), ("query", self.filter()), ("sort", g.pick([{"a": 1}, {"b": -1}])),
                ("update", {"$set": {"b": self.value()}}), ("upsert", g.chance(0.3))] + hinted

    def run(self, runner, n):
        runner.run("ix setup", IX_DB, [("dropDatabase", 1)])
        for spec in IX_SPECS:
            runner.run("ix setup", IX_DB, [("createIndexes", "ix"), ("indexes", [spec])])
        for _ in range(100):
            runner.run("ix setup", IX_DB, [("insert", "ix"), ("documents", [self.doc() for _ in range(3)]),
                                           ("ordered", False)])
        for i in range(n):
            pairs = self.case()
            reply = runner.run("indexed " + pairs[0][0], IX_DB, pairs + [("maxTimeMS", MAX_TIME_MS)])
            cursor = (reply or {}).get("cursor") or {}
            if cursor.get("id") and self.g.chance(0.5):
                runner.run("indexed getMore", IX_DB, [("getMore", cursor["id"]), ("collection", "ix")])
            if i % 50 == 0:
                runner.run("ix insert", IX_DB, [("insert", "ix"), ("documents", [self.doc() for _ in range(5)]),
                                                ("ordered", False)])
        reply = runner.run("ix validate", IX_DB, [("validate", "ix"), ("full", True)])
        assert reply and reply.get("valid") is True, "validate after the indexed queries: %r" % (reply,)


def test_every_command_survives_malformed_input(fuzz_server):
    m = fuzz_server
    rng = random.Random(SEED)
    gen = Gen(rng)
    runner = Runner(m)
    reseed(runner)
    commands = runner.raw_request("admin", [("listCommands", 1)])["commands"]
    table = command_table()
    start = time.monotonic()

    # Parameters: every one gets a few odd values, then its original value back.
    params = runner.raw_request("admin", [("getParameter", "*")])
    for pname, original in sorted(params.items()):
        # requireApiVersion: true makes every later request without apiVersion fail (as in
        # MongoDB), the fuzzer's own setParameter and ping included.
        if pname in ("ok", "requireApiVersion"):
            continue
        for v in rng.sample(odd_values(), 3) + [original]:
            runner.run("setParameter %s" % pname, "admin", [("setParameter", 1), (pname, v)])
    restore_state(runner, "setParameter")

    n = 0
    for case in case_list(table, commands, rng, gen):
        if case is None:
            continue
        label, db, pairs = case
        runner.run(label, db, pairs)
        name = pairs[0][0]
        restore_state(runner, ALIASES.get(name, name))
        n += 1
        if ALIASES.get(name, name) in RESEEDING and n % 10 == 0:
            reseed(runner)
        if n % 200 == 0:
            assert runner.alive(), "server stopped answering ping after %d requests" % runner.sent
    reseed(runner)

    # A live cursor's getMore with odd arguments.
    for v in rng.sample(odd_values(), 25):
        reply = runner.run("find for getMore", FUZZ_DB, [("find", OTHER), ("batchSize", 1)])
        cid = reply["cursor"]["id"] if reply and reply.get("ok") == 1 else Int64(0)
        for field in ("batchSize", "collection", "maxTimeMS"):
            pairs = [("getMore", cid), ("collection", OTHER), ("batchSize", 1)]
            pairs = [p if p[0] != field else (field, v) for p in pairs] + ([(field, v)] if field == "maxTimeMS" else [])
            runner.run("getMore live %s=odd" % field, FUZZ_DB, pairs)
        runner.run("killCursors", FUZZ_DB, [("killCursors", OTHER), ("cursors", [cid])])

    # Random query-language cases: mostly well-formed at the top so they reach deep code. Each
    # carries maxTimeMS, so a case that runs on past it (SLOW_SECONDS) ignores interruption.
    gen.p_weird = P_WEIRD
    for i in range(int(2500 * SCALE)):
        label, db, pairs = random_query_case(gen)
        runner.run("random " + label, db, pairs + [("maxTimeMS", MAX_TIME_MS)])
        if label == "create":
            runner.run("cleanup", FUZZ_DB, [("drop", "v")])
        if i % 100 == 99:
            reseed(runner)
            runner.run("cleanup", FUZZ_DB, [("drop", "idx")])
            runner.run("cleanup", FUZZ_DB, [("insert", "idx"), ("documents", SEED_DOCS)])
        if i % 250 == 0:
            assert runner.alive(), "server stopped answering ping after %d requests" % runner.sent
    reseed(runner)

    IndexedQueries(Gen(random.Random(SEED + 1), p_weird=0.05)).run(runner, int(2000 * SCALE))

    # The same and cursor/DDL churn from several connections at once.
    concurrent_problems, crash = run_concurrently(m, SEED, threads=4, per_thread=int(400 * SCALE))
    assert crash is None, crash
    runner.problems += concurrent_problems
    assert runner.alive(), "server stopped answering ping at the end"
    print("sent %d requests (+%d concurrently) in %.1f s" % (runner.sent, 4 * int(400 * SCALE),
                                                            time.monotonic() - start))
    if os.environ.get("FUZZ_STATS") == "1":
        for (cmd, outcome), count in sorted(runner.outcomes.items()):
            print("%6d  %-40s %s" % (count, cmd, outcome))

    # The data the fuzzing never named is intact, and stays so across a clean restart.
    expected = (SENTINEL_DOCS, ["_id_", "v_1"])
    with m.client() as c:
        assert sentinel_snapshot(c) == expected
        assert c[SENTINEL_DB].command("validate", "keep")["valid"]
    assert m.stop() == 0, "mongod did not exit cleanly after the fuzzing:\n" + m.tail()
    m.start()
    with m.client() as c:
        assert sentinel_snapshot(c) == expected

    msgs = ["%d crash(es):" % len(runner.crashes)] if runner.crashes else []
    msgs += [Runner.describe(label, db, pairs, what) for label, db, pairs, what, _ in runner.crashes]
    if runner.problems:
        msgs.append("%d bad repl(ies):" % len(runner.problems))
        msgs += runner.problems[:40]
    assert not msgs, "\n".join(msgs)


