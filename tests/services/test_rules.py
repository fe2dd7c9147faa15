"""A tournament's rules as the services keep them: taken from a profile at creation, changed
freely until a hand is entered, then only with a reason, every stored hand settled again (the
change refused whole when a hand cannot be)."""

import pytest
from django.core.exceptions import ValidationError

from tests.services.errors import codes
from tournament import services
from tournament.models import RuleChange, Seat, Tournament, TournamentVersion
from tournament.scoring.profiles import EMA, MIL_CHINA_2025
from tournament.services import HandEntry


@pytest.fixture
def table(session_in_play):
    return session_in_play.tables.get(number=1)


def seat_scores(table) -> list[int]:
    return list(Seat.objects.filter(table=table).order_by("seat").values_list("score", flat=True))


def create(slug: str, **options):
    return services.tournament_create(name=slug, slug=slug, session_count=4, **options)


def test_a_tournament_created_from_a_profile_takes_its_options(db):
    tournament = create("danish-open", rule_profile="ema")
    assert tournament.rules == EMA.rules
    assert (tournament.session_minutes, tournament.session_end, tournament.gong_minute) == (
        120,
        "gong",
        115,
    )
    assert tournament.tiebreaks == list(EMA.tiebreaks)
    offences = [preset["offence"] for preset in tournament.penalty_presets]
    assert offences == [preset.offence for preset in EMA.penalty_presets]

    league = create("tiantian-cup", rule_profile="mil_china_2025", rules={"blessings": True})
    assert league.rules.melded_and_concealed_kong == 5
    assert (league.flowers, league.blessings) == (False, True)
    assert league.tiebreaks[-1] == "player_number" == MIL_CHINA_2025.tiebreaks[-1]


def test_before_play_the_rules_change_without_a_reason(tournament):
    assert services.rules_change(tournament=tournament, minimum_fan=6, flowers=False) is None
    tournament.refresh_from_db()
    assert (tournament.minimum_fan, tournament.flowers) == (6, False)
    assert not RuleChange.objects.exists()


def test_a_gong_is_within_the_session(tournament):
    with pytest.raises(ValidationError) as refused:
        services.rules_change(tournament=tournament, session_end="gong")
    assert codes(refused.value) == {"gong_minute_required"}
    with pytest.raises(ValidationError) as refused:
        services.rules_change(
            tournament=tournament, session_end="gong", gong_minute=tournament.session_minutes + 1
        )
    assert codes(refused.value) == {"gong_after_session"}


def test_penalty_presets_name_known_offences_with_whole_points(tournament):
    with pytest.raises(ValidationError):
        services.rules_change(tournament=tournament, penalty_presets=[])
    for presets in (
        [{"offence": "napping", "kind": "deducted", "points": [10]}],
        [{"offence": "lateness", "kind": "deducted", "points": [0]}],
        [{"offence": "lateness", "kind": "fined", "points": [10]}],
    ):
        with pytest.raises(ValidationError) as refused:
            services.rules_change(tournament=tournament, penalty_presets=presets)
        assert codes(refused.value) == {"penalty_presets_invalid"}


def test_after_the_first_hand_a_change_needs_a_reason_and_settles_every_hand_again(
    table, organiser
):
    tournament = table.session.tournament
    # 10 fan on a discard, and a draw.
    services.hand_record(
        table=table, entry=HandEntry(number=1, outcome="discard", winner=0, discarder=1, fan=10)
    )
    services.hand_record(table=table, entry=HandEntry(number=2, outcome="draw"))
    scores = seat_scores(table)
    stamp = TournamentVersion.objects.get(pk=tournament.pk).standings

    with pytest.raises(ValidationError) as refused:
        services.rules_change(tournament=tournament, user=organiser, minimum_fan=6)
    assert codes(refused.value) == {"reason_required"}

    change = services.rules_change(
        tournament=tournament,
        user=organiser,
        reason="The hall plays a 6-fan minimum.",
        minimum_fan=6,
    )
    assert (change.before["minimum_fan"], change.after["minimum_fan"]) == (8, 6)
    assert (change.hands_settled, change.hands_changed) == (2, 0)
    assert change.changed_by == organiser
    assert seat_scores(table) == scores
    assert TournamentVersion.objects.get(pk=tournament.pk).standings != stamp
    assert change.reason == "The hall plays a 6-fan minimum."


def test_a_change_a_stored_hand_cannot_take_is_refused_whole(table, organiser):
    tournament = table.session.tournament
    services.hand_record(
        table=table, entry=HandEntry(number=1, outcome="self_drawn", winner=2, fan=9, flowers=2)
    )
    with pytest.raises(ValidationError) as refused:
        services.rules_change(
            tournament=tournament, user=organiser, reason="No flowers.", flowers=False
        )
    assert codes(refused.value) == {"hands_not_settled"}
    assert "Session 1, table 1, hand 1" in " ".join(refused.value.messages)
    with pytest.raises(ValidationError):
        services.rules_change(
            tournament=tournament, user=organiser, reason="Twelve.", minimum_fan=12
        )
    tournament.refresh_from_db()
    assert (tournament.flowers, tournament.minimum_fan) == (True, 8)
    assert not RuleChange.objects.exists()


def test_the_settings_form_path_changes_rules_through_the_same_rule(table, organiser):
    tournament = table.session.tournament
    services.hand_record(table=table, entry=HandEntry(number=1, outcome="draw"))
    with pytest.raises(ValidationError) as refused:
        services.tournament_update(tournament=tournament, tiebreak_order="score,table_points")
    assert codes(refused.value) == {"reason_required"}
    services.tournament_update(
        tournament=tournament,
        user=organiser,
        rules_reason="Score first, as announced.",
        tiebreak_order="score,table_points",
        venue="Hall B",
    )
    tournament.refresh_from_db()
    assert (tournament.tiebreak_order, tournament.venue) == ("score,table_points", "Hall B")
    assert RuleChange.objects.get().reason == "Score first, as announced."


def test_hands_are_entered_under_the_tournaments_rules(table):
    tournament = table.session.tournament
    services.rules_change(tournament=tournament, minimum_fan=6, flowers=False)
    table.refresh_from_db()
    six = services.hand_record(
        table=table, entry=HandEntry(number=1, outcome="discard", winner=1, discarder=3, fan=6)
    )
    assert six.points == (-8, 30, -8, -14)
    with pytest.raises(services.HandRefused) as refused:
        services.hand_record(
            table=table, entry=HandEntry(number=2, outcome="self_drawn", winner=0, fan=8, flowers=1)
        )
    assert codes(refused.value) == {"flowers_not_played"}
    assert "without flowers" in " ".join(refused.value.messages)


def test_the_profiles_presets_are_in_the_offences_order_so_an_unchanged_save_changes_nothing(
    table, organiser
):
    tournament = table.session.tournament
    services.rules_change(tournament=tournament, **services.profile_options("ema"))
    services.hand_record(table=table, entry=HandEntry(number=1, outcome="draw"))
    tournament.refresh_from_db()
    shuffled = list(reversed(tournament.penalty_presets))
    assert services.rules_change(tournament=tournament, penalty_presets=shuffled) is None
    assert services.rules_change(tournament=tournament, **services.profile_options("ema")) is None


def test_a_change_that_scores_nothing_settles_no_hand_and_a_long_reason_is_kept(table, organiser):
    tournament = table.session.tournament
    services.hand_record(table=table, entry=HandEntry(number=1, outcome="draw"))
    reason = "Announced at the players' meeting: " + "the ranking counts the score first. " * 8
    change = services.rules_change(
        tournament=tournament, user=organiser, reason=reason, tiebreak_order="score,table_points"
    )
    assert (change.hands_settled, change.hands_changed) == (0, 0)
    assert RuleChange.objects.get().reason == reason.strip()
    # The history's rows carry the change's code; the words are the change's own.
    latest = Tournament.history.filter(id=tournament.pk).latest("history_date")
    assert latest.history_change_reason == "rules_changed"


def test_a_hand_settled_again_keeps_its_earlier_version_and_its_claim_is_checked_again(
    table, organiser
):
    tournament = table.session.tournament
    typed = "456m789m5m [1111m:2] {CCCC} +5m | self"
    claimed = (
        "Half Flush, Dragon Pung, Concealed Kong, Short Straight, Pung of Terminals or Honors,"
        " Melded Kong, Closed Wait, Self-Drawn"
    )
    hand = services.hand_record(
        table=table,
        entry=HandEntry(
            number=1, outcome="self_drawn", winner=0, fan=15, fan_names=claimed, winning_hand=typed
        ),
    )
    assert not hand.referee_figure_kept
    services.rules_change(
        tournament=tournament, user=organiser, reason="明暗杠.", melded_and_concealed_kong=5
    )
    hand.refresh_from_db()
    # 17 now; the fans claimed name Melded Kong and Concealed Kong, which 明暗杠 counts: the
    # claim no longer holds, and the hand says the referee's figures are disputed.
    assert (hand.fan, hand.computed_fan, hand.referee_figure_kept) == (17, 17, True)
    revision = hand.revisions.get()
    assert (revision.version, revision.previous["computed_fan"]) == (1, 15)
    assert hand.version == 2
