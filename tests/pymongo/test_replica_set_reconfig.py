"""replSetReconfig on a one-member replica set (issue 10, milestone 2 step 1): settings and member
options change with a higher version and the current term; force raises the version by a large
random number and gives the config term -1; hello's setVersion follows. Errors as MongoDB 7.0:
NewReplicaSetConfigurationIncompatible (103) for a version that does not grow, another set name
or a changed replicaSetId or two voters added at once, InvalidReplicaSetConfig (93) for a config
MongoDB refuses, NodeNotFound (74), TypeMismatch (14)."""

import pymongo
import pytest
from bson import ObjectId

from replset_helpers import one_member_set

SET = "rs0"


def code_of(fn):
    with pytest.raises(pymongo.errors.PyMongoError) as e:
        fn()
    return getattr(e.value, "code", None) or (getattr(e.value, "details", None) or {}).get("code")


@pytest.fixture(scope="module")
def member(tmp_path_factory):
    # One server for the whole file (CI has 2 cores): the tests run in order on the same set.
    yield from one_member_set(tmp_path_factory, SET)


def conf(c):
    return c.admin.command("replSetGetConfig")["config"]


def test_reconfig_changes_settings_and_version(member):
    with member.client() as c:
        cfg = conf(c)
        assert cfg["version"] == 1
        cfg["version"] = 2
        cfg["settings"]["electionTimeoutMillis"] = 2000
        cfg["members"][0]["tags"] = {"dc": "east"}
        assert c.admin.command("replSetReconfig", cfg)["ok"] == 1
        new = conf(c)
        assert new["version"] == 2 and new["term"] == c.admin.command("replSetGetStatus")["term"]
        assert new["settings"]["electionTimeoutMillis"] == 2000
        assert new["members"][0]["tags"] == {"dc": "east"}
        assert new["settings"]["replicaSetId"] == cfg["settings"]["replicaSetId"]
        assert c.admin.command("hello")["setVersion"] == 2
        # Without settings.replicaSetId the set keeps its id.
        del new["settings"]["replicaSetId"]
        new["version"] = 3
        c.admin.command("replSetReconfig", new)
        assert conf(c)["settings"]["replicaSetId"] == cfg["settings"]["replicaSetId"]


def test_reconfig_errors(member):
    with member.client() as c:
        cfg = conf(c)
        host = cfg["members"][0]["host"]

        def reconfig(doc, **kw):
            return code_of(lambda: c.admin.command("replSetReconfig", doc, **kw))
        assert reconfig(dict(cfg)) == 103  # same version
        assert reconfig(dict(cfg, version=cfg["version"] - 1)) == 103
        assert reconfig(dict(cfg, _id="other", version=cfg["version"] + 1)) == 93
        other_id = dict(cfg["settings"], replicaSetId=ObjectId())
        assert reconfig(dict(cfg, version=cfg["version"] + 1, settings=other_id)) == 103
        assert reconfig(dict(cfg, version=cfg["version"] + 1,
                             members=[{"_id": 0, "host": "elsewhere.example:1"}])) == 74
        assert reconfig(dict(cfg, version=cfg["version"] + 1,
                             members=[{"_id": 0, "host": host, "hidden": True}])) == 93
        # Two voters added at once: not a safe reconfig.
        assert reconfig(dict(cfg, version=cfg["version"] + 1,
                             members=[{"_id": 0, "host": host}, {"_id": 1, "host": "127.0.0.1:1"},
                                      {"_id": 2, "host": "127.0.0.1:2"}])) == 103
        assert reconfig(cfg, force=1) == 14
        assert code_of(lambda: c.admin.command("replSetReconfig", 1)) == 14
        assert code_of(lambda: c.admin.command("replSetReconfig", cfg, bogus=1)) == 40415
        assert conf(c)["version"] == cfg["version"]  # nothing changed


def test_force_reconfig(member):
    with member.client() as c:
        cfg = conf(c)
        old = cfg["version"]
        assert c.admin.command("replSetReconfig", cfg, force=True)["ok"] == 1
        new = conf(c)
        assert old + 10000 <= new["version"] < old + 100000
        assert new["term"] == -1
        assert c.admin.command("hello")["setVersion"] == new["version"]
        # The set still works: writes are accepted.
        c.test.after_force.insert_one({"x": 1})
