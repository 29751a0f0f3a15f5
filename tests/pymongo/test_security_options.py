"""No silent security: every MongoDB option that would turn on a protection this server does not
implement (x509, LDAP, TLS/SSL, encryption at rest, log redaction, auditing) makes start-up
fail with exit code 2 (mongod's bad-options code) and a message on stderr saying why, from the
command line and from the YAML config file. The options that turn a protection off (--noauth,
security.authorization: disabled, --tlsMode disabled, ...) are accepted, and getCmdLineOpts then
reports exactly that."""

import pytest
from conftest import run_mongod

BAD_OPTIONS = 2

CLI_CASES = [
    (["--clusterAuthMode", "x509"], "only authenticate with a key file"),
    (["--clusterIpSourceAllowlist", "10.0.0.0/8"], "does not implement it"),
    (["--enableEncryption"], "no encryption at rest"),
    (["--encryptionKeyFile", "/etc/ek"], "no encryption at rest"),
    (["--redactClientLogData"], "does not redact"),
    (["--tlsMode", "requireTLS"], "does not support TLS"),
    (["--tlsMode", "preferTLS"], "does not support TLS"),
    (["--tlsMode", "allowTLS"], "does not support TLS"),
    (["--tlsMode", "disabled", "--tlsCertificateKeyFile", "/etc/cert.pem"], "does not support TLS"),
    (["--tlsCAFile", "/etc/ca.pem"], "does not support TLS"),
    (["--tlsAllowInvalidCertificates"], "does not support TLS"),
    (["--sslMode", "requireSSL"], "does not support TLS"),
    (["--sslPEMKeyFile", "/etc/cert.pem"], "does not support TLS"),
    (["--sslOnNormalPorts"], "does not support TLS"),
    (["--auditDestination", "file"], "no auditing"),
]

CONFIG_CASES = [
    ("security:\n  clusterAuthMode: sendX509\n", "only authenticate with a key file"),
    ("security:\n  sasl:\n    hostName: h.example\n", "does not implement it"),
    ("security:\n  ldap:\n    servers: ldap.example\n", "does not implement it"),
    ("security:\n  enableEncryption: true\n  encryptionKeyFile: /etc/ek\n", "no encryption at rest"),
    ("security:\n  kmip:\n    serverName: kmip.example\n", "no encryption at rest"),
    ("security:\n  redactClientLogData: true\n", "does not redact"),
    ("net:\n  tls:\n    mode: requireTLS\n    certificateKeyFile: /etc/cert.pem\n", "does not support TLS"),
    ("net:\n  ssl:\n    mode: preferSSL\n", "does not support TLS"),
    ("net:\n  tls:\n    CAFile: /etc/ca.pem\n", "does not support TLS"),
    ("auditLog:\n  destination: file\n  path: /tmp/audit.json\n", "no auditing"),
]


def assert_refused(code, out, err, expect, what):
    assert code == BAD_OPTIONS, "%s: exit code %s\nstdout: %s\nstderr: %s" % (what, code, out, err)
    assert "Unsupported option" in err and expect in err, "%s: stderr does not explain: %r" % (what, err)


@pytest.mark.parametrize("args,expect", CLI_CASES, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_command_line_protection_refused(mongod_bin, tmp_path, args, expect):
    code, out, err = run_mongod(mongod_bin, args, tmp_path)
    assert_refused(code, out, err, expect, " ".join(args))
    assert not any((tmp_path / "db").iterdir()), "nothing may be written before refusing"


@pytest.mark.parametrize("yaml,expect", CONFIG_CASES, ids=lambda v: v.split(":")[0] + ":" + v.split("\n")[1].strip()
                         if "\n" in v else None)
def test_config_file_protection_refused(mongod_bin, tmp_path, yaml, expect):
    conf = tmp_path / "mongod.conf"
    conf.write_text(yaml)
    code, out, err = run_mongod(mongod_bin, ["--config", str(conf)], tmp_path)
    assert_refused(code, out, err, expect, yaml)


def test_transition_to_auth_needs_a_key_file_and_no_auth(mongod_bin, tmp_path):
    """--transitionToAuth is built (test_auth_transition.py), but only with the key file its
    members authenticate with, and not with --auth (it enforces no access control)."""
    key = tmp_path / "k"
    key.write_text("dHJhbnNpdGlvbktleUZvclRoZVNldDAxMjM0NTY3\n")
    key.chmod(0o400)
    conf = tmp_path / "t.conf"
    conf.write_text("security:\n  transitionToAuth: true\n")
    for args, expect in ((["--transitionToAuth"], "must be used with keyFile"),
                         (["--config", str(conf)], "must be used with keyFile"),
                         (["--transitionToAuth", "--keyFile", str(key), "--auth"], "cannot be used with")):
        code, out, err = run_mongod(mongod_bin, args, tmp_path)
        assert code == BAD_OPTIONS and expect in err, (args, code, out, err)


def test_protection_off_is_accepted_and_reported(mongod_factory, tmp_path):
    m = mongod_factory(["--noauth", "--tlsMode", "disabled", "--transitionToAuth", "false"])
    with m.client() as c:
        opts = c.admin.command("getCmdLineOpts")["parsed"]
        assert opts["security"]["authorization"] == "disabled"
        assert opts["security"]["transitionToAuth"] is False
        assert opts["net"]["tls"]["mode"] == "disabled"
        c.t.c.insert_one({"a": 1})  # no credentials needed, as asked
        assert c.t.c.count_documents({}) == 1


def test_protection_off_in_config_file(mongod_factory, tmp_path):
    conf = tmp_path / "off.conf"
    conf.write_text("security:\n  authorization: disabled\nnet:\n  ssl:\n    mode: disabled\n")
    m = mongod_factory(["--config", str(conf)])
    with m.client() as c:
        opts = c.admin.command("getCmdLineOpts")["parsed"]
        assert opts["security"] == {"authorization": "disabled"}
        assert opts["net"]["ssl"] == {"mode": "disabled"}
