"""The referees' desk's forms: a ruling (resolving a call or not), an appeal lodged, an appeal
decided. The services check every rule; these say what a field holds and offer the
tournament's penalty presets beside the offence (``selectors.desk.penalty_presets``)."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.language.formatting import SEAT_LABELS
from tournament.models import Appeal, Penalty
from tournament.models.rulings import OTHER_OFFENCE
from tournament.seating import HANDS_PER_SESSION
from tournament.selectors.desk import penalty_presets
from tournament.services.rulings import NOTE_MAX_LENGTH, TEXT_MAX_LENGTH

# The penalty's kind as the desk names it ("" : none).
PENALTY_KINDS = dict(Penalty.KIND_CHOICES)
NO_PENALTY = [("", _("No penalty"))]


def offence_penalties(tournament) -> dict:
    """Each offence the tournament presets with its penalty, for the script that fills the
    kind and points when an offence is chosen, and for the list shown beside the form:
    code → kind, points, range."""
    return {
        preset.offence: {
            "kind": preset.kind,
            "points": preset.default_points,
            "figures": str(preset.figures),
            "kind_label": str(PENALTY_KINDS[preset.kind]),
            "reason": str(preset.reason),
        }
        for preset in penalty_presets(tournament)
    }


def offence_choices(tournament) -> list[tuple[str, str]]:
    """The offences a ruling names from the list: the tournament's presets', then another
    one (in words), or none."""
    return [
        ("", _("No offence")),
        *((preset.offence, preset.reason) for preset in penalty_presets(tournament)),
        (OTHER_OFFENCE, _("Another offence")),
    ]


def _player_choices(players, *, blank: str | None = None):
    """The table's players by seat, as the sheet names them: "P2 · Player 10 (10)"."""
    choices = [
        (str(player.pk), f"{SEAT_LABELS[seat]} · {player.name} ({player.number})")
        for seat, player in enumerate(players)
    ]
    return [("", blank), *choices] if blank is not None else choices


class _PenaltyFields(forms.Form):
    """The penalty of a ruling or of an appeal's decision: kind, points, offender, paid to."""

    penalty_kind = forms.ChoiceField(
        label=_("Penalty"), choices=[*NO_PENALTY, *Penalty.KIND_CHOICES], required=False
    )
    penalty_points = forms.IntegerField(
        label=_("Points"),
        required=False,
        min_value=1,
        max_value=999,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text=_("For “paid to each other player”: what each of the three receives."),
    )
    offender = forms.ChoiceField(label=_("Offender"), required=False)
    beneficiary = forms.ChoiceField(
        label=_("Paid to"),
        required=False,
        help_text=_("Only for a penalty paid to one player."),
    )

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = {str(player.pk): player for player in players}
        self.fields["offender"].choices = _player_choices(players, blank=_("— none"))
        self.fields["beneficiary"].choices = _player_choices(players, blank=_("— none"))

    def player(self, name: str):
        return self.players.get(self.cleaned_data.get(name) or "")

    def penalty(self) -> dict:
        """The penalty as the services take it (the service checks it is complete)."""
        kind = self.cleaned_data.get("penalty_kind") or ""
        return {
            "penalty_kind": kind,
            "penalty_points": self.cleaned_data.get("penalty_points") if kind else None,
            "offender": self.player("offender"),
            "beneficiary": self.player("beneficiary") if kind == "to_one" else None,
        }


class RulingForm(_PenaltyFields):
    """A referee's ruling at a table: the hand, the players concerned, the offence, the
    decision and the penalty, if any."""

    hand = forms.IntegerField(
        label=_("Hand"),
        required=False,
        min_value=1,
        max_value=HANDS_PER_SESSION,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    players = forms.MultipleChoiceField(
        label=_("Players concerned"), required=False, widget=forms.CheckboxSelectMultiple
    )
    # Its choices are the tournament's (``offence_choices``).
    offence = forms.ChoiceField(label=_("Offence"), required=False)
    offence_text = forms.CharField(
        label=_("The offence in words"),
        required=False,
        max_length=NOTE_MAX_LENGTH,
        help_text=_("For another offence: what it was."),
    )
    decision = forms.CharField(
        label=_("Decision"),
        max_length=TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": _("Write the decision.")},
    )
    # The form's one-time key: a ruling sent twice is stored once (``services.ruling_give``).
    key = forms.UUIDField(widget=forms.HiddenInput, required=False)
    field_order = [
        "hand",
        "players",
        "offence",
        "offence_text",
        "decision",
        "penalty_kind",
        "penalty_points",
        "offender",
        "beneficiary",
    ]

    def __init__(self, *args, players, tournament, **kwargs):
        super().__init__(*args, players=players, **kwargs)
        self.fields["players"].choices = _player_choices(players)
        self.fields["offence"].choices = offence_choices(tournament)
        # A form drawn afresh gets a key of its own; one sent back keeps the key it carried.
        self.fields["key"].initial = uuid.uuid4()

    def ruling(self) -> dict:
        """The ruling as ``services.ruling_give`` takes it (without the table and referee)."""
        data = self.cleaned_data
        return {
            "hand": data.get("hand"),
            "players": [self.players[pk] for pk in data.get("players", [])],
            "offence": data.get("offence") or "",
            "offence_text": data.get("offence_text") or "",
            "decision": data.get("decision") or "",
            "key": data.get("key"),
            **self.penalty(),
        }


class TableChoiceForm(forms.Form):
    """Which table a ruling without a call is for: one of the sessions in play."""

    table = forms.ChoiceField(label=_("Table"))

    def __init__(self, *args, tables, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = tables


class AppealForm(forms.Form):
    """An appeal of a ruling: its grounds, and the player appealing (one of the table's)."""

    player = forms.ChoiceField(label=_("Appealed by"), required=False)
    grounds = forms.CharField(
        label=_("Grounds"),
        max_length=TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": _("Write the grounds.")},
    )

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = {str(player.pk): player for player in players}
        self.fields["player"].choices = _player_choices(players, blank=_("— none"))

    def appeal(self) -> dict:
        data = self.cleaned_data
        return {"grounds": data["grounds"], "player": self.players.get(data.get("player") or "")}


class AppealDecisionForm(_PenaltyFields):
    """An appeal decided: the ruling upheld, or changed to the penalty named (none: the
    penalty withdrawn), with the reasons."""

    decision = forms.ChoiceField(
        label=_("Decision"),
        choices=[(Appeal.UPHELD, _("Upheld")), (Appeal.CHANGED, _("Changed"))],
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose upheld or changed.")},
    )
    reasons = forms.CharField(
        label=_("Reasons"),
        required=False,
        max_length=TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Required when the ruling is changed."),
    )
    field_order = [
        "decision",
        "reasons",
        "penalty_kind",
        "penalty_points",
        "offender",
        "beneficiary",
    ]

    def decided(self) -> dict:
        """The decision as ``services.appeal_decide`` takes it (without the appeal and user)."""
        data = self.cleaned_data
        return {
            "decision": data["decision"],
            "reasons": data.get("reasons") or "",
            **self.penalty(),
        }


def penalty_initial(ruling) -> dict:
    """A ruling's penalty as the decision form starts from it."""
    return {
        "penalty_kind": ruling.penalty_kind,
        "penalty_points": ruling.penalty_points,
        "offender": str(ruling.offender_id or ""),
        "beneficiary": str(ruling.beneficiary_id or ""),
    }
