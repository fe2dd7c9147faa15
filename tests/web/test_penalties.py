"""Penalties in one go: several rows in one save, a row added without JavaScript, the
presets of the rules digest, and the players chosen with seat tiles."""

import pytest
from django.urls import reverse

from tests import html
from tournament import services
from tournament.forms.hands import PenaltyForm
from tournament.models import Hand, Penalty
from tournament.scoring.profiles import EMA
from tournament.selectors.desk import penalty_presets
from tournament.services.hands import MAX_PENALTIES_PER_HAND

FALSE_WIN_BY_P3 = {
    "offender": "2",
    "kind": "to_each_other",
    "points": "10",
    "reason": "False win (错和)",
}
LATENESS_OF_P1 = {"offender": "0", "kind": "deducted", "points": "10", "reason": "Lateness"}
EXPOSED_BY_P2_TO_P4 = {
    "offender": "1",
    "kind": "to_one",
    "points": "5",
    "beneficiary": "3",
    "reason": "Exposed another player's tiles",
}


@pytest.fixture
def urls(session_in_play):
    slug = session_in_play.tournament.slug
    services.hand_record(
        table=session_in_play.tables.get(number=1),
        entry=services.HandEntry(number=1, outcome="draw"),
    )
    return {
        "sheet": reverse("table_sheet", args=[slug, 1, 1]),
        "hand": reverse("hand_edit", args=[slug, 1, 1, 1]),
    }


def post_entry(client, url, *rows, **options):
    return client.post(url, entry_data(*rows, **options))


def entry_data(*rows, total=None, initial=0, **fields) -> dict:
    """The entry of hand 2 (a draw unless told otherwise) with ``rows`` as penalty rows;
    ``total`` rows are announced (the rows given, at least one, unless told)."""
    data = {
        "number": "2",
        "outcome": "draw",
        "winner": "",
        "discarder": "",
        "fan": "",
        "flowers": "0",
        "fan_names": "",
        "penalty-TOTAL_FORMS": str(total if total is not None else max(len(rows), 1)),
        "penalty-INITIAL_FORMS": str(initial),
        "penalty-MIN_NUM_FORMS": "0",
        "penalty-MAX_NUM_FORMS": str(MAX_PENALTIES_PER_HAND),
    }
    for index, row in enumerate(rows):
        data.update({f"penalty-{index}-{name}": value for name, value in row.items()})
    data.update(fields)
    return data


def stored_penalties(number=2):
    return list(
        Penalty.objects.filter(hand__number=number, hand__table__number=1).values_list(
            "offender", "kind", "points", "beneficiary", "reason"
        )
    )


def penalties_block(page) -> html.Element:
    return html.one(page, "details.penalties")


def test_two_penalties_in_one_save_are_stored_and_settled(personas, urls):
    response = post_entry(personas["referee"], urls["sheet"], FALSE_WIN_BY_P3, LATENESS_OF_P1)
    assert response.status_code == 302
    hand = Hand.objects.get(number=2, table__number=1)
    # A draw: P3 pays 10 to each other player; P1 loses 10 from the table for lateness.
    assert hand.points == (10 - 10, 10, -30, 10)
    assert hand.deducted == 10
    assert stored_penalties() == [
        (2, "to_each_other", 10, None, "False win (错和)"),
        (0, "deducted", 10, None, "Lateness"),
    ]
    # One save: the hand is entered once, not entered and then corrected.
    assert hand.version == 1 and not hand.revisions.exists()


def test_a_penalty_paid_to_one_player_goes_to_the_seat_chosen(personas, urls):
    response = post_entry(
        personas["referee"], urls["sheet"], EXPOSED_BY_P2_TO_P4, FALSE_WIN_BY_P3, LATENESS_OF_P1
    )
    assert response.status_code == 302
    hand = Hand.objects.get(number=2, table__number=1)
    assert hand.points == (10 - 10, 10 - 5, -30, 10 + 5)
    assert hand.deducted == 10
    assert [row[3] for row in stored_penalties()] == [3, None, None]


def test_a_beneficiary_ticked_for_another_kind_is_not_stored(personas, urls):
    response = post_entry(
        personas["referee"], urls["sheet"], {**LATENESS_OF_P1, "beneficiary": "2"}
    )
    assert response.status_code == 302
    assert stored_penalties() == [(0, "deducted", 10, None, "Lateness")]


def test_empty_rows_are_ignored(personas, urls):
    response = post_entry(
        personas["referee"], urls["sheet"], {}, FALSE_WIN_BY_P3, {"beneficiary": ""}, total=4
    )
    assert response.status_code == 302
    assert stored_penalties() == [(2, "to_each_other", 10, None, "False win (错和)")]


def test_add_a_penalty_row_shows_one_more_row_keeps_what_was_typed_and_saves_nothing(
    personas, urls
):
    response = post_entry(
        personas["referee"],
        urls["sheet"],
        FALSE_WIN_BY_P3,
        outcome="self_drawn",
        winner="1",
        fan="8",
        add_penalty="1",
    )
    assert response.status_code == 200
    assert response.context["penalties"].total_form_count() == 2
    page = html.parse(response.content)
    block = page.one("details.penalties")
    assert block.one("input[name=penalty-TOTAL_FORMS]").attrs["value"] == "2"
    assert block.find("#penalty-1") and not block.find("#penalty-2")
    offender = block.one("input#id_penalty-0-offender_2")
    assert offender.attrs["name"] == "penalty-0-offender" and offender.attrs["value"] == "2"
    assert "checked" in offender.attrs
    assert block.one("input[name=penalty-0-reason]").attrs["value"] == "False win (错和)"
    assert block.one("[name=penalty-0-kind] option[selected]").attrs["value"] == "to_each_other"
    winner = page.one("input#id_winner_1")
    assert winner.attrs["name"] == "winner" and winner.attrs["value"] == "1"
    assert "checked" in winner.attrs
    assert page.one("input[name=fan]").attrs["value"] == "8"
    # The hand is not judged while it is being written: no "choose the ..." on its fields.
    assert not response.context["form"].errors
    assert "open" in block.attrs
    assert not Hand.objects.filter(number=2).exists()
    assert not Penalty.objects.exists()


def test_rows_added_one_at_a_time_are_all_saved_together(personas, urls):
    client = personas["referee"]
    response = post_entry(client, urls["sheet"], FALSE_WIN_BY_P3, add_penalty="1")
    assert response.context["penalties"].total_form_count() == 2
    response = post_entry(client, urls["sheet"], FALSE_WIN_BY_P3, {}, add_penalty="1")
    assert response.context["penalties"].total_form_count() == 3
    response = post_entry(client, urls["sheet"], FALSE_WIN_BY_P3, {}, LATENESS_OF_P1)
    assert response.status_code == 302
    assert [row[1] for row in stored_penalties()] == ["to_each_other", "deducted"]


def test_add_a_penalty_row_when_correcting_a_hand_keeps_the_stored_rows(personas, urls):
    hand = Hand.objects.get(number=1, table__number=1)
    response = post_entry(
        personas["referee"],
        urls["hand"],
        LATENESS_OF_P1,
        number="1",
        version=str(hand.version),
        add_penalty="1",
    )
    assert response.status_code == 200
    assert response.context["editing"] == hand
    assert response.context["penalties"].total_form_count() == 2
    block = penalties_block(response.content)
    assert block.one("input[name=penalty-0-reason]").attrs["value"] == "Lateness"
    assert block.one("button[name=add_penalty]").attrs["formaction"] == f"{urls['hand']}#penalties"
    hand.refresh_from_db()
    assert hand.version == 1 and not hand.penalties.exists()


def test_no_row_is_added_past_the_most_a_hand_may_have(personas, urls):
    rows = [LATENESS_OF_P1] * MAX_PENALTIES_PER_HAND
    response = post_entry(personas["referee"], urls["sheet"], *rows, add_penalty="1")
    assert response.status_code == 200
    assert response.context["penalties"].total_form_count() == MAX_PENALTIES_PER_HAND
    button = html.one(response.content, "button[type=submit][name=add_penalty]")
    assert "disabled" in button.attrs
    assert not Penalty.objects.exists()


def test_nine_rows_are_refused_with_the_services_words(personas, urls):
    rows = [LATENESS_OF_P1] * (MAX_PENALTIES_PER_HAND + 1)
    response = post_entry(personas["referee"], urls["sheet"], *rows)
    assert response.status_code == 200
    block = penalties_block(response.content)
    assert "A hand has at most 8 penalties." in block.text()
    assert not Hand.objects.filter(number=2).exists()
    assert not Penalty.objects.exists()


def test_a_row_without_its_reason_is_refused_beside_the_reason(personas, urls):
    without_reason = {**LATENESS_OF_P1, "reason": "  "}
    response = post_entry(personas["referee"], urls["sheet"], FALSE_WIN_BY_P3, without_reason)
    assert response.status_code == 200
    penalties = response.context["penalties"]
    assert not penalties.forms[0].errors
    assert penalties.forms[1].errors == {"reason": ["Give the reason for the penalty."]}
    page = response.content
    (field,) = [
        field
        for field in html.elements(page, "div.field.has-error")
        if field.find("label[for=id_penalty-1-reason]")
    ]
    assert "Give the reason for the penalty." in field.one(".field-errors").text()
    assert "open" in penalties_block(page).attrs
    assert not Hand.objects.filter(number=2).exists()
    assert not Penalty.objects.exists()


def test_a_seed_tournaments_presets_follow_the_rules_digest(tournament):
    figures = {
        str(p.reason): (p.kind, p.default_points, p.figures) for p in penalty_presets(tournament)
    }
    assert figures == {
        "False win (错和)": ("to_each_other", 10, "10"),
        "Claimed a win while not ready (诈和)": ("to_each_other", 20, "20"),
        "Exposed another player's tiles": ("to_one", 5, "5…60"),
        "Procedural foul after a warning": ("deducted", 5, "5…60"),
        "Lateness": ("deducted", 10, "10 or 20"),
    }


def test_each_row_offers_the_presets_as_buttons_hidden_until_the_script_shows_them(
    personas, urls, tournament
):
    block = penalties_block(personas["referee"].get(urls["sheet"]).content)
    presets = penalty_presets(tournament)
    assert len(block.find("[data-penalty-presets] button[data-preset-kind]")) == 2 * len(presets)
    for preset in presets:
        button = (
            f"button[type=button][data-preset-kind={preset.kind}]"
            f"[data-preset-points='{preset.default_points}']"
            f'[data-preset-reason="{preset.reason}"]'
        )
        # In the row shown and in the empty row the script copies.
        assert len(block.find(f"[data-penalty-presets] {button}")) == 2
        assert str(preset.reason) in [option.attrs["value"] for option in block.find("option")]
    assert len(block.find("[data-penalty-presets][hidden]")) == 2
    ranges = [b.attrs["data-preset-range"] for b in block.find("[data-preset-range]")]
    assert "The rules allow 5…60." in ranges


def test_offender_and_beneficiary_are_seat_tiles(personas, urls):
    block = penalties_block(personas["referee"].get(urls["sheet"]).content)
    assert not block.find("select[name=penalty-0-beneficiary]")
    for name in ("offender", "beneficiary"):
        tiles = block.find(f"label input[type=radio][name=penalty-0-{name}]")
        values = [tile.attrs["value"] for tile in tiles]
        assert values == (["0", "1", "2", "3"] if name == "offender" else ["", "0", "1", "2", "3"])
    assert {"choices", "beneficiary"} <= block.one("#penalty-0 fieldset[data-beneficiary]").classes
    nobody = block.one("input#id_penalty-0-beneficiary_0")
    assert nobody.attrs["value"] == "" and "checked" in nobody.attrs
    (label,) = [label for label in block.find("label") if nobody in label.find("input")]
    assert label.text() == "— none"


def test_the_empty_row_to_copy_is_in_a_template(personas, urls):
    page = personas["referee"].get(urls["sheet"]).content
    template = html.one(page, "template[data-penalty-empty-row]")
    row = template.one("#penalty-__prefix__")
    assert row.find("legend")[0].text() == "Penalty __number__"
    assert row.find("[name=penalty-__prefix__-reason]")


def test_the_penalties_block_opens_by_itself_only_when_needed(personas, urls):
    client = personas["referee"]

    def opened(response) -> bool:
        return "open" in penalties_block(response.content).attrs

    assert not opened(client.get(urls["sheet"]))
    assert opened(post_entry(client, urls["sheet"], add_penalty="1"))
    assert opened(post_entry(client, urls["sheet"], {"offender": "1"}))
    services.hand_record(
        table=Hand.objects.get(number=1).table,
        entry=services.HandEntry(
            number=1,
            outcome="draw",
            penalties=[
                services.PenaltyEntry(offender=0, kind="deducted", points=5, reason="Lateness")
            ],
            version=1,
        ),
    )
    assert opened(client.get(urls["hand"]))


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 200), ("other_referee", 403), ("anonymous", 302)],
)
def test_add_a_penalty_row_by_persona(personas, urls, persona, expected):
    response = post_entry(personas[persona], urls["sheet"], FALSE_WIN_BY_P3, add_penalty="1")
    assert response.status_code == expected
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    ("page", "extra"),
    [
        ("sheet", {}),
        ("sheet", {"add_penalty": "1"}),
        ("sheet", {"compute": "1"}),
        ("hand", {"outcome": "draw", "version": "1"}),
    ],
    ids=["save", "add-row", "compute", "correct"],
)
def test_a_hundred_thousand_rows_announced_are_refused_without_building_them(
    personas, urls, monkeypatch, page, extra
):
    built = []
    original = PenaltyForm.__init__

    def counting(self, *args, **kwargs):
        built.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(PenaltyForm, "__init__", counting)
    before = list(Hand.objects.values_list("number", "version"))

    response = post_entry(personas["referee"], urls[page], LATENESS_OF_P1, total=100_000, **extra)

    assert response.status_code == 200
    assert "A hand has at most 8 penalties." in penalties_block(response.content).text()
    # The rows a hand may have and the empty row the page copies, not 100,000 (nor 1,008).
    assert len(built) <= MAX_PENALTIES_PER_HAND + 1
    assert list(Hand.objects.values_list("number", "version")) == before
    assert not Penalty.objects.exists()


def test_a_hundred_thousand_rows_sent_in_the_background_are_refused_in_json(personas, urls):
    response = personas["referee"].post(
        urls["sheet"],
        entry_data(LATENESS_OF_P1, total=100_000),
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 422
    assert "A hand has at most 8 penalties." in response.json()["errors"]["penalties"]
    assert not Hand.objects.filter(number=2).exists()


TILE_NOT_TAKEN = '[data-preset-reason="Counted the hand before taking the winning tile"]'


def test_the_sheet_offers_the_tournaments_own_presets(personas, urls, tournament, organiser):
    """A seed tournament has no preset for a hand counted before its winning tile was
    taken; once its presets are the EMA's, its table's referee taps it: deducted, 10."""
    referee = personas["referee"]
    assert not penalties_block(referee.get(urls["sheet"]).content).find(TILE_NOT_TAKEN)
    ema = [
        {"offence": p.offence, "kind": p.kind.value, "points": list(p.points)}
        for p in EMA.penalty_presets
    ]
    services.rules_change(
        tournament=tournament, user=organiser, reason="The EMA's presets", penalty_presets=ema
    )
    block = penalties_block(referee.get(urls["sheet"]).content)
    (button, _empty_row_copy) = block.find(f"[data-penalty-presets] button{TILE_NOT_TAKEN}")
    assert (button.attrs["data-preset-kind"], button.attrs["data-preset-points"]) == (
        "deducted",
        "10",
    )
    # The win claimed while not ready is 10 under the EMA's presets, 20 under the seed's.
    not_ready = block.find(
        '[data-penalty-presets] button[data-preset-reason="Claimed a win while not ready (诈和)"]'
    )
    assert [button.attrs["data-preset-points"] for button in not_ready] == ["10", "10"]
