"""Registration forms: one player, and a player list uploaded for import."""

from django import forms
from django.core import signing
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from tournament import imports
from tournament.models import Player, Tournament
from tournament.services import PLAYER_FIELDS

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
# A preview is meant to be confirmed right away; an old one may no longer match
# what is stored, so it must be uploaded again.
PREVIEW_MAX_AGE_SECONDS = 2 * 60 * 60


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = list(PLAYER_FIELDS)
        help_texts = {
            "number": _("The player's number in this tournament, used on the draw and sheets."),
            "is_substitute": _("Plays only when needed to fill a table of four."),
        }

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.instance.tournament = tournament
        self.fields["number"].widget.attrs.update(min=1, inputmode="numeric", autofocus=True)

    def clean_number(self):
        number = self.cleaned_data["number"]
        # The tournament is not a form field, so the model's unique constraint is
        # not checked by the form: check it here to show it beside the number.
        taken = self.tournament.players.filter(number=number).exclude(pk=self.instance.pk).first()
        if taken is not None:
            raise forms.ValidationError(
                _("Number %(number)s is already used by %(player)s."),
                code="number_taken",
                params={"number": number, "player": taken.display_name},
            )
        return number


class PlayerImportForm(forms.Form):
    file = forms.FileField(
        label=_("Player list"),
        help_text=_(
            "A .csv (UTF-8) or .xlsx file with a header row: number, name, and optionally "
            "name_zh, team, country, substitute."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx"}),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.preview: imports.ImportPreview | None = None

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(size)s MB."),
                code="file_too_large",
                params={"size": MAX_UPLOAD_BYTES // (1024 * 1024)},
            )
        try:
            self.preview = import_preview(
                self.tournament, filename=upload.name, content=upload.read()
            )
        except imports.ImportFileError as error:
            raise forms.ValidationError(error.message, code=error.code) from error
        return upload


class PlayerImportConfirmForm(forms.Form):
    """The previewed rows, signed when the preview was shown, coming back to be applied."""

    payload = forms.CharField(widget=forms.HiddenInput)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_payload(self) -> list[dict]:
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
        return data["rows"]


def _preview_salt(tournament: Tournament) -> str:
    return f"tournament.players.import:{tournament.pk}"


def sign_preview(tournament: Tournament, preview: imports.ImportPreview) -> str:
    """The rows to import, signed for this tournament so they can travel in a hidden field."""
    error_count = len(preview.error_rows) + len(preview.header_problems)
    return signing.dumps(
        {"tournament": tournament.pk, "rows": preview.rows_to_import, "errors": error_count},
        salt=_preview_salt(tournament),
        compress=True,
    )


def player_limits() -> imports.FieldLimits:
    """The lengths and the largest number the Player model accepts, for the import checks."""
    max_lengths = {name: Player._meta.get_field(name).max_length for name in imports.TEXT_FIELDS}
    maxima = [
        validator.limit_value
        for validator in Player._meta.get_field("number").validators
        if isinstance(validator, MaxValueValidator)
    ]
    if maxima:
        return imports.FieldLimits(max_lengths=max_lengths, max_number=min(maxima))
    return imports.FieldLimits(max_lengths=max_lengths)


def import_preview(tournament: Tournament, *, filename: str, content: bytes):
    """Read a player file and compare it with the tournament's players; raises ImportFileError."""
    table = imports.read_table(filename, content)
    existing = {values["number"]: values for values in tournament.players.values(*PLAYER_FIELDS)}
    return imports.parse_players(table, existing=existing, limits=player_limits())
