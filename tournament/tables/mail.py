"""The organiser's list of the e-mails sent to players: newest first, sorted by address,
subject or the time each was sent."""

import django_tables2 as tables
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from tournament.tables.columns import HEADING


class EmailsTable(tables.Table):
    to = tables.TemplateColumn(template_name="mail/cells/to.html", verbose_name=_("To"))
    subject = tables.Column(verbose_name=_("Subject"))
    status = tables.TemplateColumn(
        template_name="mail/cells/status.html", verbose_name=_("Status"), accessor="pk"
    )

    class Meta:
        attrs = {"class": "emails", "th": HEADING}
        row_attrs = {"id": lambda record: f"email-{record.pk}"}
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
