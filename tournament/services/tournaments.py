"""Creating a tournament and changing its settings."""

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.history import audit
from tournament.models import (
    DEFAULT_SEATING_METHOD,
    DEFAULT_SUBSTITUTE_LIMIT,
    DEFAULT_TIEBREAK_ORDER,
    Tournament,
    TournamentVersion,
    default_time_zone,
)
from tournament.services.common import refused
from tournament.services.results import tournament_touch
from tournament.services.rules import RULE_FIELDS, profile_options, rules_change, rules_checked
from tournament.services.sign_ups import place_freed


@transaction.atomic
def tournament_create(
    *,
    name: str,
    slug: str,
    session_count: int,
    session_minutes: int | None = None,
    tiebreak_order: str = DEFAULT_TIEBREAK_ORDER,
    seating_method: str = DEFAULT_SEATING_METHOD,
    separate_by: str = "",
    substitute_limit: int = DEFAULT_SUBSTITUTE_LIMIT,
    appeal_minutes: int | None = None,
    review_draws: bool = False,
    sign_up_open: bool = False,
    sign_up_closes_at=None,
    player_cap: int | None = None,
    sign_up_review: bool = True,
    ema_qualifying: bool = False,
    first_day=None,
    last_day=None,
    venue: str = "",
    city: str = "",
    country: str = "",
    website: str = "",
    time_zone: str | None = None,
    rule_profile: str | None = None,
    rules: dict | None = None,
    creator=None,
    referees=(),
) -> Tournament:
    """A new tournament; ``substitute_limit`` is how many substitutes its federation counts
    (0 or more: seating more is allowed, with a warning). ``time_zone``: an IANA name, the
    site's when None. ``appeal_minutes``: how long after a session closes its rulings may
    be appealed (the model's default, the rules' 30, when None). ``rule_profile``: the rule
    profile whose options the tournament takes (``scoring.profiles``; its session time and
    tie-breaks too, unless given), then ``rules``: options of ``services.rules.RULE_FIELDS``
    changed from the profile's."""
    tournament = Tournament(
        name=name,
        slug=slug,
        first_day=first_day,
        last_day=last_day,
        venue=venue,
        city=city,
        country=country,
        website=website,
        time_zone=time_zone or default_time_zone(),
        session_count=session_count,
        tiebreak_order=tiebreak_order,
        seating_method=seating_method,
        separate_by=separate_by,
        substitute_limit=substitute_limit,
        review_draws=review_draws,
        sign_up_open=sign_up_open,
        sign_up_closes_at=sign_up_closes_at,
        player_cap=player_cap,
        sign_up_review=sign_up_review,
        ema_qualifying=ema_qualifying,
    )
    if appeal_minutes is not None:
        tournament.appeal_minutes = appeal_minutes
    if session_minutes is not None:
        tournament.session_minutes = session_minutes
    if rule_profile is not None:
        options = profile_options(rule_profile)
        # Said by the caller, the session time and the tie-breaks stay theirs.
        if session_minutes is not None and session_minutes != options["session_minutes"]:
            options["session_minutes"] = session_minutes
            if options["gong_minute"] is not None:
                options["gong_minute"] = min(options["gong_minute"], max(1, session_minutes - 5))
        if tiebreak_order != DEFAULT_TIEBREAK_ORDER:
            options["tiebreak_order"] = tiebreak_order
        for name, value in options.items():
            setattr(tournament, name, value)
    for name, value in (rules or {}).items():
        if name not in RULE_FIELDS:
            raise TypeError(f"not a rule option: {name}")
        setattr(tournament, name, value)
    rules_checked(tournament)
    referees = list(referees)
    with audit.acting(user=creator):
        tournament.save()
        if creator is not None or referees:
            organisers = [creator] if creator is not None else None
            _replace_accounts(tournament, organisers=organisers, referees=referees)
            # The history's second row: the tournament with its accounts.
            tournament.save()
    TournamentVersion.objects.create(tournament=tournament)
    return tournament


def _replace_accounts(tournament: Tournament, *, organisers=None, referees=None) -> None:
    """Replace the organisers and the referees that are given, without a history row per
    account added or removed: the caller saves the tournament next, and that one row keeps
    the settings and both lists as they are then."""
    tournament.skip_history_when_saving = True
    try:
        if organisers is not None:
            tournament.organisers.set(organisers)
        if referees is not None:
            tournament.referees.set(referees)
    finally:
        del tournament.skip_history_when_saving


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    referees=None,
    organisers=None,
    user=None,
    rules_reason: str = "",
    **fields,
) -> Tournament:
    """Change the settings; ``referees`` and ``organisers``, when given, replace the accounts.

    A tournament keeps at least one organiser: nobody else could change it. The rules among
    ``fields`` (``services.rules.RULE_FIELDS``) change through ``rules_change``: once a hand
    is entered, only with ``rules_reason``.
    """
    if organisers is not None and not list(organisers):
        raise refused(
            "organisers", _("A tournament needs at least one organiser."), "organiser_required"
        )
    drawn = tournament.sessions.order_by("-number").values_list("number", flat=True).first()
    if drawn and fields.get("session_count", tournament.session_count) < drawn:
        raise refused(
            "session_count",
            _("Session %(n)s is already drawn: the tournament needs at least %(n)s sessions.")
            % {"n": drawn},
            "sessions_already_drawn",
        )
    # The rules as stored now, the row locked: a change of the rules made meanwhile is not
    # written back from the caller's older copy (the rules change through ``rules_change``).
    current = Tournament.objects.select_for_update().get(pk=tournament.pk)
    for name in RULE_FIELDS:
        setattr(tournament, name, getattr(current, name))
    rule_fields = {name: fields.pop(name) for name in RULE_FIELDS if name in fields}
    if rule_fields:
        rules_change(tournament=tournament, user=user, reason=rules_reason, **rule_fields)
        tournament.refresh_from_db(fields=RULE_FIELDS)
    for key, value in fields.items():
        setattr(tournament, key, value)
    tournament.full_clean()
    _replace_accounts(tournament, organisers=organisers, referees=referees)
    tournament.save()
    # A higher cap (or no cap) gives the places it adds to the waiting list.
    place_freed(tournament=tournament)
    tournament_touch(tournament.pk)
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament, confirm_slug: str) -> dict[str, int]:
    """Delete the tournament and everything under it, once its short name is typed back.

    Players, sessions, tables, seats, hands, penalties, corrections, reopenings and the
    seating plan go with it; the accounts of its organisers and referees stay. Returns the
    number of rows deleted per model, as ``QuerySet.delete`` counts them.
    """
    # Compared with the stored short name, not the caller's copy: a rename saved meanwhile
    # means the organiser confirmed a name the tournament no longer has.
    tournament = Tournament.objects.get(pk=tournament.pk)
    if confirm_slug != tournament.slug:
        raise refused(
            "confirm_slug",
            _("Type “%(slug)s” exactly to confirm the deletion.") % {"slug": tournament.slug},
            "confirmation_mismatch",
        )
    # The history keeps every row deleted, each marked as part of the tournament's deletion.
    with audit.acting(reason=audit.TOURNAMENT_DELETED):
        _total, deleted = tournament.delete()
    return deleted
