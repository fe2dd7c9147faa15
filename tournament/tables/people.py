"""The people's tables: a tournament's players linked to a person (with *Unlink* for those
linked by hand), and a person's results in each tournament they played."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.tables.columns import HEADING, NUMBER


class LinkedPlayersTable(tables.Table):
    """The players linked to a person, by number, or by person or tournaments played."""

    player = tables.TemplateColumn(
        template_name="people/cells/player.html", verbose_name=_("Player"), accessor="number"
    )
    person = tables.TemplateColumn(
        template_name="people/cells/person.html",
        verbose_name=_("Person"),
        order_by=("person__name", "number"),
    )
    tournaments = tables.Column(
        verbose_name=_("Tournaments"),
        accessor="person__tournament_count",
        order_by=("person__tournament_count", "number"),
        attrs=NUMBER,
    )
    unlink = tables.TemplateColumn(
        template_name="people/cells/unlink.html",
        verbose_name="",
        accessor="number",
        orderable=False,
    )

    class Meta:
        attrs = {"class": "people-linked", "th": HEADING}
        row_attrs = {"id": lambda record: f"linked-{record.number}"}
        empty_text = _("No player linked yet.")


class PersonResultsTable(tables.Table):
    """A person's tournaments, newest first (``selectors.people.person_results``)."""

    tournament = tables.TemplateColumn(
        template_name="people/cells/tournament.html",
        verbose_name=_("Tournament"),
        accessor="tournament__name",
    )
    rank = tables.TemplateColumn(
        template_name="people/cells/rank.html",
        verbose_name=_("Rank"),
        accessor="standing__rank",
        attrs=NUMBER,
    )
    table_points = tables.TemplateColumn(
        template_name="people/cells/exact.html",
        verbose_name=_("Table points"),
        accessor="standing__table_points",
        attrs=NUMBER,
    )
    score = tables.Column(verbose_name=_("Score"), accessor="standing__score", attrs=NUMBER)
    sessions_played = tables.Column(
        verbose_name=_("Sessions played"), accessor="standing__sessions_played", attrs=NUMBER
    )

    class Meta:
        attrs = {"class": "person-results", "th": HEADING}
        row_attrs = {"id": lambda record: f"tournament-{record.tournament.slug}"}
        orderable = False  # newest first: the person's story
        empty_text = _("No tournament yet.")
