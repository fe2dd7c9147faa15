"""The public fan calculator's form: a hand in the referee notation, and optionally a claim;
and the tile picker's hand on a referee's sheet, scored with what the sheet knows.

The hand may be left empty when fans or a total are claimed: the claim is then checked on
its own. With neither, the hand is required.
"""

from urllib.parse import urlencode

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.language.formatting import SEAT_LABELS
from tournament.language.translated import core_error
from tournament.models import KONG_READING_CHOICES, RULE_PROFILE_CHOICES, Hand
from tournament.scoring import MAX_FLOWERS, Outcome, notation
from tournament.scoring.claims import parse_claimed_fans
from tournament.scoring.hand import HandError
from tournament.scoring.profiles import PROFILES
from tournament.scoring.rules import HIGHEST_MINIMUM_FAN, LOWEST_MINIMUM_FAN, SEED_RULES, Rules
from tournament.seating import HANDS_PER_SESSION
from tournament.services.hands import score_winning_hand


def rules_query(rules: Rules, *, whole: bool = False) -> str:
    """The query string that asks the calculator (and the tile picker's fans) for ``rules``:
    what differs from the seed reading, e.g. "kong=5&no_flowers=on"; ``whole``: the kong
    and the minimum said even when they are the seed's (a link that fills the form)."""
    query = {}
    if whole or rules.melded_and_concealed_kong != SEED_RULES.melded_and_concealed_kong:
        query["kong"] = rules.melded_and_concealed_kong
    if not rules.flowers:
        query["no_flowers"] = "on"
    if rules.blessings:
        query["blessings"] = "on"
    if whole or rules.minimum_fan != SEED_RULES.minimum_fan:
        query["minimum"] = rules.minimum_fan
    return urlencode(query)


def profile_links(chosen: Rules) -> list[tuple[str, str, bool]]:
    """Each rule profile's name, the calculator's query for its scoring options (all of
    them, so that the form shows each), and whether they are the ``chosen`` ones."""
    labels = dict(RULE_PROFILE_CHOICES)
    return [
        (labels[key], rules_query(profile.rules, whole=True), profile.rules == chosen)
        for key, profile in PROFILES.items()
    ]


class RulesFields(forms.Form):
    """The scoring options a hand is counted under, the seed reading when left out: the
    calculator's choice, and a tournament's own on its sheet's tile picker
    (``rules_query``)."""

    kong = forms.TypedChoiceField(
        label=_("One melded and one concealed kong"),
        choices=KONG_READING_CHOICES,
        coerce=int,
        required=False,
        empty_value=SEED_RULES.melded_and_concealed_kong,
        initial=SEED_RULES.melded_and_concealed_kong,
    )
    no_flowers = forms.BooleanField(label=_("Flowers not played"), required=False)
    blessings = forms.BooleanField(
        label=_("Heavenly, Earthly and Human Hand count (8 each)"), required=False
    )
    minimum = forms.IntegerField(
        label=_("Minimum fan"),
        required=False,
        min_value=LOWEST_MINIMUM_FAN,
        max_value=HIGHEST_MINIMUM_FAN,
        initial=SEED_RULES.minimum_fan,
    )

    @property
    def rules(self) -> Rules:
        """The options chosen (the seed reading's where a field is empty or wrong)."""
        data = getattr(self, "cleaned_data", {})
        minimum = data.get("minimum")
        return Rules(
            melded_and_concealed_kong=data.get("kong") or SEED_RULES.melded_and_concealed_kong,
            flowers=not data.get("no_flowers", False),
            blessings=bool(data.get("blessings", False)),
            minimum_fan=minimum if minimum is not None else SEED_RULES.minimum_fan,
        )


class CalculatorForm(RulesFields):
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
        # A link that only chooses the rules (a profile's, a tournament's) asks for nothing
        # to be checked yet: the hand is required once the form itself is sent.
        sent = any(name in self.data for name in ("hand", "claimed_total", "claimed_fans"))
        if sent and not cleaned.get("hand") and "hand" not in self.errors and not self.has_claim:
            self.add_error(
                "hand",
                forms.ValidationError(
                    self.fields["hand"].error_messages["required"], code="required"
                ),
            )
        # Scored once the options are read, under them.
        if self.parsed is not None and not self.errors:
            try:
                self.scored = notation.score_hand(self.parsed, self.rules)
            except HandError as error:
                self.add_error("hand", core_error(error))
        return cleaned


class SheetFansForm(RulesFields):
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
                rules=self.rules,
            )
        except ValidationError as error:
            # The service names the sheet's field; here the hand is the one field.
            self.add_error("hand", error.error_dict["winning_hand"])
        return cleaned
