"""A call for a referee, as the table's sheet, its review and a player's own page send it: why
(a claim, the count, a foul, time, a disputed hand, other), the hand it is about, a note, and
the one-time key the page made it with. The rules (a hand 1 to 16, a one-line note of at most
200 characters, a dispute names its hand) are the service's: its refusals go beside the
fields (``add_service_errors``)."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import RefereeCall

# The reasons a table offers when it calls; a dispute is called from the review's hand rows.
OFFERED_REASONS = [
    (value, label) for value, label in RefereeCall.REASON_CHOICES if value != RefereeCall.DISPUTE
]
# Where a call sent without the tablet's script goes back to: the sheet, or the review.
RETURN_TO = [("sheet", "sheet"), ("review", "review")]


class CallForm(forms.Form):
    """*Call a referee*: the reason (other unless chosen), the hand (the one being played
    unless chosen), a note, and the page's one-time key."""

    reason = forms.ChoiceField(
        label=_("Reason"),
        choices=RefereeCall.REASON_CHOICES,
        initial="other",
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("Choose why a referee is called.")},
    )
    hand = forms.IntegerField(
        label=_("Hand"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": 16}),
        error_messages={"invalid": _("A hand number is a whole number.")},
    )
    note = forms.CharField(
        label=_("Note (optional)"),
        required=False,
        strip=False,
        widget=forms.TextInput(attrs={"maxlength": 200, "autocomplete": "off"}),
    )
    key = forms.UUIDField(widget=forms.HiddenInput)
    back = forms.ChoiceField(choices=RETURN_TO, required=False, widget=forms.HiddenInput)

    def __init__(self, *args, hand: int | None = None, reasons=OFFERED_REASONS, **kwargs):
        kwargs.setdefault("initial", {"reason": "other", "hand": hand, "key": uuid.uuid4()})
        super().__init__(*args, **kwargs)
        self.fields["reason"].widget.choices = reasons
