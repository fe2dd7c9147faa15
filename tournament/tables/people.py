"""The people's tables: a tournament's players linked to a person (with *Unlink* for those
linked by hand), and a person's results in each tournament they played. Their rows are
written by ``tables/people_linked.html`` and ``tables/person_results.html``."""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column

from tournament.tables import NumberColumn, RowsTable


class LinkedPlayersTable(RowsTable):
    """The players linked to a person, by number, or by person or tournaments played."""

    player = Column(verbose_name=_("Player"), accessor="number")
    person = Column(verbose_name=_("Person"), order_by=("person__name", "number"))
    tournaments = NumberColumn(
        verbose_name=_("Tournaments"),
        order_by=("person__tournament_count", "number"),
        largest_first=False,
    )
    unlink = Column(verbose_name=_("Actions"), orderable=False)

    caption = _("Linked players")

    class Meta:
        attrs = {"class": "people-linked"}
        template_name = "tables/people_linked.html"
        empty_text = _("No player linked yet.")


class PersonResultsTable(RowsTable):
    """A person's tournaments, newest first (``selectors.people.person_results``)."""

    tournament = Column(verbose_name=_("Tournament"))
    rank = NumberColumn(verbose_name=_("Rank"))
    table_points = NumberColumn(verbose_name=_("Table points"))
    score = NumberColumn(verbose_name=_("Score"))
    sessions_played = NumberColumn(verbose_name=_("Sessions played"))

    caption = _("Results")

    class Meta:
        attrs = {"class": "person-results"}
        template_name = "tables/person_results.html"
        orderable = False  # newest first: the person's story
        empty_text = _("No tournament yet.")
