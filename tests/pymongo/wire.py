"""Raw MongoDB wire protocol helpers for tests that speak to mongod over a plain socket.
Against a server with access control (MONGODB_URI with user:password@, the pymongo_auth suite),
connect() authenticates the socket first (SCRAM-SHA-256), as a driver would."""
import base64
import hashlib
import hmac
import os
import socket
import struct
import urllib.parse
import zlib

import bson

OP_REPLY = 1
OP_QUERY = 2004
OP_COMPRESSED = 2012
OP_MSG = 2013

_CRC32C_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC32C_TABLE.append(_c)


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC32C_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def header(length, request_id, response_to, opcode):
    return struct.pack("<iiii", length, request_id, response_to, opcode)


def op_msg(doc, request_id=1, flags=0, checksum=False, bad_checksum=False, sequences=()):
    """OP_MSG with one body section (kind 0) and optional document sequences (kind 1)."""
    if checksum:
        flags |= 1
    body = struct.pack("<I", flags) + b"\x00" + bson.encode(doc)
    for ident, docs in sequences:
        payload = ident.encode() + b"\x00" + b"".join(bson.encode(d) for d in docs)
        body += b"\x01" + struct.pack("<i", len(payload) + 4) + payload
    length = 16 + len(body) + (4 if checksum else 0)
    msg = header(length, request_id, 0, OP_MSG) + body
    if checksum:
        crc = crc32c(msg)
        if bad_checksum:
            crc ^= 0xDEADBEEF
        msg += struct.pack("<I", crc)
    return msg


def op_query(collection, query, request_id=1, flags=0, skip=0, n_return=-1):
    body = struct.pack("<i", flags) + collection.encode() + b"\x00" + struct.pack("<ii", skip, n_return) + bson.encode(query)
    return header(16 + len(body), request_id, 0, OP_QUERY) + body


def compress(original_message, compressor_id):
    """Wraps a complete message (header included) in OP_COMPRESSED."""
    _, request_id, response_to, opcode = struct.unpack("<iiii", original_message[:16])
    payload = original_message[16:]
    if compressor_id == 0:
        data = payload
    elif compressor_id == 1:
        import snappy
        data = snappy.compress(payload)
    elif compressor_id == 2:
        data = zlib.compress(payload)
    elif compressor_id == 3:
        import zstandard
        data = zstandard.ZstdCompressor().compress(payload)
    else:
        raise ValueError(compressor_id)
    body = struct.pack("<iiB", opcode, len(payload), compressor_id) + data
    return header(16 + len(body), request_id, response_to, OP_COMPRESSED) + body


def decompress(opcode_and_body):
    orig_opcode, size, cid = struct.unpack("<iiB", opcode_and_body[:9])
    data = opcode_and_body[9:]
    if cid == 0:
        out = data
    elif cid == 1:
        import snappy
        out = snappy.uncompress(data)
    elif cid == 2:
        out = zlib.decompress(data)
    elif cid == 3:
        import zstandard
        out = zstandard.ZstdDecompressor().decompress(data, max_output_size=size)
    else:
        raise ValueError("unknown compressor %d" % cid)
    assert len(out) == size, "uncompressedSize mismatch"
    return orig_opcode, out, cid


class Closed(Exception):
    pass


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise Closed("connection closed after %d of %d bytes" % (len(buf), n))
        buf += chunk
    return buf


def read_reply(sock):
    """Reads one message; returns (opcode, document, response_to, compressor_id or None)."""
    hdr = recv_exact(sock, 16)
    length, _, response_to, opcode = struct.unpack("<iiii", hdr)
    assert 16 <= length <= 48 * 1000 * 1000, "bad reply length %d" % length
    body = recv_exact(sock, length - 16)
    cid = None
    if opcode == OP_COMPRESSED:
        opcode, body, cid = decompress(body)
    if opcode == OP_MSG:
        flags = struct.unpack("<I", body[:4])[0]
        assert body[4] == 0, "reply must start with a body section"
        doc_len = struct.unpack("<i", body[5:9])[0]
        doc = bson.decode(body[5:5 + doc_len])
        if flags & 1 and cid is None:
            assert crc32c(hdr + body[:-4]) == struct.unpack("<I", body[-4:])[0], "bad checksum on the reply"
        return opcode, doc, response_to, cid
    if opcode == OP_REPLY:
        # responseFlags(4) cursorID(8) startingFrom(4) numberReturned(4) documents
        n = struct.unpack("<i", body[16:20])[0]
        docs = bson.decode_all(body[20:]) if n else []
        return opcode, (docs[0] if docs else None), response_to, cid
    raise AssertionError("unexpected reply opcode %d" % opcode)


def uri_credentials(uri=None):
    """(user, password, authSource) of MONGODB_URI, or None without credentials."""
    uri = uri if uri is not None else os.environ.get("MONGODB_URI", "")
    parts = urllib.parse.urlsplit(uri)
    if not parts.username:
        return None
    source = urllib.parse.parse_qs(parts.query).get("authSource", ["admin"])[0]
    return urllib.parse.unquote(parts.username), urllib.parse.unquote(parts.password or ""), source


def scram_sha256(sock, user, password, source="admin"):
    """Authenticates sock as user (RFC 7677, MongoDB's saslStart/saslContinue; ASCII passwords)."""
    nonce = base64.b64encode(os.urandom(24)).decode()
    first_bare = "n=%s,r=%s" % (user.replace("=", "=3D").replace(",", "=2C"), nonce)
    _, reply, _, _ = command(sock, {"saslStart": 1, "mechanism": "SCRAM-SHA-256", "$db": source,
                                    "payload": bson.Binary(("n,," + first_bare).encode()),
                                    "options": {"skipEmptyExchange": True}})
    assert reply.get("ok") == 1, reply
    server_first = bytes(reply["payload"]).decode()
    fields = dict(kv.split("=", 1) for kv in server_first.split(","))
    assert fields["r"].startswith(nonce), server_first
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), base64.b64decode(fields["s"]), int(fields["i"]))
    client_key = hmac.digest(salted, b"Client Key", "sha256")
    without_proof = "c=biws,r=" + fields["r"]
    auth_message = ",".join([first_bare, server_first, without_proof]).encode()
    signature = hmac.digest(hashlib.sha256(client_key).digest(), auth_message, "sha256")
    proof = base64.b64encode(bytes(a ^ b for a, b in zip(client_key, signature))).decode()
    _, reply, _, _ = command(sock, {"saslContinue": 1, "conversationId": reply["conversationId"], "$db": source,
                                    "payload": bson.Binary((without_proof + ",p=" + proof).encode())})
    assert reply.get("ok") == 1 and reply.get("done"), reply


def connect(host, port, timeout=10.0, authenticate=True):
    s = socket.create_connection((host, port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    creds = uri_credentials() if authenticate else None
    if creds:
        scram_sha256(s, *creds)
    return s


def command(sock, doc, request_id=1, **kw):
    sock.sendall(op_msg(doc, request_id=request_id, **kw))
    return read_reply(sock)


def expect_error_or_close(sock, timeout=10.0):
    """After a malformed message the server must answer with an error or close the socket.

    Returns ("error", doc) or ("closed", None). A hang (no answer in `timeout`) fails."""
    sock.settimeout(timeout)
    try:
        opcode, doc, _, _ = read_reply(sock)
    except (Closed, ConnectionResetError, BrokenPipeError):
        return "closed", None
    except socket.timeout:
        raise AssertionError("server neither answered nor closed the connection within %ss" % timeout)
    assert doc is not None and doc.get("ok") in (0, 0.0), "expected an error reply, got %r" % (doc,)
    return "error", doc
