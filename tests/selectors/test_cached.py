"""``lookups.cached``: a value computed once per key, by one reader at a time (the single
flight), the others waiting for it."""

import threading

import pytest
from django.core.cache import cache

from tournament.selectors import lookups


def test_a_value_is_computed_once_then_read_from_the_cache():
    computed = []

    def compute():
        computed.append(1)
        return {"rows": [1, 2, 3]}

    assert lookups.cached("mcr:test:one", compute) == {"rows": [1, 2, 3]}
    assert lookups.cached("mcr:test:one", compute) == {"rows": [1, 2, 3]}
    assert len(computed) == 1


def test_none_is_a_value_too():
    computed = []

    def compute():
        computed.append(1)

    assert lookups.cached("mcr:test:none", compute) is None
    assert lookups.cached("mcr:test:none", compute) is None
    assert len(computed) == 1


def test_two_readers_at_once_compute_once():
    """The second reader, arriving while the first computes, waits for its value."""
    started, release = threading.Event(), threading.Event()
    computed = []
    results = {}

    def slow():
        computed.append("first")
        started.set()
        assert release.wait(5)
        return "the standings"

    def second():
        computed.append("second")
        return "computed twice"

    first = threading.Thread(target=lambda: results.update(a=lookups.cached("mcr:test:sf", slow)))
    first.start()
    assert started.wait(5)
    other = threading.Thread(target=lambda: results.update(b=lookups.cached("mcr:test:sf", second)))
    other.start()
    other.join(0.2)
    assert other.is_alive()  # waiting for the first reader's value
    release.set()
    first.join(5)
    other.join(5)
    assert results == {"a": "the standings", "b": "the standings"}
    assert computed == ["first"]
    assert cache.get("mcr:test:sf:lock") is None


def test_a_reader_waits_only_so_long_for_a_lock_never_released(monkeypatch):
    monkeypatch.setattr(lookups, "WAIT_SECONDS", 0.1)
    cache.add("mcr:test:stuck:lock", 1, 30)  # a reader that died while computing
    assert lookups.cached("mcr:test:stuck", lambda: "computed here") == "computed here"
    assert cache.get("mcr:test:stuck") == "computed here"


def test_a_computation_that_fails_releases_the_lock():
    def broken():
        raise ConnectionError("the database went away")

    with pytest.raises(ConnectionError):
        lookups.cached("mcr:test:broken", broken)
    assert cache.get("mcr:test:broken:lock") is None
    assert lookups.cached("mcr:test:broken", lambda: "read") == "read"
