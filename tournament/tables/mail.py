"""The organiser's list of the e-mails sent to players: newest first, sorted by address,
subject or the time each was sent. The database sorts and pages them (a page is a slice of
the query); the rows are written by ``tables/emails.html``."""

from django.db.models import F
from django.utils.translation import gettext_lazy as _
from django_tables2 import Column, Table


class EmailsTable(Table):
    to = Column(verbose_name=_("To"))
    subject = Column(verbose_name=_("Subject"))
    status = Column(verbose_name=_("Status"), accessor="pk")

    caption = _("E-mails")

    class Meta:
        attrs = {"class": "emails"}
        template_name = "tables/emails.html"
        empty_text = _("No e-mail yet.")

    def order_status(self, queryset, is_descending):
        """By the time each was sent, those not sent after them (before them, reversed),
        newest written first among those."""
        sent = (
            F("sent_at").desc(nulls_first=True)
            if is_descending
            else F("sent_at").asc(nulls_last=True)
        )
        return queryset.order_by(sent, "-created_at", "-id"), True
