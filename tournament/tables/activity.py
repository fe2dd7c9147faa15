"""The organisers' activity log: every change to the tournament's data, newest first, read
from the history a page at a time (``selectors.activity.ActivityLog``). The rows are written
by ``tables/activity.html``."""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column, Table
from django_tables2.data import TableData

from tournament.selectors.activity import TIME_FORMAT


class _ReadBySlices(TableData):
    """Rows of a sequence that reads them a slice at a time (its ``len()`` a count, a slice
    a query): django-tables2 would otherwise make a list of every row before paging."""

    def __len__(self):
        return len(self.data)


class ActivityTable(Table):
    when = Column(verbose_name=_("When"))
    who = Column(verbose_name=_("Who"))
    what = Column(verbose_name=_("What"))
    change = Column(verbose_name=_("Change"))

    time_format = TIME_FORMAT

    caption = _("Activity")

    class Meta:
        attrs = {"class": "activity"}
        template_name = "tables/activity.html"
        orderable = False  # newest first: the order of the history
        empty_text = _("No change recorded.")

    def __init__(self, log, **kwargs):
        super().__init__(_ReadBySlices(log), **kwargs)
