"""The standings page's players table rendered by the project's own sortable table
(``tournament.views.standings_tables``) and by django-tables2, on the same rows: the whole
table (what *All* prints), one page of 100 rows (what the page shows first), and each
sorted by score. Part of ``make bench-web``.

The django-tables2 table has the same twelve columns, the same cells (the player's name
with its Chinese name and badges, exact table points as "7/3") and sorts by the same values.
"""

from __future__ import annotations

TABLES2_APP = "django_tables2"
PAGE_ROWS = 100


def tables2_standings_table():
    """A django-tables2 table of the standings' rows (``StandingRow``), built on first use:
    django-tables2 reads the settings when it is imported."""
    import django_tables2 as tables
    from django.utils.html import escape, format_html
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext_lazy as _

    from tournament.language.formatting import format_table_points

    class PlaceColumn(tables.Column):
        def __init__(self, index, verbose_name):
            super().__init__(
                verbose_name=verbose_name,
                accessor="places",
                order_by=(f"places.{index}",),
                attrs={"td": {"class": "num"}},
            )
            self.index = index

        def render(self, value):
            return value[self.index]

    class StandingsTables2(tables.Table):
        rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
        number = tables.Column(
            verbose_name=_("No."), accessor="player.number", attrs={"td": {"class": "num"}}
        )
        player = tables.Column(verbose_name=_("Player"), order_by=("player.name",))
        team = tables.Column(verbose_name=_("Team"), accessor="player.team")
        table_points = tables.Column(verbose_name=_("Table points"), attrs={"td": {"class": "num"}})
        score = tables.Column(verbose_name=_("Score"), attrs={"td": {"class": "num"}})
        first = PlaceColumn(0, _("1st"))
        second = PlaceColumn(1, _("2nd"))
        third = PlaceColumn(2, _("3rd"))
        fourth = PlaceColumn(3, _("4th"))
        sessions_played = tables.Column(verbose_name=_("Sessions"), attrs={"td": {"class": "num"}})
        best_session = tables.Column(verbose_name=_("Best session"), attrs={"td": {"class": "num"}})

        class Meta:
            attrs = {"class": "standings"}
            row_attrs = {"class": lambda record: "" if record.ranked else "substitute"}
            empty_text = _("No players registered yet.")

        def render_player(self, value):
            html = escape(value.name)
            if value.name_zh:
                html = format_html('{} <span lang="zh-Hans">{}</span>', html, value.name_zh)
            if value.is_substitute:
                html = format_html('{} <span class="badge">{}</span>', html, _("substitute"))
            if value.withdrawn_at is not None:
                html = format_html('{} <span class="badge warn">{}</span>', html, _("withdrawn"))
            return mark_safe(html)

        def render_table_points(self, value):
            return format_table_points(value)

    return StandingsTables2


def measure(tournament, runs: int, timed) -> list[tuple[str, float, int]]:
    """(what, median ms, bytes of HTML) for each way of rendering the players' table;
    ``timed(render, runs)`` is the benchmark's median timer."""
    from django.conf import settings
    from django.test import RequestFactory

    from tournament.selectors.standings import compute_standings
    from tournament.views.standings_tables import StandingsTable

    assert TABLES2_APP in settings.INSTALLED_APPS, "web_benchmark installs the app first"
    from django_tables2 import RequestConfig

    table_class = tables2_standings_table()
    rows = compute_standings(tournament)
    factory = RequestFactory()

    def own(query=""):
        request = factory.get("/standings/" + query)
        return StandingsTable(rows, request.GET).as_html()

    def tables2(query="", paginate=True):
        request = factory.get("/standings/" + query)
        table = table_class(rows)
        RequestConfig(request, paginate={"per_page": PAGE_ROWS} if paginate else False).configure(
            table
        )
        return table.as_html(request)

    standings_ms = timed(lambda: compute_standings(tournament), runs)
    cases = [
        ("the standings computed (both tables' input)", lambda: None, standings_ms),
        ("project's table, every row (All)", lambda: own("?page=all"), None),
        ("project's table, every row, by score", lambda: own("?sort=-score&page=all"), None),
        (f"project's table, a page of {PAGE_ROWS}", own, None),
        (f"project's table, a page of {PAGE_ROWS}, by score", lambda: own("?sort=-score"), None),
        ("django-tables2, every row (All)", lambda: tables2(paginate=False), None),
        (
            "django-tables2, every row, by score",
            lambda: tables2("?sort=-score", paginate=False),
            None,
        ),
        (f"django-tables2, a page of {PAGE_ROWS}", tables2, None),
        (
            f"django-tables2, a page of {PAGE_ROWS}, by score",
            lambda: tables2("?sort=-score"),
            None,
        ),
    ]
    figures = []
    for name, render, known in cases:
        if known is not None:
            figures.append((name, known, 0))
            continue
        html = str(render())
        figures.append((name, timed(render, runs), len(html.encode())))
    return figures
