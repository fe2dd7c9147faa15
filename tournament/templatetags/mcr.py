"""Small display helpers for score sheets."""

from fractions import Fraction

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from tournament.forms.hands import PENALTY_PRESETS
from tournament.hall import statistics
from tournament.language import translated
from tournament.language.formatting import (
    SEAT_LABELS,
    WIND_LETTERS,
    WIND_NAMES,
    format_table_points,
)
from tournament.language.tiles import flower_faces, tile_names, tile_rows
from tournament.models import Hand, Penalty
from tournament.scoring import MAX_FLOWERS, MIN_FAN, Outcome
from tournament.scoring.claims import parse_claimed_fans
from tournament.scoring.fans import FAN_BY_KEY
from tournament.scoring.hand import HandError
from tournament.seating import HANDS_PER_SESSION
from tournament.seating.rotation import HANDS_PER_ROUND
from tournament.templatetags.form_fields import field_errors, form_field

register = template.Library()

# The rules' numbers that pages quote, from the constants the cores enforce.
RULE_NUMBERS = {
    "min_fan": MIN_FAN,
    "max_flowers": MAX_FLOWERS,
    "hands_per_session": HANDS_PER_SESSION,
    # The hands that open a new round, where the players change seats: "5, 9, 13".
    "seat_move_hands": ", ".join(
        str(first) for first in range(HANDS_PER_ROUND + 1, HANDS_PER_SESSION, HANDS_PER_ROUND)
    ),
}


@register.simple_tag
def rule_number(name: str) -> int | str:
    """``{% rule_number "min_fan" as minimum %}``: 8, as the scoring core checks it."""
    return RULE_NUMBERS[name]


@register.filter
def signed(value):
    """+12, −8, 0: how the paper sheet writes a player's plus or minus."""
    if value is None or value == "":
        return ""
    value = int(value)
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


@register.filter
def seat_label(seat):
    return "" if seat is None else SEAT_LABELS[int(seat)]


@register.filter
def outcome_label(outcome):
    return dict(Hand.OUTCOME_CHOICES).get(outcome, outcome)


@register.filter
def wind_name(wind):
    return WIND_NAMES.get(wind, wind)


@register.filter
def wind_letter(wind):
    return WIND_LETTERS.get(wind, wind)


@register.filter
def exact(value):
    """Table points exactly, as on the standings page: 3, 1.75, 0.5 or 7/3."""
    return format_table_points(value) if isinstance(value, Fraction | int) else value


@register.filter
def penalty_kind(kind: str) -> str:
    """How a penalty of ``kind`` is paid, in the reader's language."""
    return dict(Penalty.KIND_CHOICES).get(kind, kind)


@register.filter
def fan_name(fan) -> str:
    """A fan's name in the page's language (清龙 or Pure Straight): ``{{ fan|fan_name }}``
    for a fan of the table, or ``{{ key|fan_name }}`` for its key."""
    if isinstance(fan, str):
        found = FAN_BY_KEY.get(fan)
        return fan if found is None else translated.fan_name(found)
    return translated.fan_name(fan)


@register.filter
def fans_listed(fans) -> str:
    """Counted fans in the page's language, as a referee writes them: "清龙、喜相逢 ×2"."""
    return translated.fans_in_words(fans)


@register.filter
def fans_claimed(text: str) -> str:
    """The fans a referee claimed for a hand, as stored, written in the page's language
    ("Pure Straight, Short Straight ×2"); as typed when they cannot be read."""
    try:
        claimed = parse_claimed_fans(text)
    except HandError:
        return text
    return translated.fans_in_words(claimed) or text


@register.filter
def fan_list(fans) -> str:
    """A hand's fans (``statistics.HandFans``: fan keys with their counts) in the page's
    language: "Pure Straight, Pure Double Chow ×2" (清龙、一般高 ×2)."""
    if not fans:
        return ""
    return translated.list_in_words(
        fan_name(key) + (f" ×{count}" if count > 1 else "") for key, count in fans.fans
    )


@register.filter
def fan_points(key: str):
    """The points a fan scores, from the fan table."""
    fan = FAN_BY_KEY.get(key)
    return "" if fan is None else fan.points


@register.simple_tag
def share(part: int, whole: int) -> str:
    """``part`` out of ``whole`` as a percentage to one decimal (without the sign)."""
    return statistics.percent(part, whole)


@register.filter
def seat_wind(seat):
    """A starting seat's wind at the first hand: P1 (0) East, P2 South, P3 West, P4 North."""
    return "" if seat is None else WIND_NAMES["ESWN"[int(seat)]]


# The tile picker's HTML by (target, on the sheet, language): it holds no data of the page,
# and the tablet's sheet, drawn again after every hand saved, would draw its 42 tiles anew.
_TILE_PICKERS: dict[tuple[str, bool, str], str] = {}


@register.simple_tag
def tile_picker(target: str, on_sheet: bool = False):
    """``{% tile_picker "winning_hand" on_sheet=True %}``: the tile picker, which writes the
    hand it builds into the form's field ``target`` in the notation (static/js/tiles.js).
    On a referee's sheet the winds, self-draw and flowers come from the sheet; on the
    calculator they are tapped."""
    key = (target, on_sheet, get_language())
    html = _TILE_PICKERS.get(key)
    if html is None:
        html = _TILE_PICKERS[key] = render_to_string(
            "scoring/_tile_picker.html",
            {
                "target": target,
                "on_sheet": on_sheet,
                "rows": tile_rows(),
                "flowers": flower_faces(),
                "names": tile_names(),
                "winds": [(code, WIND_NAMES[code]) for code in WIND_NAMES],
            },
        )
    return mark_safe(html)


@register.filter
def own_hand_row(hand) -> str:
    """One row of the player's own page's hands: the hand's number, what happened as the
    player lived it (``own_hand``), their points and running total. Made here in one piece
    rather than cell by cell in the template: the page repeats it for every hand of every
    session the player sat, and a phone asks for the page every 30 seconds."""
    sign = "plus" if hand.points > 0 else "minus" if hand.points < 0 else ""
    return format_html(
        '<tr class="hand-{}"><td class="num">{}</td><td>{}</td>'
        '<td class="num {}">{}</td><td class="num">{}</td></tr>',
        hand.kind,
        hand.number,
        own_hand(hand),
        sign,
        signed(hand.points),
        signed(hand.running),
    )


@register.filter
def own_hand(hand) -> str:
    """One hand as its player lived it ("You won by self-draw, 8 fan + 1 flower", "Bo won on
    your discard, 10 fan")."""
    fan = hand.fan
    if hand.kind == "won":
        if hand.self_drawn:
            said = _("You won by self-draw, %(fan)s fan") % {"fan": fan}
        else:
            said = _("You won on %(name)s's discard, %(fan)s fan") % {
                "fan": fan,
                "name": conditional_escape(hand.discarder.name),
            }
        if hand.flowers:
            said += " " + ngettext(
                "+ %(counter)s flower", "+ %(counter)s flowers", hand.flowers
            ) % {"counter": hand.flowers}
    elif hand.kind == "dealt_in":
        said = _("%(name)s won on your discard, %(fan)s fan") % {
            "name": conditional_escape(hand.winner.name),
            "fan": fan,
        }
    elif hand.kind == "lost" and hand.self_drawn:
        said = _("%(name)s won by self-draw, %(fan)s fan") % {
            "name": conditional_escape(hand.winner.name),
            "fan": fan,
        }
    elif hand.kind == "lost":
        said = _("%(name)s won on %(other)s's discard, %(fan)s fan") % {
            "name": conditional_escape(hand.winner.name),
            "other": conditional_escape(hand.discarder.name),
            "fan": fan,
        }
    elif hand.kind == "draw":
        said = _("Draw")
    else:
        said = _("Not played")
    # The names are escaped above; the sentences themselves hold no markup.
    return mark_safe(said)


# ---------------------------------------------------------------- the score sheet
# Written in Python, not as templates: the tablet's sheet is drawn again after every hand
# saved, and its sixteen rows of four seats cost the template engine a fifth of the page.


def hand_outcome_words(hand) -> str:
    """Who won a hand and how, in plain words: "P2 self-drawn 88 + 2 flowers", "Draw". The
    first line of ``hand_result``, and what the tablet's script shows of a stored hand."""
    flowers = ""
    if hand.flowers:
        flowers = " + " + ngettext("%(n)s flower", "%(n)s flowers", hand.flowers) % {
            "n": hand.flowers
        }
    if hand.outcome == Outcome.SELF_DRAWN:
        words = _("%(winner)s self-drawn %(fan)s") % {
            "winner": seat_label(hand.winner),
            "fan": hand.fan,
        }
        return words + flowers
    if hand.outcome == Outcome.DISCARD:
        words = _("%(winner)s on discard of %(discarder)s %(fan)s") % {
            "winner": seat_label(hand.winner),
            "discarder": seat_label(hand.discarder),
            "fan": hand.fan,
        }
        return words + flowers
    if hand.outcome == Outcome.DRAW:
        return _("Draw")
    return _("Not played")


@register.filter
def hand_result(hand) -> str:
    """One entered hand as the score sheet writes it: who won and how, the calculator's
    figure when it differs, how it was entered, the fans claimed and the penalties. The
    sentences are the project's own (not escaped, as the template's translate tags leave
    them); every stored text is escaped."""
    html = hand_outcome_words(hand)
    if hand.outcome == Outcome.NOT_PLAYED:
        html = f'<span class="muted">{html}</span>'
    if hand.computed_fan is not None and hand.computed_fan != hand.fan:
        calculator = _("calculator: %(n)s fan") % {"n": hand.computed_fan}
        html += f'<br><small class="minus">{calculator}</small>'
    if hand.entered_by_device:
        device, words = escape(hand.entered_by_device), _("via the table's tablet")
        html += f'<br><small class="muted" title="{device}">{words}</small>'
    if hand.referee_figure_kept:
        words = _("the referee's figures kept")
        html += f'<br><small class="muted">{words}</small>'
    if hand.fan_names:
        html += f'<br><small class="muted">{escape(fans_claimed(hand.fan_names))}</small>'
    penalty_word = _("Penalty")
    for penalty in hand.penalties.all():
        paid_to = ""
        if penalty.beneficiary is not None:
            paid_to = f" → {seat_label(penalty.beneficiary)}"
        html += (
            f'<br><small class="minus">{penalty_word} {seat_label(penalty.offender)}'
            f" {penalty.points} ({escape(penalty.get_kind_display())}{paid_to}):"
            f" {escape(penalty.reason)}</small>"
        )
    return mark_safe(html)


def _seat_cell(wind: str, physical: str, points: int | None, running: int, played: bool) -> str:
    """A player's cell of one hand: their seat wind (East in bold) and the seat they sit in,
    then, once the hand is entered, its plus or minus and the running total."""
    dealer = " dealer" if wind == "E" else ""
    seat = _("(%(seat)s seat)") % {"seat": wind_letter(physical)}
    html = (
        f'<td class="num"><small class="seat-wind{dealer}">{wind_name(wind)}'
        f' <span class="muted">{seat}</span></small>\n      '
    )
    if played:
        sign = "plus" if points > 0 else "minus" if points < 0 else ""
        html += (
            f'<br><span class="{sign}">{signed(points)}</span><br><small>{signed(running)}</small>'
        )
    return html + "</td>\n    "


@register.simple_tag(takes_context=True)
def score_sheet_rows(context) -> str:
    """The score sheet's sixteen rows (``referee/sheet.html``): each hand's number (a link
    to correct it where the page may), its round and dealer, its result and the players'
    cells; the hand being corrected marked."""
    sheet, editing = context["sheet"], context.get("editing")
    can_enter = context.get("can_enter")
    table = sheet.table
    slug, session = context["tournament"].slug, table.session.number
    correct_title, dealer_word = _("Correct this hand"), _("dealer")
    lines = []
    for row in sheet.rows:
        hand, number = row.hand, row.number
        current = ' class="current"' if editing is not None and editing.number == number else ""
        if hand and can_enter:
            url = reverse("hand_edit", args=[slug, session, table.number, number])
            link = f'<a class="hand-link" href="{url}#entry" title="{correct_title}">{number}</a>'
        else:
            link = str(number)
        result = hand_result(hand) if hand else '<span class="muted">—</span>'
        cells = "".join(_seat_cell(*seat, played=hand is not None) for seat in row.seats)
        lines.append(
            f'  <tr id="hand-{number}"{current}>\n'
            f"    <td>{link}</td>\n"
            f"    <td>{wind_letter(row.slot.prevalent_wind)} · {dealer_word}"
            f" {row.dealer_label}</td>\n"
            f"    <td>{result}</td>\n    {cells}\n  </tr>\n"
        )
    # Safe: numbers, the project's own words and labels, ``hand_result``'s HTML.
    return mark_safe("".join(lines))


def _seat_tiles(field) -> str:
    """A seat field's radio tiles: each input in its label, as the entry form shows them."""
    return "".join(
        format_html("<label>{} {}</label>", radio.tag(), radio.choice_label) for radio in field
    )


# The preset buttons of a penalty row by language: the same on every row of every sheet.
_PRESET_BUTTONS: dict[str, str] = {}


def _preset_buttons() -> str:
    language = get_language()
    html = _PRESET_BUTTONS.get(language)
    if html is None:
        buttons = []
        for preset in PENALTY_PRESETS:
            allowed = ""
            if len(preset.points) > 1:
                allowed = format_html(
                    ' data-preset-range="{}"',
                    _("The rules allow %(figures)s.") % {"figures": preset.figures},
                )
            buttons.append(
                format_html(
                    '<button type="button" data-preset-kind="{}" data-preset-points="{}"'
                    ' data-preset-reason="{}"{}>{} <small>{}</small></button>',
                    preset.kind,
                    preset.default_points,
                    preset.reason,
                    allowed,
                    preset.reason,
                    preset.figures,
                )
            )
        html = _PRESET_BUTTONS[language] = "".join(buttons)
    return html


@register.simple_tag
def penalty_row(pform, number) -> str:
    """One penalty row of the hand entry (``referee/sheet.html``): who, the kind, points and
    reason (with the common penalties as buttons), who is paid, and on a stored hand's row
    the box to remove it. The page also keeps it empty in a ``<template>`` (prefix
    "__prefix__", number "__number__") for "Add a penalty row" to copy."""
    offender, points, beneficiary = pform["offender"], pform["points"], pform["beneficiary"]
    non_field = pform.non_field_errors()
    html = [
        format_html(
            '\n<fieldset class="penalty stack" id="{}" data-penalty-row>\n'
            "  <legend>{}</legend>\n  ",
            pform.prefix,
            _("Penalty %(n)s") % {"n": number},
        ),
        format_html('<div class="form-errors" role="alert">{}</div>', non_field)
        if non_field
        else "",
        format_html(
            '\n  <fieldset class="choices{}"><legend>{}</legend>{}\n    {}</fieldset>\n'
            '  <div class="penalty-presets" role="group" aria-label="{}" data-penalty-presets'
            " hidden>\n    {}\n  </div>\n"
            '  <div class="grid-2">\n    {}\n'
            '    <div class="field{}">\n      <label for="{}">{}</label>\n      {}\n'
            '      <small class="help" id="{}_helptext">{} <span data-points-range></span>'
            "</small>\n      {}\n    </div>\n    {}\n  </div>\n",
            " has-error" if offender.errors else "",
            offender.label,
            mark_safe(_seat_tiles(offender)),
            mark_safe(field_errors(offender)),
            _("Common penalties"),
            mark_safe(_preset_buttons()),
            form_field(pform["kind"]),
            " has-error" if points.errors else "",
            points.id_for_label,
            points.label,
            points,
            points.auto_id,
            points.help_text,
            mark_safe(field_errors(points)),
            form_field(pform["reason"]),
        ),
        format_html(
            '  <fieldset class="choices beneficiary{}" data-beneficiary><legend>{}</legend>\n'
            '    <p class="ask" data-beneficiary-ask hidden>{}</p>{}\n    {}</fieldset>\n  ',
            " has-error" if beneficiary.errors else "",
            beneficiary.label,
            _("Tap the player who receives the points."),
            mark_safe(_seat_tiles(beneficiary)),
            mark_safe(field_errors(beneficiary)),
        ),
    ]
    if "DELETE" in pform.fields:
        html.append(
            format_html(
                '<label class="inline-check">{} {}</label>',
                pform["DELETE"],
                _("Remove this penalty"),
            )
        )
    html.append("\n</fieldset>\n")
    return mark_safe("".join(html))
