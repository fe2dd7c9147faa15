"""The organiser's sign-ups board: the sign-ups waiting for the organiser's acceptance, the
waiting list in its order, and those decided, each a table with its rows' actions (accept,
refuse, move up or down the line) as small forms. The three share the page, so each sorts and
pages by parameters of its own (``prefix``)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.tables.columns import HEADING, NUMBER, cells


def _sign_up_id(record) -> str:
    return f"sign-up-{record.pk}"


class PendingSignUpsTable(tables.Table):
    """Sign-ups holding a place, to accept or refuse: in the order they came, or sorted."""

    name = tables.TemplateColumn(template_name="sign_ups/cells/name.html", verbose_name=_("Name"))
    team = tables.Column(verbose_name=_("Team or club"))
    country = tables.Column(verbose_name=_("Country"))
    ema_number = tables.Column(verbose_name=_("EMA number"), orderable=False, attrs=NUMBER)
    email = tables.Column(verbose_name=_("E-mail"), orderable=False, attrs=cells(class_="hash"))
    signed_up_at = tables.DateTimeColumn(verbose_name=_("Signed up"))
    actions = tables.TemplateColumn(
        template_name="sign_ups/cells/actions.html",
        verbose_name=_("Actions"),
        accessor="pk",
        orderable=False,
        attrs=cells(class_="row-actions"),
    )

    class Meta:
        attrs = {"class": "sign-ups pending", "th": HEADING}
        row_attrs = {"id": _sign_up_id}
        default = ""
        prefix = "pending-"


class WaitingListTable(PendingSignUpsTable):
    """The waiting list in its order, each with its place in line: the order is the
    organiser's (Move up, Move down), so it is not sorted otherwise."""

    class Meta(PendingSignUpsTable.Meta):
        attrs = {"class": "sign-ups waiting", "th": HEADING}
        orderable = False
        prefix = "waiting-"


class DecidedSignUpsTable(tables.Table):
    """Sign-ups accepted, refused or withdrawn, the latest decided first."""

    name = tables.TemplateColumn(template_name="sign_ups/cells/name.html", verbose_name=_("Name"))
    email = tables.Column(verbose_name=_("E-mail"), orderable=False, attrs=cells(class_="hash"))
    status = tables.TemplateColumn(
        template_name="sign_ups/cells/status.html", verbose_name=_("Status")
    )

    class Meta:
        attrs = {"class": "sign-ups decided", "th": HEADING}
        row_attrs = {"id": _sign_up_id}
        default = ""
        prefix = "decided-"
