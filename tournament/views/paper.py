"""The paper fallback, for a table whose tablet dies: a blank score sheet per table, one A4
page each, and the session's penalty record on whole A4 pages (one, but for many penalties),
printed like the table cards and by the same people (the tournament's referees and
organisers)."""

from django.utils.translation import gettext as _

from tournament.selectors.paper import session_penalty_record, session_score_sheets
from tournament.views.common import READ, get_session, page, tournament_page


def _blank(request) -> bool:
    """``?blank=1``: the players left out, to be written in by hand."""
    return request.GET.get("blank") == "1"


def _table_number(request) -> int | None:
    """``?table=n``: one table's sheet only; 0 for anything but a whole number (no table
    has it)."""
    value = request.GET.get("table", "").strip()
    if not value:
        return None
    return int(value) if value.isdecimal() and len(value) < 6 else 0


@tournament_page("referee", READ)
def score_sheets(request, tournament, number):
    """Blank score sheets, one A4 page per table of the drawn session (or of one table)."""
    session = get_session(tournament, number)
    table = _table_number(request)
    sheets = session_score_sheets(session, blank=_blank(request), table=table)
    error = ""
    if table is not None and not sheets:
        # Said beside the field, with the form to try another number.
        error = _("Session %(session)s has no table %(table)s.") % {
            "session": session.number,
            "table": request.GET.get("table", ""),
        }
    return page(
        request,
        "referee/score_sheets.html",
        tournament,
        session=session,
        sheets=sheets,
        blank=_blank(request),
        table=table,
        table_value=request.GET.get("table", ""),
        table_error=error,
        http_status=404 if error else 200,
    )


@tournament_page("referee", READ)
def penalty_sheet(request, tournament, number):
    """The session's penalty record on whole A4 pages (one, but for many penalties): the
    penalties recorded so far, then blank rows (all blank with ``?blank=1``)."""
    session = get_session(tournament, number)
    return page(
        request,
        "referee/penalty_sheet.html",
        tournament,
        session=session,
        record=session_penalty_record(session, blank=_blank(request)),
        blank=_blank(request),
    )
