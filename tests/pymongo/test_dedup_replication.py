"""dbDedup in replication (issue 11): on a set where every member runs --dedup, inserts into a
deduplicated collection travel between members as forward deltas against a document the member
already holds, while every other reader of the oplog sees MongoDB-format entries.

One three-member set for the file (CI has 2 cores). Versioned documents are loaded through pymongo
by several clients at once with w: "majority"; then: the primary sent most of those inserts encoded
and the secondaries rebuilt them (serverStatus().dedup.replication on both sides, and
metrics.repl.network); every document is byte-identical on every member, dbHash equal, validate
clean; the secondaries stored the records against the source their entry named (the re-encoder) and
their own storage is deduplicated; a plain find on local.oplog.rs and a change stream see whole
documents; a member that acts as if it lacked every source (fail point dedupMissingSource) fetches
each entry whole and ends with the same data."""

import os
import threading
import time

import bson
import pymongo
import pytest
from bson.raw_bson import RawBSONDocument

from dedup_helpers import history, wait_settled
from replset_helpers import (hold_replication, initiate, make_members, primary_of, release_replication, rs_client,
                             stop_all, wait_for)

# The members are this file's own --dedup processes: once is enough.
pytestmark = pytest.mark.skipif(os.environ.get("RESMOKE_SUITE") == "pymongo_dedup",
                                reason="starts its own --dedup members; runs in the pymongo suite")

SET = "ddrepl"
MAJORITY = pymongo.WriteConcern(w="majority", wtimeout=60000)


@pytest.fixture(scope="module")
def rs(tmp_path_factory):
    members = make_members(tmp_path_factory.mktemp(SET), SET, 3, lambda i: ["--dedup"])
    initiate(members, SET)
    yield members
    stop_all(members)


def repl_stats(m):
    with m.client() as c:
        return c.admin.command("serverStatus")["dedup"]["replication"]


def sent_total(members):
    """serverStatus().dedup.replication.sent summed over the members: a secondary may fetch from
    the other one (chaining) rather than from the primary."""
    out = {}
    for m in members:
        for k, v in repl_stats(m)["sent"].items():
            if isinstance(v, int):
                out[k] = out.get(k, 0) + v
    return out


def load_versions(members, db, coll, articles, versions, seed, clients=4):
    """Loads `versions` versions of `articles` articles with `clients` concurrent clients, each
    inserting its articles' versions in order with w: majority. Returns the documents by _id."""
    docs = {}
    per_client = [[] for _ in range(clients)]
    for a in range(articles):
        h = history(a, versions, seed)
        per_client[a % clients].append(h)
        for d in h:
            docs[d["_id"]] = d
    errors = []

    def run(histories):
        try:
            with rs_client(members, SET) as c:
                col = c[db].get_collection(coll, write_concern=MAJORITY)
                # Interleave the articles as an application writing several documents would.
                for v in range(versions):
                    col.insert_many([h[v] for h in histories])
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(p,)) for p in per_client if p]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return docs


def raw_docs(m, db, coll):
    with m.client(document_class=RawBSONDocument) as c:
        return {bson.decode(d.raw)["_id"]: d.raw
                for d in c[db].get_collection(coll, read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED)
                .find().sort("_id", 1)}


def raw_oplog(m, db, coll):
    """The member's oplog entries of the collection by ts, as raw BSON (byte for byte)."""
    with m.client(document_class=RawBSONDocument) as c:
        return {bson.decode(e.raw)["ts"]: bytes(e.raw) for e in c.local["oplog.rs"].find({"ns": "%s.%s" % (db, coll)})}


def assert_same_everywhere(members, db, coll, expected_count):
    wait_for(lambda: all(_count(m, db, coll) == expected_count for m in members), 60, "every member to have the documents")
    first = raw_docs(members[0], db, coll)
    assert len(first) == expected_count
    oplog = raw_oplog(members[0], db, coll)
    hashes = set()
    for m in members:
        assert raw_docs(m, db, coll) == first, "documents differ on member %d" % m.port
        # Entries that arrived encoded were rebuilt byte for byte: every oplog is the source's
        # (where both hold the entry: a member that initial-synced starts later).
        mine = raw_oplog(m, db, coll)
        common = set(mine) & set(oplog)
        assert common, "no common oplog entries with member %d" % m.port
        assert all(mine[ts] == oplog[ts] for ts in common), "oplog entries differ on member %d" % m.port
        with m.client() as c:
            hashes.add(c[db].command("dbHash", read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED)["md5"])
            v = c[db].command("validate", coll, full=True, read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED)
            assert v["valid"], v
    assert len(hashes) == 1, hashes


def _count(m, db, coll):
    with m.client() as c:
        return c[db].get_collection(coll, read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED).count_documents({})


def secondaries(members):
    p = primary_of(members)
    return p, [m for m in members if m is not p]


def test_versioned_inserts_travel_as_forward_deltas(rs):
    primary, others = secondaries(rs)
    sent0 = sent_total(rs)
    recv0 = [repl_stats(m)["received"] for m in others]
    net0 = []
    for m in others:
        with m.client() as c:
            net0.append(c.admin.command("serverStatus")["metrics"]["repl"]["network"]["bytes"])

    docs = load_versions(rs, "wiki", "pages", articles=8, versions=40, seed=11)
    assert_same_everywhere(rs, "wiki", "pages", len(docs))

    sent = sent_total(rs)
    encoded = sent["entriesEncoded"] - sent0["entriesEncoded"]
    whole = sent["entriesWhole"] - sent0["entriesWhole"]
    # Each secondary fetched every insert once (from the primary or the other). The first version of
    # each article has no source; under CI's load a few more may go whole (the encoder wait is
    # bounded), never most.
    assert encoded + whole >= 2 * len(docs) * 0.95, sent
    assert encoded >= 2 * len(docs) * 0.6, sent
    logical = sent["logicalBytes"] - sent0["logicalBytes"]
    shipped = sent["sentBytes"] - sent0["sentBytes"]
    assert logical > 3 * shipped, sent  # versions differ by a few words in 6 KB

    for m, r0, n0 in zip(others, recv0, net0):
        r = repl_stats(m)["received"]
        assert r["entriesDecoded"] - r0["entriesDecoded"] >= len(docs) * 0.6, r
        assert r["supplementalFetches"] == r0["supplementalFetches"], r
        with m.client() as c:
            net = c.admin.command("serverStatus")["metrics"]["repl"]["network"]["bytes"] - n0
        # What crossed the wire is far less than the documents.
        assert net < sum(len(bson.encode(d)) for d in docs.values()) / 3, net

    # The secondaries stored the records against the source their entries named, and their own
    # storage is deduplicated as the primary's.
    for m in others:
        with m.client() as c:
            s = wait_settled(c)
            assert s["replication"]["received"]["reencoded"] >= len(docs) * 0.5, s["replication"]
            assert s["ratio"] > 2, s


def test_plain_oplog_readers_and_change_streams_see_whole_documents(rs):
    primary, others = secondaries(rs)
    decoded0 = [repl_stats(m)["received"]["entriesDecoded"] for m in others]
    h = history("cs", 12, seed=5)
    with rs_client(rs, SET) as c:
        coll = c.news.get_collection("items", write_concern=MAJORITY)
        coll.insert_one({"_id": "seed", "x": 0})
        with coll.watch() as stream:
            for d in h:
                coll.insert_one(d)
            seen, deadline = [], time.time() + 30
            while len(seen) < len(h) and time.time() < deadline:
                ev = stream.try_next()
                if ev is not None:
                    seen.append(ev)
        assert [e["fullDocument"] for e in seen] == h
    wait_for(lambda: all(_count(m, "news", "items") == len(h) + 1 for m in rs), 60, "every member to have the inserts")
    # The secondaries did receive most of them encoded...
    for m, d0 in zip(others, decoded0):
        assert repl_stats(m)["received"]["entriesDecoded"] - d0 >= len(h) // 2
    # ... and no reader of any member's oplog sees that.
    for m in [primary] + others:
        with m.client() as c:
            entries = list(c.local["oplog.rs"].find({"ns": "news.items", "op": "i"}))
            assert len(entries) == len(h) + 1
            for e in entries:
                assert "$dedup" not in e, e
                if e["o"]["_id"] != "seed":
                    assert e["o"]["body"] == next(d["body"] for d in h if d["_id"] == e["o"]["_id"])
            # A tailable cursor on the oplog, as tools read it, too.
            cur = c.local["oplog.rs"].find({"ns": "news.items", "op": "i"}, cursor_type=pymongo.CursorType.TAILABLE)
            assert all("$dedup" not in e and "article" in e["o"] for e in list(cur)[1:])


def fail_point(m, name, mode):
    with m.client() as c:
        c.admin.command({"configureFailPoint": name, "mode": mode})


def test_member_without_the_source_fetches_entries_whole(rs):
    primary, others = secondaries(rs)
    lacking = others[0]
    before = repl_stats(lacking)["received"]["supplementalFetches"]
    fail_point(lacking, "dedupMissingSource", "alwaysOn")
    try:
        docs = load_versions(rs, "wiki", "missing", articles=4, versions=15, seed=23, clients=2)
        # w: majority did not wait for this member: it may still be fetching.
        wait_for(lambda: _count(lacking, "wiki", "missing") == len(docs), 60, "the member to catch up")
    finally:
        fail_point(lacking, "dedupMissingSource", "off")
    after = repl_stats(lacking)["received"]["supplementalFetches"]
    assert after - before >= len(docs) * 0.5, (before, after)
    assert_same_everywhere(rs, "wiki", "missing", len(docs))


def engine_counts(m):
    with m.client() as c:
        d = c.admin.command("serverStatus")["dedup"]
    return d["recordsExamined"], d["recordsEncoded"]


def test_kill9_of_the_primary_mid_load_loses_no_acknowledged_write_and_the_new_primary_deduplicates(rs):
    p = primary_of(rs)
    acked, stop = {}, threading.Event()
    versions = {a: history("k%d" % a, 60, seed=31) for a in range(4)}

    def writer(a):
        with rs_client(rs, SET, retryWrites=True) as c:
            coll = c.wiki.get_collection("failover", write_concern=MAJORITY)
            for d in versions[a][:40]:
                if stop.is_set():
                    return
                while not stop.is_set():
                    try:
                        coll.insert_one(d)
                        acked[d["_id"]] = d
                        break
                    except pymongo.errors.DuplicateKeyError:
                        acked[d["_id"]] = d  # a retry after the failover found it applied
                        break
                    except pymongo.errors.PyMongoError:
                        time.sleep(0.2)  # no primary yet: the same insert again

    others = [m for m in rs if m is not p]
    reencoded0 = {m.port: repl_stats(m)["received"]["reencoded"] for m in others}
    threads = [threading.Thread(target=writer, args=(a,)) for a in versions]
    for t in threads:
        t.start()
    wait_for(lambda: len(acked) >= 40, 60, "some acknowledged inserts")
    p.kill9()
    q = wait_for(lambda: primary_of(others), 60, "a new primary")
    for t in threads:
        t.join(120)
    stop.set()
    assert len(acked) == 160
    # The new primary's index is warm (its re-encoder indexed every replicated record): the next
    # versions of the same articles find their sources from the first insert on.
    with q.client() as c:
        wait_settled(c)  # the inserts it replicated as a secondary are through its re-encoder
    # As a secondary it stored what it replicated against the sources its entries named.
    assert repl_stats(q)["received"]["reencoded"] > reencoded0[q.port]
    examined0, encoded0 = engine_counts(q)
    with rs_client(rs, SET) as c:
        coll = c.wiki.get_collection("failover", write_concern=MAJORITY)
        for a in versions:
            coll.insert_many(versions[a][40:])
    with q.client() as c:
        wait_settled(c)
    examined, encoded = engine_counts(q)
    assert examined - examined0 == 80
    assert encoded - encoded0 >= 76, (examined - examined0, encoded - encoded0)
    p.start()
    wait_for(lambda: all(m.proc.poll() is None for m in rs) and
             sorted(status_of(m) for m in rs) == [1, 2, 2], 120, "the old primary back as a secondary")
    assert_same_everywhere(rs, "wiki", "failover", 240)
    got = {bson.decode(v)["_id"]: bson.decode(v) for v in raw_docs(q, "wiki", "failover").values()}
    for _id, d in acked.items():
        assert got[_id] == d, _id


def status_of(m):
    try:
        with m.client(serverSelectionTimeoutMS=2000) as c:
            return c.admin.command("replSetGetStatus")["myState"]
    except pymongo.errors.PyMongoError:
        return 0


def test_a_member_without_dedup_initial_syncs_under_load_and_decodes_what_it_fetches(rs, tmp_path):
    # A mixed set: the new member runs without --dedup. It initial-syncs while versions keep coming,
    # then fetches inserts as forward deltas like the others, rebuilds them against the documents it
    # cloned, and stores them whole.
    plain, = make_members(tmp_path, SET, 1)
    plain.start()
    stop = threading.Event()
    loaded = []

    def writer():
        with rs_client(rs, SET) as c:
            coll = c.wiki.get_collection("mixed", write_concern=pymongo.WriteConcern(w=1))
            for v in range(30):
                if stop.is_set():
                    return
                docs = [history("m%d" % a, 30, seed=41)[v] for a in range(4)]
                coll.insert_many(docs)
                loaded.extend(docs)
                time.sleep(0.05)

    t = threading.Thread(target=writer)
    t.start()
    try:
        with rs_client(rs, SET) as c:
            cfg = c.admin.command("replSetGetConfig")["config"]
            cfg["version"] += 1
            cfg["members"].append({"_id": 9, "host": "127.0.0.1:%d" % plain.port, "priority": 0, "votes": 0})
            c.admin.command("replSetReconfig", cfg)
        wait_for(lambda: status_of(plain) == 2, 120, "the new member to finish its initial sync")
        t.join(120)
        before = repl_stats(plain)["received"]
        with rs_client(rs, SET) as c:
            coll = c.wiki.get_collection("mixed", write_concern=pymongo.WriteConcern(w=4, wtimeout=60000))
            more = [d for a in range(4) for d in history("m%d" % a, 40, seed=41)[30:]]
            for d in more:
                coll.insert_one(d)
        after = repl_stats(plain)["received"]
        assert after["entriesDecoded"] - before["entriesDecoded"] >= len(more) * 0.6, (before, after)
        with plain.client() as c:
            assert not c.admin.command("serverStatus")["dedup"]["enabled"]
        assert_same_everywhere(rs + [plain], "wiki", "mixed", len(loaded) + len(more))
    finally:
        stop.set()
        t.join(60)
        with rs_client(rs, SET) as c:
            cfg = c.admin.command("replSetGetConfig")["config"]
            cfg["version"] += 1
            cfg["members"] = [m for m in cfg["members"] if m["_id"] != 9]
            c.admin.command("replSetReconfig", cfg)
        plain.stop()


def test_rollback_of_deduplicated_inserts(rs):
    p = primary_of(rs)
    others = [m for m in rs if m is not p]
    h = {a: history("r%d" % a, 20, seed=53) for a in range(3)}
    with rs_client(rs, SET) as c:
        c.wiki.get_collection("rb", write_concern=MAJORITY).insert_many([h[a][v] for v in range(10) for a in h])
    for m in others:
        hold_replication(m)
    # Versions only the primary takes (w: 1): stored against documents all members hold.
    with p.client() as c:
        c.wiki.get_collection("rb", write_concern=pymongo.WriteConcern(w=1)).insert_many(
            [h[a][v] for v in range(10, 15) for a in h])
        wait_settled(c)
    p.kill9()
    for m in others:
        release_replication(m)
    wait_for(lambda: primary_of(others), 60, "a new primary")
    with rs_client(rs, SET) as c:
        c.wiki.get_collection("rb", write_concern=MAJORITY).insert_many(
            [dict(h[a][v], rewritten=True) for v in range(10, 20) for a in h])
    p.start()
    wait_for(lambda: sorted(status_of(m) for m in rs) == [1, 2, 2], 120, "the old primary rolled back and back")
    assert_same_everywhere(rs, "wiki", "rb", 60)
    with p.client() as c:
        docs = list(c.wiki.get_collection("rb", read_preference=pymongo.ReadPreference.SECONDARY_PREFERRED).find(
            {"version": {"$gte": 10}}))
        assert len(docs) == 30 and all(d.get("rewritten") for d in docs)


def test_updates_travel_as_deltas_from_the_previous_version(rs):
    # A text field edited in place: the entry's o (a $v: 2 diff, or the new document when the diff
    # would not be smaller) carries the whole field; members get it as a delta from the version
    # they hold. Then a $set of the same kind, and a small $inc that goes as it is.
    primary, others = secondaries(rs)
    versions = {a: history("u%d" % a, 25, seed=61) for a in range(4)}
    with rs_client(rs, SET) as c:
        coll = c.wiki.get_collection("pages_in_place", write_concern=MAJORITY)
        coll.insert_many([dict(versions[a][0], _id="page%d" % a) for a in versions])
        sent0 = sent_total(rs)
        for v in range(1, 25):
            for a in versions:
                coll.replace_one({"_id": "page%d" % a}, dict(versions[a][v], _id="page%d" % a))
        more = history("set", 6, seed=67)
        for d in more:
            coll.update_one({"_id": "page0"}, {"$set": {"body": d["body"]}, "$inc": {"edits": 1}})
        coll.update_one({"_id": "page1"}, {"$inc": {"edits": 1}})
    wait_for(lambda: all(len(raw_oplog(m, "wiki", "pages_in_place")) == len(versions) + 24 * len(versions) + len(more) + 1
                         for m in rs), 60, "every member to have the updates")
    sent = sent_total(rs)
    replaced = 24 * len(versions) + len(more)
    with primary.client() as c:
        entries = list(c.local["oplog.rs"].find({"ns": "wiki.pages_in_place", "op": "u"}))
    assert len(entries) == replaced + 1
    # Each secondary fetched each update once (from the primary, or chained from the other).
    assert sent["entriesEncoded"] - sent0["entriesEncoded"] >= 2 * replaced * 0.8, sent
    assert sent["logicalBytes"] - sent0["logicalBytes"] > 5 * (sent["sentBytes"] - sent0["sentBytes"]), sent
    assert_same_everywhere(rs, "wiki", "pages_in_place", len(versions))
