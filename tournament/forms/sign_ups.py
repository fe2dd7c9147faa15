"""The public sign-up form: only the fields a player gives, each checked beside itself."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.forms.players import FederationCodesMixin
from tournament.models import SignUp
from tournament.services.sign_ups import SIGN_UP_FIELDS


class SignUpForm(FederationCodesMixin, forms.ModelForm):
    """The name as shown, then the Chinese name and the family and given names the
    federation lists, grouped and explained as one question (``name_fields``): either the
    name or the family and given names is enough, the rest made of it by the players' rule
    (``tournament.players.names``)."""

    NAME_FIELDS = ("name", "name_zh", "last_name", "first_name")
    # Longer than the stored eight digits may be typed ("0401-0005"): the reading says what
    # is wrong with it.
    ema_number = forms.CharField(
        label=_("EMA number"),
        required=False,
        help_text=_("The 8-digit number of the European Mahjong Association, if you have one."),
    )
    # A country's name is read as its code ("France" is FRA), as on the organiser's form.
    country = forms.CharField(
        label=_("country"),
        required=False,
        max_length=60,
        help_text=_("Three letters, as the EMA writes them: CHN, FRA, GER, JPN, NED…"),
    )
    # Left empty by people; filled by scripts that fill every field. Hidden from sight and
    # from screen readers, so nobody is asked anything more.
    website = forms.CharField(required=False, label=_("Leave this empty"))

    class Meta:
        model = SignUp
        fields = list(SIGN_UP_FIELDS)
        labels = {
            "name": _("Name as shown"),
            "last_name": _("Family name"),
            "first_name": _("Given name(s)"),
        }
        help_texts = {
            "name": _(
                "As the tournament's pages and score sheets will print it: Alice Martin, "
                "Wang Fang, 王芳."
            ),
            "name_zh": _("If you have one, in Chinese characters."),
            "last_name": _(
                "For the federation's results (EMA). Leave empty to have it taken from your name."
            ),
            "first_name": _(
                "For the federation's results (EMA). Leave empty to have it taken from your name."
            ),
            "email": _(
                "Where you are told if your sign-up is accepted, and your table and seat "
                "before each session. Never shown to anyone else."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False
        self.fields["country"].widget.attrs.update(autocapitalize="characters", size=12)
        self.fields["ema_number"].widget.attrs.update(inputmode="numeric", size=12)
        self.fields["email"].widget.attrs.update(autocomplete="email")
        self.fields["website"].widget.attrs.update(tabindex="-1", autocomplete="off")

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("website"):
            raise forms.ValidationError(_("This sign-up was not taken."), code="not_a_person")
        if not (cleaned.get("name") or cleaned.get("first_name") or cleaned.get("last_name")):
            self.add_error("name", _("Give your name as shown, or your family and given names."))
        return cleaned

    def name_fields(self) -> list:
        """The fields of the question "your name", in the order they are asked."""
        return [self[name] for name in self.NAME_FIELDS]

    def other_fields(self) -> list:
        return [field for field in self if field.name not in self.NAME_FIELDS]

    def validate_unique(self):
        # The service decides duplicates, with its reasons.
        pass

    def sign_up_fields(self) -> dict:
        return {name: self.cleaned_data.get(name) or "" for name in SIGN_UP_FIELDS}
