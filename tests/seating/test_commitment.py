"""The commitment of a draw, without a database: document, hash, draw seed, verification."""

import copy
import datetime
import hashlib
import json

import pytest

from tournament import __version__
from tournament.seating import commitment as rules
from tournament.seating import draw_by_lot
from tournament.seating.draw import SEED_MAX, SEED_MIN
from tournament.seating.modes import seat_session
from tournament.seating.published import plan_registered

WHEN = datetime.datetime(2026, 12, 1, 18, 0, tzinfo=datetime.UTC)
SEED = 123456789
SALT = "0123456789abcdef0123456789abcdef"
METHODS = ["lot", "planned", "random", "standings", "serpentine", "top_tables"]


def players(count=8, *, groups=None, substitutes=()):
    groups = groups or {}
    return [
        rules.CommittedPlayer(
            number=n, name=f"Player {n}", group=groups.get(n, ""), substitute=n in substitutes
        )
        for n in range(1, count + 1)
    ]


def document(method="lot", *, roster=None, sessions=3, separate_by="", top=1, source=None, **kw):
    """A commitment of 8 players (16 for the planned method: a schedule of 8 is a long
    search, one of 16 a construction)."""
    if roster is None:
        roster = players(16 if method == "planned" else 8)
    return rules.commitment_document(
        tournament="Spring Open",
        players=roster,
        method=method,
        options=rules.method_options(method, sessions=sessions, separate_by=separate_by, top=top),
        committed_at=kw.pop("committed_at", WHEN),
        public_value_source=source,
        **kw,
    )


def record(method="lot", *, roster=None, source=None, public_value=None, **options):
    """A fairness record of a draw made as committed: the seating re-run from the document."""
    committed = document(method, roster=roster, source=source, **options)
    seed = rules.draw_seed(SEED, public_value if source else None)
    sessions = rules.committed_seating(committed, seed)
    seating = {n: tables for n, tables in enumerate(sessions, 1)} if method == "planned" else {}
    if method != "planned":
        seating = {1: sessions[0]}
    return rules.fairness_record(
        document=committed,
        hash=rules.commitment_hash(committed, seed=SEED, salt=SALT),
        seed=SEED,
        salt=SALT,
        public_value=public_value,
        seating=seating,
    )


# ---------------------------------------------------------------- the document and its hash


def test_the_document_lists_the_players_in_number_order_with_what_the_draw_uses():
    roster = list(reversed(players(8, groups={1: "Club A", 2: "Club A"}, substitutes={8})))
    committed = document("planned", roster=roster, separate_by="team", source="drand round 7")
    assert [p["number"] for p in committed["players"]] == list(range(1, 9))
    assert committed["players"][0] == {
        "number": 1,
        "name": "Player 1",
        "group": "Club A",
        "substitute": False,
    }
    assert committed["players"][7]["substitute"] is True
    assert committed["method"] == "planned"
    assert committed["options"] == {"sessions": 3, "separate_by": "team"}
    assert committed["software"] == f"mcr-tournament {__version__}"
    assert committed["committed_at"] == "2026-12-01T18:00:00Z"
    assert committed["public_value_source"] == "drand round 7"
    assert committed["format"] == rules.FORMAT


def test_the_draw_by_lot_commits_no_groups_and_no_options():
    committed = document("lot", roster=players(4, groups={1: "Club A"}), separate_by="team")
    assert committed["options"] == {}
    assert committed["players"][0]["group"] == ""


@pytest.mark.parametrize(
    ("method", "options"),
    [
        ("lot", {}),
        ("planned", {"sessions": 3, "separate_by": ""}),
        ("random", {"separate_by": ""}),
        ("top_tables", {"separate_by": "", "top": 2}),
    ],
)
def test_each_method_commits_the_options_it_uses(method, options):
    assert rules.method_options(method, sessions=3, separate_by="", top=2) == options


def test_the_commitment_time_is_written_in_utc():
    paris = datetime.timezone(datetime.timedelta(hours=1))
    moment = datetime.datetime(2026, 12, 1, 19, 0, 5, tzinfo=paris)
    assert rules.utc_text(moment) == "2026-12-01T18:00:05Z"
    with pytest.raises(ValueError):
        rules.utc_text(datetime.datetime(2026, 12, 1, 18, 0))


def test_the_canonical_bytes_are_sorted_compact_utf8():
    committed = document(roster=[rules.CommittedPlayer(1, "李伟")])
    text = rules.canonical_bytes(committed).decode("utf-8")
    assert "李伟" in text
    # The only spaces are inside texts: none between keys, values and separators.
    assert ", " not in text and ": " not in text and "{ " not in text
    assert "\n" not in text
    assert text.index('"committed_at"') < text.index('"format"') < text.index('"players"')
    # The canonical text read back and written again is the same text.
    assert rules.canonical_bytes(json.loads(text)) == text.encode("utf-8")


def test_the_hash_is_sha256_of_the_document_a_newline_and_seed_colon_salt():
    committed = document()
    sealed = rules.canonical_bytes(committed) + f"\n{SEED}:{SALT}".encode()
    assert rules.commitment_hash(committed, seed=SEED, salt=SALT) == (
        hashlib.sha256(sealed).hexdigest()
    )


def test_the_hash_is_stable_for_the_same_input():
    first = rules.commitment_hash(document(), seed=SEED, salt=SALT)
    again = rules.commitment_hash(json.loads(json.dumps(document())), seed=SEED, salt=SALT)
    assert first == again
    assert len(first) == 64 and first == first.lower()


@pytest.mark.parametrize(
    "changed",
    [
        pytest.param(lambda: document(roster=players(7)), id="a player fewer"),
        pytest.param(lambda: document(roster=players(9)), id="a player more"),
        pytest.param(
            lambda: document(roster=[*players(7), rules.CommittedPlayer(9, "Player 9")]),
            id="another player number",
        ),
        pytest.param(
            lambda: document(roster=[*players(7), rules.CommittedPlayer(8, "Someone")]),
            id="a name",
        ),
        pytest.param(
            lambda: document(roster=[*players(7), rules.CommittedPlayer(8, "Player 8", "", True)]),
            id="a substitute mark",
        ),
        pytest.param(lambda: document("random"), id="the method"),
        pytest.param(lambda: document(software="mcr-tournament 0.2.0"), id="the version"),
        pytest.param(
            lambda: document(committed_at=WHEN + datetime.timedelta(seconds=1)), id="the time"
        ),
        pytest.param(lambda: document(source="drand round 8"), id="the public value promised"),
    ],
)
def test_the_hash_changes_with_any_change_of_the_document(changed):
    before = rules.commitment_hash(document(), seed=SEED, salt=SALT)
    assert rules.commitment_hash(changed(), seed=SEED, salt=SALT) != before


def test_the_hash_changes_with_an_option():
    before = rules.commitment_hash(document("planned"), seed=SEED, salt=SALT)
    assert rules.commitment_hash(document("planned", sessions=4), seed=SEED, salt=SALT) != before
    grouped = document("planned", separate_by="team")
    assert rules.commitment_hash(grouped, seed=SEED, salt=SALT) != before


def test_the_hash_changes_with_the_seed_or_the_salt():
    before = rules.commitment_hash(document(), seed=SEED, salt=SALT)
    assert rules.commitment_hash(document(), seed=SEED + 1, salt=SALT) != before
    assert rules.commitment_hash(document(), seed=SEED, salt="f" + SALT[1:]) != before


def test_a_fresh_salt_is_32_hex_digits_and_never_the_same():
    salts = {rules.new_salt() for _ in range(20)}
    assert len(salts) == 20
    assert all(len(s) == 32 and int(s, 16) >= 0 for s in salts)


# ---------------------------------------------------------------- the draw seed


def test_without_a_public_value_the_draw_seed_is_the_secret_seed():
    assert rules.draw_seed(SEED) == SEED
    assert rules.draw_seed(7, None) == 7


def test_the_public_value_is_mixed_into_a_nine_digit_seed():
    digest = hashlib.sha256(f"{SEED}:abc".encode()).hexdigest()
    expected = SEED_MIN + int(digest, 16) % (SEED_MAX - SEED_MIN + 1)
    assert rules.draw_seed(SEED, "abc") == expected
    assert SEED_MIN <= expected <= SEED_MAX
    assert rules.draw_seed(SEED, "abd") != expected
    assert rules.draw_seed(SEED + 1, "abc") != expected
    assert rules.draw_seed(SEED, "") != SEED  # an empty value still mixes


def test_a_bad_seed_is_refused():
    with pytest.raises(ValueError):
        rules.draw_seed(-1)
    with pytest.raises(ValueError):
        rules.commitment_hash(document(), seed=True, salt=SALT)


# ---------------------------------------------------------------- the committed seating


def test_the_committed_seating_of_each_method_is_the_draw_s():
    roster = players(8, groups={1: "A", 2: "A", 3: "B", 4: "B"}, substitutes={3})
    lot = rules.committed_seating(document("lot", roster=roster), 42)
    by_lot = sorted(draw_by_lot(range(1, 9), 42), key=lambda s: (s.table, s.seat))
    assert lot == [[tuple(s.player for s in by_lot[:4]), tuple(s.player for s in by_lot[4:])]]

    sixteen = players(16, groups={1: "A", 2: "A", 3: "B", 4: "B"})
    planned = rules.committed_seating(document("planned", roster=sixteen, separate_by="team"), 42)
    plan = plan_registered(range(1, 17), 3, seed=42, groups={1: "A", 2: "A", 3: "B", 4: "B"})
    assert planned == [[tuple(t) for t in tables] for tables in plan.sessions]

    # The first session of a session mode: nobody played, regular players rank by number,
    # substitutes after them.
    served = rules.committed_seating(document("standings", roster=roster), 42)
    ranking = [1, 2, 4, 5, 6, 7, 8, 3]
    assert served == [seat_session("standings", players=range(1, 9), seed=42, ranking=ranking)]
    top = rules.committed_seating(document("top_tables", roster=roster, top=1), 42)
    assert sorted(top[0][0]) == [1, 2, 4, 5]


# ---------------------------------------------------------------- verification


@pytest.mark.parametrize("method", METHODS)
def test_a_draw_made_as_committed_is_verified(method):
    found = rules.verify(record(method), expected_hash=record(method)["hash"])
    assert found.ok
    assert found.draw_seed == SEED
    labels = [check.label for check in found.checks]
    assert labels[:2] == ["published hash", "--hash"]
    sessions = 3 if method == "planned" else 1
    assert labels[2:] == [f"session {n}" for n in range(1, sessions + 1)]


def test_a_draw_with_its_public_value_is_verified():
    mixed = record("lot", source="drand round 7", public_value="9f1c")
    found = rules.verify(mixed)
    assert found.ok
    assert found.draw_seed == rules.draw_seed(SEED, "9f1c") != SEED


def test_a_changed_player_list_fails_the_hash():
    changed = record("lot")
    changed["commitment"]["players"][0]["number"] = 9
    found = rules.verify(changed)
    assert not found.ok
    assert not found.checks[0].ok  # the published hash
    assert found.hash != changed["hash"]


def test_a_player_left_out_fails_the_hash_and_the_seating():
    changed = record("lot")
    del changed["commitment"]["players"][7]
    found = rules.verify(changed)
    assert [check.ok for check in found.checks] == [False, False]
    assert "cannot be re-run" in found.checks[1].detail


def test_a_changed_seed_fails_the_hash_and_the_seating():
    changed = record("lot")
    changed["seed"] = SEED + 1
    found = rules.verify(changed)
    assert not found.checks[0].ok
    assert not found.checks[1].ok
    assert found.checks[1].label == "session 1"
    assert "re-drawn" in found.checks[1].detail


def test_a_changed_seating_fails_only_the_seating():
    changed = record("lot")
    first, second = changed["seating"]["1"]
    first[0], second[0] = second[0], first[0]
    found = rules.verify(changed)
    assert [check.ok for check in found.checks] == [True, False]
    assert found.checks[1].detail.startswith("table 1 is ")


def test_a_changed_public_value_fails_the_seating():
    changed = record("planned", source="drand round 7", public_value="9f1c")
    changed["public_value"] = "9f1d"
    found = rules.verify(changed)
    assert found.checks[0].ok  # the value is not in the hash: it was unknown
    assert not all(check.ok for check in found.checks[1:])


def test_a_missing_or_unpromised_public_value_fails():
    missing = record("lot", source="drand round 7", public_value="9f1c")
    missing["public_value"] = None
    assert not rules.verify(missing).ok
    unpromised = record("lot")
    unpromised["public_value"] = "9f1c"
    found = rules.verify(unpromised)
    assert not found.ok
    assert any(c.label == "public value" and not c.ok for c in found.checks)


def test_a_wrong_expected_hash_fails_only_that_check():
    found = rules.verify(record("lot"), expected_hash="0" * 64)
    assert [check.ok for check in found.checks] == [True, False, True]
    # Case and spaces do not matter in a hash typed back.
    assert rules.verify(record("lot"), expected_hash=f" {record('lot')['hash'].upper()} ").ok


def test_a_record_without_seating_or_with_a_session_too_many_fails():
    empty = record("lot")
    empty["seating"] = {}
    assert not rules.verify(empty).ok
    extra = record("lot")
    extra["seating"]["2"] = extra["seating"]["1"]
    assert not rules.verify(extra).ok
    beyond = record("planned")
    beyond["seating"]["9"] = beyond["seating"]["1"]
    found = rules.verify(beyond)
    assert [c.detail for c in found.checks if not c.ok] == [
        "the committed schedule has no such session"
    ]


def test_a_planned_record_may_cover_some_sessions_only():
    partial = record("planned")
    del partial["seating"]["3"]
    assert rules.verify(partial).ok


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda r: r.update(format="something else"), id="format"),
        pytest.param(lambda r: r.pop("commitment"), id="no commitment"),
        pytest.param(lambda r: r["commitment"].update(players="all"), id="players"),
        pytest.param(lambda r: r.update(seed=None), id="seed not revealed"),
        pytest.param(lambda r: r.update(seed="123"), id="seed as text"),
        pytest.param(lambda r: r.update(hash=None), id="no hash"),
        pytest.param(lambda r: r.update(seating={"one": []}), id="seating"),
    ],
)
def test_a_record_that_is_not_one_is_refused(spoil):
    spoilt = copy.deepcopy(record("lot"))
    spoil(spoilt)
    with pytest.raises(rules.RecordError):
        rules.verify(spoilt)


def test_not_a_record_at_all_is_refused():
    for value in ([], "text", None, 3):
        with pytest.raises(rules.RecordError):
            rules.verify(value)


# ---------------------------------------------------------------- what changed since


def test_no_difference_between_equal_inputs_even_with_other_names_and_times():
    committed = document("planned")
    renamed = document(
        "planned",
        roster=[rules.CommittedPlayer(n, f"New name {n}") for n in range(1, 17)],
        committed_at=WHEN + datetime.timedelta(hours=1),
    )
    assert rules.draw_input_differences(committed, renamed) == []


def test_every_difference_is_named():
    committed = document("planned", roster=players(8, substitutes={8}))
    current = document(
        "planned",
        roster=[*players(6), rules.CommittedPlayer(8, "Player 8"), rules.CommittedPlayer(9, "N")],
        separate_by="team",
        sessions=4,
    )
    found = rules.draw_input_differences(committed, current)
    assert found == [
        rules.Difference("option", name="separate_by", committed="", current="team"),
        rules.Difference("option", name="sessions", committed=3, current=4),
        rules.Difference("players_added", players=(9,)),
        rules.Difference("players_removed", players=(7,)),
        rules.Difference("players_changed", players=(8,)),
    ]


def test_another_method_is_one_difference_whatever_its_options():
    found = rules.draw_input_differences(document("planned"), document("lot", roster=players(16)))
    assert found == [rules.Difference("method", committed="planned", current="lot")]


def test_the_committed_version_is_the_package_s():
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    version = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    assert __version__ == version
    assert f"mcr-tournament {version}" == rules.SOFTWARE


def test_the_commitment_and_its_command_need_no_django():
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, tournament.seating.commitment, tournament.seating.__main__; "
        "assert 'django' not in sys.modules"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
