"""The admin site reads the tournament data but changes nothing: writes go through the pages'
services, which check what a change would break (a drawn session, a settled hand)."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests import html
from tests.conftest import login, make_players
from tournament import services
from tournament.models import SeatingPlan, Tournament


@pytest.fixture
def admin_client(db):
    return login(User.objects.create_superuser("admin", password="pw-admin"))


@pytest.fixture
def objects(tournament):
    """model name -> a stored object: the tournament and its seating plan."""
    make_players(tournament, 8)
    services.session_draw(tournament=tournament, number=1, seed=7, method="planned")
    return {"tournament": tournament, "seatingplan": SeatingPlan.objects.get()}


MODELS = ["tournament", "seatingplan"]


@pytest.mark.parametrize("model", MODELS)
def test_the_list_is_readable_without_delete_action(admin_client, objects, model):
    response = admin_client.get(reverse(f"admin:tournament_{model}_changelist"))
    assert response.status_code == 200
    html = response.content.decode()
    assert reverse(f"admin:tournament_{model}_change", args=[objects[model].pk]) in html
    assert "delete_selected" not in html


@pytest.mark.parametrize("model", MODELS)
def test_the_change_page_shows_the_data_without_a_save_button(admin_client, objects, model):
    response = admin_client.get(
        reverse(f"admin:tournament_{model}_change", args=[objects[model].pk])
    )
    assert response.status_code == 200
    page = response.content
    assert not html.elements(page, "[name=_save]")
    assert not html.elements(page, "[name=_continue]")
    assert not html.elements(page, ".deletelink")
    assert b"deletelink" not in page


def test_a_posted_change_is_refused_and_the_settings_stay(admin_client, objects):
    tournament = objects["tournament"]
    response = admin_client.post(
        reverse("admin:tournament_tournament_change", args=[tournament.pk]),
        {"name": "Renamed", "slug": tournament.slug, "session_count": "1"},
    )
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert (tournament.name, tournament.session_count) == ("Spring Open", 4)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_adding_is_refused(admin_client, objects, model, method):
    response = getattr(admin_client, method)(reverse(f"admin:tournament_{model}_add"))
    assert response.status_code == 403


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_deleting_is_refused(admin_client, objects, model, method):
    url = reverse(f"admin:tournament_{model}_delete", args=[objects[model].pk])
    response = getattr(admin_client, method)(url, {"post": "yes"})
    assert response.status_code == 403
    assert Tournament.objects.exists()
    assert SeatingPlan.objects.exists()


def test_the_account_pages_draw_the_admins_own_widgets(admin_client, organiser):
    """The accounts' pages (where an organiser is given *add tournament*) use the admin's own
    widgets, which the form renderer finds beside Django's."""
    for url in (
        reverse("admin:auth_user_change", args=[organiser.pk]),
        reverse("admin:auth_user_add"),
        reverse("admin:auth_group_add"),
    ):
        response = admin_client.get(url)
        assert response.status_code == 200, url
    page = admin_client.get(reverse("admin:auth_user_change", args=[organiser.pk])).content
    assert html.elements(page, ".related-widget-wrapper")
    assert html.elements(page, "[name=user_permissions]")
