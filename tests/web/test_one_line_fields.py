"""A name typed or imported with a line break or a control character is refused beside its
field (or its row), and nothing is stored or sent: the audit's sign-up named
``x\\r\\nBcc: …``, whose lines showed in the e-mail's body."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.web.pages import assert_error_beside
from tests.web.player_pages import SLUG, csv_file, players, upload
from tournament import services
from tournament.models import OutgoingEmail, SignUp

ONE_LINE = "Use one line, without line breaks or control characters"


@pytest.fixture
def open_form(tournament):
    return services.tournament_update(tournament=tournament, sign_up_open=True)


def test_a_sign_up_named_with_a_bcc_line_is_refused_beside_the_name_and_nobody_is_mailed(
    open_form,
):
    response = Client().post(
        reverse("sign_up_form", args=["spring-open"]),
        {"name": "x\r\nBcc: evil@example.org", "email": "ann@example.org"},
    )
    assert_error_beside(response, "name", f"{ONE_LINE} (U+000D).")
    assert not SignUp.objects.exists()
    assert not OutgoingEmail.objects.exists()
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("first_name", "Ann\nBcc: evil@example.org"),
        ("last_name", "Lee\u2028Bcc: evil@example.org"),
        ("name_zh", "王\x1b[2J"),
        ("team", "\u202eCLUB"),
    ],
)
def test_every_name_of_the_sign_up_form_is_one_line(open_form, field, value):
    response = Client().post(
        reverse("sign_up_form", args=["spring-open"]),
        {"name": "Ann Lee", "email": "ann@example.org", field: value},
    )
    assert_error_beside(response, field, ONE_LINE)
    assert not SignUp.objects.exists()


@pytest.mark.django_db
def test_the_player_form_refuses_a_name_on_two_lines_beside_the_field(cast):
    before = players(cast.tournament)
    response = cast.organiser.post(
        reverse("player_edit", args=[SLUG, 1]),
        {"number": 1, "name": "Alice\nMallory", "team": "Lyon"},
    )
    assert_error_beside(response, "name", f"{ONE_LINE} (U+000A).")
    response = cast.organiser.post(
        reverse("player_add", args=[SLUG]), {"number": 2, "name": "Bob", "team": "Lyon\x07"}
    )
    assert_error_beside(response, "team", f"{ONE_LINE} (U+0007).")
    assert players(cast.tournament) == before


@pytest.mark.django_db
def test_an_imported_row_with_a_control_character_is_a_row_error(cast):
    text = 'number,name,team\n2,"Bob\nBcc: evil@example.org",Lyon\n3,Cy,"Ly\x1bon"\n4,Di,Paris\n'
    response = upload(cast, csv_file(text))
    rows = response.context["preview"].rows
    assert [row.action for row in rows] == ["error", "error", "new"]
    html = response.content.decode()
    assert "must be one line, without line breaks or control characters (U+000A)." in html
    assert "must be one line, without line breaks or control characters (U+001B)." in html
    assert reverse("player_import_confirm", args=[SLUG]) not in html
