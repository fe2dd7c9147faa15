"""The public fan calculator page."""

import pytest
from django.urls import reverse

URL = reverse("calculator")
# Pure Straight in characters, 234p, a pair of East, won on a discard of East.
STRAIGHT = "123m456m789m234pE +E"


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_everyone_can_open_the_calculator(personas, persona):
    response = personas[persona].get(URL)
    assert response.status_code == 200
    assert "Fan calculator" in response.content.decode()


def test_the_calculator_refuses_post(personas):
    assert personas["anonymous"].post(URL, {"hand": STRAIGHT}).status_code == 405


def test_a_hand_is_scored_with_english_and_chinese_names(client, db):
    page = client.get(URL, {"hand": STRAIGHT}).content.decode()
    assert "Pure Straight" in page and "清龙" in page
    assert "Reaches the 8-fan minimum" in page


def test_an_illegal_hand_is_explained_beside_the_field(client, db):
    response = client.get(URL, {"hand": "123m456m789m234pEEEEE +E"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "has-error" in page
    assert "Result" not in page


def test_a_wrong_claim_is_shown_with_what_differs(client, db):
    page = client.get(
        URL, {"hand": STRAIGHT, "claimed_total": "24", "claimed_fans": "Pure Straight, Full Flush"}
    ).content.decode()
    assert "Wrong total: 24 claimed" in page
    assert "Claimed but not scored by this hand" in page and "Full Flush" in page


def test_incompatible_fans_are_named(client, db):
    page = client.get(
        URL, {"hand": STRAIGHT, "claimed_fans": "Four Concealed Pungs, All Pungs"}
    ).content.decode()
    assert "Four Concealed Pungs and All Pungs cannot be counted together" in page


def test_an_unknown_fan_name_is_an_error_beside_its_field(client, db):
    page = client.get(URL, {"hand": STRAIGHT, "claimed_fans": "Lucky Seven"}).content.decode()
    assert "Unknown fan name" in page
