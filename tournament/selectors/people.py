"""People across tournaments: a tournament's players and the people they are, the matches
by name an organiser may confirm, the search for a person, a person's results."""

from dataclasses import dataclass

from django.db.models import Count

from tournament.models import Person, Player, Tournament
from tournament.players import names
from tournament.selectors.standings import StandingRow, tournament_standings

# A search for a person by hand shows at most this many.
SEARCH_LIMIT = 20


@dataclass(frozen=True)
class Suggestion:
    """A player not linked yet and the people whose name is theirs."""

    player: Player
    people: tuple[Person, ...]


def _keys(name: str, name_zh: str) -> set[str]:
    return {key for key in (names.identity_key(name), names.identity_key(name_zh)) if key}


def person_suggestions(tournament: Tournament) -> tuple[list[Suggestion], list[Player]]:
    """The players of the tournament not linked to a person: those whose name (or Chinese
    name) is a person's, with those people (not already playing here), and the others."""
    unlinked = list(tournament.players.filter(person__isnull=True).order_by("number"))
    if not unlinked:
        return [], []
    taken = set(tournament.players.filter(person__isnull=False).values_list("person_id", flat=True))
    by_key: dict[str, list[Person]] = {}
    for person in Person.objects.exclude(pk__in=taken).order_by("pk"):
        for key in _keys(person.name, person.name_zh):
            by_key.setdefault(key, []).append(person)
    suggestions, others = [], []
    for player in unlinked:
        found: dict[int, Person] = {}
        for key in _keys(player.name, player.name_zh):
            for person in by_key.get(key, ()):
                found.setdefault(person.pk, person)
        if found:
            suggestions.append(Suggestion(player=player, people=tuple(found.values())))
        else:
            others.append(player)
    return suggestions, others


def linked_players(tournament: Tournament) -> list[Player]:
    """The tournament's players linked to a person, by number, each with their person and
    the number of tournaments that person has played."""
    players = list(
        tournament.players.filter(person__isnull=False).select_related("person").order_by("number")
    )
    played = dict(
        Person.objects.filter(pk__in=[p.person_id for p in players])
        .annotate(tournaments=Count("players"))
        .values_list("pk", "tournaments")
    )
    for player in players:
        player.person.tournament_count = played.get(player.person_id, 1)
    return players


def person_search(query: str, *, exclude_tournament: Tournament | None = None) -> list[Person]:
    """People whose name, Chinese name or EMA number matches ``query`` (as the players'
    search does), at most ``SEARCH_LIMIT``, by name."""
    query = query.strip()
    if not query:
        return []
    people = Person.objects.order_by("name", "pk")
    if exclude_tournament is not None:
        people = people.exclude(players__tournament=exclude_tournament)
    if query.isdigit():
        return list(people.filter(ema_number__startswith=query)[:SEARCH_LIMIT])
    found = []
    for person in people.iterator():
        if names.matches(query, name=person.name, name_zh=person.name_zh, number=0):
            found.append(person)
            if len(found) == SEARCH_LIMIT:
                break
    return found


def person_by_id(pk: int) -> Person | None:
    return Person.objects.filter(pk=pk).first()


@dataclass(frozen=True)
class PersonResult:
    tournament: Tournament
    player: Player
    standing: StandingRow | None
    ranked_players: int


def person_results(person: Person) -> list[PersonResult]:
    """Each tournament the person played (newest first), with their standing there: the
    tournament's cached standings, so a page of a person with many tournaments reads each
    one's from the cache."""
    results = []
    for player in person.players.select_related("tournament").order_by("-tournament__created_at"):
        rows = tournament_standings(player.tournament)
        results.append(
            PersonResult(
                tournament=player.tournament,
                player=player,
                standing=rows.row_of(player.pk),
                ranked_players=rows.ranked_count,
            )
        )
    return results
