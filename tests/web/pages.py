"""What the page tests read from a rendered form (a field's block and its errors) and the
hand entry they post."""

from tests import html
from tournament.models import Seat, Session


def field_block(response, name: str) -> html.Element:
    """The rendered block of one form field: its label, input, help and errors (the innermost
    ``div.field`` that holds its label)."""
    blocks = [
        block
        for block in html.elements(response.content, "div.field")
        if block.find(f"label[for=id_{name}]")
    ]
    assert blocks, f"no field block for {name}"
    return blocks[-1]


def assert_error_beside(response, name: str, text: str) -> None:
    assert response.status_code == 200
    assert any(text in error for error in response.context["form"].errors.get(name, []))
    errors = field_block(response, name).one(".field-errors")
    assert text in errors.text()


def reviewed(client, url: str, **fields) -> dict:
    """POST data of a table's confirmation as its review page at ``url`` sends it: the
    version of the sheet the page shows (none when ``client`` may not see it) and
    ``fields``."""
    found = html.elements(client.get(url).content, "input[type=hidden][name=version]")
    return {**({"version": found[0].attrs["value"]} if found else {}), **fields}


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
