"""Table device link tokens: signed, carrying the table and the versions that revoke them."""

import pytest
from django.core import signing

from tournament import services
from tournament.hall import device_links
from tournament.models import Hand, Table


@pytest.fixture
def table(session_in_play):
    return session_in_play.tables.get(number=3)


def test_a_token_opens_its_table(table):
    assert device_links.table_for_token(device_links.device_token(table)) == table


def test_each_table_has_its_own_token(session_in_play):
    tokens = {device_links.device_token(each) for each in session_in_play.tables.all()}
    assert len(tokens) == 4


def test_a_token_is_the_same_until_revoked(table):
    assert device_links.device_token(table) == device_links.device_token(
        Table.objects.get(pk=table.pk)
    )


@pytest.mark.parametrize(
    "tamper",
    [
        lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),
        lambda token: token.replace(token.split(":")[0], "WzEsMSwxXQ"),  # [1,1,1], old signature
        lambda token: "",
        lambda token: "not-a-token",
    ],
)
def test_a_tampered_token_opens_nothing(table, tamper):
    assert device_links.table_for_token(tamper(device_links.device_token(table))) is None


def test_a_token_signed_for_something_else_opens_nothing(table):
    payload = [table.pk, 1, 1]
    assert device_links.table_for_token(signing.Signer(salt="other").sign_object(payload)) is None
    assert device_links.table_for_token(signing.Signer().sign_object(payload)) is None


def test_revoking_the_session_links_voids_every_table_token(session_in_play):
    tables = list(session_in_play.tables.all())
    tokens = [device_links.device_token(each) for each in tables]
    services.device_links_revoke(session=session_in_play)
    assert [device_links.table_for_token(token) for token in tokens] == [None] * 4
    renewed = Table.objects.get(pk=tables[0].pk)
    assert device_links.table_for_token(device_links.device_token(renewed)) == renewed


def test_revoking_one_table_link_leaves_the_others(session_in_play, table):
    other = session_in_play.tables.get(number=1)
    token, other_token = device_links.device_token(table), device_links.device_token(other)
    services.device_link_revoke(table=table)
    assert device_links.table_for_token(token) is None
    assert device_links.table_for_token(other_token) == other
    assert device_links.table_for_token(device_links.device_token(table)) == table


def test_the_link_id_names_the_table_and_fits_the_hand_field(table):
    token = device_links.device_token(table)
    link = device_links.link_id(table, token)
    assert link.startswith("table 3 · ")
    assert len(link.split(" · ")[1]) == 8
    assert len(link) <= Hand._meta.get_field("entered_by_device").max_length
    assert len(device_links.link_id(Table(number=999), token)) <= 40


def test_a_new_link_gets_a_new_id(table):
    before = device_links.link_id(table, device_links.device_token(table))
    services.device_link_revoke(table=table)
    assert device_links.link_id(table, device_links.device_token(table)) != before


def test_the_card_shows_a_qr_code_of_the_absolute_url(table):
    card = device_links.device_link_card(table, lambda path: "https://mahjong.example" + path)
    token = device_links.device_token(table)
    assert card.url == f"https://mahjong.example/device/{token}/"
    assert card.qr_svg.startswith("<svg") and card.qr_svg.rstrip().endswith("</svg>")
