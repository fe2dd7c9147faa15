"""The cell attributes the organiser's tables share: every heading a column heading
(``scope="col"``), numbers set right (``num``), addresses and keys in their own type
(``hash``). A column given ``attrs`` replaces the table's, so each names its heading too."""

HEADING = {"scope": "col"}


def cells(**td) -> dict:
    """A column's attributes: its heading a column heading, its cells given ``td``
    (``class_`` for ``class``)."""
    return {"th": HEADING, "td": {name.rstrip("_"): value for name, value in td.items()}}


NUMBER = {"th": {**HEADING, "class": "num"}, "td": {"class": "num"}}
