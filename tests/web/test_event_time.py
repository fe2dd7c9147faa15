"""A tournament's own time and place: its days, venue and time zone set on its settings page,
said on its public page, and every time of its pages, e-mails and files on its clock.

The clock is frozen at 05:46 UTC on 6 December 2026: 13:46 in Shanghai, the moment of the
issue's player who read "time is up at 8:10 a.m." on their page."""

import datetime
import zoneinfo
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from tests import html
from tests.conftest import login, make_players
from tests.web.test_organiser import tournament_data
from tournament import services
from tournament.exports import ema
from tournament.exports.workbook import heading_rows
from tournament.models import OutgoingEmail, ScheduledSession, Tournament
from tournament.players.player_links import player_token

UTC = datetime.UTC
SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")
FROZEN = datetime.datetime(2026, 12, 6, 5, 46, tzinfo=UTC)


def text(response) -> str:
    (body,) = html.texts(response.content, "body")
    return body


@pytest.fixture
def in_shanghai(tournament):
    return services.tournament_update(
        tournament=tournament,
        time_zone="Asia/Shanghai",
        first_day=datetime.date(2026, 12, 6),
        last_day=datetime.date(2026, 12, 7),
        venue="Hall 3",
        city="Shanghai",
        country="China",
        website="https://example.org/open",
    )


def test_a_new_tournament_is_set_in_its_zone_and_reads_its_times_there(organiser):
    client = login(organiser)
    form = client.get(reverse("tournament_create")).content
    # The list starts on the site's zone; the page's script moves it to the browser's.
    (zone,) = html.elements(form, "select[name=time_zone]")
    assert "data-browser-time-zone" in zone.attrs
    options = [o.attrs["value"] for o in html.elements(form, "select[name=time_zone] option")]
    assert "Asia/Shanghai" in options and "UTC" in options and options == sorted(options)
    response = client.post(
        reverse("tournament_create"),
        tournament_data(
            time_zone="Asia/Shanghai",
            first_day="2026-12-06",
            last_day="2026-12-07",
            venue="Hall 3",
            city="Shanghai",
            country="China",
            website="example.org/open",
            sign_up_open="on",
            # Typed on the tournament's clock, chosen in the same form.
            sign_up_closes_at="2026-12-05T18:00",
        ),
    )
    assert response.status_code == 302
    created = Tournament.objects.get(slug="winter-cup")
    assert created.time_zone == "Asia/Shanghai"
    assert created.sign_up_closes_at == datetime.datetime(2026, 12, 5, 10, 0, tzinfo=UTC)
    # A website typed without its scheme is taken as https.
    assert created.website == "https://example.org/open"
    # Shown again on the settings page as typed, on the tournament's clock.
    settings_page = client.get(reverse("tournament_edit", args=["winter-cup"])).content
    (closes,) = html.elements(settings_page, "input[name=sign_up_closes_at]")
    assert closes.attrs["value"] == "2026-12-05T18:00"
    (zone,) = html.elements(settings_page, "select[name=time_zone] option[selected]")
    assert zone.attrs["value"] == "Asia/Shanghai"
    public = text(login(None).get(created.get_absolute_url()))
    assert "6 December 2026 – 7 December 2026 · Hall 3, Shanghai, China · Website" in public
    assert "Times are given in the tournament's time zone, Asia/Shanghai (UTC+08:00)." in public


def test_bad_days_and_zones_are_said_beside_their_fields(organiser):
    client = login(organiser)
    response = client.post(
        reverse("tournament_create"),
        tournament_data(time_zone="Mars/Olympus", first_day="2026-12-07", last_day="2026-12-06"),
    )
    assert response.status_code == 200
    (zone_error,) = html.texts(response.content, "#id_time_zone_error")
    assert "Mars/Olympus is not one of the available choices" in zone_error
    assert html.texts(response.content, "#id_last_day_error") == [
        "The last day cannot come before the first day."
    ]
    assert not Tournament.objects.filter(slug="winter-cup").exists()
    # The service refuses a zone the form would not offer too.
    with pytest.raises(ValidationError):
        services.tournament_create(
            name="X", slug="x", session_count=1, session_minutes=150, time_zone="Mars/Olympus"
        )


def test_the_sessions_clock_timetable_check_in_and_e_mails_are_on_shanghai_time(
    in_shanghai, organiser, referee, run_tasks, settings
):
    settings.EMAIL_HOST = ""
    services.player_save(tournament=in_shanghai, number=1, name="Player 1", email="p1@ex.org")
    make_players(in_shanghai, 15, start=2)
    desk = login(organiser)
    with mock.patch("django.utils.timezone.now", return_value=FROZEN):
        # The organiser types 14:00 for session 1: 14:00 in Shanghai, 06:00 UTC.
        timetable = reverse("timetable", args=[in_shanghai.slug])
        assert desk.post(timetable, {"session_1": "2026-12-06T14:00"}).status_code == 302
        starts_at = ScheduledSession.objects.get(tournament=in_shanghai, number=1).starts_at
        assert starts_at == datetime.datetime(2026, 12, 6, 6, 0, tzinfo=UTC)
        (field,) = html.elements(desk.get(timetable).content, "input[name=session_1]")
        assert field.attrs["value"] == "2026-12-06T14:00"
        with run_tasks():
            session = services.session_draw(tournament=in_shanghai, number=1, seed=3)
        services.check_in_open(tournament=in_shanghai, number=1)
        desk_page = text(desk.get(reverse("check_in_desk", args=[in_shanghai.slug])))
        assert "since 13:46: players check in" in desk_page
        services.tables_assign(session=session, referee=referee, tables=[1, 2, 3, 4])
        services.session_open(session=session)
        # Opened at 13:46 for 150 minutes: time is up at 16:16 in Shanghai.
        sheet = text(login(referee).get(reverse("table_sheet", args=[in_shanghai.slug, 1, 1])))
        assert "ends 16:16" in sheet
        player = in_shanghai.players.get(number=1)
        own = text(login(None).get(reverse("player_link", args=[player_token(player)])))
        assert "Started at 13:46; time is up at 16:16." in own
    (mail,) = OutgoingEmail.objects.filter(reason="seat")
    assert "Starts Sunday 6 December, 14:00." in mail.body
    assert "12月6日 星期日 14:00开始。" in mail.body
    # The site's own pages are back on its clock after the tournament's.
    assert timezone.get_current_timezone_name() == "UTC"


def test_the_ema_file_gives_the_days_on_the_tournaments_calendar(tournament, organiser, referee):
    services.tournament_update(tournament=tournament, time_zone="Asia/Shanghai", city="Shanghai")
    make_players(tournament, 16)
    session = services.session_draw(tournament=tournament, number=1, seed=3)
    services.session_open(session=session)
    # Opened at 01:30 on 7 December in Shanghai: still 6 December in UTC.
    session.opened_at = datetime.datetime(2026, 12, 6, 17, 30, tzinfo=UTC)
    session.save(update_fields=["opened_at"])
    tournament.refresh_from_db()
    block = dict(row for row in ema.ema_tournament_rows(tournament, []) if row)
    assert (block["First day"], block["Last day"], block["Days"]) == ("2026-12-07", "2026-12-07", 1)
    assert block["City"] == "Shanghai"
    # Days the organiser gave are the tournament's, whatever day play began.
    services.tournament_update(
        tournament=tournament,
        first_day=datetime.date(2026, 12, 6),
        last_day=datetime.date(2026, 12, 8),
    )
    block = dict(row for row in ema.ema_tournament_rows(tournament, []) if row)
    assert (block["First day"], block["Last day"]) == ("2026-12-06", "2026-12-08")


def test_the_api_and_the_workbook_carry_the_days_place_and_zone(in_shanghai):
    client = login(None)
    found = client.get(f"/api/v1/tournaments/{in_shanghai.slug}").json()
    assert {key: found[key] for key in ("first_day", "last_day", "venue", "city", "country")} == {
        "first_day": "2026-12-06",
        "last_day": "2026-12-07",
        "venue": "Hall 3",
        "city": "Shanghai",
        "country": "China",
    }
    assert (found["website"], found["time_zone"]) == ("https://example.org/open", "Asia/Shanghai")
    listed = client.get("/api/v1/tournaments").json()["items"]
    assert listed[0]["time_zone"] == "Asia/Shanghai"
    with mock.patch("django.utils.timezone.now", return_value=FROZEN):
        rows = heading_rows(in_shanghai, timezone.now())
    assert [str(row[0]) for row in rows if row] == [
        "Spring Open",
        "6 December 2026 – 7 December 2026",
        "Hall 3, Shanghai, China",
        "Made on 6 December 2026, 13:46 (Asia/Shanghai)",
    ]
