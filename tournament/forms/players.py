"""Registration forms: one player, and a player list uploaded for import."""

from django import forms
from django.core import signing
from django.utils.translation import gettext_lazy as _

from tournament.models import PLAYER_FIELDS, Player, Tournament
from tournament.players import federation, player_file
from tournament.players.player_import import PlayerImportPreview

# A preview is meant to be confirmed right away. A change to the players it
# touches is caught by its fingerprint; past this age it is refused anyway.
PREVIEW_MAX_AGE_SECONDS = 2 * 60 * 60


class FederationCodesMixin:
    """The country and the EMA number read as the federation's codes, as the service stores
    them (``tournament.players.federation``): a wrong one is shown beside its field."""

    def clean_country(self) -> str:
        return _parsed(federation.normalise_country, self.cleaned_data["country"])

    def clean_ema_number(self) -> str:
        return _parsed(federation.normalise_ema_number, self.cleaned_data["ema_number"])


def _parsed(normalise, value) -> str:
    try:
        return normalise(value)
    except federation.FieldValueError as error:
        raise forms.ValidationError(error.message, code=error.code) from error


class PlayerForm(FederationCodesMixin, forms.ModelForm):
    """One player. The service keeps the name and the first and last names in step and
    stores the country and the EMA number as codes; the form reads the codes the same way
    (``tournament.players.federation``) so that a wrong one is shown beside its field."""

    # Longer than the stored eight digits may be typed ("0401-0005"): the reading of the
    # number says what is wrong with it, rather than a count of characters.
    ema_number = forms.CharField(
        label=_("EMA number"),
        required=False,
        help_text=_("The 8-digit number of the European Mahjong Association; empty for a guest."),
    )

    class Meta:
        model = Player
        fields = list(PLAYER_FIELDS)
        help_texts = {
            "number": _("The player's number in this tournament, used on the draw and sheets."),
            "name": _(
                "As pages and sheets show it. Left empty, it is made of the first and last "
                "names; given alone, it is split into them, the family name first when a "
                "Chinese name is given (Wang Fang with 王芳: last name Wang, first name Fang)."
            ),
            "name_zh": _("In Chinese characters."),
            "first_name": _("Given name(s), as the federation's results list them."),
            "last_name": _("Family name, as the federation's results list them."),
            "country": _("Three letters, as the EMA writes them: CHN, FRA, GER, JPN, NED…"),
            "is_substitute": _("Plays only when needed to fill a table of four."),
        }

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.tournament = tournament
        self.fields["number"].widget.attrs.update(min=1, inputmode="numeric", autofocus=True)
        # The name may be left for the service to make of the first and last names.
        self.fields["name"].required = False
        self.fields["country"].widget.attrs.update(autocapitalize="characters", size=12)
        self.fields["ema_number"].widget.attrs.update(inputmode="numeric", size=12)

    def player_fields(self) -> dict:
        """The player's fields as ``services.player_save`` takes them."""
        return {name: self.cleaned_data[name] for name in PLAYER_FIELDS}


class PlayerImportForm(forms.Form):
    """The uploaded player list; the view reads it into a preview (``player_import``)."""

    file = forms.FileField(
        label=_("Player list"),
        help_text=_(
            "A .csv (UTF-8) or .xlsx file with a header row: number, and name or first_name "
            "and last_name; the other columns read are listed below the form."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        # Checked before the file is read into memory; the reader checks the bytes it is given.
        if upload.size > player_file.MAX_FILE_BYTES:
            raise forms.ValidationError(player_file.file_too_large_message(), code="file_too_large")
        return upload


class PlayerImportConfirmForm(forms.Form):
    """The previewed rows, signed when the preview was shown, coming back to be applied.

    The cleaned payload is ``{"rows": [...], "fingerprint": "..."}``; whether the
    stored players still match the fingerprint is checked when it is applied.
    """

    payload = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_payload(self) -> dict:
        try:
            data = signing.loads(
                self.cleaned_data["payload"],
                salt=_preview_salt(self.tournament),
                max_age=PREVIEW_MAX_AGE_SECONDS,
            )
        except signing.SignatureExpired as error:
            raise forms.ValidationError(
                _("This preview is too old. Upload the file again."), code="preview_expired"
            ) from error
        except signing.BadSignature as error:
            raise forms.ValidationError(
                _("This preview could not be verified. Upload the file again."),
                code="bad_signature",
            ) from error
        if data.get("tournament") != self.tournament.pk:
            raise forms.ValidationError(
                _("This preview is for another tournament. Upload the file again."),
                code="other_tournament",
            )
        if data.get("errors"):
            raise forms.ValidationError(
                _("The preview has errors: correct the file and upload it again."),
                code="preview_has_errors",
            )
        return {"rows": data["rows"], "fingerprint": data.get("fingerprint", "")}


def _preview_salt(tournament: Tournament) -> str:
    return f"tournament.players.import:{tournament.pk}"


def sign_preview(tournament: Tournament, preview: PlayerImportPreview) -> str:
    """The rows to import and the stored players' fingerprint, signed for this tournament.

    Signed so they can travel in a hidden field and come back unchanged.
    """
    error_count = len(preview.error_rows) + len(preview.header_problems)
    return signing.dumps(
        {
            "tournament": tournament.pk,
            "rows": preview.rows_to_import,
            "fingerprint": preview.fingerprint,
            "errors": error_count,
        },
        salt=_preview_salt(tournament),
        compress=True,
    )


class BadgeRangeForm(forms.Form):
    """Which badges to print: players from one number to another (either left empty)."""

    first = forms.IntegerField(label=_("From number"), min_value=1, required=False)
    last = forms.IntegerField(label=_("To number"), min_value=1, required=False)

    def clean(self):
        cleaned = super().clean()
        first, last = cleaned.get("first"), cleaned.get("last")
        if first is not None and last is not None and last < first:
            self.add_error("last", _("The last number comes after the first."))
        return cleaned

    def numbers(self) -> tuple[int | None, int | None]:
        return self.cleaned_data.get("first"), self.cleaned_data.get("last")
