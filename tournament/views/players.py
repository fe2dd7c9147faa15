"""Registration: the organiser's player list, one player at a time or a whole file."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tournament import services
from tournament.forms.players import (
    BadgeRangeForm,
    PlayerForm,
    PlayerImportConfirmForm,
    PlayerImportForm,
    sign_preview,
)
from tournament.forms.service_errors import form_saved
from tournament.players import player_file
from tournament.players.player_columns import column_help
from tournament.players.player_import import import_preview
from tournament.players.player_links import player_link_card
from tournament.selectors.lookups import badge_players
from tournament.selectors.player_imports import player_import_latest
from tournament.selectors.players import players_found
from tournament.selectors.tasks import queue_state
from tournament.selectors.withdrawals import registration_summary, seats_waiting_for_play
from tournament.tables import paginate
from tournament.tables.players import PlayersTable
from tournament.views.common import (
    FORM,
    POST,
    READ,
    get_player,
    page,
    refusal_told,
    tournament_page,
)


@tournament_page("organiser", READ)
def player_list(request, tournament):
    """Every player, or those ``?q=`` finds (name, number, team, pinyin), sorted as asked,
    by pages of 100; the counts above are of every player."""
    query = request.GET.get("q", "").strip()
    table = paginate(request, PlayersTable(players_found(tournament, query), slug=tournament.slug))
    return page(
        request,
        "players/list.html",
        tournament,
        table=table,
        query=query,
        sort=request.GET.get(table.prefixed_order_by_field, ""),
        summary=registration_summary(tournament),
    )


def _player_form_page(request, tournament, number: int | None):
    """Add a player (``number`` None) or edit player ``number``."""
    player = get_player(tournament, number) if number is not None else None
    # Shown in the heading: the form edits ``player`` in place while validating.
    player_label = str(player) if player else ""
    country_unrecognised = player.country_unrecognised if player else ""
    form = PlayerForm(request.POST or None, instance=player, tournament=tournament)

    def save():
        return services.player_save(
            tournament=tournament,
            # A fresh copy, so the service starts from what is stored.
            player=get_player(tournament, number) if number is not None else None,
            **form.player_fields(),
        )

    if saved := form_saved(request, form, save):
        if number is None:
            messages.success(request, _("Player %(player)s added.") % {"player": saved.result})
            if "add_another" in request.POST:
                return redirect("player_add", tournament.slug)
        else:
            messages.success(request, _("Player %(player)s saved.") % {"player": saved.result})
        return redirect("player_list", tournament.slug)
    return page(
        request,
        "players/form.html",
        tournament,
        form=form,
        number=number,
        player_label=player_label,
        country_unrecognised=country_unrecognised,
        # The player's own link, to give them again or to revoke (a lost badge).
        link=player_link_card(player, request.build_absolute_uri) if player else None,
    )


@tournament_page("organiser", FORM)
def player_add(request, tournament):
    return _player_form_page(request, tournament, None)


@tournament_page("organiser", FORM)
def player_edit(request, tournament, number):
    return _player_form_page(request, tournament, number)


@tournament_page("organiser", POST)
def player_withdraw(request, tournament, number):
    player = services.player_withdraw(player=get_player(tournament, number))
    messages.success(
        request,
        _("%(player)s is withdrawn: they will not be drawn in the sessions still to come.")
        % {"player": player},
    )
    for seat in seats_waiting_for_play(player):
        messages.warning(
            request,
            _(
                "%(player)s still has a seat at table %(table)s of session %(session)s: "
                "give it to a substitute on that session's seating page (Change seats)."
            )
            % {"player": player, "table": seat.table.number, "session": seat.session.number},
        )
    return redirect("player_list", tournament.slug)


@tournament_page("organiser", POST)
def player_reinstate(request, tournament, number):
    player = services.player_reinstate(player=get_player(tournament, number))
    messages.success(
        request,
        _("%(player)s is reinstated and will be drawn again.") % {"player": player},
    )
    return redirect("player_list", tournament.slug)


@tournament_page("organiser", POST)
def player_link_revoke(request, tournament, number):
    """Revoke a player's own link (a lost badge): the old one is refused at once, and the
    player's page shows the new one to print or give them."""
    player = services.player_link_revoke(player=get_player(tournament, number))
    messages.success(
        request,
        _("%(player)s's old link no longer opens their page: give them the new one below.")
        % {"player": player},
    )
    return redirect("player_edit", tournament.slug, player.number)


# Ten badges on an A4 page: two across, five down (site.css, @page badges).
BADGES_PER_SHEET = 10


@tournament_page("organiser", READ)
def player_badges(request, tournament):
    """Name badges to print, ten on an A4 page: each player's names in both scripts, number,
    team and the QR code of their own link. Players still in the tournament, or those from
    ``?first=`` to ``?last=`` (by number), withdrawn ones included when asked for by number."""
    form = BadgeRangeForm(request.GET or None)
    first, last = form.numbers() if form.is_bound and form.is_valid() else (None, None)
    players = badge_players(tournament, first=first, last=last)
    badges = [(player, player_link_card(player, request.build_absolute_uri)) for player in players]
    sheets = [
        badges[start : start + BADGES_PER_SHEET]
        for start in range(0, len(badges), BADGES_PER_SHEET)
    ]
    return page(
        request, "players/badges.html", tournament, form=form, sheets=sheets, count=len(badges)
    )


# While an import runs, its page asks for its progress this often.
IMPORT_POLL_SECONDS = 2


@tournament_page("organiser", FORM)
def player_import(request, tournament):
    """Upload a file and see what importing it would do; nothing is saved here. Above, the
    last import: its progress while a task worker runs it, then what it did or why not."""
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    preview = confirm_form = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            preview = import_preview(tournament, filename=upload.name, content=upload.read())
        except player_file.ImportFileError as error:
            form.add_error("file", ValidationError(error.message, code=error.code))
        else:
            confirm_form = PlayerImportConfirmForm(
                initial={"payload": sign_preview(tournament, preview)}, tournament=tournament
            )
    job = player_import_latest(tournament)
    return page(
        request,
        "players/import.html",
        tournament,
        form=form,
        preview=preview,
        confirm_form=confirm_form,
        job=job,
        queue_problem=queue_state().problem() if job and job.active else "",
        poll_seconds=IMPORT_POLL_SECONDS,
        columns=column_help(),
    )


@tournament_page("organiser", POST)
def player_import_confirm(request, tournament):
    """Start the import of a preview's rows; the signature proves they are the rows that
    were shown. A task worker imports them; the import page follows it.

    Refused while another import of the tournament runs; the import itself fails, writing
    nothing, when the players the rows touch changed since the preview was made.
    """
    form = PlayerImportConfirmForm(request.POST, tournament=tournament)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("player_import", tournament.slug)
    try:
        payload = form.cleaned_data["payload"]
        services.player_import_start(
            tournament=tournament,
            user=request.user,
            rows=payload["rows"],
            fingerprint=payload["fingerprint"],
        )
    except ValidationError as error:
        refusal_told(request, error)
    return redirect("player_import", tournament.slug)
