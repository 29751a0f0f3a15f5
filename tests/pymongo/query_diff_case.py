"""The machinery of test_query_differential.py: one Case is an index shape and a seed, a
collection of random documents with the shape's indexes (c) and an index-free twin holding the
same documents (r); its checks run random queries through every command that plans and compare
each answer with a collection scan (see test_query_differential.py for what is compared how).
"""
import collections
import random

import bson
from bson import SON, json_util
from bson.codec_options import CodecOptions
from bson.raw_bson import RawBSONDocument
from pymongo.errors import OperationFailure

import query_diff_gen as gen

RAW = CodecOptions(document_class=RawBSONDocument)
NATURAL = [("$natural", 1)]


def as_doc(hint):
    """A hint or sort given as [(key, dir)] pairs, as a document for a raw command."""
    return SON(hint) if isinstance(hint, list) else hint


def dumps(v):
    return json_util.dumps(v, json_options=json_util.RELAXED_JSON_OPTIONS)


def show_raw(docs, limit=8):
    docs = list(docs)
    text = ", ".join(dumps(RawBSONDocument(d) if isinstance(d, bytes) else d) for d in docs[:limit])
    return "[%s%s] (%d)" % (text, ", ..." if len(docs) > limit else "", len(docs))


def attempt(fn):
    """("ok", value) or ("err", code, message)."""
    try:
        return ("ok", fn())
    except OperationFailure as e:
        return ("err", e.code, str(e)[:300])


def winning_plan(case, filt, fields):
    """The winning plan of the find (or the $match of the command) the case runs, or None."""
    cmd = {"find": case.c.name, "filter": filt}
    for k in ("projection", "skip", "limit"):
        if fields.get(k):
            cmd[k] = fields[k]
    if fields.get("sort"):
        cmd["sort"] = as_doc(fields["sort"])
    if fields.get("hint") and "pipeline" not in fields and "update" not in fields:
        cmd["hint"] = as_doc(fields["hint"])
    ex = attempt(lambda: case.db.command("explain", cmd, verbosity="queryPlanner"))
    return ex[1]["queryPlanner"]["winningPlan"] if ex[0] == "ok" else None


class Case:
    """One shape and seed: the indexed collection c, its index-free twin r, the checks."""

    def __init__(self, db, shape, seed, docs=(100, 160), known_bug=None, stats=None, dump=None):
        """known_bug(case, filter, fields) names a known bug the case would hit (it is then
        skipped); stats, a Counter of winning plans' shapes, or None; dump, a file to append
        each mismatch to as extended JSON."""
        self.known_bug = known_bug or (lambda *_: None)
        self.stats = stats
        self.dump = dump
        self.shape = shape
        self.seed = seed
        self.rng = random.Random("%s:%s" % (seed, shape.name))
        self.db = db
        name = "%s_%s" % (shape.name, seed)
        self.c = db["c_" + name]
        self.r = db["r_" + name]
        self.failures = []
        self.checked = 0
        self.absent_cache = {}
        self.absent_paths = set()
        n = self.rng.randint(*docs)
        docs = [gen.gen_doc(self.rng, i, gen.mixed_id(i) if shape.mixed_ids else None) for i in range(n)]
        half = n // 2
        self.c.insert_many(docs[:half])
        self.r.insert_many(docs)
        for keys, opts in shape.indexes:
            spec = {"key": dict(keys), "name": self.index_name(keys)}
            spec.update(opts)
            db.command({"createIndexes": self.c.name, "indexes": [spec]})
        self.c.insert_many(docs[half:])
        self.cr = self.c.with_options(codec_options=RAW)
        self.rr = self.r.with_options(codec_options=RAW)

    @staticmethod
    def index_name(keys):
        return "_".join("%s_%s" % (k, d) for k, d in keys)

    # ---- reporting ------------------------------------------------------------------------

    def fail(self, kind, detail, **case):
        plan = None
        if "filter" in case:
            wp = winning_plan(self, case["filter"], case)
            plan = wp and summarize_plan(wp)
        rec = {"seed": self.seed, "shape": self.shape.name, "indexes": self.shape.indexes, "kind": kind,
               "detail": detail, "plan": plan}
        rec.update(case)
        self.failures.append(rec)
        if self.dump:
            with open(self.dump, "a") as f:
                f.write(dumps(rec) + "\n")

    def report(self):
        lines = []
        for rec in self.failures[:5]:
            lines.append("seed=%s shape=%s kind=%s\n  indexes=%s\n  case=%s\n  plan=%s\n  %s" % (
                rec["seed"], rec["shape"], rec["kind"], dumps(rec["indexes"]),
                dumps({k: v for k, v in rec.items() if k not in ("seed", "shape", "kind", "detail", "plan", "indexes")}),
                rec["plan"], rec["detail"]))
        return "%d mismatches (rerun with QUERY_DIFF_SEED=%d QUERY_DIFF_ONLY_SEED=1):\n%s" % (
            len(self.failures), self.seed, "\n".join(lines))

    # ---- find ------------------------------------------------------------------------------

    def hint_choice(self, filt):
        """None, an index of the shape (as key pattern or name), or $natural. A sparse index is
        hinted only when the filter needs one of its fields present: MongoDB answers a hinted
        sparse index from its keys (documented; its count_hint.js asserts the smaller count)."""
        r = self.rng.random()
        if r < 0.45 or not self.shape.indexes:
            return None, None
        if r < 0.92:
            keys, opts = self.rng.choice(self.shape.indexes)
            if opts.get("sparse") and not self.requires_field(filt, [k for k, _ in keys]):
                return None, None
            return (keys if self.rng.random() < 0.7 else self.index_name(keys)), opts
        return [("$natural", self.rng.choice([1, -1]))], None

    def requires_field(self, filt, fields):
        """Has filt a top-level predicate on one of fields that fails wherever the field is
        absent (so that every match has a key in a sparse index)?"""
        for path, pred in top_level_predicates(filt):
            if path in fields and not self.matches_absent(path, pred):
                return True
        return False

    def matches_absent(self, path, pred):
        """Does {path: pred} match a document where path is missing: no field at all, or each
        prefix of the path an empty array, a scalar, an array of scalars, ...?"""
        key = dumps({path: pred})
        if key not in self.absent_cache:
            probe = self.db["probe_absent"]
            if path not in self.absent_paths:
                self.absent_paths.add(path)
                docs = [{"p": path}]
                parts = path.split(".")
                for i in range(1, len(parts)):
                    for v in ([], 5, [5], {}, [[]], [{}], None, [None]):
                        doc = {"p": path}
                        cur = doc
                        for part in parts[:i - 1]:
                            cur[part] = {}
                            cur = cur[part]
                        cur[parts[i - 1]] = v
                        docs.append(doc)
                probe.insert_many(docs)
            got = attempt(lambda: probe.count_documents({"$and": [{"p": path}, {path: pred}]}))
            self.absent_cache[key] = got[0] != "ok" or got[1] > 0
        return self.absent_cache[key]

    def find(self, coll, filt, proj=None, sort=None, skip=0, limit=0, hint=None, batch_size=0):
        docs = [d.raw for d in coll.find(filt, proj, sort=sort, skip=skip, limit=limit, hint=hint, batch_size=batch_size)]
        return [fields_sorted(d, proj) for d in docs] if proj else docs

    def check_find(self, filt, proj, sort, skip, limit, hint, opts):
        case = dict(filter=filt, projection=proj, sort=sort, skip=skip, limit=limit, hint=hint)
        if self.known_bug(self, filt, case):
            return
        self.checked += 1
        if self.stats is not None:
            self.count_plan(filt, proj, sort, hint)
        # Small batches make the plan save and restore its position across getMores.
        batch = self.rng.choice([0, 0, 2, 7])
        case["batch_size"] = batch
        got = attempt(lambda: self.find(self.cr, filt, proj, sort, skip, limit, hint, batch))
        ref_sort = None
        if sort:
            ref_sort = list(sort) if "_id" in [k for k, _ in sort] else list(sort) + [("_id", 1)]
        ref = attempt(lambda: self.find(self.cr, filt, proj, ref_sort, hint=NATURAL))
        hinted = opts is not None
        if ref[0] == "err":
            if got[0] == "err" and got[1] == ref[1]:
                return
            if got[0] == "err" and hinted and got[1] == 2 and (opts.get("partialFilterExpression") or opts.get("hidden")):
                return
            return self.fail("error differs", "reference error %s, answer %s" % (ref[1:], got[0] == "ok" and show_raw(got[1]) or got[1:]), **case)
        if got[0] == "err":
            if hinted and got[1] == 2 and opts.get("partialFilterExpression"):
                return  # a partial index the query does not imply (BadValue), as MongoDB
            if hinted and got[1] == 2 and opts.get("hidden"):
                return
            return self.fail("error", "answer error %s; reference %s" % (got[1:], show_raw(ref[1])), **case)
        if hinted and opts.get("hidden"):
            return self.fail("hidden hint accepted", "a hinted hidden index must be refused with BadValue", **case)
        expect = ref[1]
        answer = got[1]
        if not sort:
            if not skip and not limit:
                if collections.Counter(answer) != collections.Counter(expect):
                    return self.fail("find differs", diff(expect, answer), **case)
                return
            want = max(0, len(expect) - skip)
            if limit:
                want = min(want, limit)
            extra = collections.Counter(answer) - collections.Counter(expect)
            if len(answer) != want or extra:
                return self.fail("find skip/limit differs", "want %d documents, got %d; not in reference: %s" % (
                    want, len(answer), show_raw(extra.elements())), **case)
            return
        # Sorted: tie-aware positional comparison.
        desc_sort = list(sort) if "_id" in [k for k, _ in sort] else list(sort) + [("_id", -1)]
        ref2 = attempt(lambda: self.find(self.cr, filt, proj, desc_sort, hint=NATURAL))
        if ref2[0] == "err":
            return self.fail("reference error", str(ref2[1:]), **case)
        expect2 = ref2[1]
        if len(set(expect)) != len(expect):
            # Projected documents are not unique (no _id): compare as multisets.
            window = expect[skip:skip + limit] if limit else expect[skip:]
            if len(answer) != len(window) or collections.Counter(answer) - collections.Counter(expect):
                return self.fail("sorted find differs (multiset)", diff(window, answer), **case)
            if not skip and not limit and collections.Counter(answer) != collections.Counter(expect):
                return self.fail("sorted find differs (multiset)", diff(expect, answer), **case)
            return
        pos1 = {d: i for i, d in enumerate(expect)}
        pos2 = {d: i for i, d in enumerate(expect2)}
        window = expect[skip:skip + limit] if limit else expect[skip:]
        problem = None
        if len(answer) != len(window):
            problem = "want %d documents, got %d" % (len(window), len(answer))
        elif len(set(answer)) != len(answer):
            problem = "duplicates in answer"
        else:
            for i, (x, y) in enumerate(zip(answer, window)):
                if x == y:
                    continue
                if x not in pos1 or x not in pos2:
                    problem = "answer[%d] not in reference: %s" % (i, show_raw([x]))
                    break
                if (pos1[x] < pos1[y]) == (pos2[x] < pos2[y]):
                    problem = "answer[%d]=%s but reference has %s there (not tied under the sort)" % (
                        i, show_raw([x]), show_raw([y]))
                    break
        if problem:
            self.fail("sorted find differs", problem + "\n  reference: %s\n  answer:    %s" % (
                show_raw(window, 12), show_raw(answer, 12)), **case)

    def count_plan(self, filt, proj, sort, hint):
        cmd = {"find": self.c.name, "filter": filt}
        for k, v in (("projection", proj), ("sort", sort and as_doc(sort)), ("hint", hint and as_doc(hint))):
            if v:
                cmd[k] = v
        ex = attempt(lambda: self.db.command("explain", cmd, verbosity="queryPlanner"))
        if ex[0] == "ok":
            self.stats[stage_shape(ex[1]["queryPlanner"]["winningPlan"])] += 1

    # ---- other commands ----------------------------------------------------------------------

    def check_count(self, filt, hint, opts):
        case = dict(filter=filt, hint=hint, command="count")
        if self.known_bug(self, filt, case):
            return
        self.checked += 1
        skip = self.rng.choice([0, 0, 0, 3])
        limit = self.rng.choice([0, 0, 0, 5])
        cmd = {"count": self.c.name, "query": filt}
        if hint:
            cmd["hint"] = as_doc(hint)
        if skip:
            cmd["skip"] = skip
        if limit:
            cmd["limit"] = limit
        case.update(skip=skip, limit=limit)
        got = attempt(lambda: self.db.command(cmd)["n"])
        ref = attempt(lambda: len(self.find(self.rr, filt)))
        if got[0] == "ok" and self.rng.random() < 0.3:
            # count_documents: an aggregation ($match, $skip, $limit, $group) with the same hint.
            kw = {k: v for k, v in (("skip", skip), ("limit", limit), ("hint", as_doc(hint) if hint else None)) if v}
            docs = attempt(lambda: self.c.count_documents(filt, **kw))
            if docs != got:
                return self.fail("count_documents differs from count", "count %s count_documents %s" % (got, docs), **case)
        if ref[0] == "err":
            if got[0] == "err" and (got[1] == ref[1] or (opts and got[1] == 2)):
                return
            return self.fail("count error differs", "reference %s, answer %s" % (ref[1:], got[1:]), **case)
        if got[0] == "err":
            if opts and got[1] == 2 and (opts.get("partialFilterExpression") or opts.get("hidden")):
                return
            return self.fail("count error", str(got[1:]), **case)
        if opts and opts.get("hidden"):
            return self.fail("hidden hint accepted", "count with a hinted hidden index", **case)
        n = max(0, ref[1] - skip)
        if limit:
            n = min(n, limit)
        if got[1] != n:
            self.fail("count differs", "want %d got %d" % (n, got[1]), **case)

    def check_distinct(self, filt):
        key = self.rng.choice(self.shape.fields + ["a.d", "a.e", "a", "a.0.d", "a.0", "b", "arr", "arr.0", "n",
                                                   "items.sku", "tags.attrs.color", "a.b"])
        case = dict(filter=filt, key=key, command="distinct")
        if self.known_bug(self, filt, case):
            return
        self.checked += 1
        got = attempt(lambda: self.c.distinct(key, filt))
        ref = attempt(lambda: self.r.distinct(key, filt))
        if ref[0] != got[0] or (ref[0] == "err" and ref[1] != got[1]):
            return self.fail("distinct error differs", "reference %s answer %s" % (ref[:2], got[:2]), **case)
        if ref[0] == "ok":
            a = collections.Counter(gen.canon(v) for v in got[1])
            b = collections.Counter(gen.canon(v) for v in ref[1])
            if a != b:
                self.fail("distinct differs", "reference %s\n  answer %s" % (dumps(ref[1]), dumps(got[1])), **case)

    def check_aggregate(self, filt, hint, opts):
        sort = [(k, d) for k, d in (gen.gen_sort(self.rng, self.shape.fields) or [("b", 1)]) if k != "_id"] + [("_id", 1)]
        kind = self.rng.choice(["match", "sorted", "count", "group", "project", "sort_first"])
        pipe = [{"$match": filt}]
        if kind == "sorted":
            pipe += [{"$sort": as_doc(sort)}, {"$skip": self.rng.choice([0, 2])}, {"$limit": self.rng.choice([1, 5, 50])}]
        elif kind == "count":
            pipe += [{"$count": "n"}]
        elif kind == "group":
            pipe += [{"$group": {"_id": "$b", "n": {"$sum": 1}}}]
        elif kind == "project":
            pipe += [{"$project": {"_id": 0, "x": "$" + self.rng.choice(self.shape.fields)}}]
        elif kind == "sort_first":
            pipe = [{"$sort": as_doc(sort)}, {"$match": filt}, {"$limit": 30}]
        if opts and (opts.get("sparse") or opts.get("hidden")):
            hint, opts = None, None
        case = dict(filter=filt, pipeline=pipe, hint=hint, command="aggregate")
        if self.known_bug(self, filt, case):
            return
        self.checked += 1
        kw = {"hint": as_doc(hint)} if hint else {}
        got = attempt(lambda: [d.raw for d in self.cr.aggregate(pipe, **kw)])
        ref = attempt(lambda: [d.raw for d in self.rr.aggregate(pipe)])
        if got[0] == "err" and opts and got[1] == 2 and opts.get("partialFilterExpression"):
            return
        if ref[0] != got[0] or (ref[0] == "err" and ref[1] != got[1]):
            return self.fail("aggregate error differs", "reference %s answer %s" % (ref[:2], got[:2]), **case)
        if ref[0] == "err":
            return
        if kind in ("sorted", "sort_first"):
            ok = got[1] == ref[1]
        elif kind == "group":
            dec = lambda docs: collections.Counter(gen.canon(RawBSONDocument(d)["_id"]) for d in docs)  # noqa: E731
            ok = dec(got[1]) == dec(ref[1])
            # counts per group: compare the sorted multiset of n.
            ok = ok and sorted(RawBSONDocument(d)["n"] for d in got[1]) == sorted(RawBSONDocument(d)["n"] for d in ref[1])
        else:
            ok = collections.Counter(got[1]) == collections.Counter(ref[1])
        if not ok:
            self.fail("aggregate differs", diff(ref[1], got[1]), **case)

    def check_write(self):
        filt = gen.gen_filter(self.rng, self.shape.fields)
        r = self.rng.random()
        hint, opts = self.hint_choice(filt)
        if opts and (opts.get("sparse") or opts.get("hidden") or opts.get("partialFilterExpression")):
            hint, opts = None, None
        kw = {"hint": hint} if hint else {}
        if r < 0.5:
            upd = gen.gen_update(self.rng)
            op, args = "update_many", (filt, upd)
        elif r < 0.6:
            # Not idempotent: a plan meeting a document twice (it moved ahead of the scan in
            # the index) would show in the values.
            filt = {"$and": [filt, {"n": {"$type": "number"}}]}
            upd = {self.rng.choice(["$inc", "$mul"]): {"n": self.rng.choice([1, 2, -3, 0.5])}}
            op, args = "update_many", (filt, upd)
        elif r < 0.7:
            x = self.rng.choice(gen.NUMBERS[:12] + gen.STRINGS[:6])
            filt = {"$and": [filt, {"a": {"$elemMatch": {"d": x}}}]}
            upd = {"$set": {"a.$.e": self.rng.choice(gen.NUMBERS[:12])}}
            op, args = "update_many", (filt, upd)
        elif r < 0.8:
            op, args, upd = "delete_many", (filt,), None
        else:
            # findAndModify: the first document in a sort made total by _id.
            sort = [(k, d) for k, d in (gen.gen_sort(self.rng, self.shape.fields) or []) if k != "_id"] + [("_id", 1)]
            upd = gen.gen_update(self.rng) if r < 0.9 else None
            op = "find_one_and_update" if upd else "find_one_and_delete"
            args = (filt, upd) if upd else (filt,)
            kw["sort"] = sort
        case = dict(filter=filt, update=upd, command=op, hint=hint, sort=kw.get("sort"))
        if self.known_bug(self, filt, case):
            return
        self.checked += 1

        def run(coll, **kw):
            res = getattr(coll, op)(*args, **kw)
            return res.raw_result if hasattr(res, "raw_result") else (res and bson.encode(res))

        got = attempt(lambda: run(self.c, **kw))
        ref = attempt(lambda: run(self.r, **{k: v for k, v in kw.items() if k != "hint"}))
        if ref[0] != got[0] or (ref[0] == "err" and ref[1] != got[1]):
            self.fail("write error differs", "reference %s answer %s" % (ref[:2], got[:2]), **case)
        elif ref[0] == "ok" and op.startswith("find_one"):
            if ref[1] != got[1]:
                self.fail("findAndModify differs", "reference %s answer %s" % (
                    show_raw([ref[1]] if ref[1] else []), show_raw([got[1]] if got[1] else [])), **case)
        elif ref[0] == "ok" and (ref[1].get("n"), ref[1].get("nModified")) != (got[1].get("n"), got[1].get("nModified")):
            self.fail("write counts differ", "reference %s answer %s" % (ref[1], got[1]), **case)
        a = self.find(self.cr, {}, sort=[("_id", 1)], hint=NATURAL)
        b = self.find(self.rr, {}, sort=[("_id", 1)], hint=NATURAL)
        if a != b:
            self.fail("collections differ after write", diff(b, a), **case)
            # Re-sync the twin so later checks are meaningful.
            self.r.delete_many({})
            if a:
                self.r.insert_many([RawBSONDocument(d) for d in a])

    # ---- explain -------------------------------------------------------------------------------

    def check_index_explain(self, after_writes):
        docs = list(self.r.find({}, hint=NATURAL))
        for keys, opts in self.shape.indexes:
            if opts.get("hidden"):
                continue
            name = self.index_name(keys)
            pfe = opts.get("partialFilterExpression")
            filt = pfe or {}
            ex = attempt(lambda: self.db.command("explain", {"find": self.c.name, "filter": filt, "hint": name},
                                                 verbosity="queryPlanner"))
            if ex[0] == "err":
                self.fail("explain error", str(ex[1:]), filter=filt, hint=name)
                continue
            ix = find_stage(ex[1]["queryPlanner"]["winningPlan"], "IXSCAN")
            if ix is None:
                self.fail("no IXSCAN for a hinted index", summarize_plan(ex[1]["queryPlanner"]["winningPlan"]),
                          filter=filt, hint=name)
                continue
            flags = {"isSparse": bool(opts.get("sparse")), "isPartial": bool(pfe), "isUnique": bool(opts.get("unique"))}
            for flag, want in flags.items():
                if ix.get(flag) is not want:
                    self.fail("explain flag", "%s is %r, want %r" % (flag, ix.get(flag), want), hint=name)
            members = docs
            if pfe:
                ids = {d["_id"] for d in self.r.find(pfe, {"_id": 1}, hint=NATURAL)} if not self.shape.mixed_ids else None
                members = [d for d in docs if d["_id"] in ids]
            elif opts.get("sparse"):
                ids = {d["_id"] for d in self.r.find({"$or": [{k: {"$exists": True}} for k, _ in keys]}, {"_id": 1},
                                                     hint=NATURAL)}
                members = [d for d in docs if d["_id"] in ids]
            got = ix.get("multiKeyPaths", {})
            any_mk = False
            for k, _ in keys:
                if any(p.isdigit() for p in k.split(".")):
                    continue  # positional paths: MongoDB's rules differ from the plain walk below
                want = gen.multikey_paths_for_explain(k, gen.expected_multikey_components(members, k))
                have = sorted(got.get(k, []))
                any_mk |= bool(want)
                # Multikey state never shrinks: after writes the index may know more arrays.
                bad = (not set(want) <= set(have)) if after_writes else (want != have)
                if bad:
                    self.fail("multiKeyPaths", "field %s: want %s, explain says %s" % (k, want, have), hint=name,
                              after_writes=after_writes)
            if any_mk and not ix.get("isMultiKey"):
                self.fail("isMultiKey", "isMultiKey false for arrays in the data", hint=name)

    def check_hidden_not_used(self, filt, sort):
        hidden = {self.index_name(k) for k, o in self.shape.indexes if o.get("hidden")}
        if not hidden:
            return
        cmd = {"find": self.c.name, "filter": filt}
        if sort:
            cmd["sort"] = as_doc(sort)
        ex = attempt(lambda: self.db.command("explain", cmd, verbosity="queryPlanner"))
        if ex[0] == "ok":
            used = set(index_names(ex[1]["queryPlanner"]["winningPlan"]))
            if used & hidden:
                self.fail("hidden index used", summarize_plan(ex[1]["queryPlanner"]["winningPlan"]), filter=filt, sort=sort)

    # ---- driver ------------------------------------------------------------------------------

    def random_query(self):
        rng = self.rng
        filt = gen.gen_filter(rng, self.shape.fields)
        if self.shape.implying and rng.random() < 0.5:
            filt = {"$and": [filt, rng.choice(self.shape.implying)]} if filt else rng.choice(self.shape.implying)
        # The plain query, unhinted: the planner's own choice.
        self.check_find(filt, None, None, 0, 0, None, None)
        # With options, hinted or not.
        for _ in range(2):
            hint, opts = self.hint_choice(filt)
            sort = gen.gen_sort(rng, self.shape.fields)
            proj = gen.gen_projection(rng, self.shape.fields)
            skip = rng.choice([0, 0, 0, 1, 5])
            limit = rng.choice([0, 0, 0, 1, 3, 20])
            self.check_find(filt, proj, sort, skip, limit, hint, opts)
            if self.shape.name.startswith("hidden"):
                self.check_hidden_not_used(filt, sort)
        hint, opts = self.hint_choice(filt)
        self.check_count(filt, hint, opts)
        if rng.random() < 0.5:
            self.check_distinct(filt)
        if rng.random() < 0.5:
            hint, opts = self.hint_choice(filt)
            self.check_aggregate(filt, hint, opts)

    def run(self, queries, writes):
        self.check_index_explain(after_writes=False)
        for _ in range(queries):
            self.random_query()
        for _ in range(writes):
            self.check_write()
            for _ in range(2):
                self.random_query()
        self.check_index_explain(after_writes=True)


def fields_sorted(raw, proj):
    """raw with its fields sorted at the top and along the projection's paths. A covered plan
    builds documents in the index's key order, others keep the document's order (MongoDB
    does the same), so projected answers are compared without field order."""
    paths = [k.split(".") for k in proj if not k.startswith("$")]

    def along(v, paths):
        if isinstance(v, list):
            return [along(x, paths) for x in v]
        if not isinstance(v, dict) or not paths:
            return v
        return {k: along(v[k], [p[1:] for p in paths if p[0] == k and len(p) > 1]) for k in sorted(v)}

    return bson.encode(along(bson.decode(raw), paths))


def top_level_predicates(filt):
    """(path, predicate) of each top-level conjunct of filt, through $and."""
    for k, v in filt.items():
        if k == "$and":
            for sub in v:
                yield from top_level_predicates(sub)
        elif not k.startswith("$"):
            yield k, v


def diff(expect, answer):
    e, a = collections.Counter(expect), collections.Counter(answer)
    return "missing %s\n  unexpected %s" % (show_raw((e - a).elements()), show_raw((a - e).elements()))


def find_stage(plan, stage):
    if plan.get("stage") == stage:
        return plan
    for child in [plan.get("inputStage")] + list(plan.get("inputStages", [])):
        if child:
            got = find_stage(child, stage)
            if got:
                return got
    return None


def index_names(plan):
    if plan.get("indexName"):
        yield plan["indexName"]
    for child in [plan.get("inputStage")] + list(plan.get("inputStages", [])):
        if child:
            yield from index_names(child)


def stage_shape(plan):
    kids = [stage_shape(k) for k in [plan.get("inputStage")] + list(plan.get("inputStages", [])) if k]
    return plan.get("stage", "?") + ("(" + ",".join(kids) + ")" if kids else "")


def summarize_plan(plan):
    """STAGE(index bounds) > CHILD ..., for failure messages."""
    parts = [plan.get("stage", "?")]
    if plan.get("indexName"):
        parts[0] += "[%s %s]" % (plan["indexName"], dumps(plan.get("indexBounds")))
    kids = [plan.get("inputStage")] + list(plan.get("inputStages", []))
    kids = [summarize_plan(k) for k in kids if k]
    if kids:
        return parts[0] + " > " + (kids[0] if len(kids) == 1 else "(" + " | ".join(kids) + ")")
    return parts[0]
