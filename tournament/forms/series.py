"""A series' settings: its name and address, its ranking rule, its tournaments."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.forms.tournaments import AccountsField
from tournament.models import Series, Tournament


class TournamentsField(AccountsField):
    """Tournaments ticked by id; an id past the database's integers is refused as unknown."""


class SeriesForm(forms.ModelForm):
    tournaments = TournamentsField(
        label=_("Tournaments"),
        queryset=Tournament.objects.order_by("-created_at", "name"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The tournaments whose results the series ranks."),
    )

    class Meta:
        model = Series
        fields = ["name", "slug", "rule", "counted_results", "place_points", "tournaments"]
        widgets = {"rule": forms.RadioSelect}

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("rule") == "places" and not (cleaned.get("place_points") or "").strip():
            self.add_error(
                "place_points",
                _("Give the points of places 1, 2, 3… for a ranking by points by place."),
            )
        return cleaned

    def settings(self) -> dict:
        data = self.cleaned_data
        return {
            **{name: data[name] for name in ("name", "slug", "rule", "counted_results")},
            "place_points": data["place_points"] or "",
            "tournaments": list(data["tournaments"]),
        }
