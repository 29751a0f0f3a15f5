"""Views (MongoDB 7.0): create with viewOn/pipeline, views on views, reads through the view's
pipeline, writes and index builds refused with 166, collMod, drop, and persistence in
<db>.system.views across restarts."""
import pymongo
import pytest
from pymongo.errors import OperationFailure, WriteError, BulkWriteError

COMMAND_NOT_SUPPORTED_ON_VIEW = 166


def code_of(fn):
    with pytest.raises(OperationFailure) as ei:
        fn()
    return ei.value.code


def seed(db):
    db.c.insert_many([{"_id": i, "x": i, "g": i % 3, "a": [i, i + 1]} for i in range(10)])
    db.create_collection("v", viewOn="c", pipeline=[{"$match": {"x": {"$gte": 3}}}])
    db.command("create", "vv", viewOn="v", pipeline=[{"$project": {"x": 1, "g": 1, "a": 1}}])


def test_create_and_list(db):
    seed(db)
    views = list(db.list_collections(filter={"type": "view"}))
    assert sorted(views, key=lambda d: d["name"]) == [
        {"name": "v", "type": "view", "options": {"viewOn": "c", "pipeline": [{"$match": {"x": {"$gte": 3}}}]},
         "info": {"readOnly": True}},
        {"name": "vv", "type": "view", "options": {"viewOn": "v", "pipeline": [{"$project": {"x": 1, "g": 1, "a": 1}}]},
         "info": {"readOnly": True}},
    ]
    names = db.list_collection_names()
    assert set(names) == {"c", "v", "vv", "system.views"}
    by_name = {d["name"]: d for d in db.list_collections(nameOnly=True)}
    assert by_name["v"] == {"name": "v", "type": "view"}
    # system.views holds the definitions.
    assert list(db.system.views.find({"_id": "%s.v" % db.name})) == [
        {"_id": "%s.v" % db.name, "viewOn": "c", "pipeline": [{"$match": {"x": {"$gte": 3}}}]}]
    assert db.command("dbStats")["views"] == 2
    # Identical create is a no-op; different options or an existing collection: NamespaceExists.
    db.command("create", "v", viewOn="c", pipeline=[{"$match": {"x": {"$gte": 3}}}])
    assert code_of(lambda: db.command("create", "v", viewOn="c", pipeline=[])) == 48
    assert code_of(lambda: db.command("create", "c", viewOn="v")) == 48
    assert code_of(lambda: db.command("create", "v")) == 48
    # A view on a missing collection, and with no pipeline, is fine.
    db.command("create", "vm", viewOn="missing")
    assert list(db.vm.find()) == []


def test_create_errors(db):
    db.c.insert_one({"x": 1})
    assert code_of(lambda: db.command("create", "v", pipeline=[])) == 2  # pipeline needs viewOn
    assert code_of(lambda: db.command("create", "v", viewOn=1)) == 14
    assert code_of(lambda: db.command("create", "v", viewOn="c", pipeline={})) == 14
    assert code_of(lambda: db.command("create", "system.views", viewOn="c")) == 73
    assert code_of(lambda: db.command("create", "system.foo", viewOn="c")) == 73
    assert code_of(lambda: db.command("create", "dollar$", viewOn="c")) == 73
    assert code_of(lambda: db.command("create", "v", viewOn="c", pipeline=[{"$out": "z"}])) == 167
    assert code_of(lambda: db.command("create", "v", viewOn="c", pipeline=[{"$merge": "z"}])) == 167
    assert code_of(lambda: db.command("create", "v", viewOn="c",
                                      pipeline=[{"$lookup": {"from": "o", "pipeline": [{"$out": "z"}], "as": "r"}}])) == 51047
    assert code_of(lambda: db.command("create", "v", viewOn="c", pipeline=[{"$facet": {"o": [{"$out": "z"}]}}])) == 40600
    assert code_of(lambda: db.command("create", "v", viewOn="c", pipeline=[{"$foo": 1}])) == 40324
    assert code_of(lambda: db.command("create", "v", viewOn="c", capped=True, size=100)) == 72
    # Collation: a view may have a default collation (listed in full); an invalid collation
    # fails as a collection's create fails with it.
    db.command("create", "vfr", viewOn="c", collation={"locale": "fr"})
    info = next(db.list_collections(filter={"name": "vfr"}))
    assert info["options"]["collation"]["locale"] == "fr" and info["options"]["collation"]["version"] == "57.1"
    coll_code = code_of(lambda: db.command("create", "cc", collation={"locale": "xx"}))
    assert code_of(lambda: db.command("create", "v", viewOn="c", collation={"locale": "xx"})) == coll_code
    db.command("create", "v", viewOn="c", collation={"locale": "simple"})
    assert "v" in db.list_collection_names()


def test_cycles_and_depth(db):
    assert code_of(lambda: db.command("create", "a", viewOn="a")) == 5
    db.command("create", "a", viewOn="b")
    assert code_of(lambda: db.command("create", "b", viewOn="a")) == 5
    assert code_of(lambda: db.command("create", "b", viewOn="c",
                                      pipeline=[{"$lookup": {"from": "a", "as": "x", "localField": "l",
                                                             "foreignField": "f"}}])) == 5
    assert code_of(lambda: db.command("create", "b", viewOn="c", pipeline=[{"$unionWith": "a"}])) == 5
    assert code_of(lambda: db.command("create", "b", viewOn="c", pipeline=[{"$facet": {"f": [
        {"$graphLookup": {"from": "a", "as": "x", "startWith": "$s", "connectFromField": "p",
                          "connectToField": "q"}}]}}])) == 5
    db.command("create", "b", viewOn="c")
    assert code_of(lambda: db.command("collMod", "b", viewOn="a")) == 5
    db.client.drop_database(db.name)
    # 20 views deep is the limit.
    for i in range(1, 21):
        db.command("create", "v%d" % i, viewOn="v%d" % (i + 1))
    assert code_of(lambda: db.command("create", "v0", viewOn="v1")) == 165
    assert code_of(lambda: db.command("create", "v21", viewOn="v22")) == 165
    db.command("create", "vmid", viewOn="v10")
    assert list(db.v1.find()) == []


def test_reads_through_view(db):
    seed(db)
    assert list(db.vv.find({"g": 1}, {"x": 1}).sort("x", -1).skip(1).limit(2)) == [{"_id": 4, "x": 4}]
    assert [d["_id"] for d in db.vv.find()] == list(range(3, 10))
    assert db.vv.find_one({"x": 5}) == {"_id": 5, "x": 5, "g": 2, "a": [5, 6]}
    assert db.vv.count_documents({"g": 1}) == 2
    assert db.command("count", "vv", query={"g": 1})["n"] == 2
    assert db.command("count", "vv", skip=2, limit=3)["n"] == 3
    assert db.vv.estimated_document_count() == 7
    assert db.vv.distinct("a") == [3, 4, 5, 6, 7, 8, 9, 10]
    assert db.vv.distinct("g", {"x": {"$lt": 5}}) == [0, 1]
    got = list(db.vv.aggregate([{"$group": {"_id": "$g", "n": {"$sum": 1}}}, {"$sort": {"_id": 1}}]))
    assert got == [{"_id": 0, "n": 3}, {"_id": 1, "n": 2}, {"_id": 2, "n": 2}]
    # Cursors on a view are named after it and survive getMores.
    reply = db.command("find", "vv", batchSize=2)
    assert reply["cursor"]["ns"] == "%s.vv" % db.name and len(reply["cursor"]["firstBatch"]) == 2
    assert len(list(db.vv.find(batch_size=2))) == 7
    reply = db.command("aggregate", "v", pipeline=[], cursor={"batchSize": 1})
    assert reply["cursor"]["ns"] == "%s.v" % db.name
    # find options aggregation lacks: InvalidPipelineOperator, as MongoDB.
    for opts in ({"min": {"x": 1}}, {"max": {"x": 1}}, {"returnKey": True}, {"showRecordId": True},
                 {"noCursorTimeout": True}, {"tailable": True}, {"singleBatch": True}, {"sort": {"$natural": 1}}):
        assert code_of(lambda: db.command("find", "v", **opts)) == 168, opts
    # explain shows the aggregate the view runs: a $cursor over the backing collection (the
    # innermost view's $match pushed into its query), then the views' other stages, then the
    # command's own as stages.
    def explained(ex):
        cursor = ex["stages"][0]["$cursor"]["queryPlanner"]
        assert cursor["namespace"] == "%s.c" % db.name, cursor
        return cursor["parsedQuery"], ex["stages"][1:]

    view_stages = [{"$project": {"x": 1, "g": 1, "a": 1}}]
    ex = db.command("explain", {"find": "vv", "filter": {"x": 4}}, verbosity="executionStats")
    assert explained(ex) == ({"x": {"$gte": 3}}, view_stages + [{"$match": {"x": 4}}])
    ex = db.command("aggregate", "vv", pipeline=[{"$match": {"x": 4}}], explain=True)
    assert explained(ex) == ({"x": {"$gte": 3}}, view_stages + [{"$match": {"x": 4}}])
    ex = db.command("explain", {"count": "vv", "query": {"g": 1}})
    assert explained(ex) == ({"x": {"$gte": 3}}, view_stages + [{"$match": {"g": 1}}, {"$count": "count"}])
    ex = db.command("explain", {"distinct": "vv", "key": "x", "query": {"g": 1}})
    assert explained(ex) == ({"x": {"$gte": 3}}, view_stages + [{"$match": {"g": 1}}])
    assert code_of(lambda: db.command("explain", {"delete": "vv", "deletes": [{"q": {}, "limit": 0}]})) == 166


def test_lookup_and_union_from_view(db):
    seed(db)
    db.o.insert_many([{"_id": 1, "k": 3}, {"_id": 2, "k": 1}])
    got = list(db.o.aggregate([{"$lookup": {"from": "v", "localField": "k", "foreignField": "x", "as": "m"}},
                               {"$project": {"n": {"$size": "$m"}}}, {"$sort": {"_id": 1}}]))
    assert got == [{"_id": 1, "n": 1}, {"_id": 2, "n": 0}]  # x=1 is filtered out by the view
    assert len(list(db.o.aggregate([{"$unionWith": "vv"}]))) == 2 + 7
    # $out into a view is refused.
    assert code_of(lambda: list(db.o.aggregate([{"$out": "v"}]))) == 166


def test_writes_and_indexes_refused(db):
    seed(db)
    with pytest.raises(WriteError) as ei:
        db.v.insert_one({"x": 1})
    assert ei.value.code == COMMAND_NOT_SUPPORTED_ON_VIEW
    with pytest.raises(BulkWriteError) as ei:
        db.v.insert_many([{"x": 1}, {"x": 2}], ordered=False)
    assert [e["code"] for e in ei.value.details["writeErrors"]] == [166, 166]
    for fn in (lambda: db.v.update_one({}, {"$set": {"y": 1}}),
               lambda: db.v.update_many({}, {"$set": {"y": 1}}, upsert=True),
               lambda: db.v.replace_one({"_id": 3}, {"y": 1}),
               lambda: db.v.delete_one({}),
               lambda: db.v.delete_many({})):
        with pytest.raises(WriteError) as ei:
            fn()
        assert ei.value.code == 166
    for fn in (lambda: db.v.find_one_and_update({}, {"$set": {"y": 1}}),
               lambda: db.v.find_one_and_delete({}),
               lambda: db.v.create_index("x"),
               lambda: db.v.drop_index("x_1"),
               lambda: list(db.v.list_indexes()),
               lambda: db.command("validate", "v"),
               lambda: db.client.admin.command("renameCollection", "%s.v" % db.name, to="%s.w" % db.name)):
        assert code_of(fn) == 166
    assert db.c.count_documents({}) == 10 and "y" not in db.c.find_one()
    # Each document that gets as far as the write fails on the view; documents refused before
    # (an array _id: BadValue) keep their own error, in statement order.
    with pytest.raises(BulkWriteError) as ei:
        db.v.insert_many([{"x": 1}, {"_id": [1]}, {"x": 2}], ordered=False)
    assert [(e["index"], e["code"]) for e in ei.value.details["writeErrors"]] == [(0, 166), (1, 2), (2, 166)]
    with pytest.raises(BulkWriteError) as ei:
        db.v.insert_many([{"x": 1}, {"_id": [1]}, {"x": 2}], ordered=True)
    assert [(e["index"], e["code"]) for e in ei.value.details["writeErrors"]] == [(0, 166)]
    assert code_of(lambda: db.v.find_one_and_update({"_id": 100}, {"$set": {"y": 1}}, upsert=True)) == 166
    assert "v" not in db.list_collection_names(filter={"type": "collection"})


def test_storage_commands_refuse_views(db):
    """A view has no storage: dataSize, collStats, compact and validate fail with
    CommandNotSupportedOnView (166) and MongoDB 7.0's messages, never an empty answer; a
    $collStats on a view reports on the view itself (not what it reads): latencyStats answers,
    storageStats and count fail."""
    seed(db)
    not_a_collection = "Namespace %s.v is a view, not a collection" % db.name

    def error(fn):
        with pytest.raises(pymongo.errors.OperationFailure) as ei:
            fn()
        return ei.value.code, ei.value.details["errmsg"]
    assert error(lambda: db.command("dataSize", "%s.v" % db.name)) == (166, not_a_collection)
    assert error(lambda: db.command("dataSize", "%s.v" % db.name, keyPattern={"x": 1}, min={"x": 0}, max={"x": 5})) == (
        166, not_a_collection)
    assert error(lambda: db.command("collStats", "v")) == (166, not_a_collection)
    assert error(lambda: db.command("compact", "v")) == (166, "can't compact a view")
    assert error(lambda: db.command("validate", "v")) == (166, "Cannot validate a view")
    for spec in ({"storageStats": {}}, {"count": {}}):
        assert error(lambda: list(db.v.aggregate([{"$collStats": spec}]))) == (166, not_a_collection)
    [stats] = db.v.aggregate([{"$collStats": {"latencyStats": {}}}])
    assert stats["ns"] == "%s.v" % db.name and "latencyStats" in stats
    # Their collection still answers.
    assert db.command("dataSize", "%s.c" % db.name)["numObjects"] == 10
    assert db.command("collStats", "c")["count"] == 10


def test_writes_race_view_creation(db):
    """An implicit create (insert, upsert) and a create with viewOn of the same name, at once:
    exactly one wins, never a collection and a view of one name."""
    import threading
    db.c.insert_one({"x": 1})
    for i in range(30):
        name = "r%d" % i
        results = {}

        def write():
            try:
                db[name].insert_one({"i": i})
                results["write"] = "ok"
            except OperationFailure as e:
                results["write"] = e.code

        def create():
            try:
                db.command("create", name, viewOn="c")
                results["view"] = "ok"
            except OperationFailure as e:
                results["view"] = e.code

        ts = [threading.Thread(target=write), threading.Thread(target=create)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        kinds = [d["type"] for d in db.list_collections(filter={"name": name})]
        assert len(kinds) == 1, (name, kinds, results)
        if kinds == ["view"]:
            assert results == {"view": "ok", "write": 166}, results
        else:
            assert results == {"view": 48, "write": "ok"}, results


def test_coll_mod_and_drop(db):
    seed(db)
    db.command("collMod", "v", pipeline=[{"$match": {"x": {"$lt": 2}}}])
    assert [d["_id"] for d in db.vv.find()] == [0, 1]
    db.command("collMod", "vv", viewOn="c", pipeline=[])
    assert db.vv.count_documents({}) == 10
    assert code_of(lambda: db.command("collMod", "v", expireAfterSeconds=1)) == 72
    assert code_of(lambda: db.command("collMod", "v", validator={})) == 72
    assert code_of(lambda: db.command("collMod", "v", pipeline={})) == 14
    assert code_of(lambda: db.command("collMod", "v", pipeline=[{"$out": "z"}])) == 167
    assert db.command("drop", "v")["ok"] == 1
    assert "v" not in db.list_collection_names()
    assert db.v.find_one() is None
    db.c.drop()
    assert set(db.list_collection_names()) == {"vv", "system.views"}
    # dropDatabase removes the definitions with everything else.
    db.client.drop_database(db.name)
    assert db.list_collection_names() == []


def test_views_survive_restart(mongod_factory):
    m = mongod_factory()
    c = m.client()
    db = c.vdb
    db.c.insert_many([{"_id": i, "x": i} for i in range(5)])
    db.command("create", "v", viewOn="c", pipeline=[{"$match": {"x": {"$gt": 2}}}])
    db.command("create", "vv", viewOn="v", pipeline=[{"$project": {"_id": 1}}])
    c.close()
    m.restart()
    c = m.client()
    db = c.vdb
    assert list(db.vv.find()) == [{"_id": 3}, {"_id": 4}]
    assert {d["name"] for d in db.list_collections(filter={"type": "view"})} == {"v", "vv"}
    c.drop_database("vdb")
    c.close()
    m.restart()
    c = m.client()
    assert c.vdb.list_collection_names() == []
    c.close()
