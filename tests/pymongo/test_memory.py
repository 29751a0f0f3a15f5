"""The allocator as the server reports and tunes it: serverStatus().tcmalloc, buildInfo.allocator,
the tcmalloc* parameters, and freed memory going back to the system (the releaser thread).
The load that measures RSS is buildscripts/bench/memory/memload.py, too slow for a test."""
import time

import pymongo
import pytest

MB = 1 << 20


def tcmalloc(client):
    return client.admin.command("serverStatus")["tcmalloc"]


@pytest.fixture
def on_tcmalloc(client):
    if client.admin.command("buildInfo")["allocator"] != "tcmalloc":
        pytest.skip("server built with allocator=system")


def test_server_status_section(client, on_tcmalloc):
    st = client.admin.command("serverStatus")
    generic, t = st["tcmalloc"]["generic"], st["tcmalloc"]["tcmalloc"]
    assert 0 < generic["current_allocated_bytes"] <= generic["heap_size"]
    for field in ("pageheap_free_bytes", "pageheap_unmapped_bytes", "max_total_thread_cache_bytes",
                  "current_total_thread_cache_bytes", "total_free_bytes", "central_cache_free_bytes",
                  "transfer_cache_free_bytes", "thread_cache_free_bytes", "aggressive_memory_decommit",
                  "pageheap_committed_bytes", "pageheap_scavenge_count", "pageheap_commit_count",
                  "pageheap_total_commit_bytes", "pageheap_decommit_count",
                  "pageheap_total_decommit_bytes", "pageheap_reserve_count",
                  "pageheap_total_reserve_bytes"):
        assert isinstance(t[field], int), field
    assert isinstance(t["release_rate"], float)
    assert "Bytes in use by application" in t["formattedString"]
    # Like any default section, it can be left out.
    assert "tcmalloc" not in client.admin.command("serverStatus", tcmalloc=0)


def test_parameters(client, on_tcmalloc):
    admin = client.admin
    assert admin.command("getParameter", 1, tcmallocReleaseRate=1)["tcmallocReleaseRate"] == 1.0
    try:
        r = admin.command("setParameter", 1, tcmallocReleaseRate=4.0)
        assert r["was"] == 1.0
        assert tcmalloc(client)["tcmalloc"]["release_rate"] == 4.0
        for bad in (10.5, -1):
            with pytest.raises(pymongo.errors.OperationFailure) as e:
                admin.command("setParameter", 1, tcmallocReleaseRate=bad)
            assert e.value.code == 2
    finally:
        admin.command("setParameter", 1, tcmallocReleaseRate=1.0)

    cache = admin.command("getParameter", 1, tcmallocMaxTotalThreadCacheBytes=1)["tcmallocMaxTotalThreadCacheBytes"]
    assert cache == tcmalloc(client)["tcmalloc"]["max_total_thread_cache_bytes"]
    decommit = admin.command("getParameter", 1, tcmallocAggressiveMemoryDecommit=1)
    assert decommit["tcmallocAggressiveMemoryDecommit"] == 0
    with pytest.raises(pymongo.errors.OperationFailure) as e:
        admin.command("setParameter", 1, tcmallocAggressiveMemoryDecommit=2)
    assert e.value.code == 2


def test_freed_memory_goes_back_to_the_system(client, db, on_tcmalloc):
    admin = client.admin
    # Rate 10: memory that stays free for 1 s is released (10 s at the default rate 1).
    admin.command("setParameter", 1, tcmallocReleaseRate=10.0)
    try:
        before = tcmalloc(client)["tcmalloc"]["pageheap_total_decommit_bytes"]
        # 8 MB documents pass through the server's message buffers and are freed again.
        blob = "x" * (8 * MB)
        for i in range(6):
            db.big.insert_one({"_id": i, "blob": blob})
        db.big.drop()
        deadline = time.time() + 20
        while True:
            t = tcmalloc(client)["tcmalloc"]
            released = t["pageheap_total_decommit_bytes"] - before
            if released >= 16 * MB or time.time() > deadline:
                break
            time.sleep(0.5)
        assert released >= 16 * MB, t
    finally:
        admin.command("setParameter", 1, tcmallocReleaseRate=1.0)


def test_build_info_names_the_allocator(client):
    assert client.admin.command("buildInfo")["allocator"] in ("tcmalloc", "system")
