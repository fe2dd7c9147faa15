"""The organiser's rules page: every option of the tournament's rules, its penalty presets as
one row per offence and its ranking order as a chain of criteria, for ``services.rules_change``
(docs/rules.md)."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.models import (
    KONG_READING_CHOICES,
    OFFENCES,
    RULE_PROFILE_CHOICES,
    SESSION_END_CHOICES,
    TIEBREAK_CHOICES,
)
from tournament.models.hands import Penalty
from tournament.models.rules import RULE_FIELDS, rule_options
from tournament.models.rulings import penalty_presets_error, presets_in_order
from tournament.models.validators import validate_multi_line
from tournament.scoring.profiles import PROFILES, TIEBREAKS
from tournament.scoring.rules import HIGHEST_MINIMUM_FAN, LOWEST_MINIMUM_FAN
from tournament.selectors.rules import PROFILE_BOOKS, points_text

NO_CRITERION = [("", _("(none)"))]

# The option a profile's ``readings`` names -> the form's field it is said beside.
READING_FIELDS = {
    "melded_and_concealed_kong": "melded_and_concealed_kong",
    "flowers": "flowers",
    "blessings": "blessings",
    "minimum_fan": "minimum_fan",
    "session_minutes": "session_minutes",
    "session_end": "session_end",
    "penalty_presets": None,  # said above the presets' table
    "tiebreaks": "criterion_1",
}


def reading_note(profile: str) -> str:
    """What is said beside an option that is the site's reading of ``profile``'s book."""
    return _("The site's reading of %(book)s; change it if your event's rules say otherwise.") % {
        "book": PROFILE_BOOKS[profile]
    }


def points_read(text: str) -> list[int]:
    """The points a preset's text gives (``points_text``): whole numbers above 0, a range
    written "5-60"; the first the usual one. Raises ValidationError."""
    points: list[int] = []
    for word in text.replace("，", ",").split(","):
        word = word.strip()
        low, dash, high = word.partition("-")
        try:
            numbers = range(int(low), int(high) + 1) if dash else [int(word)]
        except ValueError:
            numbers = []
        if not numbers or numbers[0] < 1 or len(numbers) > 1000:
            raise ValidationError(
                _("Whole numbers above 0, the usual one first: 10, or 5, 10, 20, or 5-60."),
                "points_invalid",
            )
        points.extend(n for n in numbers if n not in points)
    return points


class RulesForm(forms.Form):
    """The tournament's rules; ``reason`` only once play started (the service requires it)."""

    rule_profile = forms.ChoiceField(label=_("Rules"), choices=RULE_PROFILE_CHOICES)
    melded_and_concealed_kong = forms.TypedChoiceField(
        label=_("One melded and one concealed kong"),
        choices=KONG_READING_CHOICES,
        coerce=int,
        widget=forms.RadioSelect,
    )
    flowers = forms.BooleanField(
        label=_("Flowers played (144 tiles)"),
        required=False,
        help_text=_("Otherwise the 136 tiles without flowers: a hand has none."),
    )
    blessings = forms.BooleanField(
        label=_("Heavenly, Earthly and Human Hand count (8 points each)"), required=False
    )
    minimum_fan = forms.IntegerField(
        label=_("Minimum fan to win (flowers not counted)"),
        min_value=LOWEST_MINIMUM_FAN,
        max_value=HIGHEST_MINIMUM_FAN,
    )
    session_minutes = forms.IntegerField(
        label=_("Session time (minutes)"), min_value=10, max_value=600
    )
    session_end = forms.ChoiceField(
        label=_("End of a session"), choices=SESSION_END_CHOICES, widget=forms.RadioSelect
    )
    gong_minute = forms.IntegerField(
        label=_("The gong sounds at (minutes into the session)"),
        required=False,
        min_value=1,
        max_value=600,
        help_text=_("With the gong only."),
    )
    reason = forms.CharField(
        label=_("Reason for the change"),
        max_length=1000,
        required=False,
        validators=[validate_multi_line],
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Shown on the rules page and the standings."),
    )

    CRITERIA = tuple(f"criterion_{n}" for n in range(1, len(TIEBREAKS) + 1))
    OFFENCES = OFFENCES

    def __init__(self, *args, tournament, started: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.started = started
        if not started:
            del self.fields["reason"]
        for offence in OFFENCES:
            self.fields[f"preset_{offence.code}"] = forms.BooleanField(
                label=offence.reason, required=False
            )
            self.fields[f"preset_{offence.code}_kind"] = forms.ChoiceField(
                label=_("Kind"), choices=Penalty.KIND_CHOICES, required=False
            )
            self.fields[f"preset_{offence.code}_points"] = forms.CharField(
                label=_("Points"), max_length=200, required=False
            )
        for n, name in enumerate(self.CRITERIA):
            self.fields[name] = forms.ChoiceField(
                label=_("Rank by") if n == 0 else _("then by"),
                choices=TIEBREAK_CHOICES if n == 0 else NO_CRITERION + TIEBREAK_CHOICES,
                required=n == 0,
            )
        if not self.is_bound and not self.initial:
            self.initial = form_initial(
                {name: getattr(tournament, name) for name in RULE_OPTION_NAMES}
            )
        # The chosen profile's readings: the one posted, filled in, or the tournament's.
        profile = (self.data.get("rule_profile") if self.is_bound else None) or self.initial.get(
            "rule_profile"
        )
        if profile not in PROFILES:
            profile = tournament.rule_profile
        for reading in PROFILES[profile].readings:
            if name := READING_FIELDS.get(reading):
                field = self.fields[name]
                field.help_text = " ".join(
                    filter(None, [str(field.help_text), reading_note(profile)])
                )
        self.presets_reading = (
            reading_note(profile) if "penalty_presets" in PROFILES[profile].readings else ""
        )

    def preset_rows(self):
        """Each offence's row of the presets' table: (ticked, kind, points) fields."""
        return [
            (
                self[f"preset_{o.code}"],
                self[f"preset_{o.code}_kind"],
                self[f"preset_{o.code}_points"],
            )
            for o in OFFENCES
        ]

    def criteria(self):
        return [self[name] for name in self.CRITERIA]

    def plain_fields(self):
        """The options shown one after another, before the presets and the chain."""
        return [
            self[name] for name in RULE_FIELDS if name not in ("penalty_presets", "tiebreak_order")
        ]

    def clean(self):
        cleaned = super().clean()
        presets = []
        for offence in OFFENCES:
            if not cleaned.get(f"preset_{offence.code}"):
                continue
            kind = cleaned.get(f"preset_{offence.code}_kind")
            if not kind:
                self.add_error(f"preset_{offence.code}_kind", _("Choose the penalty's kind."))
            try:
                points = points_read(cleaned.get(f"preset_{offence.code}_points") or "")
            except ValidationError as error:
                self.add_error(f"preset_{offence.code}_points", error)
                continue
            presets.append({"offence": offence.code, "kind": kind, "points": points})
        cleaned["penalty_presets"] = presets
        if not presets and not any(
            f"preset_{offence.code}_points" in self.errors for offence in OFFENCES
        ):
            # The model's own words (its check would only say the field is blank).
            self.add_error(None, penalty_presets_error(presets))
        chosen = []
        for name in self.CRITERIA:
            key = cleaned.get(name)
            if key in chosen:
                self.add_error(name, _("Each criterion can be used once."))
            elif key:
                chosen.append(key)
        cleaned["tiebreak_order"] = ",".join(chosen)
        if cleaned.get("session_end") == "bell":
            # Only the gong has a minute: one left in the field is not kept.
            cleaned["gong_minute"] = None
        self._profile_taken(cleaned)
        return cleaned

    def _profile_taken(self, cleaned) -> None:
        """Another profile chosen with every option left as it was would publish a profile
        the options do not play: its options are to be taken first."""
        chosen = cleaned.get("rule_profile")
        if not chosen or chosen == self.tournament.rule_profile or self.errors:
            return
        stored = rule_options(self.tournament)
        asked = {name: cleaned.get(name) for name in RULE_OPTION_NAMES}
        unchanged = all(
            presets_in_order(asked[name]) == presets_in_order(stored[name])
            if name == "penalty_presets"
            else asked[name] == stored[name]
            for name in RULE_OPTION_NAMES
            if name != "rule_profile"
        )
        if unchanged:
            self.add_error(
                "rule_profile",
                _(
                    "The options below are still the other profile's: take this profile's "
                    "options first (the button below), or keep the profile."
                ),
            )

    def options(self) -> dict:
        """The cleaned options, as ``services.rules_change`` takes them."""
        return {name: self.cleaned_data[name] for name in RULE_OPTION_NAMES}


# The form sets every option of the rules.
RULE_OPTION_NAMES = RULE_FIELDS


def form_initial(options: dict) -> dict:
    """The form's initial values for rule options as the tournament holds them
    (``services.rules.rule_options``, ``profile_options``)."""
    initial = {name: options[name] for name in RULE_OPTION_NAMES[:8]}
    by_code = {preset["offence"]: preset for preset in options["penalty_presets"]}
    for offence in OFFENCES:
        preset = by_code.get(offence.code)
        initial[f"preset_{offence.code}"] = preset is not None
        initial[f"preset_{offence.code}_kind"] = preset["kind"] if preset else offence.kind
        initial[f"preset_{offence.code}_points"] = points_text(
            preset["points"] if preset else offence.points
        )
    keys = [key for key in options["tiebreak_order"].split(",") if key]
    for name, key in zip(RulesForm.CRITERIA, keys, strict=False):
        initial[name] = key
    return initial
