"""Players who sat in each other's seats, put right through the pages: who may, what the
standings then say, and bad input beside its field."""

import pytest
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import login, make_user
from tests.web.pages import hand_data
from tournament import seating, services
from tournament.hall import device_links
from tournament.models import Seat
from tournament.selectors.standings import tournament_standings

# Six hands by player: (result, winner, discarder, fan, flowers, penalty) with players as
# their index among the table's four as drawn; the penalty as (offender, kind, points).
HANDS = [
    ("self_drawn", 0, None, 8, 1, None),
    ("discard", 1, 2, 12, 0, None),
    ("draw", None, None, None, 0, None),
    ("discard", 2, 0, 16, 0, (3, "to_each_other", 10)),
    ("self_drawn", 3, None, 24, 2, None),
    ("discard", 0, 3, 9, 0, (1, "deducted", 10)),
]


def post_hands(client, url: str, seat_of: list[int]) -> None:
    """Enter HANDS at the sheet ``url``, player i sitting at seat ``seat_of[i]``."""
    for number, (outcome, winner, discarder, fan, flowers, penalty) in enumerate(HANDS, 1):
        fields = {"outcome": outcome, "flowers": flowers}
        if winner is not None:
            fields.update(winner=seat_of[winner], fan=fan)
        fields["discarder"] = "" if discarder is None else seat_of[discarder]
        if outcome not in ("self_drawn", "discard"):
            fields.update(winner="", fan="")
        if penalty is not None:
            offender, kind, points = penalty
            fields.update(
                {
                    "penalty-TOTAL_FORMS": "1",
                    "penalty-0-offender": seat_of[offender],
                    "penalty-0-kind": kind,
                    "penalty-0-points": points,
                    "penalty-0-reason": "foul",
                    "penalty-0-beneficiary": "",
                }
            )
        response = client.post(url, hand_data(number, **fields))
        assert response.status_code == 302, response.content.decode()[:2000]


def seated(table) -> list[int]:
    """The players' numbers by seat, P1 to P4."""
    return [s.player.number for s in Seat.objects.filter(table=table).order_by("seat")]


@pytest.fixture
def urls(session_in_play):
    slug = session_in_play.tournament.slug
    return {
        "swap": reverse("table_seats_swap", args=[slug, 1, 1]),
        "sheet": reverse("table_sheet", args=[slug, 1, 1]),
        "swap_2": reverse("table_seats_swap", args=[slug, 1, 2]),
        "sheet_2": reverse("table_sheet", args=[slug, 1, 2]),
    }


@pytest.mark.parametrize(
    ("persona", "get", "post"),
    [
        ("organiser", 200, 302),
        ("referee", 200, 302),
        ("other_referee", 403, 403),
        ("anonymous", 302, 302),
    ],
)
def test_who_may_put_the_seats_right(personas, urls, session_in_play, persona, get, post):
    table = session_in_play.tables.get(number=1)
    drawn = seated(table)
    assert personas[persona].get(urls["swap"]).status_code == get
    response = personas[persona].post(urls["swap"], {"first": 0, "second": 1})
    assert response.status_code == post
    swapped = persona in ("organiser", "referee")
    assert seated(table) == ([drawn[1], drawn[0], *drawn[2:]] if swapped else drawn)
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))


def test_a_referee_of_another_table_may_not(urls, session_in_play):
    stranger = make_user("stranger")
    session_in_play.tournament.referees.add(stranger)
    services.tables_assign(session=session_in_play, referee=stranger, tables=[2])
    client = login(stranger)
    assert client.get(urls["swap"]).status_code == 403
    assert client.post(urls["swap"], {"first": 0, "second": 1}).status_code == 403
    assert client.get(urls["swap_2"]).status_code == 200


def test_the_standings_equal_a_re_entry_in_the_right_seats(personas, urls, session_in_play):
    client = personas["referee"]
    table_1 = session_in_play.tables.get(number=1)
    table_2 = session_in_play.tables.get(number=2)
    drawn_1, drawn_2 = seated(table_1), seated(table_2)
    # Table 1: P1 and P3 sat in each other's seat; the hands were entered as drawn.
    post_hands(client, urls["sheet"], seat_of=[0, 1, 2, 3])
    response = client.post(urls["swap"], {"first": 0, "second": 2})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "P1 and P3 swapped seats; 6 hands follow their players." in page
    assert seated(table_1) == [drawn_1[2], drawn_1[1], drawn_1[0], drawn_1[3]]
    # Table 2 is put right first, then enters the same hands, player for player.
    client.post(urls["swap_2"], {"first": 0, "second": 2})
    post_hands(client, urls["sheet_2"], seat_of=[2, 1, 0, 3])
    standings = {row.player.number: row for row in tournament_standings(session_in_play.tournament)}
    for corrected, reentered in zip(drawn_1, drawn_2, strict=True):
        a, b = standings[corrected], standings[reentered]
        assert (a.score, a.table_points, a.places) == (b.score, b.table_points, b.places)
    # The sheet shows each hand under its player: the same columns as the re-entry's.
    assert [h.points for h in table_1.hands.order_by("number")] == [
        h.points for h in table_2.hands.order_by("number")
    ]


def test_the_same_seat_twice_is_refused_beside_the_field(personas, urls, session_in_play):
    table = session_in_play.tables.get(number=1)
    drawn = seated(table)
    response = personas["referee"].post(urls["swap"], {"first": 2, "second": 2})
    assert response.status_code == 200
    assert response.context["form"].errors["second"] == ["Choose two different seats."]
    assert "has-error" in html.one(response.content, "fieldset#field-second").classes
    response = personas["referee"].post(urls["swap"], {"first": 1})
    assert "second" in response.context["form"].errors
    assert seated(table) == drawn


def test_a_confirmed_table_says_it_is_confirmed(personas, urls, session_in_play, organiser):
    table = session_in_play.tables.get(number=1)
    services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    page = personas["referee"].get(urls["swap"]).content.decode()
    assert "The table is confirmed: an organiser reopens it first." in page
    assert "Swap their seats" not in page
    response = personas["referee"].post(urls["swap"], {"first": 0, "second": 1})
    assert response.context["form"].non_field_errors() == [
        "Table 1 is confirmed: only an organiser can reopen it."
    ]
    sheet = personas["referee"].get(urls["sheet"]).content.decode()
    assert "Players sat in other seats than drawn?" not in sheet


def test_the_sheet_links_to_it(personas, urls):
    page = personas["referee"].get(urls["sheet"]).content.decode()
    assert html.elements(page, f"a[href='{urls['swap']}']")


def page_key(client, url: str) -> str:
    """The seating key a page carries in its hidden field."""
    return seating_key(client.get(url))


def seating_key(response) -> str:
    return html.one(response.content, "input[name=seating]").attrs["value"]


def test_a_swap_sent_twice_is_made_once(personas, urls, session_in_play):
    client = personas["referee"]
    table = session_in_play.tables.get(number=1)
    drawn = seated(table)
    key = page_key(client, urls["swap"])
    assert key == "-".join(str(n) for n in drawn)
    data = {"first": 0, "second": 1, "seating": key}
    assert client.post(urls["swap"], data).status_code == 302
    again = client.post(urls["swap"], data)
    assert again.status_code == 200
    assert again.context["form"].non_field_errors() == [
        "The seats were changed after this page was opened (the swap was made already?): the "
        "table is shown as it is now, and nothing more was changed."
    ]
    assert seated(table) == [drawn[1], drawn[0], *drawn[2:]]
    # The page shown carries the seats as they are: swapping again is a choice, and works.
    key = seating_key(again)
    assert client.post(urls["swap"], {**data, "seating": key}).status_code == 302
    assert seated(table) == drawn


def test_a_hand_from_a_page_shown_before_the_swap_is_refused(personas, urls, session_in_play):
    client = personas["referee"]
    table = session_in_play.tables.get(number=1)
    drawn = seated(table)
    old_key = page_key(client, urls["sheet"])
    client.post(urls["swap"], {"first": 0, "second": 2, "seating": old_key})
    response = client.post(urls["sheet"], hand_data(1, winner=0, seating=old_key))
    assert response.status_code == 200
    assert not table.hands.exists()
    assert (
        response.context["form"]
        .non_field_errors()[0]
        .startswith("The players' seats at this table were changed after this page was opened.")
    )
    # Shown again with the players where they sit now, the entry kept: saved once checked.
    key = seating_key(response)
    assert key == "-".join(str(n) for n in [drawn[2], drawn[1], drawn[0], drawn[3]])
    assert client.post(urls["sheet"], hand_data(1, winner=0, seating=key)).status_code == 302
    assert table.hands.get().winner == 0
    # The background save is told why, in its JSON.
    answer = client.post(
        urls["sheet"], hand_data(2, seating=old_key), HTTP_ACCEPT="application/json"
    ).json()
    assert answer["saved"] is False and "seats at this table were changed" in str(answer)


def test_the_tables_tablet_may_put_its_seats_right(urls, session_in_play):
    table = session_in_play.tables.get(number=1)
    tablet = Client()
    tablet.get(reverse("device_link", args=[device_links.device_token(table)]))
    drawn = seated(table)
    assert tablet.post(urls["swap"], {"first": 1, "second": 3}).status_code == 302
    assert seated(table) == [drawn[0], drawn[3], drawn[2], drawn[1]]
    assert tablet.post(urls["swap_2"], {"first": 1, "second": 3}).status_code == 403


def test_hands_whose_tiles_no_longer_agree_are_named(personas, urls, session_in_play):
    slot = seating.session_schedule()[0]
    text = f"123456789m1s{slot.seat_winds[0] * 3} +1s"
    fan = services.hands.score_winning_hand(
        text=text, number=1, winner=0, outcome="self_drawn"
    ).total_without_flowers
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, outcome="self_drawn", winner=0, fan=fan, winning_hand=text
        ),
    )
    response = personas["referee"].post(urls["swap"], {"first": 0, "second": 1}, follow=True)
    page = response.content.decode()
    assert "the tiles of hands 1 no longer give the fan the players declared" in page
