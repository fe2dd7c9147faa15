"""Who may do what: organisers run their tournaments, referees enter results."""

from django.contrib.auth import get_user_model
from django.db.models import Q

from tournament.models import Tournament


def can_create_tournament(user) -> bool:
    return user.is_authenticated and (
        user.is_superuser or user.has_perm("tournament.add_tournament")
    )


def can_unlock_logins(user) -> bool:
    """Open the list of locked-out accounts: a superuser, and the organisers (who may create
    tournaments, or organise one). Which accounts each may unlock: ``unlockable_usernames``."""
    if not user.is_authenticated:
        return False
    return can_create_tournament(user) or user.organised_tournaments.exists()


def unlockable_usernames(user) -> frozenset[str] | None:
    """The accounts whose login lockout ``user`` may lift (None: every one, a superuser's,
    unknown names included): those serving a tournament ``user`` organises, as its organiser
    or referee, and no tournament ``user`` does not organise.

    An unlock lets the account try passwords again at once: lifted by just any organiser,
    an organiser of one tournament could guess at another's referee account ten times, unlock
    it, and go on for ever. Any organiser may name any account a referee of their own
    tournament, so serving one of theirs is not enough: an account that serves another
    organiser's tournament too, a superuser or staff account, and an account that may create
    tournaments (an organiser in its own right) are unlocked by a superuser only, and so is
    an unknown name, nobody's tournament's."""
    if not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return None
    accounts = get_user_model().objects
    others = Tournament.objects.exclude(organisers=user)
    # Without the NULL of a tournament with no referee: NOT IN a list holding NULL is never
    # true, and would keep every account from the list.
    elsewhere = Q(pk__in=others.exclude(organisers=None).values("organisers")) | Q(
        pk__in=others.exclude(referees=None).values("referees")
    )
    may_create = Q(user_permissions__codename="add_tournament") | Q(
        groups__permissions__codename="add_tournament"
    )
    served = (
        accounts.filter(
            Q(organised_tournaments__organisers=user) | Q(refereed_tournaments__organisers=user)
        )
        .exclude(Q(is_superuser=True) | Q(is_staff=True))
        .exclude(elsewhere)
        .exclude(pk__in=accounts.filter(may_create).values("pk"))
    )
    return frozenset(served.values_list("username", flat=True).distinct())


def can_unlock_login(user, username: str) -> bool:
    """Whether ``user`` may lift the lockout of the account ``username`` (the list shows the
    same accounts: ``unlockable_usernames``)."""
    allowed = unlockable_usernames(user)
    return allowed is None or username in allowed


def _is_member(user, tournament, role: str) -> bool:
    """Whether ``user`` is among the tournament's ``role`` ("organisers" or "referees"). A
    request loads its user afresh, so the answer is kept on the user for the rest of it:
    a page checks the same role several times."""
    known = getattr(user, "_tournament_roles", None)
    if known is None:
        known = {}
        user._tournament_roles = known
    key = (tournament.pk, role)
    if key not in known:
        known[key] = getattr(tournament, role).filter(pk=user.pk).exists()
    return known[key]


def is_organiser(user, tournament) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return _is_member(user, tournament, "organisers")


def is_referee(user, tournament) -> bool:
    """Referees of the tournament; its organisers may also enter results."""
    if not user.is_authenticated:
        return False
    return is_organiser(user, tournament) or _is_member(user, tournament, "referees")


def can_enter_at_table(user, table) -> bool:
    """Enter, correct and confirm the table's hands: organisers (head referees) at every
    table, a referee of the tournament only at the tables assigned to them."""
    if not user.is_authenticated:
        return False
    tournament = table.session.tournament
    if table.referee_id == user.pk and _is_member(user, tournament, "referees"):
        return True
    return is_organiser(user, tournament)


def is_series_organiser(user, series) -> bool:
    """Change a series (its rule, its tournaments) or delete it: its organisers."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or series.organisers.filter(pk=user.pk).exists()
