from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.api import docs as api_docs
from tournament.api.v1 import api as results_api
from tournament.views import (
    accounts,
    activity,
    calculator,
    check_in,
    desk,
    devices,
    fouls,
    mail,
    offline,
    organiser,
    paper,
    people,
    player_link,
    players,
    public,
    referee,
    rules,
    screen,
    series,
    sign_ups,
    standings,
    statistics,
    table_calls,
)

# The 500 page shows the error's id, which its log line carries too. (/healthz is answered
# by tournament.server.health.HealthCheckMiddleware, ahead of the host and HTTPS checks.)
handler500 = "tournament.views.errors.server_error"
# A request the site cannot read is the client's mistake: a 400 page, never a 500.
handler400 = "tournament.views.errors.bad_request"

# A table's pages, below its session's.
table_urls = [
    path("", referee.table_sheet_page, name="table_sheet"),
    path("hands/<int:hand>/", referee.hand_edit, name="hand_edit"),
    path("seats/", referee.table_seats_swap, name="table_seats_swap"),
    path("confirm/", referee.table_confirm, name="table_confirm"),
    path("reopen/", organiser.table_reopen, name="table_reopen"),
    path("extra-time/", organiser.table_extra_time, name="table_extra_time"),
    path("device-link/revoke/", organiser.device_link_revoke, name="device_link_revoke"),
    path("calls/", table_calls.table_calls, name="table_calls"),
    path("calls/<int:call>/cancel/", table_calls.table_call_cancel, name="table_call_cancel"),
]

# A session's pages, below its tournament's.
session_urls = [
    path("open/", organiser.session_open, name="session_open"),
    path("close/", organiser.session_close, name="session_close"),
    path("publish/", organiser.session_publish, name="session_publish"),
    path("open/undo/", organiser.session_open_undo, name="session_open_undo"),
    path("close/undo/", organiser.session_close_undo, name="session_close_undo"),
    path("publish/undo/", organiser.session_publish_undo, name="session_publish_undo"),
    path("seats/", organiser.seat_change, name="seat_change"),
    path("cancel-draw/", organiser.session_cancel_draw, name="session_cancel_draw"),
    path("referees/", organiser.table_referees, name="table_referees"),
    path("device-links/revoke/", organiser.device_links_revoke, name="device_links_revoke"),
    path("tables/<int:table>/", include(table_urls)),
    # Referees
    path("cards/", referee.table_cards, name="table_cards"),
    path("score-sheets/", paper.score_sheets, name="score_sheets"),
    path("penalty-sheet/", paper.penalty_sheet, name="penalty_sheet"),
]

# A tournament's pages, at /t/<slug>/.
tournament_urls = [
    # Organisers
    path("edit/", organiser.tournament_edit, name="tournament_edit"),
    path("rules/edit/", rules.rules_edit, name="rules_edit"),
    path("delete/", organiser.tournament_delete, name="tournament_delete"),
    path("draw/", organiser.session_draw, name="session_draw"),
    path("commitment/", organiser.draw_commit, name="draw_commit"),
    path(
        "commitment/public-value/",
        organiser.commitment_public_value,
        name="commitment_public_value",
    ),
    path("commitment/withdraw/", organiser.commitment_withdraw, name="commitment_withdraw"),
    path("sessions/<int:number>/", include(session_urls)),
    path("activity/", activity.activity_log, name="activity_log"),
    path("emails/", mail.email_list, name="email_list"),
    path("emails/send/", mail.emails_send, name="emails_send"),
    # Registration
    path("players/", players.player_list, name="player_list"),
    path("players/add/", players.player_add, name="player_add"),
    path("players/<int:number>/edit/", players.player_edit, name="player_edit"),
    path("players/<int:number>/withdraw/", players.player_withdraw, name="player_withdraw"),
    path("players/<int:number>/reinstate/", players.player_reinstate, name="player_reinstate"),
    path("players/import/", players.player_import, name="player_import"),
    path("players/import/confirm/", players.player_import_confirm, name="player_import_confirm"),
    path("players/badges/", players.player_badges, name="player_badges"),
    path(
        "players/<int:number>/link/revoke/",
        players.player_link_revoke,
        name="player_link_revoke",
    ),
    # Sign-up: the public form, the organiser's board
    path("sign-up/", sign_ups.sign_up_form, name="sign_up_form"),
    path("sign-ups/", sign_ups.sign_up_list, name="sign_up_list"),
    path("sign-ups/<int:pk>/<str:action>/", sign_ups.sign_up_decide, name="sign_up_decide"),
    # Check-in: the timetable, opening and closing, the desk, the seats of absent players
    path("check-in/", check_in.check_in_desk, name="check_in_desk"),
    path("timetable/", check_in.timetable, name="timetable"),
    path("check-in/<int:number>/open/", check_in.check_in_open, name="check_in_open"),
    path("check-in/<int:number>/close/", check_in.check_in_close, name="check_in_close"),
    path(
        "check-in/<int:number>/players/<int:player>/",
        check_in.check_in_tick,
        name="check_in_tick",
    ),
    path("check-in/<int:number>/absent-seats/", check_in.absent_seats, name="absent_seats"),
    # Referees
    path("referee/", referee.referee_home_page, name="referee_home"),
    # The referees' desk: the open calls (a live part), rulings, appeals
    path("desk/", desk.desk_page, name="desk"),
    path("desk/calls/", desk.desk_calls, name="desk_calls"),
    path("desk/calls/<int:call>/take/", desk.desk_call_take, name="desk_call_take"),
    path("desk/calls/<int:call>/resolve/", desk.desk_call_resolve, name="desk_call_resolve"),
    path("desk/rulings/new/", desk.desk_ruling_new, name="desk_ruling_new"),
    path("desk/rulings/<int:ruling>/appeal/", desk.desk_appeal, name="desk_appeal"),
    path("desk/appeals/<int:appeal>/decide/", desk.desk_appeal_decide, name="desk_appeal_decide"),
    path("fouls/", fouls.record_of_fouls_page, name="record_of_fouls"),
    # People across tournaments
    path("people/", people.tournament_people, name="tournament_people"),
    path("people/link/", people.people_link, name="people_link"),
    path("people/link-one/", people.person_link_by_hand, name="person_link_by_hand"),
    path("people/new/", people.people_new, name="people_new"),
    path("people/by-ema/", people.people_link_by_ema, name="people_link_by_ema"),
    path("people/<int:number>/unlink/", people.person_unlink, name="person_unlink"),
    # Public
    path("", public.tournament_detail, name="tournament"),
    path("seating/<int:number>/", public.seating_page, name="seating"),
    path("seating/<int:number>/players/", public.seating_by_name, name="seating_by_name"),
    path("players/<int:number>/", public.player_page, name="player_schedule"),
    path("fairness/", public.fairness, name="fairness"),
    path("rules/", rules.rules_page, name="rules"),
    path("fairness.json", public.fairness_record_file, name="fairness_record"),
    path("standings/", standings.standings_page, name="standings"),
    path("standings.xlsx", standings.standings_xlsx, name="standings_xlsx"),
    path("statistics/", statistics.statistics_page, name="statistics"),
    path("ema.xlsx", standings.ema_xlsx, name="ema_xlsx"),
    path("ema.csv", standings.ema_csv, name="ema_csv"),
    path("ema/", standings.ema_results, name="ema_results"),
    # The hall's screens: the page, and the panels its polls fetch
    path("screen/", screen.screen_page, name="screen"),
    path("screen/panel/", screen.screen_panel, name="screen_panel"),
]

urlpatterns = [
    path("", public.home, name="home"),
    # At the root, so that the service worker may keep any page of the site (views/offline.py).
    path("service-worker.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/locked-out/", accounts.lockout_list, name="lockouts"),
    path("accounts/locked-out/unlock/", accounts.lockout_unlock, name="lockout_unlock"),
    path("admin/", admin.site.urls),
    # The open results API, its OpenAPI document at /api/v1/openapi.json, read for a human
    # at /api/v1/docs (with a final slash too, as every address of the API).
    path("api/v1/docs", api_docs.docs_page, name="api_docs"),
    path("api/v1/docs/", api_docs.docs_page),
    path("api/v1/", results_api.urls),
    # The language switch in the header posts here (Django's set_language view).
    path("i18n/", include("django.conf.urls.i18n")),
    path("calculator/", calculator.calculator, name="calculator"),
    path("calculator/fans/", calculator.hand_fans, name="hand_fans"),
    path("new/", organiser.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/", include(tournament_urls)),
    # A table's tablet, signed in from the table card
    path("device/<str:token>/", devices.device_link, name="device_link"),
    # A sign-up's own page, from its e-mails
    path("sign-up/<str:token>/", sign_ups.sign_up_status, name="sign_up_status"),
    path("sign-up/<str:token>/withdraw/", sign_ups.sign_up_withdraw, name="sign_up_withdraw"),
    # A player's phone, from the badge's link
    path("me/<str:token>/", player_link.player_link, name="player_link"),
    path("me/<str:token>/check-in/", player_link.player_link_check_in, name="player_link_check_in"),
    path("me/<str:token>/call/", player_link.player_link_call, name="player_link_call"),
    path("people/<int:pk>/", people.person_page, name="person"),
    # Series
    path("series/new/", series.series_create, name="series_create"),
    path("series/<slug:slug>/", series.series_page, name="series"),
    path("series/<slug:slug>/edit/", series.series_edit, name="series_edit"),
    path("series/<slug:slug>/delete/", series.series_delete, name="series_delete"),
    path("series/<slug:slug>/series.xlsx", series.series_xlsx, name="series_xlsx"),
]
