"""The organiser's page giving each session's tables to referees, in runs such as "1-6"."""

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import login, make_players, make_user, referees_by_table
from tests.web.pages import assert_error_beside
from tournament import services


@pytest.fixture
def drawn(tournament):
    """Session 1 drawn for 16 players (4 tables), nobody assigned."""
    make_players(tournament, 16)
    return services.session_draw(tournament=tournament, number=1, seed=20261130)


@pytest.fixture
def url(drawn):
    return reverse("table_referees", args=[drawn.tournament.slug, 1])


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_the_page_by_persona(personas, url, persona, expected):
    response = personas[persona].get(url)
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 302), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_only_the_organiser_assigns(personas, url, drawn, referee, persona, expected):
    response = personas[persona].post(url, {"referee": str(referee.pk), "tables": "1-4"})
    assert response.status_code == expected
    assigned = "referee" if persona == "organiser" else None
    assert set(referees_by_table(drawn).values()) == {assigned}


def test_other_methods_are_refused(personas, url):
    assert personas["organiser"].put(url).status_code == 405


def test_an_unknown_session_is_404(personas, drawn):
    url = reverse("table_referees", args=[drawn.tournament.slug, 2])
    assert personas["organiser"].get(url).status_code == 404


def test_the_page_lists_each_table_with_its_referee(personas, url, drawn, referee):
    services.tables_assign(session=drawn, referee=referee, tables=[2])
    response = personas["organiser"].get(url)
    rows = {row.table.number: row for row in response.context["tables"]}
    assert sorted(rows) == [1, 2, 3, 4]
    assert rows[2].table.referee == referee and rows[1].table.referee is None
    assert html.texts(response.content, "td.referee") == [
        "nobody", "referee", "nobody", "nobody",
    ]  # fmt: skip
    (second,) = html.elements(response.content, "tr#table-2")
    assert second.text().startswith("2 ")
    # Sorted by referee, the tables without one last (as every table sorts no value), by number.
    by_referee = personas["organiser"].get(url, {"sort": "referee"})
    assert [row[0] for row in html.table(by_referee.content, "table")[1:]] == ["2", "1", "3", "4"]


def test_the_form_offers_the_referees_and_organisers_and_nobody(personas, url, organiser, referee):
    field = personas["organiser"].get(url).context["form"].fields["referee"]
    offered = [value for value, _label in field.choices]
    assert offered == ["", str(organiser.pk), str(referee.pk), "nobody"]


def test_a_run_of_tables_goes_to_one_referee_and_the_page_says_so(personas, url, drawn, referee):
    response = personas["organiser"].post(
        url, {"referee": str(referee.pk), "tables": "1-3"}, follow=True
    )
    assert response.redirect_chain == [(url, 302)]
    assert "Tables 1, 2, 3 go to referee." in response.content.decode()
    assert referees_by_table(drawn) == {1: "referee", 2: "referee", 3: "referee", 4: None}


def test_nobody_clears_the_tables(personas, url, drawn, referee):
    services.tables_assign(session=drawn, referee=referee, tables=[1, 2, 3, 4])
    response = personas["organiser"].post(url, {"referee": "nobody", "tables": "4"}, follow=True)
    assert "Table 4 now has no referee." in response.content.decode()
    assert referees_by_table(drawn) == {1: "referee", 2: "referee", 3: "referee", 4: None}


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ("", "This field is required."),
        ("one to six", "“one” is neither a table number nor a range such as 1-6."),
        ("4-2", "“4-2” runs backwards: write 2-4."),
        ("3-6", "Session 1 has no tables 5, 6."),  # the service's refusal, beside the field
    ],
)
def test_bad_tables_are_refused_beside_the_field(personas, url, drawn, referee, tables, message):
    response = personas["organiser"].post(url, {"referee": str(referee.pk), "tables": tables})
    assert_error_beside(response, "tables", message)
    assert set(referees_by_table(drawn).values()) == {None}


@pytest.mark.parametrize("choice", ["", "someone"])
def test_a_referee_must_be_chosen_beside_the_field(personas, url, drawn, choice):
    response = personas["organiser"].post(url, {"referee": choice, "tables": "1"})
    message = "This field is required." if not choice else "Select a valid choice."
    assert_error_beside(response, "referee", message)
    assert set(referees_by_table(drawn).values()) == {None}


def test_an_account_from_outside_the_tournament_is_not_offered(personas, url, drawn):
    stranger = make_user("stranger")
    response = personas["organiser"].post(url, {"referee": str(stranger.pk), "tables": "1"})
    assert_error_beside(response, "referee", "Select a valid choice.")
    assert set(referees_by_table(drawn).values()) == {None}


def test_the_overview_and_the_seating_link_to_the_page_for_organisers_only(personas, url, drawn):
    slug = drawn.tournament.slug
    for page in (reverse("tournament", args=[slug]), reverse("seating", args=[slug, 1])):
        assert url in personas["organiser"].get(page).content.decode()
        assert url not in personas["referee"].get(page).content.decode()


def test_a_second_organiser_may_assign_too(tournament, url, drawn, other_referee):
    services.tournament_update(
        tournament=tournament, organisers=[*tournament.organisers.all(), other_referee]
    )
    response = login(other_referee).post(url, {"referee": str(other_referee.pk), "tables": "1"})
    assert response.status_code == 302
    assert referees_by_table(drawn)[1] == "other-referee"


def test_each_table_links_to_its_sheet_also_once_the_session_is_closed(personas, url, drawn):
    drawn = services.session_open(session=drawn)
    organiser = drawn.tournament.organisers.get()
    for table in drawn.tables.all():
        services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.session_close(session=drawn)
    page = personas["organiser"].get(url).content
    for number in (1, 2, 3, 4):
        sheet = reverse("table_sheet", args=[drawn.tournament.slug, 1, number])
        assert html.elements(page, f"a[href='{sheet}']")
    sheet = personas["organiser"].get(reverse("table_sheet", args=[drawn.tournament.slug, 1, 2]))
    assert "Reopen for correction" in sheet.content.decode()
