"""Collection validators through pymongo, as a driver sees them: DocumentValidationFailure (121)
with errInfo in write errors and command errors, bypass_document_validation, collMod, and
$jsonSchema in queries (MongoDB 7.0)."""
import pytest
from bson import Int64
from pymongo.errors import BulkWriteError, OperationFailure, WriteError

SCHEMA = {
    "bsonType": "object",
    "required": ["name", "qty"],
    "properties": {
        "name": {"bsonType": "string", "maxLength": 5},
        "qty": {"bsonType": ["int", "long"], "minimum": 0},
        "tags": {"bsonType": "array", "items": {"bsonType": "string"}, "uniqueItems": True},
    },
    "additionalProperties": False,
    "patternProperties": {"^_id$": {}},
}


def test_insert_errors_carry_errinfo(db):
    db.create_collection("c", validator={"$jsonSchema": SCHEMA})
    db.c.insert_one({"_id": 1, "name": "ok", "qty": 1})
    with pytest.raises(WriteError) as e:
        db.c.insert_one({"_id": 2, "name": "far too long", "qty": -1, "extra": True})
    assert e.value.code == 121
    info = e.value.details["errInfo"]
    assert info["failingDocumentId"] == 2
    assert info["details"] == {
        "operatorName": "$jsonSchema",
        "schemaRulesNotSatisfied": [
            {"operatorName": "properties", "propertiesNotSatisfied": [
                {"propertyName": "name", "details": [
                    {"operatorName": "maxLength", "specifiedAs": {"maxLength": 5},
                     "reason": "specified string length was not satisfied", "consideredValue": "far too long"}]},
                {"propertyName": "qty", "details": [
                    {"operatorName": "minimum", "specifiedAs": {"minimum": 0}, "reason": "comparison failed",
                     "consideredValue": -1}]}]},
            {"operatorName": "additionalProperties", "specifiedAs": {"additionalProperties": False},
             "additionalProperties": ["extra"]},
        ],
    }
    assert list(e.value.details) == ["index", "code", "errInfo", "errmsg"]
    with pytest.raises(BulkWriteError) as b:
        db.c.insert_many([{"_id": 3, "name": "a", "qty": 1}, {"_id": 4, "name": "b"}, {"_id": 5, "name": "c", "qty": 2}],
                         ordered=False)
    errors = b.value.details["writeErrors"]
    assert [(w["index"], w["code"]) for w in errors] == [(1, 121)]
    assert errors[0]["errInfo"]["details"]["schemaRulesNotSatisfied"] == [
        {"operatorName": "required", "specifiedAs": {"required": ["name", "qty"]}, "missingProperties": ["qty"]}]
    assert sorted(d["_id"] for d in db.c.find()) == [1, 3, 5]
    db.c.insert_one({"_id": 6, "anything": "goes"}, bypass_document_validation=True)
    assert db.c.count_documents({"_id": 6}) == 1


def test_updates_and_find_and_modify(db):
    db.create_collection("c", validator={"qty": {"$gte": 0}})
    db.c.insert_one({"_id": 1, "qty": 5})
    with pytest.raises(WriteError) as e:
        db.c.update_one({"_id": 1}, {"$inc": {"qty": -10}})
    assert e.value.details["errInfo"] == {"failingDocumentId": 1, "details": {
        "operatorName": "$gte", "specifiedAs": {"qty": {"$gte": 0}}, "reason": "comparison failed",
        "consideredValue": -5}}
    with pytest.raises(WriteError):
        db.c.replace_one({"_id": 1}, {"qty": "lots"})
    with pytest.raises(WriteError):
        db.c.update_one({"_id": 2}, {"$set": {"qty": -1}}, upsert=True)
    assert db.c.count_documents({}) == 1
    with pytest.raises(OperationFailure) as f:
        db.c.find_one_and_update({"_id": 1}, {"$set": {"qty": -2}})
    assert f.value.code == 121
    assert f.value.details["errInfo"]["failingDocumentId"] == 1
    assert f.value.details["errmsg"] == "Document failed validation"
    reply = db.command("findAndModify", "c", query={"_id": 1}, update={"$set": {"qty": -2}}, new=True,
                       bypassDocumentValidation=True)
    assert reply["value"] == {"_id": 1, "qty": -2}


def test_coll_mod_and_options(db):
    db.create_collection("c")
    db.c.create_index("t", expireAfterSeconds=10)
    reply = db.command("collMod", "c", validator={"$jsonSchema": {"required": ["x"]}}, validationAction="warn")
    assert reply == {"ok": 1.0}
    opts = db.c.options()
    assert opts == {"validator": {"$jsonSchema": {"required": ["x"]}}, "validationAction": "warn"}
    db.c.insert_one({"y": 1})  # warn: accepted
    reply = db.command("collMod", "c", index={"name": "t_1", "expireAfterSeconds": 30, "hidden": True})
    assert reply == {"expireAfterSeconds_old": 10, "expireAfterSeconds_new": 30, "hidden_old": False,
                     "hidden_new": True, "ok": 1.0}
    assert isinstance(reply["expireAfterSeconds_new"], Int64)
    info = db.c.index_information()["t_1"]
    assert info["expireAfterSeconds"] == 30 and info["hidden"] is True
    for bad, code in [({"foo": 1}, 40415), ({"index": {"name": "zz", "hidden": True}}, 27),
                      ({"index": {"name": "_id_", "hidden": True}}, 2), ({"validationLevel": "x"}, 2),
                      ({"validator": {"$where": "1"}}, 2)]:
        with pytest.raises(OperationFailure) as e:
            db.command("collMod", "c", **bad)
        assert e.value.code == code, bad
    with pytest.raises(OperationFailure) as e:
        db.command("collMod", "missing", validator={"a": 1})
    assert e.value.code == 26


def test_json_schema_queries(db):
    db.c.insert_many([{"_id": 1, "a": Int64(5)}, {"_id": 2, "a": "five"}, {"_id": 3}, {"_id": 4, "a": [5]}])
    q = {"$jsonSchema": {"properties": {"a": {"bsonType": "number", "minimum": 4}}}}
    assert sorted(d["_id"] for d in db.c.find(q)) == [1, 3]
    assert [d["_id"] for d in db.c.aggregate([{"$match": {"$jsonSchema": {"required": ["a"]}}}, {"$sort": {"_id": 1}}])] == [1, 2, 4]
    with pytest.raises(OperationFailure) as e:
        list(db.c.find({"$jsonSchema": {"properties": {"a": {"format": "email"}}}}))
    assert e.value.code == 9
    assert "$jsonSchema keyword 'format' is not currently supported" in str(e.value)
