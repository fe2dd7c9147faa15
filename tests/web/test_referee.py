"""The referee's tablet pages, with every persona, and bad input shown beside its field."""

import pytest
from django.urls import reverse

from tests import html
from tests.web.pages import hand_data, reviewed
from tournament import services
from tournament.models import Hand, Penalty


@pytest.fixture
def urls(session_in_play):
    slug = session_in_play.tournament.slug
    services.hand_record(
        table=session_in_play.tables.get(number=1),
        entry=services.HandEntry(number=1, outcome="draw"),
    )
    return {
        "home": reverse("referee_home", args=[slug]),
        "sheet": reverse("table_sheet", args=[slug, 1, 1]),
        "hand": reverse("hand_edit", args=[slug, 1, 1, 1]),
        "cards": reverse("table_cards", args=[slug, 1]),
        "confirm": reverse("table_confirm", args=[slug, 1, 1]),
    }


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 200), ("other_referee", 403), ("anonymous", 302)],
)
@pytest.mark.parametrize("page", ["home", "sheet", "hand", "cards"])
def test_referee_pages_by_persona(personas, urls, persona, expected, page):
    response = personas[persona].get(urls[page])
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if expected == 403:
        # The page says why, in the site's own words.
        assert b"only at the tables given to them" in response.content


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 302), ("referee", 302), ("other_referee", 403), ("anonymous", 302)],
)
def test_confirm_by_persona(personas, urls, session_in_play, persona, expected):
    response = personas[persona].post(
        urls["confirm"],
        reviewed(personas[persona], urls["confirm"], record_missing_as_not_played="on"),
    )
    assert response.status_code == expected
    table = session_in_play.tables.get(number=1)
    assert table.is_confirmed == (persona in ("organiser", "referee"))


def test_confirm_shows_the_review_on_get_and_refuses_other_methods(personas, urls, session_in_play):
    assert personas["referee"].get(urls["confirm"]).status_code == 200
    assert personas["referee"].put(urls["confirm"]).status_code == 405
    assert not session_in_play.tables.get(number=1).is_confirmed


@pytest.mark.parametrize("page", ["home", "sheet", "hand", "cards"])
def test_unknown_tournament_or_table_is_404(personas, urls, page):
    assert personas["referee"].get(urls[page].replace("spring-open", "nope")).status_code == 404


def test_unknown_table_and_hand_are_404(personas, urls):
    assert (
        personas["referee"].get(urls["sheet"].replace("/tables/1/", "/tables/9/")).status_code
        == 404
    )
    assert (
        personas["referee"].get(urls["hand"].replace("/hands/1/", "/hands/2/")).status_code == 404
    )


def post_hand(client, url, **fields):
    data = {
        "number": "2",
        "outcome": "self_drawn",
        "winner": "",
        "discarder": "",
        "fan": "",
        "flowers": "0",
        "fan_names": "",
        "penalty-TOTAL_FORMS": "1",
        "penalty-INITIAL_FORMS": "0",
        "penalty-MIN_NUM_FORMS": "0",
        "penalty-MAX_NUM_FORMS": "8",
    }
    data.update({k.replace("__", "-"): v for k, v in fields.items()})
    return client.post(url, data)


def test_referee_enters_a_discard_win_and_sees_the_running_totals(personas, urls):
    response = post_hand(
        personas["referee"],
        urls["sheet"],
        outcome="discard",
        winner="0",
        discarder="2",
        fan="12",
        flowers="1",
        fan_names="Mixed Straight, Dragon Pung, Concealed Hand",
    )
    assert response.status_code == 302
    hand = Hand.objects.get(number=2, table__number=1)
    assert hand.points == (37, -8, -21, -8)
    page = personas["referee"].get(urls["sheet"]).content.decode()
    assert "+37" in page and "−21" in page and "Mixed Straight, Dragon Pung" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"winner": "0", "fan": "6"}, "at least 8"),
        ({"outcome": "discard", "winner": "1", "discarder": "1", "fan": "8"}, "discard"),
        ({"winner": "0", "fan": "8", "flowers": "9"}, "Flowers are 0 to 8"),
        ({"number": "17", "winner": "0", "fan": "8"}, "A hand number is 1 to 16"),
        ({"number": "1", "winner": "0", "fan": "8"}, "already entered"),
        ({"winner": "7", "fan": "8"}, "Select a valid choice"),
        ({"fan": "8"}, "Choose the winner"),
        ({"outcome": "discard", "winner": "0", "fan": "8"}, "Choose who discarded"),
        (
            {"outcome": "draw", "penalty-0-offender": "1", "penalty-0-points": "10"},
            "Choose the kind of penalty",
        ),
        (
            {
                "outcome": "draw",
                "penalty-0-offender": "1",
                "penalty-0-kind": "deducted",
                "penalty-0-points": "10",
            },
            "Give the reason",
        ),
    ],
)
def test_bad_hand_input_is_shown_and_nothing_is_saved(personas, urls, fields, message):
    before = list(Hand.objects.values_list("pk", "version", "outcome"))
    response = post_hand(personas["referee"], urls["sheet"], **fields)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert list(Hand.objects.values_list("pk", "version", "outcome")) == before
    assert not Penalty.objects.exists()


def test_penalties_entered_with_a_hand_are_settled(personas, urls):
    response = post_hand(
        personas["referee"],
        urls["sheet"],
        outcome="self_drawn",
        winner="3",
        fan="8",
        **{
            "penalty-TOTAL_FORMS": "2",
            "penalty-0-offender": "1",
            "penalty-0-kind": "to_each_other",
            "penalty-0-points": "10",
            "penalty-0-reason": "False win",
            "penalty-1-offender": "0",
            "penalty-1-kind": "deducted",
            "penalty-1-points": "5",
            "penalty-1-reason": "Slow play after warning",
        },
    )
    assert response.status_code == 302
    hand = Hand.objects.get(number=2, table__number=1)
    # Self-drawn 8: others pay 16 each; P2 pays 10 to each other; P1 loses 5 from the table.
    assert hand.points == (-16 + 10 - 5, -16 - 30, -16 + 10, 48 + 10)
    assert hand.deducted == 5
    assert hand.penalties.count() == 2


def test_referee_corrects_a_hand_with_its_version(personas, urls):
    client = personas["referee"]
    page = client.get(urls["hand"])
    assert html.elements(page.content, "input[name=version]")
    response = post_hand(
        client, urls["hand"], number="1", outcome="self_drawn", winner="2", fan="8", version="1"
    )
    assert response.status_code == 302
    hand = Hand.objects.get(number=1, table__number=1)
    assert (hand.outcome, hand.winner, hand.version) == ("self_drawn", 2, 2)


def test_correction_from_a_stale_page_is_refused_not_overwritten(personas, urls):
    client = personas["referee"]
    post_hand(
        client, urls["hand"], number="1", outcome="self_drawn", winner="2", fan="8", version="1"
    )
    response = post_hand(client, urls["hand"], number="1", outcome="draw", version="1")
    assert response.status_code == 200
    assert "changed by someone else" in response.content.decode()
    assert Hand.objects.get(number=1, table__number=1).outcome == "self_drawn"


def test_confirmed_table_hides_the_form_and_refuses_posts(personas, urls, session_in_play):
    client = personas["referee"]
    client.post(
        urls["confirm"], reviewed(client, urls["confirm"], record_missing_as_not_played="on")
    )
    page = client.get(urls["sheet"]).content.decode()
    assert "Save hand" not in page
    response = post_hand(
        client, urls["hand"], number="1", outcome="self_drawn", winner="2", fan="8", version="1"
    )
    assert "only an organiser can reopen" in response.content.decode()
    assert Hand.objects.get(number=1, table__number=1).outcome == "draw"


def test_confirm_without_all_hands_explains_what_is_missing(personas, urls, session_in_play):
    response = personas["referee"].post(
        urls["confirm"], reviewed(personas["referee"], urls["confirm"]), follow=True
    )
    assert "Hands 2, 3" in response.content.decode()
    assert not session_in_play.tables.get(number=1).is_confirmed


def test_table_cards_show_the_sixteen_hand_schedule(personas, urls, session_in_play):
    page = personas["organiser"].get(urls["cards"]).content
    cards = html.elements(page, ".table-card")
    assert len(cards) == 4
    # Hand 5 starts the South round with P2 dealing from the East seat.
    for card in cards:
        rows = [[cell.text() for cell in row.children if isinstance(cell, html.Element)]
                for row in card.find("tr")]  # fmt: skip
        assert ["5", "South", "P2"] in [row[:3] for row in rows]


def test_errors_on_fields_a_draw_does_not_use_do_not_block_it(personas, urls):
    response = post_hand(
        personas["referee"], urls["sheet"], outcome="draw", winner="9", fan="abc", flowers="12"
    )
    assert response.status_code == 302
    hand = Hand.objects.get(number=2, table__number=1)
    assert (hand.outcome, hand.winner, hand.fan, hand.flowers) == ("draw", None, None, 0)


def test_a_hand_number_typed_as_decimal_is_read_as_that_hand(personas, urls):
    response = post_hand(personas["referee"], urls["sheet"], number="4.0", outcome="draw")
    assert response.status_code == 302
    assert Hand.objects.filter(number=4, table__number=1).exists()


def test_each_correction_keeps_the_previous_entry(personas, urls, referee):
    client = personas["referee"]
    post_hand(
        client, urls["hand"], number="1", outcome="self_drawn", winner="2", fan="9", version="1"
    )
    post_hand(
        client,
        urls["hand"],
        number="1",
        outcome="discard",
        winner="2",
        discarder="0",
        fan="10",
        version="2",
    )
    hand = Hand.objects.get(number=1, table__number=1)
    revisions = list(hand.revisions.order_by("version"))
    assert [r.version for r in revisions] == [1, 2]
    assert revisions[0].previous["outcome"] == "draw"
    assert revisions[1].previous["outcome"] == "self_drawn"
    assert revisions[1].previous["points"] == [-17, -17, 51, -17]
    assert revisions[1].revised_by == referee
    page = " ".join(client.get(urls["sheet"]).content.decode().split())
    assert "Hand 1 corrected by referee" in page
    assert "Before: Win by self-draw P3 9 (P1 −17, P2 −17, P3 +51, P4 −17)" in page


# 123m 456p 789s (Mixed Straight), a pung of South, waiting on East for the pair.
SOUTH_PUNG_HAND = "123m456p789sSSSE +E"
# P2 wins hand 2 on P1's discard with that hand, but the referee typed 30 fan.
DISPUTED_FAN = {
    "outcome": "discard",
    "winner": "1",
    "discarder": "0",
    "fan": "30",
    "winning_hand": SOUTH_PUNG_HAND,
}


def test_compute_fills_the_fan_from_the_hand_and_saves_nothing(personas, urls):
    response = post_hand(
        personas["referee"],
        urls["sheet"],
        outcome="discard",
        winner="1",
        discarder="0",
        winning_hand=SOUTH_PUNG_HAND,
        compute="1",
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Mixed Straight" in page and "花龙" not in page
    assert not Hand.objects.filter(number=2, table__number=1).exists()
    scored = services.score_winning_hand(
        text=SOUTH_PUNG_HAND, number=2, winner=1, outcome="discard"
    )
    assert html.one(page, "input[name=fan]").attrs["value"] == str(scored.total_without_flowers)


def test_compute_names_the_fans_in_the_page_language(personas, urls):
    client = personas["referee"]
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "zh-hans"
    response = post_hand(
        client,
        urls["sheet"],
        outcome="discard",
        winner="1",
        discarder="0",
        winning_hand=SOUTH_PUNG_HAND,
        compute="1",
    )
    page = response.content.decode()
    assert "花龙" in page and "Mixed Straight" not in page
    # The fans claimed are filled in Chinese, and read back as they are saved.
    claimed = response.context["form"].initial["fan_names"]
    assert claimed.startswith("花龙")
    response = post_hand(
        client,
        urls["sheet"],
        outcome="discard",
        winner="1",
        discarder="0",
        fan=response.context["form"].initial["fan"],
        fan_names=claimed,
        winning_hand=SOUTH_PUNG_HAND,
    )
    assert response.status_code == 302
    assert Hand.objects.get(number=2, table__number=1).fan_names == claimed


def test_a_typed_fan_that_disagrees_is_shown_before_saving(personas, urls):
    client = personas["referee"]
    fields = DISPUTED_FAN
    response = post_hand(client, urls["sheet"], **fields)
    assert response.status_code == 200
    page = response.content.decode()
    assert "The winning hand scores" in page
    assert "Total without flowers" in page  # the calculator's result, beside the error
    assert not Hand.objects.filter(number=2, table__number=1).exists()
    # The referee decides: keeping the typed figure stores both.
    response = post_hand(client, urls["sheet"], keep_my_figure="on", **fields)
    assert response.status_code == 302
    hand = Hand.objects.get(number=2, table__number=1)
    assert hand.fan == 30
    assert hand.computed_fan is not None and hand.computed_fan != 30
    assert hand.referee_figure_kept
    page = client.get(urls["sheet"]).content.decode()
    assert f"calculator: {hand.computed_fan} fan" in page
    assert "figures kept" in page


def test_a_winning_hand_that_contradicts_the_result_is_refused(personas, urls):
    response = post_hand(
        personas["referee"],
        urls["sheet"],
        outcome="discard",
        winner="1",
        discarder="0",
        fan="13",
        winning_hand=SOUTH_PUNG_HAND + " | self",
    )
    assert "says self-drawn" in response.content.decode()
    assert not Hand.objects.filter(number=2, table__number=1).exists()


def test_an_illegal_winning_hand_is_explained_beside_it(personas, urls):
    response = post_hand(
        personas["referee"],
        urls["sheet"],
        outcome="self_drawn",
        winner="1",
        fan="8",
        winning_hand="123m +4m",
    )
    page = response.content.decode()
    assert response.status_code == 200 and html.elements(page, ".has-error")
    assert not Hand.objects.filter(number=2, table__number=1).exists()


def test_compute_takes_the_flowers_written_in_the_hand(personas, urls):
    response = post_hand(
        personas["referee"],
        urls["sheet"],
        outcome="discard",
        winner="1",
        discarder="0",
        winning_hand=SOUTH_PUNG_HAND + " | flowers=3",
        compute="1",
    )
    assert html.one(response.content, "input[name=flowers]").attrs["value"] == "3"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"outcome": "discard", "discarder": "0"}, "Choose the hand number and the winner first"),
        ({"outcome": "draw"}, "Choose a win"),
        (
            {"outcome": "discard", "winner": "1", "discarder": "0", "number": "99"},
            "Choose the hand number and the winner first",
        ),
    ],
)
def test_compute_needs_a_win_a_winner_and_a_hand_number(personas, urls, fields, message):
    response = post_hand(
        personas["referee"], urls["sheet"], winning_hand=SOUTH_PUNG_HAND, compute="1", **fields
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert "Mixed Straight" not in response.content.decode()


def test_fan_names_that_cannot_hold_are_shown_before_saving(personas, urls):
    client = personas["referee"]
    fields = {
        "outcome": "self_drawn",
        "winner": "1",
        "fan": "24",
        "fan_names": "Chicken Hand, Full Flush",
    }
    response = post_hand(client, urls["sheet"], **fields)
    page = response.content.decode()
    assert "The fans claimed do not hold" in page
    assert "Full Flush and Chicken Hand cannot both occur in one hand" in page
    assert not Hand.objects.filter(number=2, table__number=1).exists()
    assert post_hand(client, urls["sheet"], keep_my_figure="on", **fields).status_code == 302
    hand = Hand.objects.get(number=2, table__number=1)
    assert (hand.fan_names, hand.referee_figure_kept) == (fields["fan_names"], True)


def test_an_unknown_fan_name_is_refused_beside_the_names(personas, urls):
    response = post_hand(
        personas["referee"],
        urls["sheet"],
        outcome="self_drawn",
        winner="1",
        fan="8",
        fan_names="Lucky Seven",
    )
    assert "Unknown fan name" in response.content.decode()
    assert not Hand.objects.filter(number=2, table__number=1).exists()


def test_fan_names_matching_the_winning_hand_are_saved(personas, urls):
    scored = services.score_winning_hand(
        text=SOUTH_PUNG_HAND, number=2, winner=1, outcome="discard"
    )
    names = ", ".join(f.name_en for f in scored.fans)
    response = post_hand(
        personas["referee"],
        urls["sheet"],
        outcome="discard",
        winner="1",
        discarder="0",
        fan=str(scored.total_without_flowers),
        fan_names=names,
        winning_hand=SOUTH_PUNG_HAND,
    )
    assert response.status_code == 302


def test_an_agreeing_claim_is_not_shown_when_another_error_refuses_the_hand(personas, urls):
    scored = services.score_winning_hand(
        text=SOUTH_PUNG_HAND, number=2, winner=1, outcome="discard"
    )
    response = post_hand(
        personas["referee"],
        urls["sheet"],
        outcome="discard",
        winner="1",
        discarder="1",  # the winner cannot be the discarder
        fan=str(scored.total_without_flowers),
        fan_names=services.fan_list(scored),
        winning_hand=SOUTH_PUNG_HAND,
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "discarder" in form.errors
    assert form.claim_check is None
    assert "The claim agrees with the hand." not in response.content.decode()


def test_a_second_tablet_entering_the_same_hand_still_sees_the_calculators_result(personas, urls):
    fields = {**DISPUTED_FAN, "keep_my_figure": "on"}
    assert post_hand(personas["referee"], urls["sheet"], **fields).status_code == 302
    response = post_hand(personas["organiser"], urls["sheet"], **fields)
    assert response.status_code == 200
    assert "Hand 2 is already entered" in response.content.decode()
    assert response.context["form"].scored is not None
    assert Hand.objects.filter(number=2, table__number=1).count() == 1


def test_correcting_a_kept_hand_starts_from_the_referees_decision(personas, urls):
    fields = DISPUTED_FAN
    client = personas["referee"]
    assert post_hand(client, urls["sheet"], keep_my_figure="on", **fields).status_code == 302
    hand = Hand.objects.get(number=2, table__number=1)
    edit_url = reverse("hand_edit", args=[hand.table.session.tournament.slug, 1, 1, 2])
    page = client.get(edit_url)
    assert page.context["form"]["keep_my_figure"].value() is True
    assert html.elements(page.content, "input[name=keep_my_figure]")
    # Correcting only the flowers keeps the decision: saved, and still marked as kept.
    response = post_hand(
        client, edit_url, keep_my_figure="on", flowers="1", version=str(hand.version), **fields
    )
    assert response.status_code == 302
    hand.refresh_from_db()
    assert (hand.flowers, hand.referee_figure_kept, hand.version) == (1, True, 2)


def test_fans_typed_before_switching_to_a_draw_are_dropped_with_the_win(personas, urls):
    response = post_hand(
        personas["referee"], urls["sheet"], outcome="draw", fan_names="Lucky Seven"
    )
    assert response.status_code == 302
    assert Hand.objects.get(number=2, table__number=1).fan_names == ""


def test_keep_my_figure_is_offered_only_for_a_disputed_figure(personas, urls):
    client = personas["referee"]
    below = post_hand(client, urls["sheet"], outcome="self_drawn", winner="1", fan="5")
    assert "fan" in below.context["form"].errors
    assert not html.elements(below.content, "[name=keep_my_figure]")
    disputed = post_hand(client, urls["sheet"], **DISPUTED_FAN)
    assert html.elements(disputed.content, "input[name=keep_my_figure]")


def test_too_many_penalty_rows_are_refused_with_the_services_words(personas, urls):
    rows = {}
    for n in range(9):
        rows.update(
            {
                f"penalty-{n}-offender": "0",
                f"penalty-{n}-kind": "deducted",
                f"penalty-{n}-points": "5",
                f"penalty-{n}-reason": "Foul",
            }
        )
    response = post_hand(
        personas["referee"], urls["sheet"], outcome="draw", penalty__TOTAL_FORMS="9", **rows
    )
    assert response.status_code == 200
    assert "A hand has at most 8 penalties." in response.content.decode()
    assert not Hand.objects.filter(number=2, table__number=1).exists()


def test_the_table_cards_name_the_hands_where_players_move(personas, urls):
    page = " ".join(personas["referee"].get(urls["cards"]).content.decode().split())
    assert "The players move seats at hands 5, 9, 13." in page


def test_the_sheet_lists_the_common_penalties_from_the_presets(personas, urls):
    page = " ".join(personas["referee"].get(urls["sheet"]).content.decode().split())
    assert "False win (错和): 10, paid to each other player;" in page
    assert "Procedural foul after a warning: 5…60, deducted (leaves the table);" in page
    assert "Lateness: 10 or 20, deducted (leaves the table)." in page


# The entry form is made for one hand and carries a one-time key.


def entry_form(client, url) -> dict:
    """The blank entry form as the sheet renders it: its hand number and one-time key."""
    form = client.get(url).context["form"]
    return {
        "number": str(form["number"].value()),
        "submission_key": str(form.initial["submission_key"]),
    }


def test_a_double_tap_stores_the_hand_once_and_says_saved_both_times(personas, urls):
    client = personas["referee"]
    form = entry_form(client, urls["sheet"])
    assert form["number"] == "2"
    first = post_hand(client, urls["sheet"], outcome="self_drawn", winner="1", fan="8", **form)
    second = post_hand(client, urls["sheet"], outcome="self_drawn", winner="1", fan="8", **form)
    assert first.status_code == second.status_code == 302
    assert Hand.objects.filter(table__number=1).count() == 2  # hand 1 of the fixture, hand 2
    page = client.get(second["Location"]).content.decode()
    assert "Hand 2 saved." in page and "already entered" not in page


def test_back_then_save_sends_the_same_form_and_stores_nothing_new(personas, urls):
    client = personas["referee"]
    form = entry_form(client, urls["sheet"])
    fields = {"outcome": "discard", "winner": "2", "discarder": "0", "fan": "9", **form}
    assert post_hand(client, urls["sheet"], **fields).status_code == 302
    assert entry_form(client, urls["sheet"])["number"] == "3"  # the sheet moved on
    # The browser's Back shows the form of hand 2 again, with its key: saving repeats it.
    assert post_hand(client, urls["sheet"], **fields).status_code == 302
    assert list(Hand.objects.filter(table__number=1).values_list("number", flat=True)) == [1, 2]


def test_another_tablets_entry_for_a_stored_hand_shows_both(personas, urls):
    referee_form = entry_form(personas["referee"], urls["sheet"])
    organiser_form = entry_form(personas["organiser"], urls["sheet"])
    assert referee_form["number"] == organiser_form["number"] == "2"
    post_hand(personas["referee"], urls["sheet"], outcome="draw", **referee_form)
    response = post_hand(
        personas["organiser"],
        urls["sheet"],
        outcome="self_drawn",
        winner="3",
        fan="8",
        **organiser_form,
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Hand 2 is already entered" in page
    assert html.elements(page, "[data-stored-hand='2']") and "Open hand 2 to correct it" in page
    form = response.context["form"]
    assert (form["outcome"].value(), form["winner"].value()) == ("self_drawn", "3")  # kept
    assert Hand.objects.get(table__number=1, number=2).outcome == "draw"


def test_the_sheet_offers_no_entry_form_once_all_hands_are_entered(personas, urls, session_in_play):
    table = session_in_play.tables.get(number=1)
    for number in range(2, 17):
        services.hand_record(table=table, entry=services.HandEntry(number=number, outcome="draw"))
    page = personas["referee"].get(urls["sheet"])
    assert not html.elements(page.content, "#hand-entry")
    assert "All 16 hands are entered" in page.content.decode()


def test_save_as_a_draw_saves_a_draw_whatever_tiles_were_tapped_before(personas, urls):
    # Without JavaScript the button posts its own result after the result tile's: the
    # button's, the last, decides; the win's choices are dropped with the win.
    data = hand_data(2, outcome="discard", winner="1", discarder="2", fan="8")
    data["outcome"] = ["discard", "draw"]
    response = personas["referee"].post(urls["sheet"], data)
    assert response.status_code == 302
    hand = Hand.objects.get(number=2, table__number=1)
    assert (hand.outcome, hand.winner, hand.discarder, hand.fan) == ("draw", None, None, None)


def test_the_draw_button_is_offered_for_a_new_hand_not_for_a_correction(personas, urls):
    assert html.elements(personas["referee"].get(urls["sheet"]).content, "[data-save-draw]")
    assert not html.elements(personas["referee"].get(urls["hand"]).content, "[data-save-draw]")


def test_penalty_seat_tiles_say_each_players_wind_in_the_hand(personas, urls, session_in_play):
    sheet = personas["referee"].get(urls["sheet"])
    slot = sheet.context["form"].slot
    dealer_tile = sheet.context["penalties"].empty_form["offender"][slot.dealer]
    assert f"({slot.seat_winds[slot.dealer]}, dealer)" in dealer_tile.choice_label
    # The correction of hand 1 shows hand 1's winds, whatever the next hand is.
    correction = personas["referee"].get(urls["hand"])
    first = correction.context["form"].slot
    assert first.number == 1
    labels = [tile.choice_label for tile in correction.context["penalties"].empty_form["offender"]]
    assert [label.rsplit("(", 1)[1][0] for label in labels] == list(first.seat_winds)


def test_an_empty_table_shows_no_places_nor_table_points(personas, urls, session_in_play):
    empty = reverse("table_sheet", args=[session_in_play.tournament.slug, 1, 2])
    summary = html.one(personas["referee"].get(empty).content, "table.summary")
    assert [cell.text() for cell in summary.find("td.num.muted")] == ["—"] * 8
    # Table 1 has a hand (a draw): everyone is placed, and the table points are shared.
    summary = html.one(personas["referee"].get(urls["sheet"]).content, "table.summary")
    assert "—" not in summary.text()
    assert [row[4] for row in html.rows_of(summary)[1:]] == ["1.75"] * 4


def test_the_score_sheet_writes_the_winds_in_words(personas, urls):
    row = html.one(personas["referee"].get(urls["sheet"]).content, "tr#hand-1")
    # Hand 1: P1 deals (East, in bold) from the East seat; P2 is South in the South seat.
    winds = [(wind.classes, wind.text(), wind.one("span.muted").text())
             for wind in row.find("small.seat-wind")]  # fmt: skip
    assert winds[:2] == [
        ({"seat-wind", "dealer"}, "East (E seat)", "(E seat)"),
        ({"seat-wind"}, "South (S seat)", "(S seat)"),
    ]
    chinese = personas["referee"].get(urls["sheet"], HTTP_ACCEPT_LANGUAGE="zh-hans")
    row = html.one(chinese.content, "tr#hand-1")
    assert row.find("small.seat-wind")[0].text().startswith("东 ")


def test_the_home_lists_the_tables_in_play_the_organiser_with_their_referees(personas, urls):
    page = personas["organiser"].get(urls["home"])
    ((head, *rows),) = html.tables(page.content)
    assert head == ["Table", "Players", "Referee", "Hands", "Confirmed"]
    first = rows[0]
    assert (first[0], first[3]) == ("1", "1 / 16")
    (button,) = [a for a in html.elements(page.content, "a.button") if a.text() == "1"]
    assert button.attrs["href"] == urls["sheet"]
    # Sorted by the hands entered, fewest first: the session's own sorting parameter.
    by_hands = personas["organiser"].get(urls["home"], {"session-1-sort": "hands"})
    sorted_rows = html.tables(by_hands.content)[0][1:]
    assert (sorted_rows[0][3], sorted_rows[-1][:1]) == ("0 / 16", ["1"])
    # A referee sees their own tables, without the referees' column.
    ((head, *_rows),) = html.tables(personas["referee"].get(urls["home"]).content)
    assert head == ["Table", "Players", "Hands", "Confirmed"]
