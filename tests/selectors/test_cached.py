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


def race(first, second) -> None:
    """``first()`` started, then ``second()`` while the first computes: the second must still
    be waiting 0.2 s later, until ``first`` is let finish (``first.release``)."""
    one = threading.Thread(target=first)
    one.start()
    assert first.started.wait(5)
    other = threading.Thread(target=second)
    other.start()
    other.join(0.2)
    assert other.is_alive()  # waiting for the first reader's value
    first.release.set()
    one.join(5)
    other.join(5)


def slow_reader(results: dict, name: str, key: str, compute, **lock):
    """A reader of ``key`` whose ``compute`` waits for ``release`` once ``started``."""

    def read():
        results[name] = lookups.cached(key, compute, **lock)

    read.started, read.release = threading.Event(), threading.Event()
    return read


def test_two_readers_at_once_compute_once():
    """The second reader, arriving while the first computes, waits for its value."""
    computed = []
    results = {}

    def slow():
        computed.append("first")
        first.started.set()
        assert first.release.wait(5)
        return "the standings"

    def second():
        computed.append("second")
        return "computed twice"

    first = slow_reader(results, "a", "mcr:test:sf", slow)
    race(first, lambda: results.update(b=lookups.cached("mcr:test:sf", second)))
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


def test_keys_that_share_a_lock_wait_for_each_others_computation():
    """Two values of one computation (the standings and the rank history): a reader of the
    second, arriving while the first is computed, waits and reads what it kept."""
    computed = []
    results = {}
    lock = {"lock": "mcr:test:pair:lock"}

    def both():
        computed.append("both")
        first.started.set()
        assert first.release.wait(5)
        cache.set("mcr:test:second", "the rank history")
        return "the standings"

    def second_alone():
        computed.append("second alone")
        return "computed twice"

    first = slow_reader(results, "a", "mcr:test:first", both, **lock)
    race(first, slow_reader(results, "b", "mcr:test:second", second_alone, **lock))
    assert results == {"a": "the standings", "b": "the rank history"}
    assert computed == ["both"]
    assert cache.get("mcr:test:pair:lock") is None
