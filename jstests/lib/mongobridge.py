#!/usr/bin/env python3
"""A TCP proxy in front of one replica-set member, so that tests can cut the links between
members (a small cousin of MongoDB's mongobridge; jstests/lib/replsettest.js starts one per
member with `useBridge: true` and names the bridges, not the members, in the set's config).

    mongobridge.py --port <listen> --dest <host:port of the member> [--log <file>]

Who is calling: a member's connections to other members name it in their handshake, the first
message on every connection (src/mongo/db/repl/remote_client.cpp: client.application.name is
"replication hostInfo=<host>:<port>", the address the calling member listens on). Connections
that name no member (shells, drivers, the test itself) are never interfered with. Members are
told apart by port (every member of a test runs on this machine).

Commands (OP_MSG, sent to the bridge's port on any connection, answered by the bridge itself;
the names and fields are mongobridge's):
    {rejectConnectionsFrom: 1, host: "h:p"}  close every connection from that member, now and
                                             whenever it connects again
    {acceptConnectionsFrom: 1, host: "h:p"}  undo reject (and discard/delay)
    {delayMessagesFrom: 1, host: "h:p", delay: <ms>}   hold each of its messages that long
    {discardMessagesFrom: 1, host: "h:p", loss: <0..1>} drop that fraction of its messages
Replies are {ok: 1}, or {ok: 0, code: 2 (BadValue), errmsg} for a malformed command.
"""

import argparse
import random
import re
import socket
import struct
import sys
import threading
import time

OP_MSG = 2013
BRIDGE_COMMANDS = ("rejectConnectionsFrom", "acceptConnectionsFrom", "delayMessagesFrom", "discardMessagesFrom")
HOST_INFO = re.compile(rb"replication hostInfo=([^\x00]+)\x00")


class Rules:
    """Per calling member (by port): reject, delay in ms, loss fraction. Thread safe."""

    def __init__(self):
        self.lock = threading.Lock()
        self.by_port = {}

    def set(self, port, **kw):
        with self.lock:
            r = self.by_port.setdefault(port, {"reject": False, "delay": 0, "loss": 0.0})
            r.update(kw)

    def clear(self, port):
        with self.lock:
            self.by_port.pop(port, None)

    def get(self, port):
        with self.lock:
            r = self.by_port.get(port)
            return dict(r) if r else None


def port_of(host):
    try:
        return int(str(host).rsplit(":", 1)[1])
    except (IndexError, ValueError):
        return None


# --- just enough BSON: top-level fields of a command, and small replies ---

def _cstring(buf, i):
    j = buf.index(b"\x00", i)
    return buf[i:j].decode("utf-8", "replace"), j + 1


FIXED = {0x01: 8, 0x07: 12, 0x08: 1, 0x09: 8, 0x0A: 0, 0x10: 4, 0x11: 8, 0x12: 8, 0x13: 16, 0x7F: 0, 0xFF: 0}


def decode_top(doc):
    """{name: value} of a BSON document's top-level scalars (nested values are skipped)."""
    out = {}
    end = struct.unpack_from("<i", doc, 0)[0] - 1
    i = 4
    while i < end:
        t = doc[i]
        name, i = _cstring(doc, i + 1)
        if t == 0x01:
            out[name] = struct.unpack_from("<d", doc, i)[0]
        elif t == 0x10:
            out[name] = struct.unpack_from("<i", doc, i)[0]
        elif t == 0x12:
            out[name] = struct.unpack_from("<q", doc, i)[0]
        elif t == 0x08:
            out[name] = doc[i] != 0
        elif t == 0x02:
            n = struct.unpack_from("<i", doc, i)[0]
            out[name] = doc[i + 4:i + 3 + n].decode("utf-8", "replace")
        if t in FIXED:
            i += FIXED[t]
        elif t in (0x02, 0x0D, 0x0E):
            i += 4 + struct.unpack_from("<i", doc, i)[0]
        elif t in (0x03, 0x04, 0x0F):
            i += struct.unpack_from("<i", doc, i)[0]
        elif t == 0x05:
            i += 5 + struct.unpack_from("<i", doc, i)[0]
        elif t == 0x0B:
            _, i = _cstring(doc, i)
            _, i = _cstring(doc, i)
        elif t == 0x0C:
            i += 4 + struct.unpack_from("<i", doc, i)[0] + 12
        else:
            raise ValueError("BSON type %d" % t)
    return out


def encode(fields):
    body = b""
    for k, v in fields:
        key = k.encode() + b"\x00"
        if isinstance(v, float):
            body += b"\x01" + key + struct.pack("<d", v)
        elif isinstance(v, int):
            body += b"\x10" + key + struct.pack("<i", v)
        else:
            s = str(v).encode() + b"\x00"
            body += b"\x02" + key + struct.pack("<i", len(s)) + s
    return struct.pack("<i", len(body) + 5) + body + b"\x00"


def op_msg_command(msg):
    """The body of an OP_MSG whose first section is the body, or None."""
    if len(msg) < 26 or struct.unpack_from("<i", msg, 12)[0] != OP_MSG or msg[20] != 0:
        return None
    n = struct.unpack_from("<i", msg, 21)[0]
    return msg[21:21 + n]


def first_key(doc):
    if len(doc) < 6 or doc[4] == 0:
        return None
    try:
        return _cstring(doc, 5)[0]
    except ValueError:
        return None


def reply(request, fields):
    doc = encode(fields)
    request_id = struct.unpack_from("<i", request, 4)[0]
    payload = struct.pack("<I", 0) + b"\x00" + doc
    return struct.pack("<iiii", 16 + len(payload), random.randint(1, 2 ** 31 - 1), request_id, OP_MSG) + payload


class Bridge:
    def __init__(self, port, dest, log):
        self.port = port
        self.dest_host, dest_port = dest.rsplit(":", 1)
        self.dest_port = int(dest_port)
        self.rules = Rules()
        self.log_file = log
        self.log_lock = threading.Lock()

    def log(self, text):
        with self.log_lock:
            self.log_file.write("%.3f %s\n" % (time.time(), text))
            self.log_file.flush()

    def run_command(self, name, args):
        port = port_of(args.get("host"))
        if port is None:
            return [("ok", 0.0), ("errmsg", "%s needs host: \"<host>:<port>\"" % name), ("code", 2),
                    ("codeName", "BadValue")]
        if name == "rejectConnectionsFrom":
            self.rules.set(port, reject=True)
        elif name == "acceptConnectionsFrom":
            self.rules.clear(port)
        elif name == "delayMessagesFrom":
            delay = args.get("delay")
            if not isinstance(delay, (int, float)) or delay < 0:
                return [("ok", 0.0), ("errmsg", "delay must be a number of milliseconds >= 0"), ("code", 2),
                        ("codeName", "BadValue")]
            self.rules.set(port, delay=int(delay))
        elif name == "discardMessagesFrom":
            loss = args.get("loss")
            if not isinstance(loss, (int, float)) or not 0 <= loss <= 1:
                return [("ok", 0.0), ("errmsg", "loss must be a number in [0, 1]"), ("code", 2),
                        ("codeName", "BadValue")]
            self.rules.set(port, loss=float(loss))
        self.log("%s %s" % (name, args))
        return [("ok", 1.0)]

    def serve(self):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        self.log("listening on %d, forwarding to %s:%d" % (self.port, self.dest_host, self.dest_port))
        while True:
            client, _ = listener.accept()
            threading.Thread(target=self.handle, args=(client,), daemon=True).start()

    def handle(self, client):
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            server = socket.create_connection((self.dest_host, self.dest_port), timeout=5)
            server.settimeout(None)
            server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            client.close()  # the member is down: the caller sees its connection closed
            return
        conn = {"client": client, "server": server, "caller": None, "closed": False, "lock": threading.Lock()}
        threading.Thread(target=self.pump_replies, args=(conn,), daemon=True).start()
        self.pump_requests(conn)

    def close(self, conn):
        with conn["lock"]:
            if conn["closed"]:
                return
            conn["closed"] = True
        for s in (conn["client"], conn["server"]):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    @staticmethod
    def read_exact(sock, n):
        buf = bytearray()
        while len(buf) < n:
            chunk = sock.recv(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return bytes(buf)

    def pump_requests(self, conn):
        client, server = conn["client"], conn["server"]
        first = True
        try:
            while True:
                header = self.read_exact(client, 4)
                if header is None:
                    break
                length = struct.unpack("<i", header)[0]
                if length < 16 or length > 64 * 1024 * 1024:
                    break
                rest = self.read_exact(client, length - 4)
                if rest is None:
                    break
                msg = header + rest
                if first:
                    first = False
                    m = HOST_INFO.search(msg)
                    if m:
                        conn["caller"] = m.group(1).decode("utf-8", "replace")
                body = op_msg_command(msg)
                if body is not None and first_key(body) in BRIDGE_COMMANDS:
                    try:
                        args = decode_top(body)
                        out = self.run_command(first_key(body), args)
                    except (ValueError, struct.error, IndexError) as e:
                        out = [("ok", 0.0), ("errmsg", "bad bridge command: %s" % e), ("code", 2),
                               ("codeName", "BadValue")]
                    client.sendall(reply(msg, out))
                    continue
                rule = self.rules.get(port_of(conn["caller"])) if conn["caller"] else None
                if rule:
                    if rule["reject"]:
                        self.log("closing a connection from %s (rejected)" % conn["caller"])
                        break
                    if rule["loss"] and random.random() < rule["loss"]:
                        continue
                    if rule["delay"]:
                        time.sleep(rule["delay"] / 1000.0)
                server.sendall(msg)
        except OSError:
            pass
        self.close(conn)

    def pump_replies(self, conn):
        try:
            while True:
                data = conn["server"].recv(65536)
                if not data:
                    break
                conn["client"].sendall(data)
        except OSError:
            pass
        self.close(conn)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--dest", required=True)
    ap.add_argument("--log")
    opts = ap.parse_args()
    log = open(opts.log, "a") if opts.log else sys.stderr
    try:
        Bridge(opts.port, opts.dest, log).serve()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
