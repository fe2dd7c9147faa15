"""The organiser's sign-ups board: the sign-ups waiting for the organiser's acceptance, the
waiting list in its order, and those decided, each a table with its rows' actions (accept,
refuse, move up or down the line) as small forms. The three share the page, so each sorts and
pages by parameters of its own (``prefix``). Their rows are written by
``tables/sign_ups.html`` and ``tables/sign_ups_decided.html``."""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column

from tournament.tables import NumberColumn, RowsTable


class PendingSignUpsTable(RowsTable):
    """Sign-ups holding a place, to accept or refuse: in the order they came, or sorted."""

    name = Column(verbose_name=_("Name"))
    team = Column(verbose_name=_("Team or club"))
    country = Column(verbose_name=_("Country"))
    ema_number = NumberColumn(verbose_name=_("EMA number"), orderable=False)
    email = Column(verbose_name=_("E-mail"), orderable=False)
    signed_up_at = Column(verbose_name=_("Signed up"))
    actions = Column(verbose_name=_("Actions"), orderable=False)

    caption = _("Waiting for your acceptance")

    class Meta:
        attrs = {"class": "sign-ups pending"}
        template_name = "tables/sign_ups.html"
        prefix = "pending-"

    def __init__(self, sign_ups, **kwargs):
        super().__init__(sign_ups, **kwargs)
        self.line_length = len(self.data)  # the last in line may only move up


class WaitingListTable(PendingSignUpsTable):
    """The waiting list in its order, each with its place in line: the order is the
    organiser's (Move up, Move down), so it is not sorted otherwise."""

    caption = _("Waiting list")

    class Meta(PendingSignUpsTable.Meta):
        attrs = {"class": "sign-ups waiting"}
        orderable = False
        prefix = "waiting-"


class DecidedSignUpsTable(RowsTable):
    """Sign-ups accepted, refused or withdrawn, the latest decided first."""

    name = Column(verbose_name=_("Name"))
    email = Column(verbose_name=_("E-mail"), orderable=False)
    status = Column(verbose_name=_("Status"))

    caption = _("Decided")

    class Meta:
        attrs = {"class": "sign-ups decided"}
        template_name = "tables/sign_ups_decided.html"
        prefix = "decided-"
