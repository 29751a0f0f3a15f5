"""Bad database and collection names are refused with InvalidNamespace (73) by every command, on
the raw wire protocol (no driver-side checks), and nothing is created: names with invalid UTF-8
or an embedded NUL, db names over 63 bytes, namespaces over 255 bytes. A name a driver cannot
decode would make listCollections / listDatabases fail for every client afterwards, so the test
ends by checking that both still decode strictly and list nothing bad.

Invalid UTF-8 cannot be written through pymongo's encoder, so the command is encoded with an
ASCII placeholder of the same length, whose bytes are then replaced (the BSON lengths stay right).
"""
import struct

import bson
import pytest
from bson import Int64

import wire
from conftest import host_port

HOST, PORT = host_port()
DB = "pytest_nsvalid"
SRC = "src"

PLACEHOLDER = "\x7f"  # DEL: in no command below except as a placeholder


def op_msg_bytes(body, request_id=1):
    payload = struct.pack("<I", 0) + b"\x00" + body
    return wire.header(16 + len(payload), request_id, 0, wire.OP_MSG) + payload


def encode(doc, raw_names):
    """bson.encode(doc) with each placeholder string replaced by the raw bytes it stands for."""
    data = bson.encode(doc)
    for placeholder, raw in raw_names.items():
        ph = placeholder.encode()
        assert len(ph) == len(raw) and data.count(ph) >= 1, (placeholder, raw)
        data = data.replace(ph, raw)
    return data


def send(doc, raw_names=None):
    """Sends the command over a fresh socket; returns the reply, decoded strictly (a reply with
    invalid UTF-8 fails the test here)."""
    with wire.connect(HOST, PORT) as s:
        s.sendall(op_msg_bytes(encode(doc, raw_names or {})))
        opcode, reply, _, _ = wire.read_reply(s)
        assert opcode == wire.OP_MSG
        return reply


class Name:
    """A bad name: the str put in the command, and the bytes the server receives for it."""

    def __init__(self, label, raw):
        self.label = label
        self.raw = raw
        if all(b < 0x80 for b in raw):
            self.text, self.patch = raw.decode(), {}
        else:
            self.text = PLACEHOLDER * len(raw)
            self.patch = {self.text: raw}

    def __repr__(self):
        return self.label


BAD_COLLS = [
    Name("invalid utf-8", b"c\xff\xfe"),
    Name("overlong utf-8", b"c\xc0\xafd"),
    Name("utf-16 surrogate", b"c\xed\xa0\x80"),
    Name("truncated sequence", b"c\xe2\x82"),
    Name("embedded NUL", b"c\x00d"),
    Name("namespace of 256 bytes", b"c" * (256 - len(DB) - 1)),
]
BAD_DBS = [
    Name("invalid utf-8", b"db\xff\xfe"),
    Name("embedded NUL", b"d\x00b"),
    Name("64 bytes", b"d" * 64),
]


def coll_commands(c):
    """Commands naming collection c of DB, directly or as a target."""
    return {
        "create": {"create": c},
        "insert": {"insert": c, "documents": [{"a": 1}]},
        "update upsert": {"update": c, "updates": [{"q": {"a": 1}, "u": {"$set": {"b": 1}}, "upsert": True}]},
        "delete": {"delete": c, "deletes": [{"q": {}, "limit": 0}]},
        "find": {"find": c, "filter": {}},
        "aggregate": {"aggregate": c, "pipeline": [], "cursor": {}},
        "aggregate $out": {"aggregate": SRC, "pipeline": [{"$out": c}], "cursor": {}},
        "aggregate $out {db, coll}": {"aggregate": SRC, "pipeline": [{"$out": {"db": DB, "coll": c}}], "cursor": {}},
        "aggregate $merge": {"aggregate": SRC, "pipeline": [{"$merge": {"into": c}}], "cursor": {}},
        "aggregate $merge string": {"aggregate": SRC, "pipeline": [{"$merge": c}], "cursor": {}},
        "aggregate $lookup": {"aggregate": SRC, "pipeline": [
            {"$lookup": {"from": c, "localField": "a", "foreignField": "a", "as": "x"}}], "cursor": {}},
        "aggregate $graphLookup": {"aggregate": SRC, "pipeline": [
            {"$graphLookup": {"from": c, "startWith": "$a", "connectFromField": "a", "connectToField": "a",
                              "as": "x"}}], "cursor": {}},
        "aggregate $unionWith": {"aggregate": SRC, "pipeline": [{"$unionWith": c}], "cursor": {}},
        "createIndexes": {"createIndexes": c, "indexes": [{"key": {"a": 1}, "name": "a_1"}]},
        "drop": {"drop": c},
        "listIndexes": {"listIndexes": c},
        "collMod": {"collMod": c},
        "count": {"count": c},
        "distinct": {"distinct": c, "key": "a"},
        "findAndModify upsert": {"findAndModify": c, "query": {"a": 1}, "update": {"$set": {"b": 1}}, "upsert": True},
        "getMore": {"getMore": Int64(12345), "collection": c},
        "killCursors": {"killCursors": c, "cursors": [Int64(12345)]},
        "collStats": {"collStats": c},
        "validate": {"validate": c},
        "explain find": {"explain": {"find": c}},
    }


def with_db(cmd, db):
    out = dict(cmd)
    out["$db"] = db
    return out


def assert_invalid_namespace(reply, what):
    assert reply.get("ok") == 0, "%s was accepted: %r" % (what, reply)
    assert reply.get("code") == 73, "%s: expected InvalidNamespace, got %r" % (what, reply)
    assert reply.get("codeName") == "InvalidNamespace"
    assert reply.get("errmsg")


@pytest.fixture(scope="module")
def setup(client):
    client.drop_database(DB)
    client[DB][SRC].insert_many([{"a": 1}, {"a": 2}])
    yield client
    client.drop_database(DB)


def assert_nothing_created(client):
    # Both decode strictly (pymongo raises InvalidBSON on invalid UTF-8) and list no bad name.
    names = client[DB].list_collection_names()
    assert sorted(names) == [SRC], names
    for db in client.list_database_names():
        assert "\ufffd" not in db and "\x00" not in db and len(db.encode()) < 64, db
        for c in client[db].list_collection_names():
            assert "\ufffd" not in c and "\x00" not in c, (db, c)
    reply = send({"listCollections": 1, "$db": DB})
    assert reply["ok"] == 1
    reply = send({"listDatabases": 1, "$db": "admin"})
    assert reply["ok"] == 1


@pytest.mark.parametrize("name", BAD_COLLS, ids=repr)
def test_bad_collection_names_refused_everywhere(setup, name):
    for what, cmd in coll_commands(name.text).items():
        reply = send(with_db(cmd, DB), name.patch)
        assert_invalid_namespace(reply, "%s on %r" % (what, name))
    assert_nothing_created(setup)


@pytest.mark.parametrize("name", BAD_COLLS, ids=repr)
def test_bad_rename_target_refused(setup, name):
    cmd = {"renameCollection": DB + "." + SRC, "to": DB + "." + name.text, "$db": "admin"}
    assert_invalid_namespace(send(cmd, name.patch), "renameCollection to %r" % name)
    assert_nothing_created(setup)
    assert setup[DB][SRC].count_documents({}) == 2


@pytest.mark.parametrize("name", BAD_DBS, ids=repr)
def test_bad_db_names_refused_everywhere(setup, name):
    cmds = dict(coll_commands("c"))
    cmds.update({"dbStats": {"dbStats": 1}, "listCollections": {"listCollections": 1},
                 "dropDatabase": {"dropDatabase": 1}, "ping": {"ping": 1}})
    for what, cmd in cmds.items():
        reply = send(with_db(cmd, name.text), name.patch)
        assert_invalid_namespace(reply, "%s in db %r" % (what, name))
    # The other database of $out / renameCollection.
    reply = send({"aggregate": SRC, "pipeline": [{"$out": {"db": name.text, "coll": "c"}}], "cursor": {},
                  "$db": DB}, name.patch)
    assert_invalid_namespace(reply, "$out into db %r" % name)
    reply = send({"renameCollection": DB + "." + SRC, "to": name.text + ".c", "$db": "admin"}, name.patch)
    assert_invalid_namespace(reply, "renameCollection into db %r" % name)
    assert_nothing_created(setup)


def test_limits_are_exact(setup):
    """The longest valid names still work: 63-byte db names and 255-byte namespaces."""
    coll = "c" * (255 - len(DB) - 1)
    assert send({"insert": coll, "documents": [{"a": 1}], "$db": DB})["ok"] == 1
    assert send({"drop": coll, "$db": DB})["ok"] == 1
    db = "d" * 63
    assert send({"insert": "c", "documents": [{"a": 1}], "$db": db})["ok"] == 1
    assert send({"dropDatabase": 1, "$db": db})["ok"] == 1
    # Non-ASCII but valid UTF-8 names are fine.
    assert send({"insert": "caf\u00e9", "documents": [{"a": 1}], "$db": DB})["ok"] == 1
    assert "caf\u00e9" in setup[DB].list_collection_names()
    assert send({"drop": "caf\u00e9", "$db": DB})["ok"] == 1


def test_db_field_of_wrong_type(setup):
    reply = send({"ping": 1, "$db": 5})
    assert reply["ok"] == 0 and reply["code"] == 14, reply  # TypeMismatch


def test_invalid_utf8_command_name_does_not_crash(setup):
    """The command name (a field name) with invalid UTF-8: CommandNotFound, in a reply that
    decodes; and the server keeps serving."""
    raw = {PLACEHOLDER * 3: b"x\xff\xfe"}
    reply = send({PLACEHOLDER * 3: 1, "$db": DB}, raw)
    assert reply["ok"] == 0 and reply["code"] == 59, reply
    # Invalid UTF-8 in the first element's value of a command that takes no namespace.
    reply = send({"ping": PLACEHOLDER * 3, "$db": "admin"}, {PLACEHOLDER * 3: b"\xff\xfe\xfd"})
    assert reply["ok"] in (0, 1)
    assert send({"ping": 1, "$db": "admin"})["ok"] == 1
    assert_nothing_created(setup)


def test_cursor_namespaces_of_commands_still_work(setup):
    """getMore / killCursors on command cursors ("$cmd.listCollections") are not refused."""
    for i in range(3):
        setup[DB]["extra%d" % i].insert_one({})
    reply = send({"listCollections": 1, "cursor": {"batchSize": 1}, "$db": DB})
    cursor = reply["cursor"]
    assert cursor["id"] != 0
    coll = cursor["ns"].split(".", 1)[1]
    assert coll == "$cmd.listCollections"
    more = send({"getMore": cursor["id"], "collection": coll, "batchSize": 1, "$db": DB})
    assert more["ok"] == 1, more
    killed = send({"killCursors": coll, "cursors": [cursor["id"]], "$db": DB})
    assert killed["ok"] == 1 and killed["cursorsKilled"] == [cursor["id"]], killed
    for i in range(3):
        setup[DB].drop_collection("extra%d" % i)


def test_system_collections_are_the_servers(setup):
    """As MongoDB's userAllowedCreateNS: clients cannot create system.* collections other than
    system.js / system.profile (and admin's user and role collections), by any path."""
    if wire.uri_credentials():
        pytest.skip("under --auth even root may not write system.* collections: MongoDB answers Unauthorized "
                    "before it looks at the name")
    for what, cmd in [("create", {"create": "system.foo"}),
                      ("insert", {"insert": "system.foo", "documents": [{}]}),
                      ("upsert", {"update": "system.foo", "updates": [{"q": {}, "u": {"a": 1}, "upsert": True}]}),
                      ("createIndexes", {"createIndexes": "system.foo", "indexes": [{"key": {"a": 1}, "name": "a"}]}),
                      ("$out", {"aggregate": SRC, "pipeline": [{"$out": "system.foo"}], "cursor": {}}),
                      ("$merge", {"aggregate": SRC, "pipeline": [{"$merge": "system.foo"}], "cursor": {}})]:
        reply = send(with_db(cmd, DB))
        assert_invalid_namespace(reply, what)
        assert "system.foo" in reply["errmsg"], reply
    reply = send({"renameCollection": DB + "." + SRC, "to": DB + ".system.foo", "$db": "admin"})
    assert_invalid_namespace(reply, "rename to system.foo")
    assert_nothing_created(setup)
    reply = send({"insert": "system.profile", "documents": [{}], "$db": DB})
    assert_invalid_namespace(reply, "insert into system.profile")
    assert "cannot write to '%s.system.profile'" % DB == reply["errmsg"], reply
    assert send({"create": "system.js", "$db": DB})["ok"] == 1
    assert send({"drop": "system.js", "$db": DB})["ok"] == 1
