"""Versioned documents for dedup tests, and waiting for the dedup work to drain."""
import random
import time

ARTICLES = 16
ARTICLE_BYTES = 6000


def words(rng, n, letters="abcdefghijklmnopqrstuvwxyz", longest=9):
    return " ".join("".join(rng.choice(letters) for _ in range(rng.randint(2, longest))) for _ in range(n))


def history(article, versions, seed, size_words=ARTICLE_BYTES // 6, edits=3):
    """Versions of one article (an int or a name), each `edits` words different from the one
    before."""
    rng = random.Random(seed * 1000 + article if isinstance(article, int) else "%s/%s" % (seed, article))
    text = words(rng, size_words).split(" ")
    out = []
    for v in range(versions):
        for _ in range(edits):
            text[rng.randrange(len(text))] = words(rng, 1)
        out.append({"_id": "a%s-v%d" % (article, v), "article": article, "version": v, "body": " ".join(text)})
    return out


def settled(client):
    s = client.admin.command("serverStatus")["dedup"]
    return s["backlog"]["inserts"] == 0 and s["writeBacks"]["pending"] == 0, s


def wait_settled(client, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        ok, s = settled(client)
        if ok:
            return s
        time.sleep(0.2)
    raise AssertionError("dedup work still queued after %ds: %r" % (timeout, settled(client)[1]))
