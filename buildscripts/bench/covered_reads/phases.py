"""The read phases of the covered-reads benchmark (run_covered.py): the query each one sends,
the plan it must get (checked once per server with explain), and the exact answer it must
return (checked for every key once per server, and by result size on every timed operation).

Every function here takes a pymongo Database whose codec returns RawBSONDocument, so the
client does not decode whole documents: the timed work is the server's and the transfer.

Index {key: 1, ts: 1}. Why the covered filter has `ts: {$gte: ""}`: an index key of null
stands for both a null and a missing field, so this server answers a projection from the
index only when the filter proves every projected field present; every `ts` of the data sets is
a string, so `$gte: ""` (bounds ["", {})) matches every document and proves `ts` present.
The brief's form find({key: k}, {key: 1, ts: 1, _id: 0}) is explained too (as "as_written")
and recorded; it fetches.
"""
COLL = "docs"
PROJ = {"key": 1, "ts": 1, "_id": 0}
TS_PRESENT = {"$gte": ""}


def covered_filter(k):
    return {"key": k, "ts": TS_PRESENT}


def op_covered(db, k):
    return sum(1 for _ in db[COLL].find(covered_filter(k), PROJ))


def op_fetched(db, k):
    return sum(1 for _ in db[COLL].find({"key": k}))


def op_count(db, k):
    return db.command("count", COLL, query={"key": k})["n"]


def op_count_documents(db, k):
    return db[COLL].count_documents({"key": k})


def op_distinct(db, k):
    return len(db[COLL].distinct("ts", covered_filter(k)))


# name -> (operation, which expected size it returns, description for the report)
PHASES = {
    "covered": (op_covered, "docs", 'find({key: k, ts: {$gte: ""}}, {key: 1, ts: 1, _id: 0})'),
    "fetched": (op_fetched, "docs", "find({key: k}) (whole documents)"),
    "count": (op_count, "docs", "count command {count: 'docs', query: {key: k}}"),
    "count_documents": (op_count_documents, "docs",
                        "pymongo count_documents({key: k}): aggregate [$match, $group {n: {$sum: 1}}]"),
    "distinct": (op_distinct, "ts", 'distinct("ts", {key: k, ts: {$gte: ""}})'),
}
DEFAULT_SECONDS = {"covered": 12, "fetched": 8, "count": 6, "count_documents": 6, "distinct": 6}


def expected_by_key(docs):
    """key -> {"docs": number of records, "ts": number of distinct ts} and key -> sorted [ts]
    from the loaded records (bson bytes), for the checks."""
    import bson
    ts_of = {}
    for _id, key, raw in docs:
        ts_of.setdefault(key, []).append(bson.decode(raw).get("ts"))
    sizes = {k: {"docs": len(v), "ts": len(set(v))} for k, v in ts_of.items()}
    return sizes, {k: sorted(v) for k, v in ts_of.items()}


def stages(plan, out=None):
    """Stage names of an explain plan tree, depth first (winningPlan or a $cursor's)."""
    out = [] if out is None else out
    if isinstance(plan, dict):
        if "stage" in plan:
            out.append(plan["stage"])
        for v in plan.values():
            stages(v, out)
    elif isinstance(plan, list):
        for v in plan:
            stages(v, out)
    return out


def _summary(ex):
    """Stages of the winning plan and the execution counters, from a find/count/distinct
    explain or an aggregate's (first $cursor stage)."""
    if "stages" in ex and ex["stages"]:
        ex = ex["stages"][0].get("$cursor", {})
    qp, es = ex.get("queryPlanner", {}), ex.get("executionStats", {})
    return {"stages": stages(qp.get("winningPlan")), "totalDocsExamined": es.get("totalDocsExamined"),
            "totalKeysExamined": es.get("totalKeysExamined"), "nReturned": es.get("nReturned")}


def explain_all(db, k):
    """Plan of every phase (and of the brief's literal covered query) for key k, with a verdict
    'ok' on what each must be: covered answers without FETCH and totalDocsExamined 0."""
    ex = lambda cmd: _summary(db.command("explain", cmd, verbosity="executionStats"))
    out = {
        "covered": ex({"find": COLL, "filter": covered_filter(k), "projection": PROJ}),
        "covered_as_written": ex({"find": COLL, "filter": {"key": k}, "projection": PROJ}),
        "fetched": ex({"find": COLL, "filter": {"key": k}}),
        "count": ex({"count": COLL, "query": {"key": k}}),
        "count_documents": ex({"aggregate": COLL, "cursor": {}, "pipeline": [
            {"$match": {"key": k}}, {"$group": {"_id": 1, "n": {"$sum": 1}}}]}),
        "distinct": ex({"distinct": COLL, "key": "ts", "query": covered_filter(k)}),
        "distinct_as_written": ex({"distinct": COLL, "key": "ts", "query": {"key": k}}),
    }
    index_only = lambda s: "FETCH" not in s["stages"] and s["totalDocsExamined"] == 0
    out["covered"]["ok"] = "PROJECTION_COVERED" in out["covered"]["stages"] and index_only(out["covered"])
    out["fetched"]["ok"] = "FETCH" in out["fetched"]["stages"] and "IXSCAN" in out["fetched"]["stages"]
    out["count"]["ok"] = "COUNT_SCAN" in out["count"]["stages"] and index_only(out["count"])
    out["distinct"]["ok"] = index_only(out["distinct"])
    # MongoDB 7.0 answers count_documents' pipeline with COUNT_SCAN too: recorded, not required
    out["count_documents"]["ok"] = "COUNT_SCAN" in out["count_documents"]["stages"]
    return out


def verify_answers(db, docs, ts_sorted):
    """Exact answers for every key: covered gives exactly the (key, ts) pairs, fetched exactly
    the stored bytes, count and count_documents the number, distinct the set of ts. Returns
    {"ok", "mismatches", "first"}; a mismatch is a wrong answer of the server."""
    want_raw = {}
    for _id, key, raw in docs:
        want_raw.setdefault(key, set()).add(raw)
    bad = []
    for k, ts in ts_sorted.items():
        got = sorted((d["key"], d["ts"]) for d in db[COLL].find(covered_filter(k), PROJ))
        if got != [(k, t) for t in ts]:
            bad.append(("covered", k))
        if {d.raw for d in db[COLL].find({"key": k})} != want_raw[k] or \
                db[COLL].count_documents({"key": k}) != len(ts):
            bad.append(("fetched/count_documents", k))
        if op_count(db, k) != len(ts):
            bad.append(("count", k))
        if sorted(db[COLL].distinct("ts", covered_filter(k))) != sorted(set(ts)):
            bad.append(("distinct", k))
        for d in db[COLL].find(covered_filter(k), PROJ).limit(3):
            if set(d.keys()) != {"key", "ts"}:
                bad.append(("covered fields", k))
                break
    return {"ok": not bad, "mismatches": len(bad), "keys": len(ts_sorted),
            "first": [f"{p} key={k!r}" for p, k in bad[:10]]}
