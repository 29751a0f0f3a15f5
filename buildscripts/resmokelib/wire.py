"""A minimal OP_MSG client for readiness probes (no driver needed)."""

import socket
import struct


def encode_cstring(s):
    return s.encode() + b"\x00"


def encode_bson(doc):
    """Minimal BSON encoder for the readiness probe: str, int and nested dict values."""
    body = b""
    for k, v in doc.items():
        if isinstance(v, bool):
            body += b"\x08" + encode_cstring(k) + (b"\x01" if v else b"\x00")
        elif isinstance(v, int):
            body += b"\x10" + encode_cstring(k) + struct.pack("<i", v)
        elif isinstance(v, str):
            raw = v.encode()
            body += b"\x02" + encode_cstring(k) + struct.pack("<i", len(raw) + 1) + raw + b"\x00"
        elif isinstance(v, dict):
            body += b"\x03" + encode_cstring(k) + encode_bson(v)
        elif isinstance(v, list):
            body += b"\x04" + encode_cstring(k) + encode_bson({str(i): x for i, x in enumerate(v)})
        else:
            raise TypeError("unsupported type in probe document")
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


def ping(port, timeout=2.0):
    """Sends OP_MSG {ping: 1, $db: "admin"}; True when a reply with ok: 1 comes back."""
    return command_ok(port, {"ping": 1, "$db": "admin"}, timeout)


def command_ok(port, doc, timeout=2.0):
    """Sends one OP_MSG command; True when a reply with ok: 1 comes back."""
    msg_body = struct.pack("<I", 0) + b"\x00" + encode_bson(doc)
    header = struct.pack("<iiii", 16 + len(msg_body), 1, 0, 2013)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(header + msg_body)
            hdr = b""
            while len(hdr) < 16:
                chunk = s.recv(16 - len(hdr))
                if not chunk:
                    return False
                hdr += chunk
            length, _, _, opcode = struct.unpack("<iiii", hdr)
            if length < 16 or length > 48 * 1024 * 1024:
                return False
            rest = b""
            while len(rest) < length - 16:
                chunk = s.recv(length - 16 - len(rest))
                if not chunk:
                    return False
                rest += chunk
            if opcode == 2012:  # OP_COMPRESSED: the server never compresses unasked
                return False
            # OP_MSG: flags(4) kind(1) document.  Look for "ok" as a double 1.0 or int 1.
            return (b"\x01ok\x00" + struct.pack("<d", 1.0)) in rest or \
                (b"\x10ok\x00" + struct.pack("<i", 1)) in rest
    except OSError:
        return False
