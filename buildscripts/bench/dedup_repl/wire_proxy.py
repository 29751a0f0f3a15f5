"""A counting TCP proxy between replica-set members: the bytes they send each other, counted on
the wire (after OP_COMPRESSED, if the members negotiated it).

Each member gets a proxy port; the set's config names the proxy ports, so every connection one
member opens to another (oplog fetching, heartbeats, elections) goes through a proxy, while the
benchmark's clients connect to the members' own ports and are not counted. The proxy runs in its
own process (asyncio), so it does not compete with the load threads for the GIL.
"""
import asyncio
import multiprocessing
import socket


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _pipe(reader, writer, counts, slot):
    try:
        while True:
            data = await reader.read(1 << 16)
            if not data:
                break
            counts[slot] += len(data)
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        try:
            writer.close()
        except Exception:
            pass


def _serve(listen_ports, target_ports, counts, ready):
    async def main():
        servers = []
        for i, (lp, tp) in enumerate(zip(listen_ports, target_ports)):
            async def handle(r, w, i=i, tp=tp):
                try:
                    tr, tw = await asyncio.open_connection("127.0.0.1", tp)
                except OSError:
                    w.close()
                    return
                # counts[2i]: bytes to member i (requests), counts[2i+1]: bytes from it (replies).
                await asyncio.gather(_pipe(r, tw, counts, 2 * i), _pipe(tr, w, counts, 2 * i + 1))
            servers.append(await asyncio.start_server(handle, "127.0.0.1", lp))
        ready.set()
        await asyncio.Event().wait()
    asyncio.run(main())


class CountingProxy:
    def __init__(self, target_ports):
        self.target_ports = list(target_ports)
        self.listen_ports = [free_port() for _ in self.target_ports]
        self.counts = multiprocessing.Array("q", 2 * len(self.target_ports), lock=False)
        self._ready = multiprocessing.Event()
        self._proc = multiprocessing.Process(target=_serve, daemon=True,
                                             args=(self.listen_ports, self.target_ports, self.counts, self._ready))

    def start(self):
        self._proc.start()
        if not self._ready.wait(30):
            raise RuntimeError("the counting proxy did not start")

    def stop(self):
        self._proc.terminate()
        self._proc.join(10)

    def total(self):
        """Bytes sent between members so far, both directions."""
        return sum(self.counts[:])

    def per_member(self):
        """[(bytes to member i, bytes from member i)] through its proxy."""
        c = self.counts[:]
        return [(c[2 * i], c[2 * i + 1]) for i in range(len(self.target_ports))]
