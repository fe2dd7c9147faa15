"""An organiser's links between the tournament's players and people."""

from django import forms
from django.utils.translation import gettext_lazy as _

# A confirmed match is posted as "player number:person id".
MAX_ID = 2**31 - 1


def _pair(value: str) -> tuple[int, int] | None:
    number, _sep, person = value.partition(":")
    if not (number.isdigit() and person.isdigit()):
        return None
    pair = (int(number), int(person))
    return pair if all(1 <= part <= MAX_ID for part in pair) else None


class LinkForm(forms.Form):
    """The matches the organiser ticked: each a player and the person they are."""

    link = forms.MultipleChoiceField(label=_("Links"), required=True)

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["link"].choices = [(value, value) for value in choices]
        self.fields["link"].error_messages["required"] = _("Tick at least one player to link.")

    def links(self) -> list[tuple[int, int]]:
        return [pair for value in self.cleaned_data["link"] if (pair := _pair(value))]


class HandLinkForm(forms.Form):
    """One player linked by hand to a person found by the search."""

    player = forms.IntegerField(label=_("Player number"), min_value=1, max_value=MAX_ID)
    person = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_ID)


class NewPeopleForm(forms.Form):
    """The players the organiser knows to be new: a person made for each."""

    player = forms.TypedMultipleChoiceField(
        label=_("Players"), coerce=int, required=True, choices=()
    )

    def __init__(self, *args, numbers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [(number, number) for number in numbers]
        self.fields["player"].error_messages["required"] = _("Tick at least one player.")
