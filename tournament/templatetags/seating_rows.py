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


def url_prefix(name: str, slug: str) -> str:
    """The URLs of page ``name`` of the tournament without their number ("/t/<slug>/players/"
    for the player pages), reversed once for a page that links many of them."""
    return reverse(name, args=[slug, 0]).removesuffix("0/")


def player_url_prefix(slug: str) -> str:
    return url_prefix("player_schedule", slug)


def _opponents(opponents, prefix: str, *, badges: bool = True) -> str:
    """A seat's opponents, each linked to their page ("P2: 14 Bo Li · P3: …"), with their
    substitute and withdrawn badges; an opponent of the plan who withdrew (None) is a seat
    to be filled."""
    to_be_filled, substitute = _("seat to be filled"), escape(_("substitute"))
    cells = []
    for label, opponent in opponents:
        if opponent is None:
            cells.append(f'{escape(label)}: <span class="muted to-be-filled">{to_be_filled}</span>')
            continue
        name = escape(opponent.name)
        who = f'{escape(label)}: <a href="{prefix}{opponent.number}/">{opponent.number} {name}</a>'
        if badges and opponent.is_substitute:
            who += f' <span class="badge">{substitute}</span>'
        if badges and opponent.withdrawn:
            who += f" {withdrawn_badge()}"
        cells.append(who)
    return " · ".join(cells)


@register.simple_tag
def player_schedule_rows(schedule, slug: str):
    """The rows of a player's page's drawn sessions: the session (linked to its seating),
    the table, the starting seat with its wind and whom the player replaces, the
    opponents."""
    players, sessions = escape(player_url_prefix(slug)), escape(url_prefix("seating", slug))
    winds = (_("East"), _("South"), _("West"), _("North"))
    rows = []
    for row in schedule:
        number = row.session.number
        seat = f"{escape(row.seat_label)} ({winds[row.seat]})"
        if row.replaces:
            replaces = _("replaces %(n)s %(name)s") % {
                "n": row.replaces.number,
                "name": escape(row.replaces.name),
            }
            seat += f'<br><small class="muted replaces">{replaces}</small>'
        rows.append(
            f'  <tr id="session-{number}">\n'
            f'    <td class="num"><a href="{sessions}{number}/">{number}</a></td>\n'
            f'    <td class="num"><strong>{row.table.number}</strong></td>\n'
            f"    <td>{seat}</td>\n"
            f"    <td>{_opponents(row.opponents, players)}</td>\n  </tr>\n"
        )
    return mark_safe("".join(rows))


@register.simple_tag
def player_planned_rows(planned, slug: str):
    """The rows of a player's page's planned sessions: session, table, seat, opponents."""
    players = escape(player_url_prefix(slug))
    rows = [
        f'  <tr id="planned-{row.session}">\n'
        f'    <td class="num">{row.session}</td>\n'
        f'    <td class="num"><strong>{row.table}</strong></td>\n'
        f"    <td>{escape(row.seat_label)}</td>\n"
        f"    <td>{_opponents(row.opponents, players, badges=False)}</td>\n  </tr>\n"
        for row in planned
    ]
    return mark_safe("".join(rows))


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
