"""Authentication and access control (src/mongo/db/auth) through pymongo, against servers of the
module's own started with --auth (one for most tests) or --keyFile: the localhost exception,
SCRAM-SHA-256 and SCRAM-SHA-1, failures that do not reveal whether a user exists, Unauthorized
(13) with nothing done, user and role commands with MongoDB 7.0's results, bad SASL input, the
iteration-count parameters, and key files (permission check, __system@local, restart)."""
import os
import re
import shutil
import subprocess
import time

import pymongo
import pytest
from bson.binary import Binary
from pymongo.errors import OperationFailure

from conftest import MongodProcess, _port_free, run_mongod

ROOT_PWD = "r00t-Secret!"


def free_port(taken=()):
    base = int(os.environ.get("TEST_PORT_BASE", "29000"))
    count = int(os.environ.get("TEST_PORT_COUNT", "20"))
    # The last ports of the range: the function-scoped mongod_factory starts from the first.
    for port in range(base + count - 1, base - 1, -1):
        if port not in taken and _port_free(port):
            return port
    raise AssertionError("no free port")


@pytest.fixture(scope="module")
def server(mongod_bin, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("auth")
    m = MongodProcess(mongod_bin, free_port(), str(tmp / "db"), str(tmp), ["--auth"])
    m.start()
    yield m
    m.stop()
    shutil.rmtree(m.dbpath, ignore_errors=True)


def connect(server, user=None, pwd=None, **kw):
    if user is not None:
        kw.update(username=user, password=pwd)
    kw.setdefault("serverSelectionTimeoutMS", 10000)
    return pymongo.MongoClient(server.uri, **kw)


@pytest.fixture(scope="module")
def root(server):
    # The localhost exception: with no user at all, a local connection may create the first one.
    with connect(server) as anon:
        with pytest.raises(OperationFailure) as e:
            anon.test.c.find_one()
        assert e.value.code == 13 and e.value.details["errmsg"] == "Command find requires authentication"
        with pytest.raises(OperationFailure) as e:
            anon.test.command("createUser", "early", pwd="x", roles=[])
        assert e.value.code == 13, "only in admin"
        assert anon.admin.command("createUser", "root", pwd=ROOT_PWD, roles=["root"]) == {"ok": 1.0}
        # ...and nothing else once a user exists.
        with pytest.raises(OperationFailure) as e:
            anon.admin.command("createUser", "second", pwd="x", roles=["root"])
        assert e.value.code == 13
    c = connect(server, "root", ROOT_PWD)
    yield c
    c.close()


def test_unauthenticated_commands_are_mongodbs(server, root):
    with connect(server) as anon:
        for cmd in ("ping", "hello", "isMaster", "buildInfo", "connectionStatus", "listCommands", "whatsmyuri"):
            assert anon.admin.command(cmd)["ok"] == 1.0, cmd
        assert anon.admin.command("connectionStatus")["authInfo"] == {"authenticatedUsers": [],
                                                                      "authenticatedUserRoles": []}
        for cmd in ("serverStatus", "listDatabases", "getCmdLineOpts", "hostInfo"):
            with pytest.raises(OperationFailure) as e:
                anon.admin.command(cmd)
            assert e.value.code == 13 and "requires authentication" in e.value.details["errmsg"], cmd


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-1", None])
def test_scram_mechanisms(server, root, mechanism):
    kw = {"authMechanism": mechanism} if mechanism else {}  # None: speculative, negotiated in hello
    with connect(server, "root", ROOT_PWD, **kw) as c:
        status = c.admin.command("connectionStatus", showPrivileges=True)["authInfo"]
        assert status["authenticatedUsers"] == [{"user": "root", "db": "admin"}]
        assert status["authenticatedUserRoles"] == [{"role": "root", "db": "admin"}]
        assert any(p["resource"] == {"cluster": True} and "shutdown" in p["actions"]
                   for p in status["authenticatedUserPrivileges"])
        c.admin.command("serverStatus")


def test_wrong_password_and_unknown_user_fail_alike(server, root):
    errors = []
    for user, pwd, mech in [("root", "wrong", "SCRAM-SHA-256"), ("nobody", "x", "SCRAM-SHA-256"),
                            ("root", "wrong", "SCRAM-SHA-1"), ("nobody", "x", "SCRAM-SHA-1")]:
        with connect(server, user, pwd, authMechanism=mech) as c:
            with pytest.raises(OperationFailure) as e:
                c.admin.command("ping")
            errors.append((e.value.code, e.value.details.get("errmsg"), e.value.details.get("codeName")))
    assert errors == [(18, "Authentication failed.", "AuthenticationFailed")] * 4
    log = open(server.log_path, encoding="utf-8", errors="replace").read()
    assert '"msg":"Authentication failed"' in log and '"remote":"127.0.0.1:' in log


def test_unauthorized_reads_and_writes_do_nothing(server, root):
    root.test.c.insert_one({"_id": 1})
    root.admin.command("createUser", "reader", pwd="rpw", roles=[{"role": "read", "db": "test"}])
    try:
        with connect(server, "reader", "rpw") as r:
            assert r.test.c.find_one() == {"_id": 1}
            # listDatabases without the action: the databases the user has privileges on.
            assert r.list_database_names() == ["test"]
            with pytest.raises(OperationFailure) as e:
                r.admin.command("listDatabases", authorizedDatabases=False)
            assert e.value.code == 13
            # A user may look at itself, not at others.
            assert r.test.command("usersInfo", {"user": "reader", "db": "admin"})["users"][0]["user"] == "reader"
            with pytest.raises(OperationFailure) as e:
                r.admin.command("usersInfo", "root")
            assert e.value.code == 13
            with pytest.raises(OperationFailure) as e:
                r.test.c.insert_one({"_id": 2})
            assert e.value.code == 13
            assert re.match(r'^not authorized on test to execute command \{ insert: "c", ', e.value.details["errmsg"])
            for op in (lambda: r.test.c.delete_many({}), lambda: r.test.c.update_one({}, {"$set": {"x": 1}}),
                       lambda: r.test.c.drop(), lambda: r.test.c.create_index("x"),
                       lambda: r.other.c.find_one(), lambda: r.admin.command("serverStatus"),
                       lambda: list(r.test.c.aggregate([{"$out": "copy"}]))):
                with pytest.raises(OperationFailure) as e:
                    op()
                assert e.value.code == 13
        assert list(root.test.c.find()) == [{"_id": 1}]
        assert "copy" not in root.test.list_collection_names()
        assert root.test.c.index_information().keys() == {"_id_"}
    finally:
        root.admin.command("dropUser", "reader")


def test_user_commands(server, root):
    admin = root.admin
    admin.command("createUser", "alice", pwd="pw1", roles=["readAnyDatabase", {"role": "readWrite", "db": "app"}],
                  customData={"team": "x"})
    with pytest.raises(OperationFailure) as e:
        admin.command("createUser", "alice", pwd="pw1", roles=[])
    assert e.value.code == 51003 and e.value.details["errmsg"] == 'User "alice@admin" already exists'
    with pytest.raises(OperationFailure) as e:
        admin.command("createUser", "bob", pwd="x", roles=["noSuchRole"])
    assert e.value.code == 31
    with pytest.raises(OperationFailure) as e:
        admin.command("createUser", "bob", pwd="x")
    assert e.value.code == 40414
    with pytest.raises(OperationFailure) as e:
        admin.command("createUser", "bob", pwd="x", roles=[], mechanisms=["PLAIN"])
    assert e.value.code == 2

    info = admin.command("usersInfo", "alice")["users"]
    assert len(info) == 1
    u = info[0]
    assert list(u.keys()) == ["_id", "userId", "user", "db", "roles", "customData", "mechanisms"]
    assert u["_id"] == "admin.alice" and u["user"] == "alice" and u["db"] == "admin"
    assert isinstance(u["userId"], Binary) and u["userId"].subtype == 4
    assert u["customData"] == {"team": "x"}
    assert u["mechanisms"] == ["SCRAM-SHA-1", "SCRAM-SHA-256"]
    creds = admin.command("usersInfo", {"user": "alice", "db": "admin"}, showCredentials=True)["users"][0]["credentials"]
    assert set(creds) == {"SCRAM-SHA-1", "SCRAM-SHA-256"}
    assert creds["SCRAM-SHA-1"]["iterationCount"] == 10000
    assert creds["SCRAM-SHA-256"]["iterationCount"] == 15000
    assert set(creds["SCRAM-SHA-256"]) == {"iterationCount", "salt", "storedKey", "serverKey"}
    stored = root.admin["system.users"].find_one({"_id": "admin.alice"})
    assert "pw1" not in repr(stored) and "pwd" not in stored
    priv = admin.command("usersInfo", "alice", showPrivileges=True)["users"][0]
    assert {"role": "readWrite", "db": "app"} in priv["inheritedRoles"]
    assert any(p["resource"] == {"db": "app", "collection": ""} and "insert" in p["actions"]
               for p in priv["inheritedPrivileges"])
    assert [x["user"] for x in admin.command("usersInfo", {"forAllDBs": True})["users"]] == ["alice", "root"]

    with connect(server, "alice", "pw1") as a:
        a.app.c.insert_one({"a": 1})
        a.other.c.find_one()
    admin.command("updateUser", "alice", pwd="pw2", roles=[{"role": "read", "db": "app"}])
    with connect(server, "alice", "pw1") as a:
        with pytest.raises(OperationFailure) as e:
            a.admin.command("ping")
        assert e.value.code == 18
    with connect(server, "alice", "pw2", authMechanism="SCRAM-SHA-1") as a:
        assert a.app.c.count_documents({}) == 1
        with pytest.raises(OperationFailure) as e:
            a.app.c.insert_one({"a": 2})
        assert e.value.code == 13
        # Roles granted while connected count from the next command.
        admin.command("grantRolesToUser", "alice", roles=[{"role": "readWrite", "db": "app"}])
        a.app.c.insert_one({"a": 2})
        admin.command("revokeRolesFromUser", "alice", roles=[{"role": "readWrite", "db": "app"}])
        with pytest.raises(OperationFailure) as e:
            a.app.c.insert_one({"a": 3})
        assert e.value.code == 13
    with pytest.raises(OperationFailure) as e:
        admin.command("updateUser", "nobody", pwd="x")
    assert e.value.code == 11

    root.app.command("createUser", "u1", pwd="p", roles=[])
    root.app.command("createUser", "u2", pwd="p", roles=[], mechanisms=["SCRAM-SHA-256"])
    assert root.app.command("usersInfo", "u2")["users"][0]["mechanisms"] == ["SCRAM-SHA-256"]
    with pytest.raises(OperationFailure):
        connect(server, "u2", "p", authSource="app", authMechanism="SCRAM-SHA-1").app.command("ping")
    connect(server, "u2", "p", authSource="app", authMechanism="SCRAM-SHA-256").app.command("ping")
    assert root.app.command("dropAllUsersFromDatabase") == {"n": 2, "ok": 1.0}
    admin.command("dropUser", "alice")
    with pytest.raises(OperationFailure) as e:
        admin.command("dropUser", "alice")
    assert e.value.code == 11 and e.value.details["errmsg"] == "User 'alice@admin' not found"
    log = open(server.log_path, encoding="utf-8", errors="replace").read()
    assert "pw1" not in log and "pw2" not in log and ROOT_PWD not in log


def test_users_info_filter(server, root):
    """usersInfo's filter: $match conditions on the stored user documents."""
    admin = root.admin
    for name, team in (("f1", "red"), ("f2", "blue"), ("f3", "red")):
        admin.command("createUser", name, pwd="pw", roles=[], customData={"team": team})
    try:
        got = admin.command("usersInfo", 1, filter={"customData.team": "red"})["users"]
        assert sorted(u["user"] for u in got) == ["f1", "f3"]
        got = admin.command("usersInfo", {"forAllDBs": True}, filter={"user": {"$in": ["f2", "nobody"]}})["users"]
        assert [u["user"] for u in got] == ["f2"]
        assert admin.command("usersInfo", "f1", filter={"customData.team": "blue"})["users"] == []
        with pytest.raises(OperationFailure) as e:
            admin.command("usersInfo", 1, filter="red")
        assert e.value.code == 14
        with pytest.raises(OperationFailure) as e:
            admin.command("usersInfo", 1, filter={"user": {"$bogus": 1}})
        assert e.value.code == 2
    finally:
        for name in ("f1", "f2", "f3"):
            admin.command("dropUser", name)


def test_role_commands(server, root):
    app = root.app
    app.command("createRole", "onlyA", privileges=[{"resource": {"db": "app", "collection": "a"}, "actions": ["find"]}],
                roles=[])
    app.command("createUser", "ra", pwd="p", roles=["onlyA"])
    try:
        root.app.a.insert_one({"_id": 1})
        root.app.b.insert_one({"_id": 1})
        with connect(server, "ra", "p", authSource="app") as c:
            assert c.app.a.find_one() == {"_id": 1}
            with pytest.raises(OperationFailure) as e:
                c.app.b.find_one()
            assert e.value.code == 13
            app.command("grantPrivilegesToRole", "onlyA",
                        privileges=[{"resource": {"db": "app", "collection": "b"}, "actions": ["find", "insert"]}])
            c.app.b.insert_one({"_id": 2})
            app.command("revokePrivilegesFromRole", "onlyA",
                        privileges=[{"resource": {"db": "app", "collection": "b"}, "actions": ["insert"]}])
            with pytest.raises(OperationFailure):
                c.app.b.insert_one({"_id": 3})
            app.command("createRole", "writer", privileges=[], roles=[{"role": "readWrite", "db": "app"}])
            app.command("grantRolesToRole", "onlyA", roles=["writer"])
            c.app.b.insert_one({"_id": 3})
            info = app.command("rolesInfo", "onlyA", showPrivileges=True)["roles"][0]
            assert info["role"] == "onlyA" and info["db"] == "app" and info["isBuiltin"] is False
            assert info["roles"] == [{"role": "writer", "db": "app"}]
            assert {"role": "readWrite", "db": "app"} in info["inheritedRoles"]
            assert {"resource": {"db": "app", "collection": "a"}, "actions": ["find"]} in info["privileges"]
            with pytest.raises(OperationFailure) as e:  # a cycle
                app.command("grantRolesToRole", "writer", roles=["onlyA"])
            assert e.value.code == 49
            app.command("revokeRolesFromRole", "onlyA", roles=["writer"])
            app.command("dropRole", "writer")
            with pytest.raises(OperationFailure):
                c.app.b.insert_one({"_id": 4})
        builtin = app.command("rolesInfo", "read", showPrivileges=True)["roles"][0]
        assert builtin["isBuiltin"] is True and builtin["roles"] == []
        assert {"resource": {"db": "app", "collection": ""},
                "actions": ["changeStream", "collStats", "dbHash", "dbStats", "find", "killCursors",
                            "listCollections", "listIndexes"]} in builtin["privileges"]
        names = [r["role"] for r in app.command("rolesInfo", 1, showBuiltinRoles=True)["roles"]]
        assert names == ["dbAdmin", "dbOwner", "read", "readWrite", "userAdmin", "onlyA"]
        for bad, code in [(dict(createRole="read", privileges=[], roles=[]), 51002),
                          (dict(createRole="x", privileges=[{"resource": {"cluster": True}, "actions": ["find"]}],
                                roles=[]), 49),
                          (dict(createRole="x", privileges=[{"resource": {"db": "app", "collection": ""},
                                                             "actions": ["fly"]}], roles=[]), 2),
                          (dict(createRole="onlyA", privileges=[], roles=[]), 51002),
                          (dict(dropRole="nope"), 31), (dict(dropRole="read"), 49)]:
            with pytest.raises(OperationFailure) as e:
                app.command(bad)
            assert e.value.code == code, bad
    finally:
        app.command("dropAllRolesFromDatabase")
        app.command("dropAllUsersFromDatabase")


def test_sasl_mechs_and_bad_input(server, root):
    root.admin.command("createUser", "only256", pwd="p", roles=[], mechanisms=["SCRAM-SHA-256"])
    try:
        with connect(server) as anon:
            assert anon.admin.command("hello", saslSupportedMechs="admin.root")["saslSupportedMechs"] == \
                ["SCRAM-SHA-1", "SCRAM-SHA-256"]
            assert anon.admin.command("hello", saslSupportedMechs="admin.only256")["saslSupportedMechs"] == \
                ["SCRAM-SHA-256"]
            assert "saslSupportedMechs" not in anon.admin.command("hello", saslSupportedMechs="admin.nobody")
            with pytest.raises(OperationFailure) as e:
                anon.admin.command("saslStart", 1, mechanism="PLAIN", payload=b"\0u\0p")
            assert e.value.code == 334
            with pytest.raises(OperationFailure) as e:
                anon.admin.command("saslContinue", 1, conversationId=7, payload=b"")
            assert e.value.code == 17
            for payload in (b"garbage", b"p=tls-unique,,n=root,r=abc", b"n,,n=root"):
                with pytest.raises(OperationFailure) as e:
                    anon.admin.command("saslStart", 1, mechanism="SCRAM-SHA-256", payload=payload)
                assert e.value.code == 18
            with pytest.raises(OperationFailure) as e:
                anon.admin.command("saslStart", 1, mechanism="SCRAM-SHA-256", payload=b"n,,n=root,r=" + b"a" * 20000)
            assert e.value.code == 2
            # A conversation left after its first step authenticates nobody.
            r = anon.admin.command("saslStart", 1, mechanism="SCRAM-SHA-256", payload=b"n,,n=root,r=abcdef",
                                   options={"skipEmptyExchange": True})
            assert r["conversationId"] == 1 and r["done"] is False and bytes(r["payload"]).startswith(b"r=abcdef")
            with pytest.raises(OperationFailure) as e:
                anon.admin.command("saslContinue", 1, conversationId=1, payload=b"c=biws,r=abcdef,p=AAAA")
            assert e.value.code == 18
            with pytest.raises(OperationFailure) as e:
                anon.admin.command("saslContinue", 1, conversationId=1, payload=b"")
            assert e.value.code == 17, "a failed conversation is over"
            assert anon.admin.command("connectionStatus")["authInfo"]["authenticatedUsers"] == []
    finally:
        root.admin.command("dropUser", "only256")


def test_iteration_count_parameters(server, root):
    for name, default in (("scramIterationCount", 10000), ("scramSHA256IterationCount", 15000)):
        assert root.admin.command("getParameter", 1, **{name: 1})[name] == default
        with pytest.raises(OperationFailure) as e:
            root.admin.command("setParameter", 1, **{name: 4999})
        assert e.value.code == 2
    root.admin.command("setParameter", 1, scramIterationCount=6000, scramSHA256IterationCount=7000)
    try:
        root.admin.command("createUser", "iter", pwd="p", roles=[])
        creds = root.admin.command("usersInfo", "iter", showCredentials=True)["users"][0]["credentials"]
        assert creds["SCRAM-SHA-1"]["iterationCount"] == 6000
        assert creds["SCRAM-SHA-256"]["iterationCount"] == 7000
        connect(server, "iter", "p").admin.command("connectionStatus")
    finally:
        root.admin.command("setParameter", 1, scramIterationCount=10000, scramSHA256IterationCount=15000)
        root.admin.command("dropUser", "iter")


def test_only_the_user_who_opened_a_cursor_continues_it(server, root):
    root.test.cur.insert_many([{"_id": i} for i in range(10)])
    root.admin.command("createUser", "other", pwd="p", roles=["readAnyDatabase"])
    try:
        for cmd in ({"find": "cur", "batchSize": 2}, {"aggregate": "cur", "pipeline": [], "cursor": {"batchSize": 2}}):
            cursor_id = root.test.command(cmd)["cursor"]["id"]
            with connect(server, "other", "p") as o:
                with pytest.raises(OperationFailure) as e:
                    o.test.command("getMore", cursor_id, collection="cur")
                assert e.value.code == 13
                assert e.value.details["errmsg"] == "cursor id %d was not created by the authenticated user" % cursor_id
                with pytest.raises(OperationFailure) as e:
                    o.test.command("killCursors", "cur", cursors=[cursor_id])
                assert e.value.code == 13
            assert len(root.test.command("getMore", cursor_id, collection="cur")["cursor"]["nextBatch"]) == 8
    finally:
        root.admin.command("dropUser", "other")
        root.test.cur.drop()


def test_mongo_c_driver_authenticates(server, root):
    """libmongoc (build/install/bin/c_client_crud) with authSource and authMechanism in its URI."""
    binary = os.path.join(os.path.dirname(os.environ.get("MONGOD_BIN", "")), "c_client_crud")
    if not os.path.isfile(binary):
        pytest.skip("c_client_crud is not built")
    root.admin.command("createUser", "cuser", pwd="c-pw", roles=[{"role": "dbOwner", "db": "c_client_crud"}])
    try:
        for mech in ("SCRAM-SHA-256", "SCRAM-SHA-1"):
            uri = "mongodb://cuser:c-pw@127.0.0.1:%d/?authSource=admin&authMechanism=%s" % (server.port, mech)
            p = subprocess.run([binary, uri], capture_output=True, timeout=60)
            assert p.returncode == 0, (mech, p.stdout.decode(), p.stderr.decode())
        p = subprocess.run([binary, "mongodb://cuser:wrong@127.0.0.1:%d/?authSource=admin" % server.port],
                           capture_output=True, timeout=60)
        assert p.returncode != 0 and b"Authentication failed" in p.stdout + p.stderr
    finally:
        root.admin.command("dropUser", "cuser")


def test_logout(server, root):
    with connect(server, "root", ROOT_PWD) as c:
        c.admin.command("logout")
        assert c.admin.command("connectionStatus")["authInfo"]["authenticatedUsers"] == []
        with pytest.raises(OperationFailure) as e:
            c.admin.command("serverStatus")
        assert e.value.code == 13


def test_key_file(mongod_bin, tmp_path):
    key = tmp_path / "key"
    key.write_text("c2VjcmV0IGtleSBmb3IgbWVtYmVycw==\n")
    key.chmod(0o644)
    code, out, err = run_mongod(mongod_bin, ["--keyFile", str(key)], tmp_path)
    assert code != 0 and "permissions on %s are too open" % key in err + out
    bad = tmp_path / "badkey"
    bad.write_text("not-base64!")
    bad.chmod(0o600)
    code, out, err = run_mongod(mongod_bin, ["--keyFile", str(bad)], tmp_path)
    assert code != 0 and "invalid char in key file" in err + out
    code, out, err = run_mongod(mongod_bin, ["--clusterAuthMode", "x509"], tmp_path)
    assert code == 2 and "key file" in err

    key.chmod(0o400)
    m = MongodProcess(mongod_bin, free_port(), str(tmp_path / "kdb"), str(tmp_path),
                      ["--keyFile", str(key), "--clusterAuthMode", "keyFile"])
    m.start()
    try:
        with connect(m) as anon:  # a key file turns access control on
            with pytest.raises(OperationFailure) as e:
                anon.admin.command("serverStatus")
            assert e.value.code == 13
            anon.admin.command("createUser", "admin", pwd="apw", roles=["root"])
        with connect(m, "__system", "c2VjcmV0IGtleSBmb3IgbWVtYmVycw==", authSource="local") as member:
            st = member.admin.command("connectionStatus")["authInfo"]
            assert st["authenticatedUsers"] == [{"user": "__system", "db": "local"}]
            assert st["authenticatedUserRoles"] == [{"role": "__system", "db": "admin"}]
        with connect(m, "__system", "wrong-key", authSource="local") as intruder:
            with pytest.raises(OperationFailure) as e:
                intruder.admin.command("ping")
            assert e.value.code == 18
        m.restart()  # users survive a restart
        with connect(m, "admin", "apw") as c:
            opts = c.admin.command("getCmdLineOpts")["parsed"]["security"]
            assert opts == {"keyFile": str(key), "clusterAuthMode": "keyFile"}
    finally:
        m.stop()


def test_changes_around_the_user_commands_are_seen_within_5s(server, root):
    root.admin.command("createUser", "direct", pwd="p", roles=[{"role": "read", "db": "test"}])
    with connect(server, "direct", "p") as c:
        c.test.c.find_one()
        # A plain delete of the user's document (not dropUser) does not bump the generation.
        assert root.admin["system.users"].delete_one({"_id": "admin.direct"}).deleted_count == 1
        deadline = time.time() + 8
        while time.time() < deadline:
            try:
                c.test.c.find_one()
            except OperationFailure as e:
                assert e.code == 13
                break
            time.sleep(0.25)
        else:
            raise AssertionError("the deleted user kept its privileges")
