"""The public fan calculator's form: a hand in the referee notation, and optionally a claim."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.scoring import notation
from tournament.scoring.claims import parse_claimed_fans
from tournament.scoring.hand import HandError


class CalculatorForm(forms.Form):
    hand = forms.CharField(
        label=_("Winning hand"),
        max_length=200,
        help_text=_(
            "Concealed tiles, exposed sets in [ ], concealed kongs in { }, the winning tile "
            "after +, then the conditions, e.g. 123m456p78sEE [555p] +9s | self seat=E wind=S"
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    claimed_total = forms.IntegerField(
        label=_("Fan claimed (without flowers)"), required=False, min_value=0, max_value=999
    )
    claimed_fans = forms.CharField(
        label=_("Fans claimed"),
        required=False,
        max_length=500,
        help_text=_(
            "Names in English or Chinese, separated by commas; “×2” for a fan counted twice."
        ),
    )

    claimed: tuple = ()

    def clean_claimed_fans(self):
        text = self.cleaned_data["claimed_fans"]
        try:
            self.claimed = parse_claimed_fans(text)
        except HandError as error:
            raise forms.ValidationError(error.message, code=error.code) from error
        return text

    def clean_hand(self):
        text = self.cleaned_data["hand"]
        try:
            self.parsed = notation.parse_hand(text)
            self.scored = notation.score_hand(self.parsed)
        except HandError as error:
            raise forms.ValidationError(error.message, code=error.code) from error
        return text
