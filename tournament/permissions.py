"""Who may do what: organisers run their tournaments, referees enter results."""


def can_create_tournament(user) -> bool:
    return user.is_authenticated and (
        user.is_superuser or user.has_perm("tournament.add_tournament")
    )


def can_unlock_logins(user) -> bool:
    """Lift a login lockout (any account's: a lockout is not one tournament's): the site's
    organisers, who may create tournaments. An unlock only lets the account try passwords
    again; it opens nothing."""
    return can_create_tournament(user)


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
