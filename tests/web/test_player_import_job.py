"""The import as the organiser sees it: confirming answers at once, the import page follows
the task worker's progress, then says what it did or why nothing was imported; one import
at a time; every persona."""

import re
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import html
from tests.web.player_pages import csv_file, import_result, messages_of
from tournament import services
from tournament.models import Player, PlayerImport
from tournament.server.task_worker import tasks_run_ready
from tournament.services import player_imports

SLUG = "spring-open"
IMPORT = reverse("player_import", args=[SLUG])
CONFIRM = reverse("player_import_confirm", args=[SLUG])


def payload_of(client, text: str) -> str:
    preview = client.post(IMPORT, {"file": csv_file(text)})
    assert preview.status_code == 200
    return preview.context["confirm_form"].initial["payload"]


def rows(count: int) -> str:
    return "number,name,country\n" + "".join(f"{n},Player {n},FRA\n" for n in range(1, count + 1))


# ---------------------------------------------------------------- personas


@pytest.mark.parametrize(
    ("persona", "page", "confirmed"),
    [
        ("organiser", 200, 302),
        ("referee", 403, 403),
        ("other_referee", 403, 403),
        ("anonymous", 302, 302),
    ],
)
def test_only_the_organiser_may_confirm_an_import_and_follow_it(
    tournament, personas, persona, page, confirmed
):
    payload = payload_of(personas["organiser"], rows(2))
    client = personas[persona]

    assert client.get(IMPORT).status_code == page
    response = client.post(CONFIRM, {"payload": payload})

    assert response.status_code == confirmed
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    assert PlayerImport.objects.count() == (1 if persona == "organiser" else 0)
    tasks_run_ready()
    assert tournament.players.count() == (2 if persona == "organiser" else 0)


def test_the_confirmation_is_a_post(tournament, personas):
    assert personas["organiser"].get(CONFIRM).status_code == 405
    assert not PlayerImport.objects.exists()


# ---------------------------------------------------------------- what the page shows


def test_confirming_answers_at_once_and_the_page_follows_the_import_to_its_end(
    tournament, personas, monkeypatch
):
    organiser = personas["organiser"]
    payload = payload_of(organiser, rows(10))

    response = organiser.post(CONFIRM, {"payload": payload}, follow=True)

    assert response.redirect_chain == [(IMPORT, 302)]
    assert tournament.players.count() == 0
    assert import_result(response).startswith(
        "Import under way 10 rows are waiting for the task worker."
    )
    # Asked again every 2 s while it runs: by htmx, or by the page itself without scripts.
    page = response.content
    assert html.one(page, "section#import-job").attrs["hx-trigger"] == "every 2s"
    assert [
        s for s in html.elements(page, "script[src]") if "js/vendor/htmx.min." in s.attrs["src"]
    ]
    assert html.one(page, "noscript meta[http-equiv=refresh]").attrs["content"] == "2"
    # No worker runs in the tests.
    assert "The import cannot run now: no task worker is running" in import_result(response)

    # What the page says while the worker checks the rows, then saves them.
    monkeypatch.setattr(player_imports, "PROGRESS_EVERY", 4)
    seen = []
    real_planned = player_imports._planned

    def planned(*args, progress=None, **kwargs):
        def shown(done):
            progress(done)
            seen.append(import_result(organiser.get(IMPORT)))

        plan = real_planned(*args, progress=progress and shown, **kwargs)
        if progress is None:  # the write's own pass, in its transaction
            seen.append(import_result(organiser.get(IMPORT)))
        return plan

    monkeypatch.setattr(player_imports, "_planned", planned)
    tasks_run_ready()

    assert [re.match(r"Import under way (.*?\.)", text).group(1) for text in seen] == [
        "Checking the rows: 4 of 10.",
        "Checking the rows: 8 of 10.",
        "All 10 rows checked: saving the players.",
        "All 10 rows checked: saving the players.",
    ]
    response = organiser.get(IMPORT)
    assert import_result(response).startswith(
        "Last import Import done: created 10, updated 0, unchanged 0. Back to the players"
    )
    assert "Confirmed by organiser" in import_result(response)
    done = response.content.decode()
    assert "hx-trigger" not in done and "htmx.min.js" not in done and "refresh" not in done
    assert tournament.players.count() == 10


def test_players_changed_since_the_preview_are_shown_as_why_nothing_was_imported(
    tournament, personas
):
    organiser = personas["organiser"]
    services.player_save(tournament=tournament, number=1, name="Alice")
    payload = payload_of(organiser, "number,name\n1,Alicia\n2,Bo\n")
    services.player_save(
        tournament=tournament, player=tournament.players.get(number=1), name="Alice B"
    )

    organiser.post(CONFIRM, {"payload": payload})
    tasks_run_ready()

    shown = import_result(organiser.get(IMPORT))
    assert (
        "The import failed, and nothing was imported: The players changed since this preview; "
        "upload the file again." in shown
    )
    assert list(tournament.players.values_list("number", "name")) == [(1, "Alice B")]


def test_a_second_confirmation_while_an_import_runs_is_told_to_wait(tournament, personas):
    organiser = personas["organiser"]
    first = payload_of(organiser, rows(3))
    second = payload_of(organiser, "number,name\n7,Seven\n")
    organiser.post(CONFIRM, {"payload": first})

    response = organiser.post(CONFIRM, {"payload": second}, follow=True)

    assert response.status_code == 200
    assert messages_of(response) == [
        "Another import of players is under way in this tournament: wait until it ends "
        "(below), then upload your file again to see what it would change."
    ]
    assert "3 rows are waiting for the task worker." in import_result(response)
    assert PlayerImport.objects.count() == 1
    tasks_run_ready()
    assert list(tournament.players.values_list("number", flat=True)) == [1, 2, 3]


def test_a_preview_shown_while_an_import_runs_shows_the_import_too(tournament, personas):
    organiser = personas["organiser"]
    organiser.post(CONFIRM, {"payload": payload_of(organiser, rows(3))})

    response = organiser.post(IMPORT, {"file": csv_file("number,name\n9,Nine\n")})

    assert "3 rows are waiting for the task worker." in import_result(response)
    assert response.context["preview"].counts["new"] == 1
    # Its section asks again; the page itself does not (that would drop the preview).
    page = response.content
    assert html.one(page, "section#import-job").attrs["hx-trigger"] == "every 2s"
    assert "refresh" not in page.decode()


def test_the_page_without_any_import_shows_none(tournament, personas):
    response = personas["organiser"].get(IMPORT)
    assert response.context["job"] is None
    assert not html.elements(response.content, "#import-job")


# ---------------------------------------------------------------- the largest import


def test_five_thousand_players_are_confirmed_at_once_then_imported_by_the_worker(
    tournament, personas
):
    organiser = personas["organiser"]
    text = "number,name,name_zh,team,country,ema_number\n" + "".join(
        f"{n},Player {n},张{n},Club {n % 50},{('FRA', 'CHN', 'GER')[n % 3]},"
        f"{n + 10000000 if n % 2 else ''}\n"
        for n in range(1, 5001)
    )
    preview = organiser.post(
        IMPORT, {"file": SimpleUploadedFile("players.csv", text.encode(), "text/csv")}
    )
    assert preview.context["preview"].counts["new"] == 5000
    payload = preview.context["confirm_form"].initial["payload"]

    with CaptureQueriesContext(connection) as confirming:
        response = organiser.post(CONFIRM, {"payload": payload})
    assert response.status_code == 302
    # The request stored the job and its task; it read and wrote no player.
    players_table = connection.ops.quote_name(Player._meta.db_table)
    assert not [query["sql"] for query in confirming if players_table in query["sql"]]
    assert tournament.players.count() == 0
    page = organiser.get(response["Location"])
    assert page.status_code == 200
    assert "5000 rows are waiting for the task worker." in import_result(page)

    started = time.monotonic()
    tasks_run_ready()
    seconds = time.monotonic() - started

    page = organiser.get(IMPORT)
    assert page.status_code == 200
    assert "Import done: created 5000, updated 0, unchanged 0." in import_result(page)
    assert tournament.players.count() == 5000
    assert tournament.players.filter(person__isnull=False).count() == 2500
    assert seconds < 30, f"5,000 players took {seconds:.1f} s"
    assert personas["organiser"].get(reverse("player_list", args=[SLUG])).status_code == 200
