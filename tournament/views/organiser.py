"""Organiser actions: create, edit and delete a tournament, draw and run sessions (and undo a
session's last step), reopen tables, revoke table device links."""

import copy

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from tournament import services
from tournament.forms.hands import ExtraTimeForm
from tournament.forms.service_errors import form_saved
from tournament.forms.tournaments import (
    CommitForm,
    DrawForm,
    PublicValueForm,
    ReopenForm,
    SeatReplaceForm,
    TableRefereesForm,
    TournamentDeleteForm,
    TournamentForm,
)
from tournament.permissions import can_create_tournament
from tournament.selectors.check_in import absent_seats, next_draw_check_in
from tournament.selectors.fairness import pending_commitment
from tournament.selectors.overview import tournament_deletion_summary
from tournament.selectors.referees import session_referee_tables
from tournament.selectors.seating import method_previews
from tournament.selectors.sheets import table_clock
from tournament.selectors.withdrawals import (
    draw_substitute_warning,
    substitute_count,
    substitute_limit_warning,
    withdrawn_seated,
)
from tournament.tables import paginate
from tournament.tables.referees import TableRefereesTable
from tournament.views.common import (
    FORM,
    POST,
    action_told,
    found_or_404,
    get_session,
    get_table,
    page,
    refusal_told,
    tournament_page,
)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_create(request):
    if not can_create_tournament(request.user):
        raise PermissionDenied
    form = TournamentForm(request.POST or None)

    def create():
        return services.tournament_create(creator=request.user, **form.settings())

    if saved := form_saved(request, form, create):
        messages.success(request, _("Tournament created. Now register the players."))
        return redirect("player_list", saved.result.slug)
    return render(request, "tournaments/form.html", {"form": form, "creating": True})


@tournament_page("organiser", FORM)
def tournament_edit(request, tournament):
    # The form writes the posted values into its instance while validating, and the
    # service before its checks: each gets a copy, so a refused edit is neither
    # half-applied nor shown in the page's title and links (a slug not saved gives 404s).
    form = TournamentForm(request.POST or None, instance=copy.copy(tournament))

    def update():
        return services.tournament_update(tournament=copy.copy(tournament), **form.settings())

    if saved := form_saved(request, form, update):
        messages.success(request, _("Tournament saved."))
        return redirect(saved.result)
    return page(
        request,
        "tournaments/form.html",
        tournament,
        form=form,
        creating=False,
        previews=method_previews(tournament),
    )


@tournament_page("organiser", FORM)
def session_draw(request, tournament):
    form = DrawForm(
        request.POST or None,
        tournament=tournament,
        commitment=pending_commitment(tournament),
    )
    # Who the draw seats is known before it is made: the warning is shown with the form,
    # and said again with the draw's outcome.
    warning = draw_substitute_warning(tournament)

    def draw():
        return services.session_draw(
            tournament=tournament,
            number=form.cleaned_data["number"],
            seed=form.cleaned_data["seed"],
            method=form.cleaned_data["method"],
            top=form.cleaned_data["top"],
        )

    if saved := form_saved(request, form, draw):
        session = saved.result
        messages.success(
            request,
            _("Session %(number)s drawn with seed %(seed)s.")
            % {"number": session.number, "seed": session.seed},
        )
        if not session.is_published:
            messages.info(
                request,
                _("The players do not see it until you publish it, below."),
            )
        if warning:
            messages.warning(request, warning)
        absent = absent_seats(session).seats
        if absent:
            messages.warning(
                request,
                ngettext(
                    "%(count)s seated player has not checked in: %(players)s. Give the seat "
                    "to a substitute or withdraw the player on the check-in desk (Absent "
                    "players' seats) before play.",
                    "%(count)s seated players have not checked in: %(players)s. Give their "
                    "seats to substitutes or withdraw them on the check-in desk (Absent "
                    "players' seats) before play.",
                    len(absent),
                )
                % {
                    "count": len(absent),
                    "players": ", ".join(str(each.player) for each in absent),
                },
            )
        return redirect("seating", tournament.slug, session.number)
    return page(
        request,
        "tournaments/draw.html",
        tournament,
        form=form,
        substitute_warning=warning,
        previews=method_previews(tournament),
        check_in=next_draw_check_in(tournament),
    )


@tournament_page("organiser", FORM)
def draw_commit(request, tournament):
    """Commit the first draw before it is made; the fairness page then publishes the hash."""
    form = CommitForm(request.POST or None, tournament=tournament)
    if saved := form_saved(
        request, form, lambda: services.draw_commit(tournament=tournament, **form.cleaned_data)
    ):
        messages.success(
            request,
            _("The first draw is committed. Its hash is %(hash)s.") % {"hash": saved.result.hash},
        )
        return redirect("fairness", tournament.slug)
    return page(request, "tournaments/commit.html", tournament, form=form)


@tournament_page("organiser", FORM)
def commitment_public_value(request, tournament):
    """Type in the public value the commitment promised, once it is known."""
    commitment = found_or_404(pending_commitment(tournament))
    form = PublicValueForm(request.POST or None)

    def record():
        return services.draw_commitment_public_value(
            commitment=commitment, value=form.cleaned_data["value"]
        )

    if form_saved(request, form, record):
        messages.success(request, _("The public value is recorded."))
        return redirect(tournament)
    return page(
        request, "tournaments/public_value.html", tournament, commitment=commitment, form=form
    )


@tournament_page("organiser", POST)
def commitment_withdraw(request, tournament):
    """Withdraw the commitment before its draw: the fairness page keeps listing it."""
    commitment = found_or_404(pending_commitment(tournament))
    action_told(
        request,
        lambda: services.draw_commitment_withdraw(commitment=commitment),
        _("The commitment is withdrawn; the fairness page keeps showing it."),
    )
    return redirect(tournament)


@tournament_page("organiser", POST)
def session_open(request, tournament, number):
    """Open a session for play; refused while withdrawn players hold seats, unless the post
    confirms that they are playing after all (the overview's second button)."""
    session = get_session(tournament, number)
    playing = request.POST.get("playing_after_all") == "1"
    action_told(
        request,
        lambda: services.session_open(session=session, playing_after_all=playing),
        _("Session %(n)s is open for play.") % {"n": number},
    )
    return redirect(tournament)


@tournament_page("organiser", POST)
def session_publish(request, tournament, number):
    """Show a reviewed draw to the players, then its seating page."""
    session = services.session_publish(session=get_session(tournament, number))
    messages.success(
        request,
        _("Session %(n)s is published: the players see their tables and seats.")
        % {"n": session.number},
    )
    return redirect("seating", tournament.slug, session.number)


@tournament_page("organiser", POST)
def session_close(request, tournament, number):
    session = get_session(tournament, number)
    action_told(
        request,
        lambda: services.session_close(session=session),
        _("Session %(n)s is closed.") % {"n": number},
    )
    return redirect(tournament)


@tournament_page("organiser", POST)
def session_publish_undo(request, tournament, number):
    """Take a reviewed draw back under review, with its seat e-mails not sent yet."""
    session = get_session(tournament, number)
    try:
        dropped = services.session_publish_undo(session=session)
    except ValidationError as refused:
        refusal_told(request, refused)
        return redirect(tournament)
    messages.success(
        request,
        _("Publishing undone: the draw of session %(n)s is back under review.") % {"n": number},
    )
    if dropped:
        messages.info(
            request,
            ngettext(
                "%(count)s seat e-mail not sent yet will not be sent.",
                "%(count)s seat e-mails not sent yet will not be sent.",
                dropped,
            )
            % {"count": dropped},
        )
    return redirect(tournament)


@tournament_page("organiser", POST)
def session_open_undo(request, tournament, number):
    session = get_session(tournament, number)
    action_told(
        request,
        lambda: services.session_open_undo(session=session),
        _("Opening undone: session %(n)s is drawn, not in play.") % {"n": number},
    )
    return redirect(tournament)


@tournament_page("organiser", POST)
def session_close_undo(request, tournament, number):
    session = get_session(tournament, number)
    action_told(
        request,
        lambda: services.session_close_undo(session=session),
        _("Closing undone: session %(n)s is in play again.") % {"n": number},
    )
    return redirect(tournament)


@tournament_page("organiser", FORM)
def table_reopen(request, tournament, number, table):
    table = get_table(tournament, number, table)
    form = ReopenForm(request.POST or None)

    def reopen():
        return services.table_reopen(
            table=table, user=request.user, reason=form.cleaned_data["reason"]
        )

    if form_saved(request, form, reopen):
        messages.success(request, _("Table %(t)s reopened for correction.") % {"t": table.number})
        return redirect("table_sheet", tournament.slug, number, table.number)
    return page(request, "referee/reopen.html", tournament, table=table, form=form)


@tournament_page("organiser", FORM)
def seat_change(request, tournament, number):
    """Replace a seated player before their table starts, or cancel the whole draw."""
    session = get_session(tournament, number)
    form = SeatReplaceForm(request.POST or None, session=session)

    def replace():
        """The seat given; the warning of the federation's substitute limit it may bring."""
        player = form.cleaned_data["player"]
        warning = substitute_limit_warning(tournament, [player])
        services.seat_replace(seat=form.cleaned_data["seat"], player=player)
        return warning

    if saved := form_saved(request, form, replace):
        messages.success(request, _("Seat changed."))
        if saved.result:
            messages.warning(request, saved.result)
        return redirect("seating", tournament.slug, session.number)
    return page(
        request,
        "seating/change.html",
        tournament,
        session=session,
        form=form,
        withdrawn=withdrawn_seated(session),
        substitutes=substitute_count(tournament),
    )


@tournament_page("organiser", POST)
def session_cancel_draw(request, tournament, number):
    session = get_session(tournament, number)
    if action_told(
        request,
        lambda: services.session_cancel_draw(session=session),
        _("The draw of session %(n)s is cancelled.") % {"n": number},
    ):
        return redirect(tournament)
    return redirect("seat_change", tournament.slug, number)


@tournament_page("organiser", FORM)
def tournament_delete(request, tournament):
    """Delete a test or mistaken tournament, after a page saying what goes with it."""
    # Bound on every POST, even an empty one, so a post without the name shows "required".
    data = request.POST if request.method == "POST" else None
    form = TournamentDeleteForm(data, tournament=tournament)

    def delete():
        return services.tournament_delete(
            tournament=tournament, confirm_slug=form.cleaned_data["confirm_slug"]
        )

    if form_saved(request, form, delete):
        messages.success(request, _("Tournament “%(name)s” deleted.") % {"name": tournament.name})
        return redirect("home")
    return page(
        request,
        "tournaments/delete.html",
        tournament,
        form=form,
        summary=tournament_deletion_summary(tournament),
    )


@tournament_page("organiser", FORM)
def table_referees(request, tournament, number):
    """Who referees which table of a session: each table's referee, and a form giving a run
    of tables ("1-6") to one referee, or to nobody."""
    session = get_session(tournament, number)
    form = TableRefereesForm(request.POST or None, tournament=tournament)

    def assign():
        return services.tables_assign(
            session=session,
            referee=form.cleaned_data["referee"],
            tables=form.cleaned_data["tables"],
        )

    if saved := form_saved(request, form, assign):
        tables, referee = saved.result, form.cleaned_data["referee"]
        names = {
            "tables": ", ".join(str(table.number) for table in tables),
            "referee": referee.get_username() if referee else "",
        }
        if referee is None:
            done = ngettext(
                "Table %(tables)s now has no referee.",
                "Tables %(tables)s now have no referee.",
                len(tables),
            )
        else:
            done = ngettext(
                "Table %(tables)s goes to %(referee)s.",
                "Tables %(tables)s go to %(referee)s.",
                len(tables),
            )
        messages.success(request, done % names)
        return redirect("table_referees", tournament.slug, session.number)
    rows = session_referee_tables(session)
    return page(
        request,
        "referee/table_referees.html",
        tournament,
        session=session,
        form=form,
        tables=rows,
        tables_table=paginate(request, TableRefereesTable(rows, slug=tournament.slug)),
    )


def _extra_time_done(table) -> str:
    names = {"t": table.number, "n": table.extra_minutes}
    clock = table_clock(table)
    if clock is None:  # the session is not open yet: its time has not started
        done = ngettext(
            "Table %(t)s: %(n)s extra minute.", "Table %(t)s: %(n)s extra minutes.", names["n"]
        )
    else:
        names["ends"] = timezone.localtime(clock.ends_at).strftime("%H:%M")
        done = ngettext(
            "Table %(t)s: %(n)s extra minute (ends %(ends)s).",
            "Table %(t)s: %(n)s extra minutes (ends %(ends)s).",
            names["n"],
        )
    return done % names


@tournament_page("organiser", POST)
def table_extra_time(request, tournament, number, table):
    """Give one table extra minutes (a late start, a long dispute); back to its sheet, where
    the form is, with the outcome."""
    table = get_table(tournament, number, table)
    form = ExtraTimeForm(request.POST)

    def give():
        return services.table_extra_time(table=table, minutes=form.cleaned_data["minutes"])

    if form_saved(request, form, give):
        messages.success(request, _extra_time_done(table))
    else:
        refusal = [message for errors in form.errors.values() for message in errors]
        messages.error(request, " ".join(refusal))
    return redirect("table_sheet", tournament.slug, number, table.number)


@tournament_page("organiser", POST)
def device_links_revoke(request, tournament, number):
    """Revoke every table device link of the session: tablets signed in with them are refused
    from their next request; back to the cards, which now carry new links."""
    session = get_session(tournament, number)
    services.device_links_revoke(session=session)
    messages.success(
        request,
        _("Every table link of session %(n)s is revoked. Print the cards again for new links.")
        % {"n": session.number},
    )
    return redirect("table_cards", tournament.slug, session.number)


@tournament_page("organiser", POST)
def device_link_revoke(request, tournament, number, table):
    """Revoke one table's device link (a lost tablet); back to that table's card, which now
    carries a new link."""
    table = get_table(tournament, number, table)
    services.device_link_revoke(table=table)
    messages.success(
        request,
        _("The link of table %(t)s is revoked. Print its card again for a new link.")
        % {"t": table.number},
    )
    url = reverse("table_cards", args=[tournament.slug, number])
    return redirect(f"{url}#table-{table.number}")
