"""The accounts locked out after failed logins, the latest first, each with *Unlock*. The
rows are written by ``tables/lockouts.html``."""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column

from tournament.tables import NumberColumn, RowsTable


class LockoutsTable(RowsTable):
    username = Column(verbose_name=_("Account"))
    ip_address = Column(verbose_name=_("Address"))
    failures = NumberColumn(verbose_name=_("Failed logins"), largest_first=False)
    last_failure = Column(verbose_name=_("Last one"))
    # Those not locked out last, whichever way.
    status = Column(verbose_name=_("Status"), order_by=("locked_until", "username"))
    actions = Column(verbose_name=_("Actions"), orderable=False)

    caption = _("Locked-out accounts")

    class Meta:
        attrs = {"class": "lockouts"}
        template_name = "tables/lockouts.html"
