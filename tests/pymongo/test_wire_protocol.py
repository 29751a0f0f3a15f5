"""Raw-socket wire protocol tests: well-formed OP_MSG variants (checksums, document
sequences, moreToCome), the legacy OP_QUERY handshake, and malformed messages, after each of
which the server must answer with an error or close the connection, and keep serving others."""
import os
import socket
import struct

import bson
import pytest

import wire
from conftest import host_port

HOST, PORT = host_port()


def connect():
    return wire.connect(HOST, PORT)


def assert_server_alive():
    with connect() as s:
        opcode, doc, _, _ = wire.command(s, {"ping": 1, "$db": "admin"}, request_id=4242)
        assert opcode == wire.OP_MSG
        assert doc["ok"] == 1.0


# --- well-formed messages


def test_op_msg_ping_and_response_to():
    with connect() as s:
        s.sendall(wire.op_msg({"ping": 1, "$db": "admin"}, request_id=777))
        opcode, doc, response_to, _ = wire.read_reply(s)
        assert opcode == wire.OP_MSG
        assert response_to == 777
        assert doc == {"ok": 1.0}


def test_op_msg_with_valid_checksum():
    with connect() as s:
        opcode, doc, _, _ = wire.command(s, {"ping": 1, "$db": "admin"}, checksum=True)
        assert doc["ok"] == 1.0


def test_op_msg_document_sequence_insert():
    with connect() as s:
        wire.command(s, {"drop": "seq", "$db": "pytest_wire"})
        _, doc, _, _ = wire.command(s, {"insert": "seq", "$db": "pytest_wire"},
                                    sequences=[("documents", [{"_id": 1}, {"_id": 2}, {"_id": 3}])])
        assert doc["ok"] == 1.0 and doc["n"] == 3, doc
        _, doc, _, _ = wire.command(s, {"find": "seq", "$db": "pytest_wire", "sort": {"_id": 1}})
        assert [d["_id"] for d in doc["cursor"]["firstBatch"]] == [1, 2, 3]
        # A field given both in the body and as a sequence is an error.
        _, doc, _, _ = wire.command(s, {"insert": "seq", "$db": "pytest_wire", "documents": [{"_id": 9}]},
                                    sequences=[("documents", [{"_id": 10}])])
        assert doc["ok"] == 0.0, doc
        wire.command(s, {"dropDatabase": 1, "$db": "pytest_wire"})


def test_more_to_come_gets_no_reply_and_the_connection_goes_on():
    with connect() as s:
        wire.command(s, {"drop": "mtc", "$db": "pytest_wire"})
        # moreToCome (bit 1) with an unacknowledged write: the server sends nothing back.
        s.sendall(wire.op_msg({"insert": "mtc", "$db": "pytest_wire", "documents": [{"_id": 1}],
                               "writeConcern": {"w": 0}}, request_id=10, flags=2))
        s.sendall(wire.op_msg({"find": "mtc", "$db": "pytest_wire"}, request_id=11))
        opcode, doc, response_to, _ = wire.read_reply(s)
        assert response_to == 11, "the first reply must answer the find"
        assert [d["_id"] for d in doc["cursor"]["firstBatch"]] == [1]
        wire.command(s, {"dropDatabase": 1, "$db": "pytest_wire"})


def test_missing_db_field_is_an_error():
    with connect() as s:
        _, doc, _, _ = wire.command(s, {"ping": 1})
        assert doc["ok"] == 0.0
        assert doc["code"] == 40571 or doc["code"] in (2, 9, 40414), doc
    assert_server_alive()


def test_op_query_handshake():
    for name in ("isMaster", "ismaster", "hello"):
        with connect() as s:
            s.sendall(wire.op_query("admin.$cmd", {name: 1, "helloOk": True}, request_id=5))
            opcode, doc, response_to, _ = wire.read_reply(s)
            assert opcode == wire.OP_REPLY
            assert response_to == 5
            assert doc["ok"] == 1.0
            assert doc["maxWireVersion"] == 21
            assert doc["maxBsonObjectSize"] == 16 * 1024 * 1024
            if name == "hello":
                assert doc["isWritablePrimary"] is True
            else:
                assert doc["ismaster"] is True
            # The same connection then speaks OP_MSG.
            _, d2, _, _ = wire.command(s, {"ping": 1, "$db": "admin"})
            assert d2["ok"] == 1.0


def test_op_query_other_commands_are_refused():
    with connect() as s:
        s.sendall(wire.op_query("admin.$cmd", {"ping": 1}, request_id=6))
        _op_query_error(s)
    assert_server_alive()


def _op_query_error(s):
    s.settimeout(10)
    try:
        opcode, doc, _, _ = wire.read_reply(s)
    except (wire.Closed, ConnectionResetError):
        return "closed", None
    assert doc is not None
    assert doc.get("ok") in (0, 0.0) or "$err" in doc, doc
    return "error", doc


def test_handshake_negotiates_compressors_in_client_order():
    with connect() as s:
        _, doc, _, _ = wire.command(s, {"hello": 1, "$db": "admin", "compression": ["zstd", "zlib", "snappy", "bogus"]})
        assert doc["ok"] == 1.0
        assert doc["compression"] == ["zstd", "zlib", "snappy"], doc.get("compression")


@pytest.mark.parametrize("cid", [0, 1, 2, 3])
def test_op_compressed_request_gets_an_answer(cid):
    names = {1: "snappy", 2: "zlib", 3: "zstd"}
    with connect() as s:
        wire.command(s, {"hello": 1, "$db": "admin", "compression": ["snappy", "zlib", "zstd"]})
        s.sendall(wire.compress(wire.op_msg({"ping": 1, "$db": "admin"}, request_id=21), cid))
        opcode, doc, response_to, reply_cid = wire.read_reply(s)
        assert opcode == wire.OP_MSG and response_to == 21
        assert doc["ok"] == 1.0
        if cid in names:
            assert reply_cid == cid, "the reply is compressed with the request's compressor"


# --- malformed messages


def _send_raw_and_check(data, allow_error_reply=True):
    with connect() as s:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        kind, doc = wire.expect_error_or_close(s)
        if not allow_error_reply:
            assert kind == "closed", "expected the connection to be closed, got %r" % (doc,)
    assert_server_alive()


def test_length_smaller_than_header():
    _send_raw_and_check(struct.pack("<iiii", 8, 1, 0, wire.OP_MSG), allow_error_reply=False)


def test_negative_length():
    _send_raw_and_check(struct.pack("<iiii", -100, 1, 0, wire.OP_MSG), allow_error_reply=False)


def test_declared_length_above_48mb_is_refused_without_reading_it():
    _send_raw_and_check(struct.pack("<iiii", 64 * 1024 * 1024, 1, 0, wire.OP_MSG) + b"\x00" * 64,
                        allow_error_reply=False)


def test_unknown_opcode():
    body = b"\x00" * 20
    _send_raw_and_check(wire.header(16 + len(body), 1, 0, 9999) + body)


def test_removed_legacy_opcode_op_insert():
    # OP_INSERT has no reply; mongod 6.0+ logs and ignores it. The write must not happen and
    # the server must stay up.
    body = struct.pack("<i", 0) + b"pytest_wire.legacy\x00" + bson.encode({"a": 1})
    with connect() as s:
        s.sendall(wire.header(16 + len(body), 1, 0, 2002) + body)
        _, reply, _, _ = wire.command(s, {"count": "legacy", "$db": "pytest_wire"})
        assert reply["ok"] == 1.0 and reply["n"] == 0
    assert_server_alive()


def test_truncated_op_msg_without_body():
    body = struct.pack("<I", 0)  # flags only, no section
    _send_raw_and_check(wire.header(16 + len(body), 1, 0, wire.OP_MSG) + body)


def test_truncated_op_msg_document_cut_short():
    full = wire.op_msg({"ping": 1, "$db": "admin"})
    cut = full[:-5]
    # Fix the declared length so the message is complete but its document is cut.
    cut = struct.pack("<i", len(cut)) + cut[4:]
    _send_raw_and_check(cut)


def test_invalid_bson_inside_op_msg():
    doc = bytearray(bson.encode({"ping": 1, "$db": "admin"}))
    doc[4] = 0x7F  # an element type that does not exist
    body = struct.pack("<I", 0) + b"\x00" + bytes(doc)
    _send_raw_and_check(wire.header(16 + len(body), 1, 0, wire.OP_MSG) + body)


def test_bson_length_larger_than_section():
    doc = bytearray(bson.encode({"ping": 1, "$db": "admin"}))
    doc[0:4] = struct.pack("<i", len(doc) + 100)
    body = struct.pack("<I", 0) + b"\x00" + bytes(doc)
    _send_raw_and_check(wire.header(16 + len(body), 1, 0, wire.OP_MSG) + body)


def test_wrong_checksum():
    _send_raw_and_check(wire.op_msg({"ping": 1, "$db": "admin"}, checksum=True, bad_checksum=True))


def test_unknown_section_kind():
    body = struct.pack("<I", 0) + b"\x00" + bson.encode({"ping": 1, "$db": "admin"}) + b"\x05" + b"\x00" * 8
    _send_raw_and_check(wire.header(16 + len(body), 1, 0, wire.OP_MSG) + body)


def test_two_body_sections():
    d = bson.encode({"ping": 1, "$db": "admin"})
    body = struct.pack("<I", 0) + b"\x00" + d + b"\x00" + d
    _send_raw_and_check(wire.header(16 + len(body), 1, 0, wire.OP_MSG) + body)


def test_unknown_required_flag_bit():
    _send_raw_and_check(wire.op_msg({"ping": 1, "$db": "admin"}, flags=1 << 4))


def test_op_compressed_unknown_compressor():
    inner = wire.op_msg({"ping": 1, "$db": "admin"})
    body = struct.pack("<iiB", wire.OP_MSG, len(inner) - 16, 99) + inner[16:]
    _send_raw_and_check(wire.header(16 + len(body), 1, 0, wire.OP_COMPRESSED) + body)


def test_op_compressed_wrong_uncompressed_size():
    msg = bytearray(wire.compress(wire.op_msg({"ping": 1, "$db": "admin"}), 2))
    msg[20:24] = struct.pack("<i", 1000)
    _send_raw_and_check(bytes(msg))


def test_op_compressed_corrupt_payload():
    msg = wire.compress(wire.op_msg({"ping": 1, "$db": "admin"}), 3)
    corrupt = msg[:25] + bytes(b ^ 0x5A for b in msg[25:])
    _send_raw_and_check(corrupt)


def test_random_garbage():
    rnd = os.urandom(4096)
    # A plausible length so the server reads the whole thing as one message.
    _send_raw_and_check(struct.pack("<i", 4096) + rnd[4:])


def test_client_closing_mid_message_does_not_hurt_the_server():
    s = connect()
    s.sendall(struct.pack("<iiii", 1000, 1, 0, wire.OP_MSG) + b"\x00" * 100)
    s.close()
    assert_server_alive()


def test_many_malformed_connections_in_a_row():
    for i in range(50):
        with connect() as s:
            s.sendall(struct.pack("<iiii", 17 + i, i, 0, 1000 + i) + b"\xff" * (1 + i))
            try:
                s.settimeout(2)
                s.recv(1)
            except (socket.timeout, ConnectionResetError):
                pass
    assert_server_alive()
