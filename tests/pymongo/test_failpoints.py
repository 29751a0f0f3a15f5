"""configureFailPoint with the failCommand fail point (needs enableTestCommands=1, which
resmoke passes): error codes, modes (times, skip, alwaysOn, off), closeConnection,
blockConnection, appName filtering, errorLabels and writeConcernError."""
import time

import pymongo
import pytest
from pymongo.errors import AutoReconnect, ConnectionFailure, OperationFailure, PyMongoError, WriteConcernError

from conftest import URI


@pytest.fixture
def fp_client():
    c = pymongo.MongoClient(URI, retryWrites=False, retryReads=False, serverSelectionTimeoutMS=10000,
                            appname="failpoint-tests")
    yield c
    c.admin.command("configureFailPoint", "failCommand", mode="off")
    c.close()


def set_fail(c, mode, **data):
    return c.admin.command({"configureFailPoint": "failCommand", "mode": mode, "data": data})


def code_of(exc):
    code = getattr(exc, "code", None)
    if code is None and getattr(exc, "details", None):
        code = exc.details.get("code")
    return code


def test_fail_next_insert_with_code(fp_client):
    coll = fp_client.pytest_fp.c
    coll.drop()
    r = set_fail(fp_client, {"times": 1}, failCommands=["insert"], errorCode=2)
    assert r["ok"] == 1.0 and "count" in r
    with pytest.raises(OperationFailure) as e:
        coll.insert_one({"_id": 1})
    assert e.value.code == 2
    coll.insert_one({"_id": 2})
    assert [d["_id"] for d in coll.find()] == [2], "the failed insert wrote nothing"
    coll.drop()


def test_fail_with_shutdown_in_progress_code(fp_client):
    coll = fp_client.pytest_fp.c
    coll.drop()
    set_fail(fp_client, {"times": 1}, failCommands=["insert"], errorCode=91)
    with pytest.raises(PyMongoError) as e:
        coll.insert_one({"_id": 1})
    assert code_of(e.value) == 91
    coll.insert_one({"_id": 3})
    assert coll.count_documents({}) == 1
    coll.drop()


def test_times_and_skip_modes(fp_client):
    db = fp_client.pytest_fp
    set_fail(fp_client, {"times": 2}, failCommands=["find"], errorCode=50)
    for _ in range(2):
        with pytest.raises(OperationFailure) as e:
            db.c.find_one()
        assert e.value.code == 50
    db.c.find_one()
    set_fail(fp_client, {"skip": 2}, failCommands=["count"], errorCode=8)
    db.command("count", "c")
    db.command("count", "c")
    with pytest.raises(OperationFailure) as e:
        db.command("count", "c")
    assert e.value.code == 8


def test_always_on_and_off(fp_client):
    db = fp_client.pytest_fp
    set_fail(fp_client, "alwaysOn", failCommands=["distinct"], errorCode=11601)
    for _ in range(3):
        with pytest.raises(OperationFailure) as e:
            db.c.distinct("x")
        assert e.value.code == 11601
    # Commands not listed are unaffected.
    assert db.command("ping")["ok"] == 1.0
    r = fp_client.admin.command("configureFailPoint", "failCommand", mode="off")
    assert r["count"] >= 3, "count reports how often the fail point fired"
    assert db.c.distinct("x") == []


def test_close_connection(fp_client):
    set_fail(fp_client, {"times": 1}, failCommands=["find"], closeConnection=True)
    with pytest.raises(ConnectionFailure):
        fp_client.pytest_fp.c.find_one()
    assert fp_client.pytest_fp.c.find_one() is None


def test_block_connection(fp_client):
    set_fail(fp_client, {"times": 1}, failCommands=["ping"], blockConnection=True, blockTimeMS=600)
    start = time.monotonic()
    fp_client.pytest_fp.command("ping")
    assert time.monotonic() - start >= 0.55


def test_app_name_filter(fp_client):
    other = pymongo.MongoClient(URI, retryReads=False, serverSelectionTimeoutMS=10000, appname="someone-else")
    try:
        set_fail(fp_client, {"times": 5}, failCommands=["find"], errorCode=2, appName="failpoint-tests")
        assert other.pytest_fp.c.find_one() is None, "other applications are not affected"
        with pytest.raises(OperationFailure):
            fp_client.pytest_fp.c.find_one()
    finally:
        other.close()


def test_error_labels(fp_client):
    set_fail(fp_client, {"times": 1}, failCommands=["insert"], errorCode=112, errorLabels=["MyLabel"])
    with pytest.raises(OperationFailure) as e:
        fp_client.pytest_fp.c.insert_one({})
    assert e.value.code == 112
    assert e.value.has_error_label("MyLabel")


def test_write_concern_error(fp_client):
    coll = fp_client.pytest_fp.wce
    coll.drop()
    set_fail(fp_client, {"times": 1}, failCommands=["insert"],
             writeConcernError={"code": 100, "codeName": "UnsatisfiableWriteConcern", "errmsg": "Not enough nodes"})
    with pytest.raises(WriteConcernError) as e:
        coll.insert_one({"_id": 1})
    assert e.value.code == 100
    assert coll.count_documents({}) == 1, "the write itself happened"
    coll.drop()


def test_unknown_fail_point(fp_client):
    with pytest.raises(OperationFailure):
        fp_client.admin.command("configureFailPoint", "noSuchFailPointAnywhere", mode="alwaysOn")


def test_configure_fail_point_is_admin_only(fp_client):
    with pytest.raises(OperationFailure) as e:
        fp_client.pytest_fp.command({"configureFailPoint": "failCommand", "mode": "off"})
    assert e.value.code == 13
