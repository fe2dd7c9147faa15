"""The referee's tablet pages: the table's score sheet, hand entry, confirmation, table cards."""

import uuid
from typing import TYPE_CHECKING

from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournament import seating, services
from tournament.forms.calls import CallForm
from tournament.forms.hands import (
    ConfirmForm,
    ExtraTimeForm,
    HandForm,
    PenaltyFormSet,
    SeatSwapForm,
    confirm_form_for,
    hand_initial,
    penalty_initial,
    seat_choices,
    service_errors_to_form,
)
from tournament.forms.service_errors import add_service_errors
from tournament.hall import device_links
from tournament.language.formatting import SEAT_LABELS, WIND_NAMES, hand_outcome_words, signed
from tournament.permissions import is_organiser
from tournament.scoring import Outcome
from tournament.selectors.desk import (
    open_call_hands,
    penalty_presets,
    table_has_open_call,
    table_ruling,
)
from tournament.selectors.referees import referee_home
from tournament.selectors.sheets import (
    hand_revisions,
    session_end,
    session_sheets,
    sheet_version,
    table_clock,
    table_players,
    table_sheet,
)
from tournament.server.release import release
from tournament.services.tables import seating_key, table_seating_key
from tournament.tables import paginate
from tournament.tables.referees import SessionTablesTable
from tournament.views.common import (
    READ,
    entering_user,
    found_or_404,
    get_session,
    page,
    roles,
    table_access,
    table_entry_required,
    tournament_page,
)
from tournament.views.offline import kept_offline
from tournament.views.table_calls import panel_context

if TYPE_CHECKING:
    from tournament.models import Hand


@kept_offline
@tournament_page("referee", READ)
def referee_home_page(request, tournament):
    """The session in play with the referee's own tables; an organiser sees every table."""
    organiser = is_organiser(request.user, tournament)
    home = referee_home(tournament, referee=None if organiser else request.user)
    return page(
        request,
        "referee/home.html",
        tournament,
        # Shown from the device, it is loaded again once the server answers: nothing on it
        # brings itself up to date (views/offline.py).
        offline_reload=True,
        # Each session in play with its tables, sorted and paged by parameters of its own.
        sessions=[
            (
                item,
                paginate(
                    request,
                    SessionTablesTable(
                        item.tables,
                        slug=tournament.slug,
                        with_referee=organiser,
                        prefix=f"session-{item.session.number}-",
                    ),
                ),
            )
            for item in home.in_play
        ],
        closed_sessions=home.closed,
        not_open_sessions=home.not_open,
    )


def _table_context(request, tournament, sheet) -> dict:
    """What every page of one table shows: the table, its sheet and the hands missing."""
    return {
        **roles(request, tournament),
        "tournament": tournament,
        "session": sheet.table.session,
        "table": sheet.table,
        "sheet": sheet,
        "missing": sheet.missing,
        # The rules its hands are counted under: the minimum said, flowers played or not.
        "rules": tournament.rules,
    }


def _sheet_context(request, tournament, sheet, *, form, penalties, editing=None):
    table = sheet.table
    clock = table_clock(table)
    can_enter = table.session.is_in_play and not table.is_confirmed
    ending = session_end(sheet, clock)
    # After the gong's last hand the sheet no longer offers a new hand (the service takes one:
    # referees correct), unless the referee asks for it ("?another"); a form posted and
    # refused is shown again whatever.
    entry_closed = (
        can_enter
        and editing is None
        and not form.is_bound
        and not ending.new_hands_invited
        and "another" not in request.GET
    )
    context = _table_context(request, tournament, sheet)
    context.update(
        clock=clock,
        time_up=clock is not None and clock.time_up,
        ending=ending,
        entry_closed=entry_closed,
        extra_time_form=ExtraTimeForm(initial={"minutes": table.extra_minutes}),
        form=form,
        penalties=penalties,
        editing=editing,
        presets=penalty_presets(tournament),
        can_enter=can_enter,
        # The entry form is shown (and its header carries the messages, "Hand 6 saved").
        entry_form_shown=can_enter
        and (editing is not None or (sheet.next_number is not None and not entry_closed)),
        revisions=hand_revisions(sheet),
        # The table calls a referee from its sheet; the panel shows its calls' state.
        call_form=CallForm(hand=sheet.next_number) if can_enter else None,
        **panel_context(table),
    )
    return context


def _score_typed_hand(form, rules):
    """Score the winning hand typed in the form for "Compute"; None (with a form error) when
    it cannot be. The hand may bring its own flowers: they fill the form."""
    data = form.cleaned_data
    try:
        return services.score_winning_hand(
            text=data.get("winning_hand", ""),
            number=data.get("number"),
            winner=data.get("winner"),
            outcome=data.get("outcome"),
            flowers=data.get("flowers"),
            hand_flowers_win=True,
            rules=rules,
        )
    except ValidationError as error:
        add_service_errors(form, error)
        return None


def _compute(request, tournament, sheet, form, penalties, form_kwargs, editing=None, ruling=None):
    """ "Compute": score the typed winning hand and show the entry again, filled, unsaved."""
    form.is_valid()
    if form.cleaned_data.get("outcome") not in (Outcome.SELF_DRAWN, Outcome.DISCARD):
        form.add_error("outcome", _("Choose a win, self-drawn or on a discard, to compute fans."))
    elif not form.cleaned_data.get("winning_hand"):
        form.add_error("winning_hand", _("Type the winning hand to compute its fans."))
    else:
        scored = _score_typed_hand(form, tournament.rules)
        if scored is not None:
            data = request.POST.dict()
            data["fan"] = scored.total_without_flowers
            data["flowers"] = scored.total - scored.total_without_flowers
            data["fan_names"] = services.fan_list(scored)
            form = HandForm(initial=data, **form_kwargs)
            form.scored = scored
    context = _sheet_context(
        request, tournament, sheet, form=form, penalties=penalties, editing=editing
    )
    context["ruling"] = ruling
    return render(request, "referee/sheet.html", context)


def _add_penalty_row(
    request, tournament, sheet, form, penalties, form_kwargs, editing=None, ruling=None
):
    """ "Add a penalty row" (a page without JavaScript): the entry again as typed, with one
    more empty penalty row; nothing saved. The hand is not judged while the referee is still
    writing it; the penalty rows are, as the part being worked on."""
    form = HandForm(initial={**form.initial, **request.POST.dict()}, **form_kwargs)
    context = _sheet_context(
        request,
        tournament,
        sheet,
        form=form,
        penalties=penalties.with_another_row(),
        editing=editing,
    )
    context["ruling"] = ruling
    return render(request, "referee/sheet.html", context)


def _save_hand(request, table, form, penalties, *, editing: bool, ruling=None):
    """Run the form and its penalty rows through the service; the saved hand, or None.

    The service checks everything, the calculator's disputes included; when it refuses,
    what the calculator found is shown beside its errors.
    """
    if not (form.is_valid() and penalties.is_valid()):
        return None
    try:
        return services.hand_record(
            table=table,
            entry=form.hand_entry(penalties, editing=editing),
            user=entering_user(request),
            device=request.device_link,
            ruling=ruling,
        )
    except services.HandRefused as refusal:
        form.scored, form.claim_check = refusal.scored, refusal.claim_check
        # "Keep my figure" is offered only where ticking it can save the hand.
        form.disputed = refusal.disputed
        service_errors_to_form(form, penalties, refusal)
    except ValidationError as error:
        service_errors_to_form(form, penalties, error)
        if getattr(error, "code", None) == "seating_changed":
            # Shown again with the players where they sit now (the form's seats are read
            # afresh), for the referee to check before saving again.
            form.data = form.data.copy()
            form.data["seating"] = table_seating_key(table)
    return None


def _posted_number(data) -> int | None:
    try:
        return int(data.get("number", ""))
    except ValueError:
        return None


def _slot(number):
    schedule = seating.session_schedule()
    return schedule[number - 1] if number and 1 <= number <= len(schedule) else None


def _wants_json(request) -> bool:
    """The tablet's script saving in the background asks for JSON; a plain form post does not."""
    return "application/json" in request.headers.get("Accept", "")


def _refusal_json(form, penalties) -> JsonResponse:
    """Why the server refused an entry sent in the background: the messages by field."""
    errors = {field: [str(m) for m in messages] for field, messages in form.errors.items()}
    penalty_messages = [str(m) for m in penalties.non_form_errors()]
    for row in penalties.forms:
        penalty_messages += [str(m) for messages in row.errors.values() for m in messages]
    if penalty_messages:
        errors["penalties"] = penalty_messages
    return JsonResponse({"saved": False, "errors": errors, "retry": False}, status=422)


# Refusals of an entry beside which the sheet shows the hand as stored, with the way to
# correct it: another tablet entered the hand, or the form was already saved with other
# content (its key's first save).
STORED_SHOWN = ("hand_already_entered", "submission_key_conflict")


def _stored_beside(form, sheet, number) -> "Hand | None":
    """The stored hand to show beside an entry refused for one of ``STORED_SHOWN``."""
    if any(form.has_error("number", code) for code in STORED_SHOWN):
        return sheet.hand(number)
    return None


def _fresh_key(form) -> None:
    """The form shown again after a conflict gets a new one-time key: saved again, what it
    holds is judged as a new entry (refused beside the stored hand, with the way to correct
    it), not refused again and again as its old key's other content."""
    form.data = form.data.copy()
    form.data[form.add_prefix("submission_key")] = str(uuid.uuid4())


def _this_release(form) -> None:
    """A form refused as drawn by an earlier release is shown again, its entry as typed, as
    this release's: saved again from this page, it is read."""
    if form.has_error(NON_FIELD_ERRORS, "stale_release"):
        form.data = form.data.copy()
        form.data[form.add_prefix("release")] = release()


def _conflict_json(form, stored, correct_url: str) -> JsonResponse:
    """An entry sent in the background whose form key already saved other content: a 409,
    never "saved" and never to be sent again by itself, with the hand as stored (as the
    sheet writes it) for the referee to compare with the entry kept on the tablet, and the
    address of its correction."""
    hand = None
    if stored is not None:
        points = ", ".join(
            f"{label} {signed(points)}"
            for label, points in zip(SEAT_LABELS, stored.points, strict=True)
        )
        result = hand_outcome_words(stored)
        hand = {
            "number": stored.number,
            "version": stored.version,
            "result": result,
            "points": list(stored.points),
            "text": _("Stored hand %(n)s: %(result)s (%(points)s).")
            % {"n": stored.number, "result": result, "points": points},
        }
    errors = {field: [str(m) for m in messages] for field, messages in form.errors.items()}
    return JsonResponse(
        {
            "saved": False,
            "conflict": True,
            "message": errors["number"][0],
            "errors": errors,
            "stored": hand,
            "correct": correct_url,
            "retry": False,
        },
        status=409,
    )


def _hand_schedule(players) -> dict:
    """What the entry header and the seat tiles say for each hand, in the server's words: the
    script prepares the next hand's form from it without asking the server."""
    schedule = {}
    for slot in seating.session_schedule():
        schedule[slot.number] = {
            "title": _("Enter hand %(n)s") % {"n": slot.number},
            "winds": _("%(wind)s round · dealer %(seat)s %(name)s")
            % {
                "wind": WIND_NAMES.get(slot.prevalent_wind, slot.prevalent_wind),
                "seat": SEAT_LABELS[slot.dealer],
                "name": players[slot.dealer].name,
            },
            "seats": [str(label) for _seat, label in seat_choices(players, slot)],
        }
    return schedule


@kept_offline
@table_entry_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_sheet_page(request, slug, number, table):
    """The running score sheet; its form enters the next hand."""
    tournament, table = table_access(request, slug, number, table)
    stored = None
    if request.method == "POST":
        # The form was made for one hand: its number, not the sheet's next one, decides. A
        # save needs the players only; the whole sheet is read when a page is to be shown.
        posted_number = _posted_number(request.POST)
        sheet = None if posted_number else table_sheet(table)
        players = sheet.players if sheet else table_players(table)
        slot = _slot(posted_number or sheet.next_number)
        form = HandForm(request.POST, players=players, slot=slot, release=release())
        penalties = PenaltyFormSet(
            request.POST, prefix="penalty", form_kwargs={"players": players, "slot": slot}
        )
        if "compute" in request.POST or "add_penalty" in request.POST:
            sheet = sheet or table_sheet(table)
            kwargs = {"players": players, "slot": slot, "release": release()}
            show = _compute if "compute" in request.POST else _add_penalty_row
            return show(request, tournament, sheet, form, penalties, kwargs)
        hand = _save_hand(request, table, form, penalties, editing=False)
        if hand is not None:
            if _wants_json(request):
                # The tablet's script says it in place; a message kept for the next load
                # would be read by the sheet's refresh, and kept in the device's copy.
                return JsonResponse({"saved": True, "number": hand.number, "version": hand.version})
            messages.success(request, _("Hand %(n)s saved.") % {"n": hand.number})
            return redirect(reverse("table_sheet", args=[slug, number, table.number]) + "#entry")
        conflict = form.has_error("number", "submission_key_conflict")
        if _wants_json(request) and not conflict:
            return _refusal_json(form, penalties)
        # Refused: show the sheet as it is now, and the stored hand beside a different entry
        # for it (another tablet's, or this form's first save), with the way to correct it.
        sheet = table_sheet(table)
        stored = _stored_beside(form, sheet, posted_number)
        if conflict and _wants_json(request):
            correct = reverse("hand_edit", args=[slug, number, table.number, posted_number])
            return _conflict_json(form, stored, correct)
        if conflict:
            _fresh_key(form)
        _this_release(form)
    else:
        sheet = table_sheet(table)
        players, next_number = sheet.players, sheet.next_number
        slot = _slot(next_number)
        form = HandForm(
            players=players,
            slot=slot,
            initial={"number": next_number, "flowers": 0},
            release=release(),
        )
        penalties = PenaltyFormSet(prefix="penalty", form_kwargs={"players": players, "slot": slot})
    context = _sheet_context(request, tournament, sheet, form=form, penalties=penalties)
    context["stored"] = stored
    if context["entry_form_shown"]:
        context["hand_schedule"] = _hand_schedule(players)
    # A key that already saved other content is a conflict, for a plain post too.
    status = 409 if form.has_error("number", "submission_key_conflict") else 200
    return render(request, "referee/sheet.html", context, status=status)


@table_entry_required
@require_http_methods(["GET", "HEAD", "POST"])
def hand_edit(request, slug, number, table, hand):
    """Correct an entered hand; a concurrent change is refused, never overwritten."""
    tournament, table = table_access(request, slug, number, table)
    sheet = table_sheet(table)
    hand = found_or_404(sheet.hand(hand))
    # A correction made as a ruling of this table decides: its revision names the ruling.
    ruled = request.POST.get("ruling") or request.GET.get("ruling")
    ruling = found_or_404(table_ruling(table, ruled)) if ruled else None
    stored = None
    players = sheet.players
    slot = _slot(hand.number)
    if request.method == "POST":
        form = HandForm(
            request.POST,
            players=players,
            slot=slot,
            editing=True,
            initial={"number": hand.number},
            release=release(),
        )
        penalties = PenaltyFormSet(
            request.POST, prefix="penalty", form_kwargs={"players": players, "slot": slot}
        )
        if "compute" in request.POST or "add_penalty" in request.POST:
            kwargs = {"players": players, "slot": slot, "editing": True, "release": release()}
            show = _compute if "compute" in request.POST else _add_penalty_row
            return show(
                request, tournament, sheet, form, penalties, kwargs, editing=hand, ruling=ruling
            )
        if _save_hand(request, table, form, penalties, editing=True, ruling=ruling):
            messages.success(request, _("Hand %(n)s corrected.") % {"n": hand.number})
            return redirect(reverse("table_sheet", args=[slug, number, table.number]) + "#entry")
        if form.has_error("number", "submission_key_conflict"):
            # This correction's form already saved other content (Back, changed, saved
            # again): the sheet as it is now, the hand as stored shown beside the entry.
            sheet = table_sheet(table)
            stored = _stored_beside(form, sheet, hand.number)
            _fresh_key(form)
        _this_release(form)
    else:
        form = HandForm(
            players=players,
            slot=slot,
            editing=True,
            initial=hand_initial(hand),
            release=release(),
        )
        penalties = PenaltyFormSet(
            prefix="penalty",
            form_kwargs={"players": players, "slot": slot},
            initial=penalty_initial(hand),
        )
    context = _sheet_context(
        request, tournament, sheet, form=form, penalties=penalties, editing=hand
    )
    context.update(stored=stored, ruling=ruling)
    return render(request, "referee/sheet.html", context, status=409 if stored else 200)


@table_entry_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_confirm(request, slug, number, table):
    """The review the players check with the referee; confirming it locks the table."""
    tournament, table = table_access(request, slug, number, table)
    sheet = table_sheet(table)
    if request.method == "POST":
        form = ConfirmForm(request.POST, players=sheet.players)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.table_confirm(
                    table=table,
                    user=entering_user(request),
                    record_missing_as_not_played=data["record_missing_as_not_played"],
                    initials=data["initials"],
                    # Always sent: a review posted without its version is refused, shown again.
                    version=data["version"],
                )
            except ValidationError as error:
                add_service_errors(form, error)
                # Another tablet may have confirmed or changed the table meanwhile.
                table.refresh_from_db()
                sheet = table_sheet(table)
                if getattr(error, "code", None) == "sheet_changed":
                    # The review again, of the sheet as it is now; the players' initials
                    # were for the sheet they saw: they write them again once checked.
                    form.data = form.data.copy()
                    form.data["version"] = sheet_version(sheet)
                    for seat in range(len(SEAT_LABELS)):
                        form.data[f"initials_{seat}"] = ""
            else:
                messages.success(request, _("Table %(t)s confirmed.") % {"t": table.number})
                url = reverse("table_sheet", args=[slug, number, table.number])
                return redirect(url + "#confirm")
    else:
        form = confirm_form_for(sheet)
    context = _table_context(request, tournament, sheet)
    can_confirm = table.session.is_in_play and not table.is_confirmed
    disputed = sorted(open_call_hands(table))
    context.update(
        form=form,
        can_confirm=can_confirm,
        # The hands a call is open about (the table is confirmed once they are resolved),
        # and a one-time key for each row's "We disagree".
        disputed=disputed,
        call_open=bool(disputed) or table_has_open_call(table),
        review_rows=[
            (row, uuid.uuid4() if can_confirm else None) for row in sheet.rows if row.hand
        ],
    )
    return render(request, "referee/confirm.html", context)


@table_entry_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_seats_swap(request, slug, number, table):
    """Two players sat in each other's seats: record them where they sat; the hands already
    entered follow their players (organisers and the table's referee, while it is open)."""
    tournament, table = table_access(request, slug, number, table)
    sheet = table_sheet(table)
    form = SeatSwapForm(request.POST or None, players=sheet.players)
    if request.method == "POST" and form.is_valid():
        try:
            swap = services.table_seats_swap(
                table=table,
                first=form.cleaned_data["first"],
                second=form.cleaned_data["second"],
                user=entering_user(request),
                device=request.device_link,
                seating=form.cleaned_data["seating"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
            # The table as it is now, and a form for it.
            sheet = table_sheet(table)
            form.data = form.data.copy()
            form.data["seating"] = seating_key(p.number for p in sheet.players)
        else:
            first, second = (SEAT_LABELS[form.cleaned_data[name]] for name in ("first", "second"))
            messages.success(
                request,
                _("%(first)s and %(second)s swapped seats; %(hands)s hands follow their players.")
                % {"first": first, "second": second, "hands": swap.hands},
            )
            if swap.disputed:
                messages.warning(
                    request,
                    _(
                        "Counted again at their new seat winds, the tiles of hands %(hands)s no "
                        "longer give the fan the players declared: check them."
                    )
                    % {"hands": ", ".join(str(n) for n in swap.disputed)},
                )
            return redirect(reverse("table_sheet", args=[slug, number, table.number]) + "#sheet")
    context = _table_context(request, tournament, sheet)
    context.update(form=form, can_swap=table.session.is_in_play and not table.is_confirmed)
    return render(request, "referee/seats_swap.html", context)


@tournament_page("referee", READ)
def table_cards(request, tournament, number):
    """Printable cards, one table per page, with the 16-hand seat schedule; an organiser's
    also carry each table's device link and its QR code (a referee could otherwise hand a
    tablet any table's link)."""
    session = get_session(tournament, number)
    sheets = session_sheets(session)
    links = [None] * len(sheets)
    if is_organiser(request.user, tournament):
        links = [
            device_links.device_link_card(sheet.table, request.build_absolute_uri)
            for sheet in sheets
        ]
    return page(
        request,
        "referee/cards.html",
        tournament,
        session=session,
        sheets=sheets,
        cards=list(zip(sheets, links, strict=True)),
    )
