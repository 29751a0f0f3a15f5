"""No silent replication: this server has no replication yet and runs standalone only, so every
option that asks for a replica set member (--replSet, replication.replSetName, --oplogSize, any
other replication.* setting) makes start-up fail with exit code 2 (mongod's bad-options code)
and a message on stderr saying so, from the command line and from the YAML config file.
replication.enableMajorityReadConcern: true (MongoDB 5.0+'s fixed default) asks for nothing and is
accepted; false is refused, as MongoDB 7.0 refuses it. A standalone never claims a replica set in
hello or getCmdLineOpts."""

import pytest
from conftest import run_mongod

BAD_OPTIONS = 2
STANDALONE = "replica sets are not supported yet; this server runs standalone only"

CLI_CASES = [
    (["--replSet", "rs0"], STANDALONE),
    (["--replSet", "rs0/h1.example:27017,h2.example:27017"], STANDALONE),
    (["--replSet=rs0"], STANDALONE),
    (["--oplogSize", "1024"], STANDALONE),
    (["--enableMajorityReadConcern", "true", "--replSet", "rs0"], STANDALONE),
    (["--enableMajorityReadConcern", "false"], "cannot be disabled"),
]

CONFIG_CASES = [
    ("replication:\n  replSetName: rs0\n", STANDALONE),
    ("replication:\n  replSet: rs0\n", STANDALONE),
    ("replication:\n  oplogSizeMB: 990\n  replSetName: rs0\n", STANDALONE),
    ("replication:\n  oplogSizeMB: 990\n", STANDALONE),
    ("replication:\n  enableMajorityReadConcern: false\n", "cannot be disabled"),
    ("replication:\n  secondaryIndexPrefetch: all\n", STANDALONE),
]


def assert_refused(code, out, err, expect, what):
    assert code == BAD_OPTIONS, "%s: exit code %s\nstdout: %s\nstderr: %s" % (what, code, out, err)
    assert "Unsupported option replication." in err and expect in err, "%s: stderr does not explain: %r" % (what, err)


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
