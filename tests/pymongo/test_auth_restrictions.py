"""authenticationRestrictions and changeOwnPassword / changeOwnCustomData (issue 17), through pymongo
against a --auth server of the module's own:
  - a user (or a role it holds, directly or inherited) whose restrictions the connection does not
    meet fails to authenticate with AuthenticationFailed (18), like a wrong password, and the log
    says why (AuthenticationRestrictionUnmet); meeting them (client address, address connected to,
    CIDR ranges) authenticates; updateUser / updateRole change them;
  - usersInfo / rolesInfo show them (showAuthenticationRestrictions, showPrivileges);
  - malformed restrictions are refused (BadValue / TypeMismatch); setting them needs
    setAuthenticationRestriction;
  - a user with changeOwnPassword / changeOwnCustomData may change its own password and custom
    data, and nothing else of itself nor anything of another user;
  - users changed by a plain write to admin.system.users take effect on open connections at once;
    listDatabases with authorizedDatabases: true lists only the user's databases; rolesInfo's
    showPrivileges: "asUserFragment"."""
import shutil

import pymongo
import pytest
from pymongo.errors import OperationFailure

from conftest import MongodProcess
from test_auth import ROOT_PWD, connect, free_port


@pytest.fixture(scope="module")
def server(mongod_bin, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("authr")
    m = MongodProcess(mongod_bin, free_port(), str(tmp / "db"), str(tmp), ["--auth"])
    m.start()
    with connect(m) as anon:
        anon.admin.command("createUser", "root", pwd=ROOT_PWD, roles=["root"])
    yield m
    m.stop()
    shutil.rmtree(m.dbpath, ignore_errors=True)


@pytest.fixture(scope="module")
def root(server):
    c = connect(server, "root", ROOT_PWD)
    yield c
    c.close()


def can_login(server, user, pwd, db="test"):
    try:
        with connect(server, user, pwd, authSource=db, serverSelectionTimeoutMS=5000) as c:
            c[db].command("connectionStatus")
        return True
    except OperationFailure as e:
        assert e.code == 18, e.details
        return False


def restrictions(ranges_client=None, ranges_server=None):
    d = {}
    if ranges_client is not None:
        d["clientSource"] = ranges_client
    if ranges_server is not None:
        d["serverAddress"] = ranges_server
    return d


def test_user_restrictions_decide_who_may_authenticate(server, root):
    t = root.test
    t.command("createUser", "local_only", pwd="p1", roles=["read"],
              authenticationRestrictions=[restrictions(["127.0.0.0/8"])])
    t.command("createUser", "office_only", pwd="p2", roles=["read"],
              authenticationRestrictions=[restrictions(["10.0.0.0/8", "192.168.0.0/16"])])
    t.command("createUser", "wrong_door", pwd="p3", roles=["read"],
              authenticationRestrictions=[restrictions(["127.0.0.1"], ["127.0.0.2"])])
    # One document of the list is enough, and within it every field must match.
    t.command("createUser", "either", pwd="p4", roles=["read"],
              authenticationRestrictions=[restrictions(["10.0.0.0/8"]), restrictions(["::1", "127.0.0.1"],
                                                                                    ["127.0.0.1"])])
    assert can_login(server, "local_only", "p1")
    assert not can_login(server, "office_only", "p2")
    assert not can_login(server, "wrong_door", "p3")
    assert can_login(server, "either", "p4")
    with open(server.log_path, "rb") as f:
        log = f.read().decode("utf-8", "replace")
    assert "AuthenticationRestrictionUnmet" in log and '"principalName":"office_only"' in log
    # updateUser replaces them; an empty list lifts them.
    t.command("updateUser", "office_only", authenticationRestrictions=[restrictions(["127.0.0.1/32"])])
    assert can_login(server, "office_only", "p2")
    t.command("updateUser", "wrong_door", authenticationRestrictions=[])
    assert can_login(server, "wrong_door", "p3")
    # A password change keeps them.
    t.command("updateUser", "office_only", authenticationRestrictions=[restrictions(["10.0.0.0/8"])])
    t.command("updateUser", "office_only", pwd="p2b")
    assert not can_login(server, "office_only", "p2b")
    info = t.command("usersInfo", "office_only", showAuthenticationRestrictions=True)["users"][0]
    assert info["authenticationRestrictions"] == [{"clientSource": ["10.0.0.0/8"]}]
    assert "authenticationRestrictions" not in t.command("usersInfo", "office_only")["users"][0]


def test_role_restrictions_apply_to_every_holder(server, root):
    t = root.test
    t.command("createRole", "from_office", privileges=[], roles=[],
              authenticationRestrictions=[restrictions(["10.0.0.0/8"])])
    t.command("createRole", "wrapper", privileges=[], roles=["from_office"])
    t.command("createUser", "holder", pwd="hp", roles=["read", "wrapper"])
    assert not can_login(server, "holder", "hp")  # inherited through wrapper
    info = t.command("usersInfo", "holder", showPrivileges=True)["users"][0]
    assert info["inheritedAuthenticationRestrictions"] == [[{"clientSource": ["10.0.0.0/8"]}]]
    assert info["authenticationRestrictions"] == []
    roles = {r["role"]: r for r in t.command("rolesInfo", 1, showAuthenticationRestrictions=True)["roles"]}
    assert roles["from_office"]["authenticationRestrictions"] == [[{"clientSource": ["10.0.0.0/8"]}]]
    assert roles["wrapper"]["authenticationRestrictions"] == []
    assert roles["wrapper"]["inheritedAuthenticationRestrictions"] == [[{"clientSource": ["10.0.0.0/8"]}]]
    t.command("updateRole", "from_office", authenticationRestrictions=[restrictions(["127.0.0.0/8"])])
    assert can_login(server, "holder", "hp")
    # Granting privileges to the role keeps its restrictions.
    t.command("grantPrivilegesToRole", "from_office",
              privileges=[{"resource": {"db": "test", "collection": ""}, "actions": ["find"]}])
    assert t.command("rolesInfo", "from_office", showAuthenticationRestrictions=True)["roles"][0][
        "authenticationRestrictions"] == [[{"clientSource": ["127.0.0.0/8"]}]]
    t.command("revokeRolesFromUser", "holder", roles=["wrapper"])
    t.command("updateRole", "from_office", authenticationRestrictions=[restrictions(["10.0.0.0/8"])])
    assert can_login(server, "holder", "hp")  # no longer holds it


def test_malformed_restrictions_and_the_privilege_to_set_them(server, root):
    t = root.test
    bad = [
        ([{"clientSource": ["300.1.1.1"]}], 2),
        ([{"clientSource": ["10.0.0.0/40"]}], 2),
        ([{"clientIP": ["10.0.0.1"]}], 2),
        ([{"clientSource": "10.0.0.1"}], 14),
        (["10.0.0.1"], 14),
        ({"clientSource": ["10.0.0.1"]}, 14),
    ]
    for value, code in bad:
        with pytest.raises(OperationFailure) as e:
            t.command("createUser", "bad", pwd="x", roles=[], authenticationRestrictions=value)
        assert e.value.code == code, (value, e.value.details)
        with pytest.raises(OperationFailure) as e:
            t.command("createRole", "badrole", privileges=[], roles=[], authenticationRestrictions=value)
        assert e.value.code == code, (value, e.value.details)
    assert t.command("usersInfo", "bad")["users"] == []
    # createUser alone is not enough to restrict a user.
    t.command("createRole", "user_maker", privileges=[
        {"resource": {"db": "test", "collection": ""}, "actions": ["createUser"]}], roles=[])
    t.command("createUser", "maker", pwd="mp", roles=["user_maker"])
    with connect(server, "maker", "mp", authSource="test") as c:
        c.test.command("createUser", "plain", pwd="x", roles=[])
        with pytest.raises(OperationFailure) as e:
            c.test.command("createUser", "restricted", pwd="x", roles=[],
                           authenticationRestrictions=[restrictions(["127.0.0.1"])])
        assert e.value.code == 13
    assert t.command("usersInfo", "restricted")["users"] == []


def test_change_own_password_and_custom_data(server, root):
    t = root.test
    t.command("createRole", "self_service", roles=[], privileges=[
        {"resource": {"db": "test", "collection": ""}, "actions": ["changeOwnPassword", "changeOwnCustomData"]}])
    t.command("createUser", "alice", pwd="a1", roles=["self_service", "read"])
    t.command("createUser", "bob", pwd="b1", roles=["read"])
    with connect(server, "alice", "a1", authSource="test") as c:
        c.test.command("updateUser", "alice", pwd="a2")
        c.test.command("updateUser", "alice", customData={"team": "blue"})
        for cmd in ({"updateUser": "bob", "pwd": "stolen"},                # someone else
                    {"updateUser": "alice", "roles": ["readWrite"]},       # own roles
                    {"updateUser": "alice", "pwd": "a3", "roles": []},
                    {"updateUser": "alice", "authenticationRestrictions": []}):
            with pytest.raises(OperationFailure) as e:
                c.test.command(cmd)
            assert e.value.code == 13, cmd
    assert can_login(server, "alice", "a2") and not can_login(server, "alice", "a1")
    assert can_login(server, "bob", "b1")
    assert t.command("usersInfo", "alice")["users"][0]["customData"] == {"team": "blue"}
    assert sorted(r["role"] for r in t.command("usersInfo", "alice")["users"][0]["roles"]) == ["read", "self_service"]
    # Without the actions, not even one's own password.
    with connect(server, "bob", "b1", authSource="test") as c:
        with pytest.raises(OperationFailure) as e:
            c.test.command("updateUser", "bob", pwd="b2")
        assert e.value.code == 13
    assert can_login(server, "bob", "b1")


def test_direct_writes_to_users_take_effect_at_once(server, root):
    root.test.command("createUser", "direct2", pwd="dp", roles=[])
    with connect(server, "direct2", "dp", authSource="test") as c:
        with pytest.raises(OperationFailure) as e:
            c.test.other.find_one()
        assert e.value.code == 13
        # A root user's plain update of admin.system.users (not updateUser): seen by the open
        # connection's next command, not 5 s later.
        root.admin["system.users"].update_one({"_id": "test.direct2"},
                                               {"$set": {"roles": [{"role": "read", "db": "test"}]}})
        assert c.test.other.find_one() is None


def test_authorized_databases_and_user_fragments(server, root):
    root.alpha.a.insert_one({})
    root.beta.b.insert_one({})
    root.admin.command("createRole", "lister", roles=[], privileges=[
        {"resource": {"cluster": True}, "actions": ["listDatabases"]}])
    root.admin.command("createUser", "monitor", pwd="mp", roles=["lister", {"role": "read", "db": "alpha"}])
    with connect(server, "monitor", "mp", authSource="admin") as c:
        everything = set(c.list_database_names())
        assert {"alpha", "beta"} <= everything  # the listDatabases action: every database
        mine = {d["name"] for d in c.admin.command("listDatabases", authorizedDatabases=True)["databases"]}
        assert "alpha" in mine and "beta" not in mine
    root.test.command("createRole", "frag", privileges=[
        {"resource": {"db": "test", "collection": "f"}, "actions": ["find"]}], roles=["read"],
        authenticationRestrictions=[restrictions(["127.0.0.1"])])
    frag = root.test.command("rolesInfo", "frag", showPrivileges="asUserFragment")["userFragment"]
    assert frag["roles"] == [{"role": "frag", "db": "test"}]
    assert sorted((r["role"], r["db"]) for r in frag["inheritedRoles"]) == [("frag", "test"), ("read", "test")]
    assert {"resource": {"db": "test", "collection": "f"}, "actions": ["find"]} in frag["inheritedPrivileges"]
    assert frag["inheritedAuthenticationRestrictions"] == [[{"clientSource": ["127.0.0.1"]}]]


def test_restrictions_changed_under_an_open_connection_log_the_user_out(server, root):
    root.test.command("createUser", "moving", pwd="mv", roles=["read"])
    root.test.command("createUser", "staying", pwd="st", roles=["read"])
    with connect(server, "moving", "mv", authSource="test") as c, \
            connect(server, "staying", "st", authSource="test") as other:
        assert c.test.c.find_one() is None
        root.test.command("updateUser", "moving", authenticationRestrictions=[restrictions(["10.0.0.0/8"])])
        root.test.command("updateUser", "staying", authenticationRestrictions=[restrictions(["127.0.0.1"])])
        assert c.test.command("connectionStatus")["authInfo"]["authenticatedUsers"] == []
        with pytest.raises(OperationFailure) as e:
            c.test.c.find_one()
        assert e.value.code == 13
        assert other.test.c.find_one() is None  # still admitted: still logged in
        assert other.test.command("connectionStatus")["authInfo"]["authenticatedUsers"] == [
            {"user": "staying", "db": "test"}]
