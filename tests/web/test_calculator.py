"""The public fan calculator page."""

import pytest
from django.urls import reverse

from tests import html

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


def result_of(page: str) -> str:
    """The scored hand's part of the page, as read: the fans and the fans left out."""
    return html.one(page, "div.scored").text()


def test_a_hand_is_scored_with_the_fan_names_of_the_page_language(client, db):
    page = client.get(URL, {"hand": STRAIGHT}).content.decode()
    assert "Pure Straight" in result_of(page) and "清龙" not in result_of(page)
    assert "Reaches the 8-fan minimum" in page
    page = client.get(URL, {"hand": STRAIGHT}, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "清龙" in result_of(page) and "Pure Straight" not in result_of(page)


def test_an_illegal_hand_is_explained_beside_the_field(client, db):
    response = client.get(URL, {"hand": "123m456m789m234pEEEEE +E"})
    assert response.status_code == 200
    page = response.content.decode()
    assert html.elements(page, ".has-error")
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


# --- Points after fan names -----------------------------------------------------------------


def test_points_written_after_fan_names_are_not_read_as_counts(client, db):
    # The straight scores Pure Straight, Concealed Hand, One Voided Suit and Single Wait: 20.
    page = client.get(
        URL,
        {
            "hand": STRAIGHT,
            "claimed_total": "20",
            "claimed_fans": "Pure Straight 16, Concealed Hand 2, 缺一门 1, Single Wait (1)",
        },
    ).content.decode()
    assert "The claim agrees with the hand." in page
    assert not html.elements(page, ".has-error")


def test_points_that_are_not_the_fans_are_an_error_beside_its_field(client, db):
    page = client.get(URL, {"hand": STRAIGHT, "claimed_fans": "Pure Straight 8"}).content.decode()
    assert html.elements(page, ".has-error")
    assert "Pure Straight scores 16 points, not 8." in page
    assert "The claim" not in page


# --- Without the tiles -------------------------------------------------------------------------


def names_only(client, **claim):
    response = client.get(URL, claim)
    assert response.status_code == 200
    page = response.content.decode()
    assert not html.elements(page, ".has-error")
    assert "The claim, without the tiles" in html.text(page)
    assert "Result" not in html.texts(page, "h2")
    return page


def test_fans_named_without_a_hand_are_checked_for_impossible_pairs(client, db):
    page = names_only(client, claimed_fans="Chicken Hand, Nine Gates")
    assert "Nine Gates and Chicken Hand cannot both occur in one hand:" in page
    assert "Chicken Hand is a hand with no other fan (flowers apart)." in page


def test_fans_named_without_a_hand_are_checked_for_exclusions(client, db):
    page = names_only(client, claimed_fans="Four Concealed Pungs, All Pungs")
    assert "Four Concealed Pungs and All Pungs cannot be counted together" in page


def test_a_count_no_hand_reaches_is_reported_without_a_hand(client, db):
    page = names_only(client, claimed_fans="Pure Straight ×2")
    assert "Pure Straight is claimed 2 times; a hand counts it at most once." in page
    page = names_only(client, claimed_fans="Tile Hog ×4")
    assert "Tile Hog is claimed 4 times; a hand counts it at most 3 times." in page


def test_a_total_that_differs_from_the_fans_named_is_reported_without_a_hand(client, db):
    page = names_only(client, claimed_total="30", claimed_fans="Pure Straight, Concealed Hand")
    assert "The total entered, 30, differs from the fans named: they add up to 18." in page
    assert "Below the 8-fan minimum" not in page


def test_fans_named_below_the_minimum_are_reported_without_a_hand(client, db):
    page = names_only(client, claimed_fans="All Simples, Self-Drawn")
    assert "Below the 8-fan minimum: 3 without flowers." in page


def test_fans_that_can_occur_together_pass_without_a_hand(client, db):
    page = names_only(client, claimed_fans="Seven Pairs, Tile Hog, Self-Drawn")
    assert "The fans named can be counted together and reach the 8-fan minimum." in page
    assert "claim-problems" not in page


def test_a_total_alone_is_checked_against_the_minimum(client, db):
    page = names_only(client, claimed_total="8")
    assert "The total reaches the 8-fan minimum." in page
    page = names_only(client, claimed_total="6")
    assert "Below the 8-fan minimum: 6 without flowers." in page


def test_flowers_alone_are_nothing_to_check(client, db):
    page = names_only(client, claimed_fans="Flower Tiles ×3")
    assert "Nothing to check: no fan other than flowers and no total was entered." in page
    assert "badge ok" not in page


def test_with_neither_hand_nor_claim_the_hand_is_required(client, db):
    for query in ({"hand": ""}, {"hand": "", "claimed_total": "", "claimed_fans": " "}):
        page = client.get(URL, query).content.decode()
        assert html.elements(page, ".has-error")
        assert "Enter a winning hand, or the fans or total claimed to check them." in page
        assert "The claim" not in page


def test_the_page_without_a_hand_only_reads(client, db, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get(URL, {"claimed_fans": "Chicken Hand, Nine Gates"})
    assert response.status_code == 200
    assert client.post(URL, {"claimed_fans": "Chicken Hand"}).status_code == 405


def test_the_claim_template_can_be_included_with_any_check(db):
    from django.template.loader import render_to_string

    from tournament.scoring.claims import check_claim, parse_claimed_fans

    html = render_to_string(
        "scoring/claim.html",
        {"check": check_claim(claimed_fans=parse_claimed_fans("Melded Hand, Self-Drawn"))},
    )
    assert "Melded Hand and Self-Drawn cannot both occur in one hand:" in html
    assert "one needs a self-drawn win, the other a win on a discard." in html


@pytest.mark.parametrize(
    ("check", "sentence"),
    [
        ({"claimed_total": 5}, "Below the {minimum}-fan minimum: 5 without flowers."),
        ({"claimed_total": 9}, "The total reaches the {minimum}-fan minimum."),
    ],
)
@pytest.mark.parametrize("minimum", [8, 9])
def test_the_claim_template_quotes_the_minimum_of_the_rules(db, check, sentence, minimum):
    """The page's number is the rules' the claim was checked under, not typed: another
    minimum changes the page."""
    from django.template.loader import render_to_string

    from tournament.scoring.claims import check_claim
    from tournament.scoring.rules import Rules

    verdict = check_claim(**check, rules=Rules(minimum_fan=minimum))
    html = " ".join(render_to_string("scoring/claim.html", {"check": verdict}).split())
    assert sentence.format(minimum=minimum) in html


def test_the_claim_template_gives_every_reason_its_sentence(db):
    from django.template.loader import render_to_string

    from tournament.scoring.claims import REASONS, ClaimCheck, ImpossiblePair
    from tournament.scoring.fans import fan_by_name

    pair = (fan_by_name("Seven Pairs"), fan_by_name("All Pungs"))
    for code, sentence in REASONS.items():
        check = ClaimCheck(
            claimed_total=30,
            computed_total=None,
            missing=(),
            extra=(),
            incompatible=(),
            named_total=30,
            problems=("impossible_together",),
            impossible=(ImpossiblePair(*pair, code),),
        )
        html = " ".join(render_to_string("scoring/claim.html", {"check": check}).split())
        assert f"Seven Pairs and All Pungs cannot both occur in one hand: {sentence}." in html


def test_the_rules_chosen_count_the_hand_and_each_profile_is_a_link(client, db):
    seven = "234m456p678s22s23p +4p"
    seed = html.text(client.get(URL, {"hand": seven}).content.decode())
    assert "Below the 8-fan minimum" in seed
    lower = client.get(URL, {"hand": seven, "minimum": "6"}).content.decode()
    assert "Reaches the 6-fan minimum" in html.text(lower)
    # The options chosen are open and kept in the form.
    assert html.one(lower, "details.calculator-rules").attrs.get("open") is not None
    assert html.one(lower, "input[name=minimum]").attrs["value"] == "6"
    links = [a.attrs["href"] for a in html.elements(lower, ".profile-links a")]
    assert links == ["?kong=3&minimum=8", "?kong=6&minimum=8", "?kong=5&no_flowers=on&minimum=8"]
    # The seed's is the one chosen here: the minimum apart, its options.
    seed_page = client.get(URL + links[0]).content.decode()
    current = html.elements(seed_page, ".profile-links a[aria-current]")
    assert [a.attrs["href"] for a in current] == [links[0]]
    assert not html.elements(seed_page, ".field-errors")
    refused = client.get(URL, {"hand": seven, "minimum": "0"}).content.decode()
    assert "greater than or equal to 1" in html.text(refused)
