from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.api.v1 import api as results_api
from tournament.views import (
    accounts,
    activity,
    calculator,
    check_in,
    devices,
    mail,
    organiser,
    paper,
    people,
    player_link,
    players,
    public,
    referee,
    screen,
    series,
    sign_ups,
    standings,
    statistics,
)

# The 500 page shows the error's id, which its log line carries too. (/healthz is answered
# by tournament.server.health.HealthCheckMiddleware, ahead of the host and HTTPS checks.)
handler500 = "tournament.views.errors.server_error"
# A request the site cannot read is the client's mistake: a 400 page, never a 500.
handler400 = "tournament.views.errors.bad_request"

urlpatterns = [
    path("", public.home, name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/locked-out/", accounts.lockout_list, name="lockouts"),
    path("accounts/locked-out/unlock/", accounts.lockout_unlock, name="lockout_unlock"),
    path("admin/", admin.site.urls),
    # The open results API, its OpenAPI document at /api/v1/openapi.json
    path("api/v1/", results_api.urls),
    # The language switch in the header posts here (Django's set_language view).
    path("i18n/", include("django.conf.urls.i18n")),
    path("calculator/", calculator.calculator, name="calculator"),
    path("calculator/fans/", calculator.hand_fans, name="hand_fans"),
    # Organisers
    path("new/", organiser.tournament_create, name="tournament_create"),
    path("t/<slug:slug>/edit/", organiser.tournament_edit, name="tournament_edit"),
    path("t/<slug:slug>/delete/", organiser.tournament_delete, name="tournament_delete"),
    path("t/<slug:slug>/draw/", organiser.session_draw, name="session_draw"),
    path("t/<slug:slug>/commitment/", organiser.draw_commit, name="draw_commit"),
    path(
        "t/<slug:slug>/commitment/public-value/",
        organiser.commitment_public_value,
        name="commitment_public_value",
    ),
    path(
        "t/<slug:slug>/commitment/withdraw/",
        organiser.commitment_withdraw,
        name="commitment_withdraw",
    ),
    path("t/<slug:slug>/sessions/<int:number>/open/", organiser.session_open, name="session_open"),
    path(
        "t/<slug:slug>/sessions/<int:number>/close/", organiser.session_close, name="session_close"
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/publish/",
        organiser.session_publish,
        name="session_publish",
    ),
    path("t/<slug:slug>/sessions/<int:number>/seats/", organiser.seat_change, name="seat_change"),
    path(
        "t/<slug:slug>/sessions/<int:number>/cancel-draw/",
        organiser.session_cancel_draw,
        name="session_cancel_draw",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/referees/",
        organiser.table_referees,
        name="table_referees",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/tables/<int:table>/reopen/",
        organiser.table_reopen,
        name="table_reopen",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/tables/<int:table>/extra-time/",
        organiser.table_extra_time,
        name="table_extra_time",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/device-links/revoke/",
        organiser.device_links_revoke,
        name="device_links_revoke",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/tables/<int:table>/device-link/revoke/",
        organiser.device_link_revoke,
        name="device_link_revoke",
    ),
    path("t/<slug:slug>/activity/", activity.activity_log, name="activity_log"),
    path("t/<slug:slug>/emails/", mail.email_list, name="email_list"),
    path("t/<slug:slug>/emails/send/", mail.emails_send, name="emails_send"),
    # Registration
    path("t/<slug:slug>/players/", players.player_list, name="player_list"),
    path("t/<slug:slug>/players/add/", players.player_add, name="player_add"),
    path("t/<slug:slug>/players/<int:number>/edit/", players.player_edit, name="player_edit"),
    path(
        "t/<slug:slug>/players/<int:number>/withdraw/",
        players.player_withdraw,
        name="player_withdraw",
    ),
    path(
        "t/<slug:slug>/players/<int:number>/reinstate/",
        players.player_reinstate,
        name="player_reinstate",
    ),
    path("t/<slug:slug>/players/import/", players.player_import, name="player_import"),
    path("t/<slug:slug>/players/badges/", players.player_badges, name="player_badges"),
    path(
        "t/<slug:slug>/players/<int:number>/link/revoke/",
        players.player_link_revoke,
        name="player_link_revoke",
    ),
    # Sign-up: the public form, the organiser's board
    path("t/<slug:slug>/sign-up/", sign_ups.sign_up_form, name="sign_up_form"),
    path("t/<slug:slug>/sign-ups/", sign_ups.sign_up_list, name="sign_up_list"),
    path(
        "t/<slug:slug>/sign-ups/<int:pk>/<str:action>/",
        sign_ups.sign_up_decide,
        name="sign_up_decide",
    ),
    # Check-in: the timetable, opening and closing, the desk, the seats of absent players
    path("t/<slug:slug>/check-in/", check_in.check_in_desk, name="check_in_desk"),
    path("t/<slug:slug>/timetable/", check_in.timetable, name="timetable"),
    path(
        "t/<slug:slug>/check-in/<int:number>/open/",
        check_in.check_in_open,
        name="check_in_open",
    ),
    path(
        "t/<slug:slug>/check-in/<int:number>/close/",
        check_in.check_in_close,
        name="check_in_close",
    ),
    path(
        "t/<slug:slug>/check-in/<int:number>/players/<int:player>/",
        check_in.check_in_tick,
        name="check_in_tick",
    ),
    path(
        "t/<slug:slug>/check-in/<int:number>/absent-seats/",
        check_in.absent_seats,
        name="absent_seats",
    ),
    path(
        "t/<slug:slug>/players/import/confirm/",
        players.player_import_confirm,
        name="player_import_confirm",
    ),
    # Referees
    path("t/<slug:slug>/referee/", referee.referee_home_page, name="referee_home"),
    path(
        "t/<slug:slug>/sessions/<int:number>/tables/<int:table>/",
        referee.table_sheet_page,
        name="table_sheet",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/tables/<int:table>/hands/<int:hand>/",
        referee.hand_edit,
        name="hand_edit",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/tables/<int:table>/seats/",
        referee.table_seats_swap,
        name="table_seats_swap",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/tables/<int:table>/confirm/",
        referee.table_confirm,
        name="table_confirm",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/cards/",
        referee.table_cards,
        name="table_cards",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/score-sheets/",
        paper.score_sheets,
        name="score_sheets",
    ),
    path(
        "t/<slug:slug>/sessions/<int:number>/penalty-sheet/",
        paper.penalty_sheet,
        name="penalty_sheet",
    ),
    # A table's tablet, signed in from the table card
    path("device/<str:token>/", devices.device_link, name="device_link"),
    # A sign-up's own page, from its e-mails
    path("sign-up/<str:token>/", sign_ups.sign_up_status, name="sign_up_status"),
    path("sign-up/<str:token>/withdraw/", sign_ups.sign_up_withdraw, name="sign_up_withdraw"),
    # A player's phone, from the badge's link
    path("me/<str:token>/", player_link.player_link, name="player_link"),
    path("me/<str:token>/check-in/", player_link.player_link_check_in, name="player_link_check_in"),
    # People across tournaments
    path("t/<slug:slug>/people/", people.tournament_people, name="tournament_people"),
    path("t/<slug:slug>/people/link/", people.people_link, name="people_link"),
    path("t/<slug:slug>/people/link-one/", people.person_link_by_hand, name="person_link_by_hand"),
    path("t/<slug:slug>/people/new/", people.people_new, name="people_new"),
    path("t/<slug:slug>/people/by-ema/", people.people_link_by_ema, name="people_link_by_ema"),
    path("t/<slug:slug>/people/<int:number>/unlink/", people.person_unlink, name="person_unlink"),
    path("people/<int:pk>/", people.person_page, name="person"),
    # Series
    path("series/new/", series.series_create, name="series_create"),
    path("series/<slug:slug>/", series.series_page, name="series"),
    path("series/<slug:slug>/edit/", series.series_edit, name="series_edit"),
    path("series/<slug:slug>/delete/", series.series_delete, name="series_delete"),
    path("series/<slug:slug>/series.xlsx", series.series_xlsx, name="series_xlsx"),
    # Public
    path("t/<slug:slug>/", public.tournament_detail, name="tournament"),
    path("t/<slug:slug>/seating/<int:number>/", public.seating_page, name="seating"),
    path(
        "t/<slug:slug>/seating/<int:number>/players/",
        public.seating_by_name,
        name="seating_by_name",
    ),
    path("t/<slug:slug>/players/<int:number>/", public.player_page, name="player_schedule"),
    path("t/<slug:slug>/fairness/", public.fairness, name="fairness"),
    path("t/<slug:slug>/fairness.json", public.fairness_record_file, name="fairness_record"),
    path("t/<slug:slug>/standings/", standings.standings_page, name="standings"),
    path("t/<slug:slug>/standings.xlsx", standings.standings_xlsx, name="standings_xlsx"),
    path("t/<slug:slug>/statistics/", statistics.statistics_page, name="statistics"),
    path("t/<slug:slug>/ema.xlsx", standings.ema_xlsx, name="ema_xlsx"),
    path("t/<slug:slug>/ema.csv", standings.ema_csv, name="ema_csv"),
    path("t/<slug:slug>/ema/", standings.ema_results, name="ema_results"),
    # The hall's screens: the page, and the panels its polls fetch
    path("t/<slug:slug>/screen/", screen.screen_page, name="screen"),
    path("t/<slug:slug>/screen/panel/", screen.screen_panel, name="screen_panel"),
]
