"""The standings page's tables: the players and the teams.

The rows are the selectors' (``StandingRow``, ``TeamRow``), kept as they are: table points
stay ``Fraction``s, so sorting compares exact values and only the cell's text is written
("7/3", "1.75"). Each table has its own parameters (``sort``/``page`` for the players,
``team-sort``/``team-page`` for the teams), so sorting or paging one leaves the other alone.

The players' rows are written by ``tables/standings.html``, cell by cell from the row, rather
than through each column's value: *All* prints a thousand rows of twelve cells, and
django-tables2's way through every cell cost four times the rest of the page.
"""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column

from tournament.tables import NumberColumn, RowsTable


class StandingsTable(RowsTable):
    """The players in the standings; substitutes, unranked, in grey."""

    shows_hands_won = False

    rank = NumberColumn(verbose_name=_("Rank"), largest_first=False)
    number = NumberColumn(verbose_name=_("No."), accessor="player__number", largest_first=False)
    # Namesakes stay in number order.
    player = Column(verbose_name=_("Player"), order_by=("player__name", "player__number"))
    team = Column(verbose_name=_("Team"), accessor="player__team")
    table_points = NumberColumn(verbose_name=_("Table points"))
    score = NumberColumn(verbose_name=_("Score"))
    first = NumberColumn(verbose_name=_("1st"), accessor="places__0")
    second = NumberColumn(verbose_name=_("2nd"), accessor="places__1")
    third = NumberColumn(verbose_name=_("3rd"), accessor="places__2")
    fourth = NumberColumn(verbose_name=_("4th"), accessor="places__3")
    sessions_played = NumberColumn(verbose_name=_("Sessions"))
    best_session = NumberColumn(verbose_name=_("Best session"))
    # Only where the ranking order counts it (``StandingsTable.of``).
    hands_won = NumberColumn(verbose_name=_("Hands won"))

    caption = _("Standings")

    def __init__(self, *args, hands_won: bool = False, **kwargs):
        """The hands won are a column only when asked (``of``: where the ranking counts them)."""
        if not hands_won:
            kwargs["exclude"] = (*kwargs.get("exclude", ()), "hands_won")
        super().__init__(*args, **kwargs)
        self.shows_hands_won = hands_won

    @classmethod
    def of(cls, rows, tournament) -> "StandingsTable":
        """The table of ``rows``, with the hands won when ``tournament`` ranks by them."""
        return cls(rows, hands_won="hands_won" in tournament.tiebreaks)

    class Meta:
        attrs = {"class": "standings", "id": "standings"}
        template_name = "tables/standings.html"
        empty_text = _("No players registered yet.")


class TeamStandingsTable(RowsTable):
    """The teams, by their ranked members' table points; by pages too, since a big event has
    a thousand teams and more."""

    rank = NumberColumn(verbose_name=_("Rank"), largest_first=False)
    team = Column(verbose_name=_("Team"))
    members = Column(verbose_name=_("Members"), orderable=False)
    table_points = NumberColumn(verbose_name=_("Table points"))
    score = NumberColumn(verbose_name=_("Score"))

    caption = _("Team standings")

    class Meta:
        attrs = {"class": "team-standings", "id": "team-standings"}
        template_name = "tables/team_standings.html"
        empty_text = _("No teams.")
        prefix = "team-"
