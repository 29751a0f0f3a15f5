"""Replication options accept what the server can do and refuse the rest, from the command line
and the YAML config file: --replSet <name> makes a replica-set member (test_replica_set.py), with
--oplogSize / replication.oplogSizeMB sizing its oplog. Refused at start-up with exit code 2
(mongod's bad-options code) and a message on stderr: a seed list in --replSet (there is no
replication between members yet), an empty set name, --oplogSize without --replSet (a standalone
has no oplog) or not a positive number of MB, enableMajorityReadConcern: false (as MongoDB 7.0),
and any other replication.* setting. A standalone never claims a replica set in hello or
getCmdLineOpts."""

import pytest
from conftest import run_mongod

BAD_OPTIONS = 2
NOT_YET = "not supported by this server yet"

CLI_CASES = [
    (["--replSet", "rs0/h1.example:27017,h2.example:27017"], "a seed list is not supported by this server yet"),
    (["--replSet", ""], "an empty replica set name"),
    (["--oplogSize", "1024"], "without --replSet"),
    (["--replSet", "rs0", "--oplogSize", "0"], "bad --oplogSize, arg must be greater than 0"),
    (["--replSet", "rs0", "--oplogSize", "ten"], "bad --oplogSize, arg must be greater than 0"),
    (["--enableMajorityReadConcern", "false"], "cannot be disabled"),
]

CONFIG_CASES = [
    ("replication:\n  replSet: rs0/h:1\n", "a seed list"),
    ("replication:\n  oplogSizeMB: 990\n", "without --replSet"),
    ("replication:\n  oplogSizeMB: -5\n  replSetName: rs0\n", "arg must be greater than 0"),
    ("replication:\n  enableMajorityReadConcern: false\n", "cannot be disabled"),
    ("replication:\n  secondaryIndexPrefetch: all\n", NOT_YET),
]


def assert_refused(code, out, err, expect, what):
    assert code == BAD_OPTIONS, "%s: exit code %s\nstdout: %s\nstderr: %s" % (what, code, out, err)
    assert expect in err, "%s: stderr does not explain: %r" % (what, err)


@pytest.mark.parametrize("args,expect", CLI_CASES, ids=[" ".join(a) for a, _ in CLI_CASES])
def test_command_line_replication_refused(mongod_bin, tmp_path, args, expect):
    code, out, err = run_mongod(mongod_bin, args, tmp_path)
    assert_refused(code, out, err, expect, " ".join(args))
    assert not any((tmp_path / "db").iterdir()), "nothing may be written before refusing"


@pytest.mark.parametrize("yaml,expect", CONFIG_CASES,
                         ids=[" ".join(y.split()) for y, _ in CONFIG_CASES])
def test_config_file_replication_refused(mongod_bin, tmp_path, yaml, expect):
    conf = tmp_path / "mongod.conf"
    conf.write_text(yaml)
    code, out, err = run_mongod(mongod_bin, ["--config", str(conf)], tmp_path)
    assert_refused(code, out, err, expect, yaml)


def test_majority_read_concern_true_is_accepted_and_standalone(mongod_factory, tmp_path):
    conf = tmp_path / "repl.conf"
    conf.write_text("replication:\n  enableMajorityReadConcern: true\n")
    m = mongod_factory(["--config", str(conf), "--enableMajorityReadConcern"])
    with m.client() as c:
        opts = c.admin.command("getCmdLineOpts")["parsed"]
        assert opts["replication"] == {"enableMajorityReadConcern": True}
        hello = c.admin.command("hello")
        assert hello["isWritablePrimary"] is True
        for field in ("setName", "hosts", "primary", "secondary", "me", "setVersion"):
            assert field not in hello, "a standalone claims %s: %r" % (field, hello)
        with pytest.raises(Exception) as e:
            c.admin.command("getDefaultRWConcern")
        assert getattr(e.value, "code", None) == 51300
