"""Forms an organiser fills in: the tournament, a draw and its commitment, a reopening."""

import json
import zoneinfo

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from tournament.language.formatting import zone_label
from tournament.models import (
    SEATING_METHOD_CHOICES,
    SeatingPlan,
    Tournament,
    default_time_zone,
)
from tournament.models.validators import (
    known_time_zones,
    validate_multi_line,
    validate_one_line,
)
from tournament.scoring.profiles import DEFAULT_PROFILE
from tournament.seating import HANDS_PER_SESSION
from tournament.selectors.lookups import ACTIVE_PLAYERS
from tournament.selectors.referees import tournament_referees
from tournament.services.commitments import MAX_PUBLIC_VALUE, MAX_TYPED_SEED
from tournament.services.draws import DEFAULT_TOP_TABLES
from tournament.services.referees import parse_table_numbers


class AccountsField(forms.ModelMultipleChoiceField):
    """Accounts ticked by id. Django looks the ids up with ``pk__in``, which the database
    fails on for a number past its integers (a server error): such an id is refused first,
    as any id of no account is."""

    def clean(self, value):
        if isinstance(value, (list, tuple)):
            id_field = self.queryset.model._meta.pk
            for pk in value:
                try:
                    # The field's validators hold the range of the database's column.
                    id_field.run_validators(id_field.to_python(pk))
                except ValidationError as error:
                    raise ValidationError(
                        self.error_messages["invalid_choice"],
                        code="invalid_choice",
                        params={"value": pk},
                    ) from error
        return super().clean(value)


def time_zone_choices() -> list[tuple[str, str]]:
    """Every time zone by its IANA name, with its offset from UTC today ("Asia/Shanghai
    (UTC+08:00)"), in alphabetical order: the organiser finds their city's by its name."""
    now = timezone.now()
    return [(name, zone_label(name, now)) for name in sorted(known_time_zones())]


class TournamentForm(forms.ModelForm):
    """The tournament's settings. A new tournament takes its rules from the profile chosen
    (the session time typed in, if any, in place of the profile's); after that its rules,
    the session time and the ranking order among them, are the rules page's
    (``forms.rules.RulesForm``)."""

    website = forms.URLField(
        label=_("Website"), max_length=300, required=False, assume_scheme="https"
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=time_zone_choices,
        help_text=_(
            "Where the tournament is played: every time its pages, e-mails and files give "
            "is in this zone."
        ),
    )
    referees = AccountsField(
        label=_("Table referees"),
        queryset=get_user_model().objects.filter(is_active=True).order_by("username"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Accounts that may enter results at this tournament's tables."),
    )
    organisers = AccountsField(
        label=_("Organisers"),
        queryset=get_user_model().objects.filter(is_active=True).order_by("username"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Accounts that run this tournament: settings, players, draws, corrections."),
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "first_day",
            "last_day",
            "venue",
            "city",
            "country",
            "website",
            "time_zone",
            "session_count",
            "rule_profile",
            "session_minutes",
            "seating_method",
            "separate_by",
            "substitute_limit",
            "appeal_minutes",
            "review_draws",
            "sign_up_open",
            "sign_up_closes_at",
            "player_cap",
            "sign_up_review",
            "ema_qualifying",
        ]
        widgets = {
            "first_day": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "last_day": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "website": forms.URLInput(attrs={"placeholder": "https://"}),
            "sign_up_closes_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }
        help_texts = {
            "rule_profile": _(
                "The rules the tournament starts from: each of their options can be changed "
                "on the tournament's rules page until the first hand is entered."
            ),
            "session_minutes": _("Empty: the chosen rules' session time."),
            "slug": _("Letters, digits and hyphens; used in the public addresses."),
            "venue": _("The hall or building, as players look for it."),
            "session_count": format_lazy(
                _("Each session is {hands} hands at every table."), hands=HANDS_PER_SESSION
            ),
            "seating_method": _(
                "How sessions are seated by default; it can be changed before each draw."
            ),
            "separate_by": _("Players of the same group are kept apart where possible."),
            "substitute_limit": _(
                "How many substitutes the federation counts in the results. More may still "
                "play: the organiser is warned when a seat change or a draw seats one more."
            ),
            "sign_up_open": _(
                "Players sign up on the tournament's public form (Sign up); the organisers "
                "see the sign-ups under Sign-ups."
            ),
            "sign_up_closes_at": _(
                "After this, the form takes no sign-up; empty: until the first draw."
            ),
            "player_cap": _(
                "Regular players the tournament takes (substitutes aside); beyond them, "
                "sign-ups join a waiting list. Empty: no limit."
            ),
            "sign_up_review": _(
                "Otherwise a sign-up within the limit is accepted at once and becomes a player."
            ),
            "appeal_minutes": _(
                "A ruling may be appealed at the referees' desk while its session is played "
                "and for this many minutes after it closes (the rules: 30). 0: until it "
                "closes."
            ),
            "review_draws": _(
                "Each draw stays with the organisers (to give absent players' seats, to check "
                "it) until they publish it; the players' links, the seating pages, the hall's "
                "screen and the e-mails show it from then. Otherwise a draw is public at once."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            # The rules page sets them (and says when they are fixed).
            del self.fields["rule_profile"]
            del self.fields["session_minutes"]
        else:
            self.fields["session_minutes"].required = False
            self.fields["session_minutes"].initial = None
            # Left out of a post (an older form, a script): the default profile.
            self.fields["rule_profile"].required = False
        if self.instance.pk:
            self.fields["referees"].initial = list(self.instance.referees.all())
            self.fields["organisers"].initial = list(self.instance.organisers.all())
        else:
            # Whoever creates the tournament organises it; others are added in its settings.
            del self.fields["organisers"]
            if not self.is_bound:
                # The site's zone until the page's script puts the organiser's browser's
                # in its place (js/page.js, data-browser-time-zone).
                self.fields["time_zone"].widget.attrs["data-browser-time-zone"] = ""
        self.fields["time_zone"].initial = (
            self.instance.time_zone if self.instance.pk else default_time_zone()
        )
        # Left out of a post (an older form, a script): the stored or the default value.
        self.fields["seating_method"].required = False
        self.fields["substitute_limit"].required = False
        self.fields["appeal_minutes"].required = False
        self.fields["time_zone"].required = False

    def clean_seating_method(self):
        # A new instance holds the model's default method.
        return self.cleaned_data.get("seating_method") or self.instance.seating_method

    def clean_rule_profile(self):
        return self.cleaned_data.get("rule_profile") or DEFAULT_PROFILE

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or self.fields["time_zone"].initial

    def clean_substitute_limit(self):
        limit = self.cleaned_data.get("substitute_limit")
        return self.instance.substitute_limit if limit is None else limit

    def clean_appeal_minutes(self):
        minutes = self.cleaned_data.get("appeal_minutes")
        return self.instance.appeal_minutes if minutes is None else minutes

    def clean_sign_up_closes_at(self):
        """The closing time as the organiser typed it, on the clock of the tournament's zone
        as chosen in this same form (Django read it on the clock of the zone the page was
        drawn in: the tournament's as stored, or the site's for a new one)."""
        closes_at = self.cleaned_data.get("sign_up_closes_at")
        zone = self.data.get(self.add_prefix("time_zone")) or self.fields["time_zone"].initial
        if closes_at is None or zone not in known_time_zones():
            return closes_at
        wall_clock = timezone.make_naive(closes_at)
        return timezone.make_aware(wall_clock, zoneinfo.ZoneInfo(zone))

    # The settings as services.tournament_create and tournament_update take them.
    SETTINGS = (*Meta.fields, "referees", "organisers")

    def settings(self) -> dict:
        """The cleaned settings, as keyword arguments of the tournament services."""
        return {
            name: self.cleaned_data[name] for name in self.SETTINGS if name in self.cleaned_data
        }


class _MethodForm(forms.Form):
    """A draw's seating method (the tournament's, left empty) and its top tables."""

    method = forms.ChoiceField(
        label=_("Seating method"), choices=SEATING_METHOD_CHOICES, required=False
    )
    top = forms.IntegerField(
        label=_("Top tables"),
        required=False,
        min_value=1,
        initial=DEFAULT_TOP_TABLES,
        help_text=_("For “top tables”: how many tables are seated by standings."),
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["method"].initial = tournament.seating_method

    def clean_method(self):
        return self.cleaned_data.get("method") or self.tournament.seating_method

    def clean_top(self):
        return self.cleaned_data.get("top") or DEFAULT_TOP_TABLES


class DrawForm(_MethodForm):
    field_order = ["number", "seed", "method", "top"]
    number = forms.TypedChoiceField(label=_("Session"), coerce=int)
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=10**15,
        help_text=_("Leave empty for a fresh random seed. The same seed gives the same seating."),
    )

    def __init__(self, *args, tournament, commitment=None, **kwargs):
        """``commitment``: the pending commitment of the first draw, if any (the caller
        has it at hand)."""
        super().__init__(*args, tournament=tournament, **kwargs)
        plan = SeatingPlan.objects.filter(tournament=tournament).only("seed").first()
        if commitment is not None:
            committed = json.loads(commitment.document)
            self.fields["method"].initial = committed["method"]
            self.fields["top"].initial = committed["options"].get("top", DEFAULT_TOP_TABLES)
            self.fields["seed"].help_text = _(
                "This draw is committed: it uses the committed seed. Leave the seed empty."
            )
        elif plan is not None:
            # Once planned, the planned method seats every session from the plan's seed.
            self.fields["seed"].help_text = _(
                "The planned seating seats every session from its plan's seed, %(seed)s: leave "
                "it empty. For another method, leave empty for a fresh random seed."
            ) % {"seed": plan.seed}
        drawn = set(tournament.sessions.values_list("number", flat=True))
        self.fields["number"].choices = [
            (n, _("Session %(n)s") % {"n": n})
            for n in range(1, tournament.session_count + 1)
            if n not in drawn
        ]


class CommitForm(_MethodForm):
    """Commit the first draw before it is made: the method, an optional seed, and the
    public value that will be mixed in."""

    seed = forms.IntegerField(
        label=_("Secret seed"),
        required=False,
        min_value=0,
        max_value=MAX_TYPED_SEED,
        help_text=_("Leave empty for a secret random seed. It stays secret until the draw."),
    )
    public_value_source = forms.CharField(
        label=_("Public value to mix in (optional)"),
        required=False,
        max_length=MAX_PUBLIC_VALUE,
        validators=[validate_one_line],
        help_text=_(
            "A value nobody knows yet, published later by others, such as “drand round "
            "1234567” or “the national lottery of 5 December 2026”. You type it in once it is "
            "known, before the draw."
        ),
    )


class PublicValueForm(forms.Form):
    value = forms.CharField(
        label=_("Public value"),
        max_length=MAX_PUBLIC_VALUE,
        validators=[validate_one_line],
        help_text=_("Exactly as published. It is recorded once and cannot be changed."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )


class ReopenForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason for the correction"),
        max_length=500,
        validators=[validate_multi_line],
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class SeatReplaceForm(forms.Form):
    """Before a table starts: give a drawn seat to another player (a substitute)."""

    seat = forms.ModelChoiceField(label=_("Seat"), queryset=None)
    player = forms.ModelChoiceField(label=_("Give it to"), queryset=None)

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        seats = session.seats.select_related("table", "player").filter(table__hands__isnull=True)
        self.fields["seat"].queryset = seats.order_by("table__number", "seat").distinct()
        self.fields["seat"].label_from_instance = lambda s: (
            f"{_('Table')} {s.table.number} P{s.seat + 1}: {s.player.number} {s.player.name}"
            + ("" if s.player.is_active else f" ({_('withdrawn')})")
        )
        seated = session.seats.values_list("player", flat=True)
        self.fields["player"].queryset = (
            session.tournament.players.filter(ACTIVE_PLAYERS)
            .exclude(pk__in=seated)
            .order_by("-is_substitute", "number")
        )
        self.fields["player"].label_from_instance = lambda p: (
            f"{p.number} {p.name}" + (f" ({_('substitute')})" if p.is_substitute else "")
        )


class TournamentDeleteForm(forms.Form):
    """The organiser types the tournament's short name back; the service compares it."""

    confirm_slug = forms.CharField(
        max_length=Tournament._meta.get_field("slug").max_length,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["confirm_slug"].label = _("Type “%(slug)s” to confirm") % {
            "slug": tournament.slug
        }
        self.fields["confirm_slug"].help_text = _(
            "The tournament's short name, as in its address. This cannot be undone."
        )


class TableRefereesForm(forms.Form):
    """Give a run of tables to one referee, or to nobody: "tables 1-6 → referee A"."""

    NOBODY = "nobody"

    referee = forms.ChoiceField(label=_("Referee"))
    tables = forms.CharField(
        label=_("Tables"),
        max_length=200,
        help_text=_("Such as 1-6, or 1-3, 7, 9."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.users = {str(user.pk): user for user in tournament_referees(tournament)}
        self.fields["referee"].choices = [
            ("", "—"),
            *((pk, _user_label(user)) for pk, user in self.users.items()),
            (self.NOBODY, _("Nobody (clear these tables)")),
        ]

    def clean_referee(self):
        """The chosen account, or None for nobody."""
        chosen = self.cleaned_data["referee"]
        return None if chosen == self.NOBODY else self.users[chosen]

    def clean_tables(self):
        return parse_table_numbers(self.cleaned_data["tables"])


def _user_label(user) -> str:
    full_name = user.get_full_name()
    return f"{user.get_username()} ({full_name})" if full_name else user.get_username()
