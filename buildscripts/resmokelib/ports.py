"""Free ports for test servers, reserved across processes (lock files)."""

import fcntl
import os
import socket
import tempfile
import threading


def port_is_free(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


_port_lock = threading.Lock()
# Ports are reserved across processes in blocks of PORT_BLOCK: a block is this process's while it
# holds an exclusive lock on its file in PORT_LOCK_DIR (released when the process exits). Without
# it two runs on one machine (a CI run and a developer's) could hand out overlapping ranges: a
# test's member killed on purpose frees its port, another run's test takes it, and the first
# test then talks to a server of another set.
PORT_BLOCK = 100
PORT_LOCK_DIR = os.path.join(tempfile.gettempdir(), "mongo-dedup-test-ports")
_blocks = []          # (lock file, first port) of the blocks this process holds
_next_port = [None]   # next port to hand out in the newest block
_block_end = [None]


def _port_range():
    """Test ports lie below the kernel's ephemeral range (32768-60999 on Linux): a port handed to
    a test stays free until the test starts a server on it, and meanwhile any outgoing connection
    (a driver's, a member's) may be given it as its local port; the server then fails to start
    with "Address already in use" (seen in CI on a member restarted late in a test)."""
    low, high = 10000, 60000
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            first = int(f.read().split()[0])
        if first - low >= 50 * PORT_BLOCK:
            high = first
    except (OSError, ValueError, IndexError):
        pass
    return low, high - (high - low) % PORT_BLOCK


def _lock_next_block():
    """Locks the next block no other process holds, from a pid-based start; returns its first port."""
    os.makedirs(PORT_LOCK_DIR, exist_ok=True)
    low, high = _port_range()
    blocks = (high - low) // PORT_BLOCK
    start = _blocks[-1][1] + PORT_BLOCK if _blocks else low + (os.getpid() % blocks) * PORT_BLOCK
    for i in range(blocks):
        base = low + (start - low + i * PORT_BLOCK) % (high - low)
        f = open(os.path.join(PORT_LOCK_DIR, "block-%d.lock" % base), "a")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            continue
        _blocks.append((f, base))
        return base
    raise RuntimeError("no free block of %d test ports left" % PORT_BLOCK)


def allocate_ports(count):
    """Returns the first of `count` (at most PORT_BLOCK) consecutive ports that are free right now
    and reserved for this process (see PORT_BLOCK).

    Ports are handed out monotonically within this process so concurrent suites and the
    port ranges given to tests never overlap."""
    assert count <= PORT_BLOCK
    with _port_lock:
        while True:
            if _next_port[0] is None or _next_port[0] + count > _block_end[0]:
                _next_port[0] = _lock_next_block()
                _block_end[0] = _next_port[0] + PORT_BLOCK
            base = _next_port[0]
            _next_port[0] += count
            if all(port_is_free(p) for p in range(base, base + count)):
                return base
