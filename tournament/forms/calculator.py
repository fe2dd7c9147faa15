"""The public fan calculator's form: a hand in the referee notation, and optionally a claim;
and the tile picker's hand on a referee's sheet, scored with what the sheet knows.

The hand may be left empty when fans or a total are claimed: the claim is then checked on
its own. With neither, the hand is required.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.language.formatting import SEAT_LABELS
from tournament.language.translated import core_error
from tournament.models import Hand
from tournament.scoring import MAX_FLOWERS, Outcome, notation
from tournament.scoring.claims import parse_claimed_fans
from tournament.scoring.hand import HandError
from tournament.seating import HANDS_PER_SESSION
from tournament.services.hands import score_winning_hand


class CalculatorForm(forms.Form):
    hand = forms.CharField(
        label=_("Winning hand"),
        required=False,
        max_length=200,
        help_text=_(
            "Concealed tiles, exposed sets in [ ], concealed kongs in { }, the winning tile "
            "after +, then the conditions, e.g. 123m456p78sEE [555p] +9s | self seat=E wind=S. "
            "Leave it empty to check the fans or the total claimed on their own."
        ),
        error_messages={
            "required": _("Enter a winning hand, or the fans or total claimed to check them.")
        },
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
            "Names in English or Chinese, separated by commas; “×2” for a fan counted twice. "
            "Points after a name are checked: “Pure Straight 16” or “清龙 (16)”."
        ),
    )

    claimed: tuple = ()
    parsed = None
    scored = None

    def clean_claimed_fans(self):
        text = self.cleaned_data["claimed_fans"]
        try:
            self.claimed = parse_claimed_fans(text)
        except HandError as error:
            raise core_error(error) from error
        return text

    def clean_hand(self):
        text = self.cleaned_data["hand"]
        if not text:
            return text
        try:
            self.parsed = notation.parse_hand(text)
            self.scored = notation.score_hand(self.parsed)
        except HandError as error:
            raise core_error(error) from error
        return text

    @property
    def has_claim(self) -> bool:
        """Whether a total or fan names were typed (even ones that turned out wrong)."""
        return any(
            str(self.data.get(name, "")).strip() for name in ("claimed_total", "claimed_fans")
        )

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("hand") and "hand" not in self.errors and not self.has_claim:
            self.add_error(
                "hand",
                forms.ValidationError(
                    self.fields["hand"].error_messages["required"], code="required"
                ),
            )
        return cleaned


class SheetFansForm(forms.Form):
    """The tile picker's hand on a referee's sheet, with what the sheet knows of it: the
    hand's number and winner give the winds, the result says whether it was self-drawn, the
    flowers field the flowers. Scored as saving the hand would score it."""

    hand = forms.CharField(max_length=200)
    number = forms.IntegerField(required=False, min_value=1, max_value=HANDS_PER_SESSION)
    winner = forms.IntegerField(required=False, min_value=0, max_value=len(SEAT_LABELS) - 1)
    outcome = forms.ChoiceField(choices=Hand.OUTCOME_CHOICES, required=False)
    flowers = forms.IntegerField(required=False, min_value=0, max_value=MAX_FLOWERS)

    scored = None

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        # Before a result is tapped the sheet treats a winner as a win on a discard.
        outcome = cleaned.get("outcome") or Outcome.DISCARD.value
        try:
            self.scored = score_winning_hand(
                text=cleaned["hand"],
                number=cleaned.get("number"),
                winner=cleaned.get("winner"),
                outcome=outcome,
                flowers=cleaned.get("flowers"),
            )
        except ValidationError as error:
            # The service names the sheet's field; here the hand is the one field.
            self.add_error("hand", error.error_dict["winning_hand"])
        return cleaned
