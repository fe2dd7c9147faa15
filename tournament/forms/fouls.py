"""The record of fouls' filters: a session (one of those drawn) and a player (by number)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.forms.activity import MAX_NUMBER
from tournament.selectors.fouls import FoulFilter
from tournament.selectors.lookups import player_by_number


class FoulFilterForm(forms.Form):
    session = forms.TypedChoiceField(
        label=_("Session"), coerce=int, required=False, empty_value=None
    )
    player = forms.IntegerField(
        label=_("Player number"), required=False, min_value=1, max_value=MAX_NUMBER
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        # The sessions drawn, which the page links the paper penalty records of too.
        self.session_numbers = list(
            tournament.sessions.order_by("number").values_list("number", flat=True)
        )
        self.fields["session"].choices = [
            ("", _("All sessions")),
            *((number, _("Session %(n)s") % {"n": number}) for number in self.session_numbers),
        ]

    def clean_player(self):
        number = self.cleaned_data.get("player")
        if number is not None and player_by_number(self.tournament, number) is None:
            raise forms.ValidationError(
                _("No player has number %(n)s."), code="no_player", params={"n": number}
            )
        return number

    def foul_filter(self) -> FoulFilter:
        """The filter the valid form asks for."""
        return FoulFilter(session=self.cleaned_data["session"], player=self.cleaned_data["player"])
