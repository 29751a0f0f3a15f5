"""Command fields over the raw wire: what a driver cannot send through its API. A field given
twice is 40413; the fields of write statements sent as OP_MSG document sequences are checked like
those in the body ('update.updates.sort' is an 8.0 option, unknown to 7.0); a refused statement
fails the whole command before any statement runs; duplicate key errors carry keyPattern and
keyValue in command errors as in writeErrors; a pipeline update sees the command's 'let'."""
import pymongo
import pytest

import wire
from command_fuzz_cases import dup_doc
from conftest import host_port

HOST, PORT = host_port()
DB = "pytest_command_fields"


def run(doc, sequences=()):
    with wire.connect(HOST, PORT) as s:
        _, reply, _, _ = wire.command(s, doc, sequences=sequences)
        return reply


@pytest.fixture
def coll(client):
    client.drop_database(DB)
    c = client[DB]["c"]
    c.insert_many([{"_id": 1, "a": 1}, {"_id": 2, "a": 2}])
    yield c
    client.drop_database(DB)


@pytest.mark.parametrize("pairs,path", [
    ([("find", "c"), ("filter", {}), ("filter", {"a": 1})], "FindCommandRequest.filter"),
    ([("count", "c"), ("query", {}), ("query", {})], "count.query"),
    ([("insert", "c"), ("documents", [{}]), ("ordered", True), ("ordered", False)], "insert.ordered"),
    ([("aggregate", "c"), ("pipeline", []), ("cursor", {}), ("pipeline", [])], "aggregate.pipeline"),
])
def test_a_field_given_twice_is_40413(coll, pairs, path):
    reply = run(dup_doc(*(pairs + [("$db", DB)])))
    assert reply["ok"] == 0.0 and reply["code"] == 40413, reply
    assert reply["errmsg"] == "BSON field '%s' is a duplicate field." % path
    assert coll.count_documents({}) == 2


def test_statement_fields_in_document_sequences_are_checked(coll):
    reply = run({"update": "c", "$db": DB},
                sequences=[("updates", [{"q": {"_id": 1}, "u": {"$set": {"x": 1}}},
                                        {"q": {}, "u": {"$set": {"x": 2}}, "sort": {"a": 1}}])])
    assert reply["ok"] == 0.0 and reply["code"] == 40415, reply
    assert reply["errmsg"] == "BSON field 'update.updates.sort' is an unknown field."
    # The statement before the bad one did not run either.
    assert coll.find_one({"_id": 1}) == {"_id": 1, "a": 1}
    reply = run({"delete": "c", "$db": DB},
                sequences=[("deletes", [{"q": {}, "limit": 0, "collation": {"locale": "simple"}, "bogus": 1}])])
    assert reply["code"] == 40415 and "'delete.deletes.bogus'" in reply["errmsg"], reply
    assert coll.count_documents({}) == 2


def test_generic_arguments_and_lenient_commands(coll):
    reply = run({"find": "c", "$db": DB, "comment": "x", "maxTimeMS": 1000, "apiVersion": "1",
                 "$readPreference": {"mode": "primaryPreferred"}, "allowImplicitCollectionCreation": False})
    assert reply["ok"] == 1.0, reply
    reply = run({"serverStatus": 1, "$db": "admin", "repl": 0, "notASection": 1})
    assert reply["ok"] == 1.0, reply


def test_duplicate_key_errors_carry_key_pattern_and_value(coll):
    coll.create_index("a", unique=True)
    with pytest.raises(pymongo.errors.DuplicateKeyError) as e:
        coll.find_one_and_update({"_id": 2}, {"$set": {"a": 1}})
    assert e.value.details["keyPattern"] == {"a": 1}
    assert e.value.details["keyValue"] == {"a": 1}
    with pytest.raises(pymongo.errors.BulkWriteError) as e:
        coll.insert_many([{"_id": 3, "a": 2}])
    err = e.value.details["writeErrors"][0]
    assert err["code"] == 11000 and err["keyPattern"] == {"a": 1} and err["keyValue"] == {"a": 2}


def test_let_in_pipeline_updates_and_find(coll):
    db = coll.database
    db.command({"update": "c", "updates": [{"q": {"$expr": {"$eq": ["$a", "$$which"]}},
                                             "u": [{"$set": {"tag": "$$tag"}}]}],
                "let": {"which": 2, "tag": "two"}})
    assert coll.find_one({"_id": 2})["tag"] == "two"
    assert [d["_id"] for d in coll.find({"$expr": {"$lt": ["$a", "$$lim"]}}, let={"lim": 2})] == [1]
    assert coll.delete_many({"$expr": {"$eq": ["$_id", "$$x"]}}, let={"x": 1}).deleted_count == 1
