"""What the page tests read from a rendered form (a field's block and its errors) and the
hand entry they post."""

import re

from tournament.models import Seat, Session


def field_html(response, name: str) -> str:
    """The rendered block of one form field: its label, input, help and errors."""
    html = response.content.decode()
    start = html.index(f'<label for="id_{name}"')
    following = re.compile(r'<div class="field[ "]').search(html, start)
    return html[start : following.start() if following else len(html)]


def assert_error_beside(response, name: str, text: str) -> None:
    assert response.status_code == 200
    assert any(text in error for error in response.context["form"].errors.get(name, []))
    block = field_html(response, name)
    assert 'class="field-errors"' in block
    assert text in block


def reviewed(client, url: str, **fields) -> dict:
    """POST data of a table's confirmation as its review page at ``url`` sends it: the
    version of the sheet the page shows (none when ``client`` may not see it) and
    ``fields``."""
    page = client.get(url).content.decode()
    found = re.search(r'<input type="hidden" name="version" value="([0-9a-f]+)"', page)
    return {**({"version": found.group(1)} if found else {}), **fields}


def hand_data(number, **fields) -> dict:
    """POST data of the entry form for hand ``number``: a P1 self-drawn 8 unless told
    otherwise, no penalty row."""
    data = {
        "number": str(number),
        "outcome": "self_drawn",
        "winner": "0",
        "discarder": "",
        "fan": "8",
        "flowers": "0",
        "fan_names": "",
        "penalty-TOTAL_FORMS": "0",
        "penalty-INITIAL_FORMS": "0",
        "penalty-MIN_NUM_FORMS": "0",
        "penalty-MAX_NUM_FORMS": "8",
    }
    data.update({key: str(value) for key, value in fields.items()})
    return data


def seating_of(session: Session) -> dict[int, tuple[int, int]]:
    """player number -> (table, seat) as stored."""
    return {
        s.player.number: (s.table.number, s.seat)
        for s in Seat.objects.filter(session=session).select_related("player", "table")
    }
