"""The organisers' activity log: every change to the tournament's data, newest first, read
from the history a page at a time (``history.activity.ActivityLog``)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableData

from tournament.tables.columns import HEADING


class _ReadBySlices(TableData):
    """Rows of a sequence that reads them a slice at a time (its ``len()`` a count, a slice
    a query): django-tables2 would otherwise make a list of every row before paging."""

    def __len__(self):
        return len(self.data)


class ActivityTable(tables.Table):
    when = tables.TemplateColumn(
        template_name="tournaments/activity_cells/when.html", verbose_name=_("When")
    )
    who = tables.TemplateColumn(
        # A change without an account says so: the cell is drawn for every change.
        template_name="tournaments/activity_cells/who.html",
        verbose_name=_("Who"),
        accessor="when",
    )
    what = tables.TemplateColumn(
        template_name="tournaments/activity_cells/what.html",
        verbose_name=_("What"),
        accessor="subject",
    )
    change = tables.TemplateColumn(
        template_name="tournaments/activity_cells/change.html",
        verbose_name=_("Change"),
        accessor="kind",
    )

    class Meta:
        attrs = {"class": "activity", "th": HEADING}
        row_attrs = {"class": "activity-entry"}
        orderable = False  # newest first: the order of the history
        empty_text = _("No change recorded.")

    def __init__(self, log, **kwargs):
        super().__init__(_ReadBySlices(log), **kwargs)
