"""The seating pages' long tables, written in Python: a session of 2,000 players has 2,000
seats, and the template engine's cost for each variable it looks up would take most of a
page's time."""

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournament.language.formatting import SEAT_LABELS

register = template.Library()


def withdrawn_badge() -> str:
    """The badge of a withdrawn player who still holds a seat (until it is given away)."""
    return f'<span class="badge warn withdrawn">{escape(_("withdrawn"))}</span>'


def _player(player) -> str:
    """Number (bold), name, Chinese name and the substitute and withdrawn badges, escaped."""
    html = f"<strong>{player.number}</strong> {escape(player.name)}"
    if player.name_zh:
        html += f' <span lang="zh">{escape(player.name_zh)}</span>'
    if player.is_substitute:
        html += f' <span class="badge">{escape(_("substitute"))}</span>'
    if player.withdrawn:
        html += f" {withdrawn_badge()}"
    return html


def replaced_note(method: str, number: int, name: str) -> str:
    """What a seat given to someone else says of the player it was seated for, as the
    session's method seated them: the lot drew it, the plan gave it, or a session draw."""
    if method == "lot":
        text = _("replaces %(n)s %(name)s, drawn by lot")
    elif method == "planned":
        text = _("replaces %(n)s %(name)s in their planned seat")
    else:
        text = _("replaces %(n)s %(name)s in the seat drawn for them")
    return text % {"n": number, "name": name}


def stand_in_note(number: int, name: str) -> str:
    """What the seat of a substitute the draw seated says of the withdrawn player they stand
    in for."""
    return _("replaces %(n)s %(name)s") % {"n": number, "name": name}


def seat_note(seat, method: str) -> str:
    """The small print under a seated player, escaped: the lot, whom they replace."""
    note = f"{escape(_('lot'))} {seat.lot}" if method == "lot" else ""
    if seat.replaces:
        replaced = replaced_note(method, seat.replaces.number, seat.replaces.name)
    elif seat.stands_in_for:
        replaced = stand_in_note(seat.stands_in_for.number, seat.stands_in_for.name)
    else:
        return note
    return f"{note} · {escape(replaced)}" if note else escape(replaced)


@register.simple_tag
def seating_rows(tables, method: str):
    """The rows of the seating by table: each table's players P1..P4, with their lots when
    drawn by lot, whom each substitute replaces, and the withdrawn players still seated."""
    return mark_safe("".join(seating_row_list(tables, method)))


def seating_row_list(tables, method: str) -> list[str]:
    """``seating_rows``, a table's row each (HTML, escaped): the seating page shows them by
    pages."""
    rows = []
    for table in tables:
        cells = []
        for seat in table.seats:
            note = seat_note(seat, method)
            cells.append(
                f'    <td>{_player(seat.player)}<br><small class="muted">{note}</small></td>\n'
            )
        rows.append(
            f'  <tr id="table-{table.number}">\n'
            f'    <th class="num">{table.number}</th>\n{"".join(cells)}  </tr>\n'
        )
    return rows


def player_url_prefix(slug: str) -> str:
    """The player pages' URLs without the player's number ("/t/<slug>/players/"), reversed
    once for a page that links every player."""
    return reverse("player_schedule", args=[slug, 0]).removesuffix("0/")


@register.simple_tag
def by_name_rows(seats, slug: str):
    """The rows of the seating by name: each player (linked to their page), number, table
    and starting seat with its wind."""
    prefix = escape(player_url_prefix(slug))
    winds = [
        escape(f"{label} ({wind})")
        for label, wind in zip(
            SEAT_LABELS, (_("East"), _("South"), _("West"), _("North")), strict=True
        )
    ]
    rows = []
    for seat in seats:
        player = seat.player
        name = f'<a href="{prefix}{player.number}/">{escape(player.name)}</a>'
        if player.name_zh:
            name += f' <span lang="zh">{escape(player.name_zh)}</span>'
        if player.withdrawn:
            name += f" {withdrawn_badge()}"
        rows.append(
            f"  <tr>\n    <td>{name}</td>\n"
            f'    <td class="num">{player.number}</td>\n'
            f'    <td class="num"><strong>{seat.table}</strong></td>\n'
            f"    <td>{winds[seat.seat]}</td>\n  </tr>\n"
        )
    return mark_safe("".join(rows))


@register.simple_tag
def plan_player_rows(plan_players, with_changes: bool = False):
    """The rows of the plan's player list: the command's number i, the player it stood for
    in the first plan and, after re-plans, what changed for them since."""
    return mark_safe("".join(plan_player_row_list(plan_players, with_changes)))


def plan_player_row_list(plan_players, with_changes: bool = False) -> list[str]:
    """``plan_player_rows``, a player's row each (HTML, escaped)."""
    rows = []
    for row in plan_players:
        changes = f"<td>{escape(row.changes)}</td>" if with_changes else ""
        rows.append(
            f'<tr><td class="num">{row.index}</td><td>{escape(row.player)}</td>{changes}</tr>'
        )
    return rows
