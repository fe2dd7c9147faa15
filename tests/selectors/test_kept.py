"""What a process keeps in memory (``lookups.kept``): one version of each kind, computed once
per version, the least recently used kinds dropped past the bound. No database."""

from tournament.selectors import lookups


def counting(value):
    calls = []

    def compute():
        calls.append(value)
        return value

    return compute, calls


def test_a_version_is_computed_once_and_a_new_one_replaces_it():
    lookups.forget_kept()
    first, first_calls = counting("figures v1")
    assert lookups.kept("figures:7", "1-abc", first) == "figures v1"
    assert lookups.kept("figures:7", "1-abc", first) == "figures v1"
    assert first_calls == ["figures v1"]
    second, second_calls = counting("figures v2")
    assert lookups.kept("figures:7", "2-def", second) == "figures v2"
    # The older version is no longer held: asked for again (a late reader), computed again.
    again, again_calls = counting("figures v1 again")
    assert lookups.kept("figures:7", "1-abc", again) == "figures v1 again"
    assert (second_calls, again_calls) == (["figures v2"], ["figures v1 again"])


def test_past_the_bound_the_least_recently_used_kind_goes_first(monkeypatch):
    lookups.forget_kept()
    monkeypatch.setattr(lookups, "KEPT_IN_PROCESS", 2)
    lookups.kept("a", "1", lambda: "A")
    lookups.kept("b", "1", lambda: "B")
    lookups.kept("a", "1", lambda: "not computed")  # a is used again: b is the oldest
    lookups.kept("c", "1", lambda: "C")
    assert lookups.kept("a", "1", lambda: "not computed") == "A"
    assert lookups.kept("b", "1", lambda: "B again") == "B again"
