"""The referee's hand form and its penalty rows; confirming a table; a table's extra time."""

import dataclasses
import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.forms.formsets import TOTAL_FORM_COUNT
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from tournament.forms.service_errors import add_service_errors
from tournament.language.formatting import SEAT_LABELS, WIND_LETTERS
from tournament.models import Hand, Penalty
from tournament.models.validators import validate_one_line
from tournament.scoring import MAX_FLOWERS, Outcome
from tournament.seating import HANDS_PER_SESSION
from tournament.selectors.sheets import sheet_version, table_clock
from tournament.services.hands import (
    HAND_ENTRY_FIELDS,
    HAND_MESSAGES,
    MAX_PENALTIES_PER_HAND,
    HandEntry,
    PenaltyEntry,
    entered_fields,
    parse_fan_names,
    penalty_entries,
)
from tournament.services.sessions import EXTRA_MINUTES_MESSAGE, MAX_EXTRA_MINUTES
from tournament.services.tables import INITIALS_MAX_LENGTH, seating_key

WINS = Hand.WINS


def seat_choices(players, slot=None):
    """Radio choices naming each player, with the seat wind in this hand when known."""
    choices = []
    for seat, player in enumerate(players):
        label = f"{SEAT_LABELS[seat]} · {player.name}"
        if slot is not None:
            wind = WIND_LETTERS[slot.seat_winds[seat]]
            label += f" ({wind}{', ' + str(_('dealer')) if slot.dealer == seat else ''})"
        choices.append((seat, label))
    return choices


def _seat_field(label, required=False):
    return forms.TypedChoiceField(
        label=label,
        coerce=int,
        empty_value=None,
        required=required,
        widget=forms.RadioSelect,
    )


def _with_numbers(message, **numbers):
    """A lazy message whose numbers are filled in when shown, in the reader's language."""
    return lazy(lambda: str(message) % numbers, str)()


HAND_NUMBER_RANGE = _with_numbers(HAND_MESSAGES["hand_out_of_range"], last=HANDS_PER_SESSION)
FLOWERS_RANGE = _with_numbers(HAND_MESSAGES["flowers_out_of_range"], most=MAX_FLOWERS)


# The totals referees type most often, one tap each; any other is typed.
FAN_QUICK_PICKS = (8, 9, 10, 12, 16, 24, 32, 48, 64, 88)


# A form drawn by an earlier release of the site (HandForm.release).
STALE_RELEASE_MESSAGE = _(
    "The site was updated after this page was loaded: reload the page, then enter this hand "
    "again (on the tablet: “Edit it”, then save)."
)


class HandForm(forms.Form):
    number = forms.IntegerField(
        label=_("Hand"),
        min_value=1,
        max_value=HANDS_PER_SESSION,
        error_messages=dict.fromkeys(("min_value", "max_value"), HAND_NUMBER_RANGE),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    outcome = forms.ChoiceField(
        label=_("Result"), choices=Hand.OUTCOME_CHOICES, widget=forms.RadioSelect
    )
    winner = _seat_field(_("Winner"))
    discarder = _seat_field(_("Discarder"))
    fan = forms.IntegerField(
        label=_("Fan, without flowers"),
        required=False,
        min_value=0,
        max_value=999,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    flowers = forms.IntegerField(
        label=_("Flowers"),
        min_value=0,
        max_value=MAX_FLOWERS,
        initial=0,
        error_messages=dict.fromkeys(("min_value", "max_value"), FLOWERS_RANGE),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    fan_names = forms.CharField(label=_("Fans claimed (optional)"), required=False, max_length=500)
    winning_hand = forms.CharField(
        label=_("Winning hand (optional)"),
        required=False,
        max_length=200,
        help_text=_(
            "Concealed tiles, exposed sets in [ ], concealed kongs in { }, + the winning tile; "
            "e.g. 123m456p78sEE [555p] +9s (honors E S W N C F P, or 1z-7z). Winds and "
            "self-draw come from the sheet. “Compute” fills the fan from it."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    keep_my_figure = forms.BooleanField(
        label=_("Keep my fan figure although the calculator disagrees"), required=False
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    # One key per form shown: sending the same form twice stores the hand once.
    submission_key = forms.UUIDField(required=False, widget=forms.HiddenInput)
    # Who sat where when the form was shown: its seats are those players (services.tables).
    seating = forms.CharField(required=False, max_length=80, widget=forms.HiddenInput)
    # The release of the site that drew the form (server.release): a form drawn by an earlier
    # release (a tablet's page kept from before an upgrade) may not have the fields this one
    # reads, and is refused rather than read. A post that does not say (a script) is read.
    release = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(self, *args, players, slot=None, editing=False, release="", **kwargs):
        super().__init__(*args, **kwargs)
        self.site_release = release
        if not self.is_bound:
            self.initial["submission_key"] = self.initial.get("submission_key") or uuid.uuid4()
            self.initial.setdefault("seating", seating_key(p.number for p in players))
            self.initial["release"] = release
        choices = seat_choices(players, slot)
        self.fields["winner"].choices = choices
        self.fields["discarder"].choices = choices
        # What the header of the entry says: the hand's winds and who deals.
        self.slot = slot
        self.dealer = players[slot.dealer] if slot is not None else None
        self.fan_picks = FAN_QUICK_PICKS
        if editing:
            # The hand being corrected keeps its number; a wrong number is a different hand.
            self.fields["number"].disabled = True

    def clean(self):
        cleaned = super().clean()
        posted_release = cleaned.get("release")
        if posted_release and self.site_release and posted_release != self.site_release:
            raise ValidationError(STALE_RELEASE_MESSAGE, code="stale_release")
        outcome = cleaned.get("outcome")
        if outcome and outcome not in WINS:
            # A draw or an unplayed hand has no winner: what was ticked or typed
            # before switching the result does not apply, nor do its errors, which
            # would sit on fields the page now hides.
            self._ignore("winner", "discarder", "fan", "flowers", "winning_hand", "fan_names")
            cleaned["winner"] = cleaned["discarder"] = cleaned["fan"] = None
            cleaned["flowers"] = 0
            cleaned["winning_hand"] = cleaned["fan_names"] = ""
        elif outcome == Outcome.SELF_DRAWN.value:
            self._ignore("discarder")
            cleaned["discarder"] = None
        if outcome in WINS:
            if cleaned.get("winner") is None and "winner" not in self.errors:
                self.add_error("winner", HAND_MESSAGES["winner_required"])
            if cleaned.get("fan") is None and "fan" not in self.errors:
                self.add_error("fan", HAND_MESSAGES["fan_required"])
        discarder_missing = cleaned.get("discarder") is None and "discarder" not in self.errors
        if outcome == Outcome.DISCARD.value and discarder_missing:
            self.add_error("discarder", HAND_MESSAGES["discarder_required"])
        return cleaned

    def clean_fan_names(self):
        """The names as typed (the service stores them), once they read as known fans."""
        names = self.cleaned_data["fan_names"].strip()
        parse_fan_names(names)
        return names

    def _ignore(self, *names):
        for name in names:
            self._errors.pop(name, None)

    def hand_entry(self, penalties: "BasePenaltyFormSet", *, editing: bool) -> HandEntry:
        """The hand as ``services.hand_record`` takes it, once this form and its penalty rows
        are valid. A correction without the version it started from can never match: it is
        sent as version -1, to be refused, not guessed."""
        data = self.cleaned_data
        version = None
        if editing:
            version = data["version"] if data["version"] is not None else -1
        return HandEntry(
            number=data["number"],
            **{name: data[name] for name in HAND_ENTRY_FIELDS},
            penalties=penalties.entries(),
            keep_referee_figure=data["keep_my_figure"],
            version=version,
            submission_key=data["submission_key"],
            seating=data["seating"],
        )


class PenaltyForm(forms.Form):
    offender = _seat_field(_("Player"))
    kind = forms.ChoiceField(
        label=_("Kind"), choices=[("", "—"), *Penalty.KIND_CHOICES], required=False
    )
    points = forms.IntegerField(
        label=_("Points"),
        required=False,
        min_value=1,
        max_value=999,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text=_("For “paid to each other player”: what each of the three receives."),
    )
    beneficiary = _seat_field(_("Paid to"))
    reason = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=200,
        validators=[validate_one_line],
        widget=forms.TextInput(attrs={"list": "penalty-reasons"}),
    )

    def __init__(self, *args, players, slot=None, **kwargs):
        super().__init__(*args, **kwargs)
        choices = seat_choices(players, slot)
        # Seat tiles for both, as for the winner (with the hand's winds when the hand is
        # known); nobody is paid unless the kind says so.
        self.fields["offender"].choices = choices
        self.fields["beneficiary"].choices = [("", _("— none")), *choices]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("DELETE"):
            return cleaned
        required = {
            "offender": _("Choose who is penalised."),
            "kind": _("Choose the kind of penalty."),
            "points": _("Enter the points."),
            "reason": _("Give the reason for the penalty."),
        }
        for name, message in required.items():
            if cleaned.get(name) in (None, "") and name not in self.errors:
                self.add_error(name, message)
        if cleaned.get("kind") == "to_one" and cleaned.get("beneficiary") is None:
            self.add_error("beneficiary", _("Choose the player who receives the points."))
        elif cleaned.get("kind") and cleaned.get("kind") != "to_one":
            cleaned["beneficiary"] = None
        return cleaned

    def entry(self) -> PenaltyEntry:
        data = self.cleaned_data
        return PenaltyEntry(
            offender=data["offender"],
            kind=data["kind"],
            points=data["points"],
            reason=data["reason"].strip(),
            beneficiary=data["beneficiary"],
        )


class BasePenaltyFormSet(forms.BaseFormSet):
    default_error_messages = {
        "too_many_forms": _with_numbers(
            HAND_MESSAGES["too_many_penalties"], most_penalties=MAX_PENALTIES_PER_HAND
        ),
    }

    def entries(self) -> list[PenaltyEntry]:
        return [
            form.entry()
            for form in self.forms
            if form.has_changed() and not form.cleaned_data.get("DELETE")
        ]

    def has_data(self) -> bool:
        """A row holds something: typed on this page, or a stored penalty being corrected."""
        if self.is_bound:
            return any(form.has_changed() for form in self.forms)
        return bool(self.initial)

    def starts_open(self) -> bool:
        """The penalties block opens by itself when a row holds something, rows were added,
        or something is wrong; otherwise it stays folded under the hand."""
        added = self.total_form_count() > self.initial_form_count() + self.extra
        return self.has_data() or added or self.total_error_count() > 0

    def can_add_row(self) -> bool:
        return self.total_form_count() < self.max_num

    def with_another_row(self) -> "BasePenaltyFormSet":
        """The rows as posted and one more empty row, up to the most a hand may have:
        "Add a penalty row" when the page has no JavaScript to add it."""
        data = self.data.copy()
        if self.can_add_row():
            data[self.add_prefix(TOTAL_FORM_COUNT)] = str(self.total_form_count() + 1)
        return type(self)(data, prefix=self.prefix, form_kwargs=self.form_kwargs)


PenaltyFormSet = forms.formset_factory(
    PenaltyForm,
    formset=BasePenaltyFormSet,
    extra=1,
    can_delete=True,
    max_num=MAX_PENALTIES_PER_HAND,
    validate_max=True,
    # The rows built whatever TOTAL_FORMS says (Django's default is max_num + 1,000): more
    # rows announced are refused with the same message, without building them.
    absolute_max=MAX_PENALTIES_PER_HAND,
)


class ConfirmForm(forms.Form):
    """The review before confirming: time called, and the players' initials by starting seat."""

    record_missing_as_not_played = forms.BooleanField(
        label=_("Time was called: record the hands not entered as not played"),
        required=False,
    )
    # The sheet the review showed (``selectors.sheets.sheet_version``): confirmed only if it
    # is still the table's. Not required here: a post without it is refused by the service,
    # with the review shown again.
    version = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        for seat, label in enumerate(SEAT_LABELS):
            if seat < len(players):
                label = f"{label} · {players[seat].name}"
            self.fields[f"initials_{seat}"] = forms.CharField(
                label=label,
                required=False,
                max_length=INITIALS_MAX_LENGTH,
                validators=[validate_one_line],
                widget=forms.TextInput(
                    attrs={
                        "size": INITIALS_MAX_LENGTH,
                        "autocomplete": "off",
                        "spellcheck": "false",
                    }
                ),
            )

    def initials_fields(self):
        return [self[f"initials_{seat}"] for seat in range(len(SEAT_LABELS))]

    def clean(self):
        cleaned = super().clean()
        cleaned["initials"] = [
            cleaned.get(f"initials_{seat}", "") for seat in range(len(SEAT_LABELS))
        ]
        return cleaned


def penalty_initial(hand) -> list[dict]:
    """The penalties entered on the sheet: the rulings' ones are the desk's, kept by the
    hand service whatever the form says."""
    return [dataclasses.asdict(entry) for entry in penalty_entries(hand) if entry.ruling_id is None]


def hand_initial(hand) -> dict:
    return {
        "number": hand.number,
        **entered_fields(hand),
        # A correction starts from the referee's decision, shown and ticked.
        "keep_my_figure": hand.referee_figure_kept,
        "version": hand.version,
    }


def service_errors_to_form(form, penalty_formset, error: ValidationError) -> None:
    """Place a service error beside the field it concerns (penalties on the penalty rows)."""
    penalty_errors = getattr(error, "error_dict", {}).get("penalties")
    if penalty_errors:
        penalty_formset._non_form_errors = penalty_formset.error_class(
            [message for err in penalty_errors for message in err.messages]
        )
        form.add_error(None, _("Check the penalties."))
        error = ValidationError(
            {field: errors for field, errors in error.error_dict.items() if field != "penalties"}
        )
    add_service_errors(form, error)


def confirm_form_for(sheet, *, now=None) -> ConfirmForm:
    """The unbound confirmation form of a table's ``sheet``, carrying the version of the
    sheet it reviews: "time called" starts ticked once no new hand starts at the table, the
    gong sounded or the time up (the referee may untick it)."""
    clock = table_clock(sheet.table, now=now)
    initial = {"record_missing_as_not_played": True} if clock and clock.play_over else {}
    initial["version"] = sheet_version(sheet)
    return ConfirmForm(players=sheet.players, initial=initial)


EXTRA_MINUTES_RANGE = _with_numbers(EXTRA_MINUTES_MESSAGE, most=MAX_EXTRA_MINUTES)


class ExtraTimeForm(forms.Form):
    """An organiser's extra minutes for one table; the service checks the range."""

    minutes = forms.IntegerField(
        label=_("Extra minutes for this table"),
        error_messages={"required": EXTRA_MINUTES_RANGE, "invalid": EXTRA_MINUTES_RANGE},
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "min": 0, "max": MAX_EXTRA_MINUTES, "step": 1}
        ),
    )


class SeatSwapForm(forms.Form):
    """Two players who sat in each other's seats: the two seats, by their players. The
    service checks that they are two seats of the table."""

    first = _seat_field(_("This player"), required=True)
    second = _seat_field(_("sat in the seat of"), required=True)
    # Who sat where when the page was shown: a swap sent twice is made once.
    seating = forms.CharField(required=False, max_length=80, widget=forms.HiddenInput)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("seating", seating_key(p.number for p in players))
        choices = seat_choices(players)
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices
