"""The seating pages' long tables, written in Python: a session of 2,000 players has 2,000
seats, and the template engine's cost for each variable it looks up would take most of a
page's time."""

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournament.models import SEAT_LABELS

register = template.Library()


def _player(player) -> str:
    """Number (bold), name, Chinese name and the substitute badge, escaped."""
    html = f"<strong>{player.number}</strong> {escape(player.name)}"
    if player.name_zh:
        html += f' <span lang="zh">{escape(player.name_zh)}</span>'
    if player.is_substitute:
        html += f' <span class="badge">{escape(_("substitute"))}</span>'
    return html


@register.simple_tag
def seating_rows(tables, method: str):
    """The rows of the seating by table: each table's players P1..P4, with their lots when
    drawn by lot and whom each substitute replaces."""
    lot = escape(_("lot"))
    rows = []
    for table in tables:
        cells = []
        for seat in table.seats:
            note = f"{lot} {seat.lot}" if method == "lot" else ""
            if seat.replaces:
                replaced = _("replaces %(n)s %(name)s, drawn by lot") % {
                    "n": seat.replaces.number,
                    "name": seat.replaces.name,
                }
                note += f" · {escape(replaced)}"
            cells.append(
                f'    <td>{_player(seat.player)}<br><small class="muted">{note}</small></td>\n'
            )
        rows.append(
            f'  <tr id="table-{table.number}">\n'
            f'    <th class="num">{table.number}</th>\n{"".join(cells)}  </tr>\n'
        )
    return mark_safe("".join(rows))


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
        rows.append(
            f"  <tr>\n    <td>{name}</td>\n"
            f'    <td class="num">{player.number}</td>\n'
            f'    <td class="num"><strong>{seat.table}</strong></td>\n'
            f"    <td>{winds[seat.seat]}</td>\n  </tr>\n"
        )
    return mark_safe("".join(rows))


@register.simple_tag
def plan_player_rows(plan_players):
    """The rows of the plan's player list: the command's number i and the player it is."""
    return mark_safe(
        "".join(
            f'<tr><td class="num">{i}</td><td>{escape(player)}</td></tr>'
            for i, player in plan_players
        )
    )
