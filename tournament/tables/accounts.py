"""The accounts locked out after failed logins, the latest first, each with *Unlock*."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.tables.columns import HEADING, cells


class LockoutsTable(tables.Table):
    username = tables.Column(verbose_name=_("Account"))
    ip_address = tables.Column(verbose_name=_("Address"))
    failures = tables.Column(verbose_name=_("Failed logins"))
    last_failure = tables.TemplateColumn(
        template_name="registration/cells/last_failure.html", verbose_name=_("Last one")
    )
    status = tables.TemplateColumn(
        template_name="registration/cells/status.html",
        verbose_name=_("Status"),
        accessor="username",
        order_by=("locked_until", "username"),
    )
    actions = tables.TemplateColumn(
        template_name="registration/cells/unlock.html",
        verbose_name=_("Actions"),
        accessor="username",
        orderable=False,
        attrs=cells(class_="row-actions"),
    )

    class Meta:
        attrs = {"class": "lockouts", "th": HEADING}
        row_attrs = {"data-username": lambda record: record.username}
        default = ""
