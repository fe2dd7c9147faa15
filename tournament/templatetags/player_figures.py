"""A player's statistics and their rank after each session, as their page shows them
(``{% player_figures record player %}``): the table of figures, the rank chart (an SVG, with
the same figures as a table for screen readers) and the note on what the figures count.

Written in Python rather than as templates: at a big event the players' pages are a third of
what the spectators ask for, and these parts cost more than the rest of the page.
"""

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.templatetags.mcr import fan_list, outcome_label

register = template.Library()


def _row(label: str, cell_id: str, value, css: str = "num") -> str:
    return format_html(
        '  <tr><th scope="row">{}</th><td class="{}" id="{}">{}</td></tr>\n',
        label,
        css,
        cell_id,
        value,
    )


def _biggest(hand) -> str:
    """The biggest hand's cell: its fan (and flowers), where it was, how it was won, its
    fans when they are known."""
    if hand is None:
        return "–"
    flowers = ""
    if hand.flowers:
        flowers = format_html(
            " ({})",
            ngettext("%(fan)s + %(flowers)s flower", "%(fan)s + %(flowers)s flowers", hand.flowers)
            % {"fan": hand.fan, "flowers": hand.flowers},
        )
    fans = ""
    if hand.fans:
        fans = format_html('<br><span class="fans">{}</span>', fan_list(hand.fans))
    return format_html(
        "\n    <strong>{}</strong>{},\n    {}\n    ({}){}\n  ",
        _("%(fan)s fan") % {"fan": hand.settled_fan},
        flowers,
        _("session %(session)s, table %(table)s, hand %(number)s")
        % {"session": hand.session, "table": hand.table, "number": hand.number},
        outcome_label(hand.outcome),
        fans,
    )


def _figures(record) -> str:
    stats = record.statistics
    if not stats.hands_played:
        return format_html('<p class="muted">{}</p>\n', _("No hand played yet."))
    rows = [
        _row(_("Hands played"), "stat-hands-played", stats.hands_played),
        _row(_("Hands won"), "stat-wins", stats.wins),
        _row(_("… by self-draw"), "stat-self-drawn", stats.self_drawn),
        _row(_("… on a discard"), "stat-discard-wins", stats.discard_wins),
        _row(_("Deal-ins (discards that another player won on)"), "stat-deal-ins", stats.deal_ins),
        _row(_("Win rate"), "stat-win-rate", f"{stats.win_rate}%"),
        _row(_("Deal-in rate"), "stat-deal-in-rate", f"{stats.deal_in_rate}%"),
        _row(_("Average fan of wins"), "stat-average-fan", stats.average_fan or "–"),
        format_html(
            '  <tr><th scope="row">{}</th><td id="stat-biggest">{}</td></tr>\n  ',
            _("Biggest hand"),
            mark_safe(_biggest(stats.biggest)),
        ),
    ]
    session, rank = record.ranks[-1] if record.ranks else (None, None)
    if rank:
        rows.append(
            format_html(
                '<tr><th scope="row">{}</th><td class="num" id="stat-rank">{}</td></tr>',
                _("Rank after session %(session)s") % {"session": session},
                rank,
            )
        )
    penalties = "0"
    if stats.penalties:
        penalties = ngettext(
            "%(penalties)s penalty, %(points)s points paid",
            "%(penalties)s penalties, %(points)s points paid",
            stats.penalties,
        ) % {"penalties": stats.penalties, "points": stats.penalty_points}
    rows.append("\n" + _row(_("Penalties"), "stat-penalties", penalties))
    return format_html(
        '<div class="table-wrap"><table class="player-statistics">\n  <tbody>\n{}  </tbody>\n'
        "</table></div>\n",
        mark_safe("".join(rows)),
    )


def _number(value) -> str:
    """A coordinate as the SVG reads it: never localised (12.5, not 12,5)."""
    return str(value)


def rank_chart(chart, ranks, player) -> str:
    """The player's rank after each session as an SVG, then as a table for screen readers."""
    ticks = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}"/><text x="{}" y="{}" dy="0.35em"'
        ' text-anchor="end">{}</text>\n    ',
        (
            (chart.left, chart.right, _number(y), _number(y), chart.rank_label_x, _number(y), rank)
            for rank, y in chart.rank_ticks
        ),
    )
    sessions = format_html_join(
        "",
        '<text x="{}" y="{}" text-anchor="middle">{}</text>\n    ',
        ((_number(x), chart.session_label_y, session) for session, x in chart.session_ticks),
    )
    lines = format_html_join(
        "", '<polyline class="rank-line" points="{}"/>\n  ', ((line,) for line in chart.lines)
    )
    points = format_html_join(
        "",
        '<circle class="rank-point" cx="{}" cy="{}" r="4" data-session="{}" data-rank="{}">'
        "<title>{}</title></circle>\n  ",
        (
            (
                _number(point.x),
                _number(point.y),
                point.session,
                point.rank,
                _("Session %(session)s: rank %(rank)s")
                % {"session": point.session, "rank": point.rank},
            )
            for point in chart.points
        ),
    )
    rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td></tr>\n  ",
        ((session, rank if rank else _("not ranked")) for session, rank in ranks),
    )
    return format_html(
        '\n<figure class="rank-chart">\n'
        '<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img"'
        ' aria-labelledby="rank-chart-title" xmlns="http://www.w3.org/2000/svg">\n'
        '  <title id="rank-chart-title">{title}</title>\n'
        '  <g class="rank-axis">\n    {ticks}\n  </g>\n'
        '  <g class="session-axis">\n    {sessions}<text x="{middle}" y="{axis_y}"'
        ' text-anchor="middle">{session_word}</text>\n  </g>\n'
        "  {lines}{points}\n</svg>\n"
        '<figcaption class="help">{caption}</figcaption>\n'
        "</figure>\n"
        '<table class="visually-hidden">\n'
        "  <caption>{table_caption}</caption>\n"
        '  <thead><tr><th scope="col">{session_word}</th><th scope="col">{rank_word}</th>'
        "</tr></thead>\n"
        "  <tbody>\n  {rows}\n  </tbody>\n"
        "</table>\n",
        width=chart.width,
        height=chart.height,
        title=_("Rank of %(name)s after each session, rank 1 at the top") % {"name": player.name},
        ticks=ticks,
        sessions=sessions,
        middle=_number(chart.middle),
        axis_y=chart.axis_title_y,
        session_word=_("Session"),
        lines=lines,
        points=points,
        caption=ngettext(
            "Rank after each session, 1 at the top, out of %(ranked)s ranked player.",
            "Rank after each session, 1 at the top, out of %(ranked)s ranked players.",
            chart.ranked,
        )
        % {"ranked": chart.ranked},
        table_caption=_("Rank after each session"),
        rank_word=_("Rank"),
        rows=rows,
    )


@register.simple_tag
def player_figures(record, player) -> SafeString:
    """``record`` (``selectors.statistics.PlayerRecord``) of ``player``, under its heading."""
    chart = rank_chart(record.chart, record.ranks, player) if record.chart else ""
    return format_html(
        '\n<h2 id="statistics">{}</h2>\n\n\n{}\n{}\n<p class="help">{}</p>\n\n',
        _("Statistics"),
        mark_safe(_figures(record)),
        mark_safe(chart),
        # A text of the catalogue, shown as it is written there.
        mark_safe(
            _(
                "Hands played are the hands entered at this player's tables with a result other "
                "than “not played”: wins and draws. A deal-in is a win on this player's discard. "
                "Rates are out of the hands played. The fan of a win is the fan it was paid on: "
                "the hand's fan plus its flowers. A penalty paid to each other player costs its "
                "points three times. The rank after a session is the standings' rank with that "
                "session and the earlier ones counted (the session in play with the hands entered "
                "so far); substitutes are not ranked."
            )
        ),
    )
