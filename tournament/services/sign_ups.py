"""Sign-ups on the tournament's public form: the cap and the waiting list, the organiser's
acceptance or refusal, a place given to the first in line when one comes free, and a player
withdrawing with their own link.

The rules, in one place:

- A sign-up is taken while the organiser keeps sign-up open, until its closing time and
  before the first draw. The same EMA number, or the same name with the same e-mail, cannot
  sign up twice (nor as a player already registered).
- Within the cap (``Tournament.player_cap``: regular players, substitutes aside), a sign-up
  holds a place: accepted at once, or waiting for the organiser (``sign_up_review``).
  Beyond it, the sign-up joins the waiting list, in order of sign-up.
- A place is taken by each active regular player and each sign-up waiting for acceptance.
  When one comes free before the first draw (a withdrawal, a refusal, a higher cap), the
  first in line gets it and is told by e-mail.
- An accepted sign-up becomes a player with the next free number.
- Against floods (each sign-up e-mails the address it gives): a tournament takes at most
  ``SIGN_UPS_PER_HOUR`` sign-ups in an hour (its cap, if more), one e-mail address at most
  ``SIGN_UPS_PER_EMAIL`` in a day, every tournament together. Counted here in the database,
  under the tournament's lock: exact whatever the number of servers, and kept when the
  cache (where the form's per-address throttle counts) is down.
"""

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.db.models.functions import Lower
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournament.models import PLAYER_FIELDS, SignUp, Tournament
from tournament.models.sign_ups import LIVE_SIGN_UP_STATUSES
from tournament.players import names
from tournament.selectors.lookups import ACTIVE_PLAYERS
from tournament.services.common import fields_saved, refused
from tournament.services.mail import sign_up_email_queue
from tournament.services.players import codes_normalised, player_save, player_withdrawn_mark
from tournament.services.results import tournament_touch

# What the public form may set on a sign-up: a player's own fields, without what the
# organiser decides (the number, substitute or not, EMA guest or not). Nothing else reaches
# the database.
SIGN_UP_FIELDS = tuple(
    field for field in PLAYER_FIELDS if field not in ("number", "is_substitute", "ema_guest")
)


def _locked(tournament: Tournament) -> Tournament:
    """The tournament, locked: sign-ups and the places they count are decided one at a
    time."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def sign_up_closed_reason(tournament: Tournament) -> str:
    """Why the public form takes no sign-up now; empty while it does."""
    if not tournament.sign_up_open:
        return _("Sign-up for this tournament is closed.")
    closes_at = tournament.sign_up_closes_at
    if closes_at is not None and timezone.now() >= closes_at:
        return _("Sign-up for this tournament closed on %(when)s.") % {
            "when": formats.date_format(
                timezone.localtime(closes_at, tournament.zone), "SHORT_DATETIME_FORMAT"
            )
        }
    if tournament.sessions.exists():
        return _("The first session is drawn: sign-up is over.")
    return ""


def sign_up_withdrawable(sign_up: SignUp) -> bool:
    """The player may still withdraw the sign-up with its link: it is live, its player (if
    accepted) not withdrawn by the organisers already, and no session is drawn yet."""
    if sign_up.player is not None and sign_up.player.withdrawn_at is not None:
        return False
    return sign_up.status in LIVE_SIGN_UP_STATUSES and not sign_up.tournament.sessions.exists()


def places_taken(tournament: Tournament) -> int:
    """The active regular players, and the sign-ups holding a place until accepted."""
    players = tournament.players.filter(ACTIVE_PLAYERS, is_substitute=False).count()
    return players + tournament.sign_ups.filter(status="pending").count()


def _place_free(tournament: Tournament) -> bool:
    return tournament.player_cap is None or places_taken(tournament) < tournament.player_cap


def _refuse_duplicates(tournament: Tournament, fields: dict) -> None:
    live = tournament.sign_ups.filter(status__in=LIVE_SIGN_UP_STATUSES)
    ema_number = fields.get("ema_number")
    if ema_number and (
        live.filter(ema_number=ema_number).exists()
        or tournament.players.filter(ema_number=ema_number).exists()
    ):
        raise refused(
            "ema_number",
            _("EMA number %(ema)s has already signed up for this tournament.")
            % {"ema": ema_number},
            "sign_up_ema_number_taken",
        )
    name, email = fields["name"].casefold(), fields["email"].casefold()
    same = Q(email__iexact=email) & Q(lowered=name)
    if (
        live.annotate(lowered=Lower("name")).filter(same).exists()
        or tournament.players.annotate(lowered=Lower("name")).filter(same).exists()
    ):
        raise refused(
            "email",
            _("%(name)s has already signed up with this e-mail.") % {"name": fields["name"]},
            "sign_up_repeated",
        )


def _refuse_floods(tournament: Tournament, email: str) -> None:
    """Refuse a sign-up beyond the tournament's sign-ups an hour or the address's a day.
    Every sign-up counts, withdrawn or refused too: withdrawing one must not free its e-mail
    for another."""
    now = timezone.now()
    per_hour = max(settings.SIGN_UPS_PER_HOUR, tournament.player_cap or 0)
    recent = tournament.sign_ups.filter(signed_up_at__gte=now - timedelta(hours=1))
    if recent.count() >= per_hour:
        raise ValidationError(
            _(
                "This tournament has taken %(count)s sign-ups in the last hour, as many as it "
                "takes in an hour: please try again later."
            )
            % {"count": per_hour},
            code="sign_ups_per_hour",
        )
    same_address = SignUp.objects.filter(
        email__iexact=email, signed_up_at__gte=now - timedelta(days=1)
    )
    if same_address.count() >= settings.SIGN_UPS_PER_EMAIL:
        raise refused(
            "email",
            _(
                "This e-mail address has signed up %(count)s times today, as many "
                "as one address may: please use another, or try again tomorrow."
            )
            % {"count": settings.SIGN_UPS_PER_EMAIL},
            "sign_ups_per_email",
        )


def _next_position(tournament: Tournament) -> int:
    return (tournament.sign_ups.aggregate(last=Max("position"))["last"] or 0) + 1


def _accepted(sign_up: SignUp) -> SignUp:
    """Make ``sign_up``'s player, with the next free number."""
    tournament = sign_up.tournament
    number = (tournament.players.aggregate(last=Max("number"))["last"] or 0) + 1
    player = player_save(
        tournament=tournament,
        number=number,
        **{field: getattr(sign_up, field) for field in SIGN_UP_FIELDS},
    )
    fields_saved(sign_up, player=player, status="accepted", decided_at=timezone.now())
    return sign_up


@transaction.atomic
def sign_up(*, tournament: Tournament, **fields) -> SignUp:
    """Take a sign-up from the public form (``fields``: ``SIGN_UP_FIELDS`` only): accepted
    at once, waiting for the organiser, or on the waiting list beyond the cap; its e-mail
    says which, with the link to follow it and to withdraw."""
    unknown = set(fields) - set(SIGN_UP_FIELDS)
    if unknown:
        raise TypeError(f"unknown sign-up fields {sorted(unknown)}")
    tournament = _locked(tournament)
    if reason := sign_up_closed_reason(tournament):
        raise ValidationError(reason, code="sign_up_closed")
    fields = codes_normalised({key: (value or "").strip() for key, value in fields.items()})
    # As a player's: the name split, or made of the first and last names, by one rule (the
    # acceptance keeps what the sign-up stored). What was given stays as given, for the
    # model's checks to judge (a line break is refused, not tidied away).
    made = names.resolve_fields({}, fields)
    for key, value in zip(("name", "first_name", "last_name"), made, strict=True):
        fields[key] = fields.get(key) or value
    if not fields["name"]:
        raise refused("name", _("Give your name."), "name_missing")
    _refuse_duplicates(tournament, fields)
    _refuse_floods(tournament, fields["email"])
    # Those already waiting come first: a place freed without a promotion (a cancelled
    # draw, a player made a substitute) is theirs before this sign-up's.
    _promote(tournament)
    found = SignUp(tournament=tournament, position=_next_position(tournament), **fields)
    found.status = "waiting"
    if _place_free(tournament):
        found.status = "pending"
    found.full_clean()
    found.save()
    if found.status == "pending" and not tournament.sign_up_review:
        _accepted(found)
    sign_up_email_queue(sign_up=found, template="sign_up", reason="sign_up")
    tournament_touch(tournament.pk)
    return found


def _promote(tournament: Tournament) -> list[SignUp]:
    """Give the places free to the first on the waiting list, before the first draw.

    A sign-up given a place is accepted at once when sign-ups are not reviewed; one that
    cannot become a player (its EMA number given to a player meanwhile) keeps its place
    waiting for the organiser, who sees why on accepting it, and never holds up the
    withdrawal or the change that freed the place."""
    promoted = []
    if tournament.sessions.exists():
        return promoted
    while _place_free(tournament):
        first = tournament.sign_ups.filter(status="waiting").order_by("position").first()
        if first is None:
            break
        fields_saved(first, status="pending")
        if not tournament.sign_up_review:
            try:
                with transaction.atomic():
                    _accepted(first)
            except ValidationError:
                first.refresh_from_db()
        sign_up_email_queue(sign_up=first, template="off_waiting_list", reason="waiting_list")
        promoted.append(first)
    return promoted


@transaction.atomic
def waiting_list_promote(*, tournament: Tournament) -> list[SignUp]:
    """Give every place free to the waiting list (after a withdrawal, or a higher cap)."""
    promoted = _promote(_locked(tournament))
    if promoted:
        tournament_touch(tournament.pk)
    return promoted


def _fresh(sign_up: SignUp, *, undecided: bool = False) -> SignUp:
    """The sign-up as stored, locked; ``undecided``: refused unless it waits for the
    organiser or on the waiting list."""
    sign_up = SignUp.objects.select_for_update().select_related("tournament").get(pk=sign_up.pk)
    if undecided and sign_up.status not in ("pending", "waiting"):
        raise ValidationError(
            _("%(name)s's sign-up is %(status)s already.")
            % {"name": sign_up.name, "status": sign_up.get_status_display()},
            code="sign_up_decided",
        )
    return sign_up


@transaction.atomic
def sign_up_accept(*, sign_up: SignUp) -> SignUp:
    """The organiser accepts a sign-up waiting for them (or one on the waiting list, while a
    place is free): it becomes a player, told by e-mail."""
    _locked(sign_up.tournament)
    sign_up = _fresh(sign_up, undecided=True)
    if sign_up.status == "waiting" and not _place_free(sign_up.tournament):
        raise ValidationError(
            _("No place is free: the tournament takes %(cap)s players.")
            % {"cap": sign_up.tournament.player_cap},
            code="no_place_free",
        )
    _accepted(sign_up)
    sign_up_email_queue(sign_up=sign_up, template="sign_up_accepted", reason="sign_up")
    tournament_touch(sign_up.tournament_id)
    return sign_up


@transaction.atomic
def sign_up_refuse(*, sign_up: SignUp) -> SignUp:
    """The organiser refuses a sign-up waiting for them or on the waiting list; a place it
    held goes to the first in line."""
    tournament = _locked(sign_up.tournament)
    sign_up = _fresh(sign_up, undecided=True)
    fields_saved(sign_up, status="refused", decided_at=timezone.now())
    _promote(tournament)
    tournament_touch(tournament.pk)
    return sign_up


@transaction.atomic
def sign_up_move(*, sign_up: SignUp, up: bool) -> SignUp:
    """Move a sign-up one place up (or down) the waiting list."""
    _locked(sign_up.tournament)
    sign_up = _fresh(sign_up)
    if sign_up.status != "waiting":
        raise ValidationError(
            _("Only a sign-up on the waiting list can move."), code="sign_up_not_waiting"
        )
    line = sign_up.tournament.sign_ups.filter(status="waiting")
    neighbour = (
        line.filter(position__lt=sign_up.position).order_by("-position")
        if up
        else line.filter(position__gt=sign_up.position).order_by("position")
    ).first()
    if neighbour is None:
        return sign_up
    # Through a free position: each one is unique in the tournament at every moment.
    mine, theirs = sign_up.position, neighbour.position
    fields_saved(sign_up, position=_next_position(sign_up.tournament))
    fields_saved(neighbour, position=mine)
    fields_saved(sign_up, position=theirs)
    tournament_touch(sign_up.tournament_id)
    return sign_up


@transaction.atomic
def sign_up_withdraw(*, sign_up: SignUp) -> SignUp:
    """The player withdraws (with their link), before the first draw: an accepted player is
    withdrawn too, and their place goes to the first in line."""
    tournament = _locked(sign_up.tournament)
    sign_up = _fresh(sign_up)
    if tournament.sessions.exists():
        raise ValidationError(
            _("The first session is drawn: ask the organisers to withdraw you."),
            code="sign_up_after_draw",
        )
    if sign_up.status in ("refused", "withdrawn"):
        return sign_up
    player = sign_up.player
    fields_saved(sign_up, status="withdrawn", decided_at=timezone.now())
    if player is not None:
        player_withdrawn_mark(player)
    _promote(tournament)
    tournament_touch(tournament.pk)
    return sign_up


def place_freed(*, tournament: Tournament) -> list[SignUp]:
    """A place may have come free (a player withdrew: ``services.withdrawals.player_withdraw``;
    the limit was raised: ``services.tournaments.tournament_update``): before the first
    draw, the first in line takes it, in the caller's transaction."""
    if not tournament.sign_ups.filter(status="waiting").exists():
        return []
    return _promote(_locked(tournament))
