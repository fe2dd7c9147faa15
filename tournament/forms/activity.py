"""The activity log's filters: a session, a table, a player (its pages are the table's)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.selectors.activity import ActivityFilter

# No event has more: numbers beyond are typing slips, refused rather than searched for.
MAX_NUMBER = 100_000


class ActivityFilterForm(forms.Form):
    session = forms.IntegerField(
        label=_("Session"), required=False, min_value=1, max_value=MAX_NUMBER
    )
    table = forms.IntegerField(label=_("Table"), required=False, min_value=1, max_value=MAX_NUMBER)
    player = forms.IntegerField(
        label=_("Player number"), required=False, min_value=1, max_value=MAX_NUMBER
    )

    def activity_filter(self) -> ActivityFilter:
        """The filter the valid form asks for."""
        data = self.cleaned_data
        return ActivityFilter(session=data["session"], table=data["table"], player=data["player"])
