"""People across tournaments: a tournament's players linked to the person each of them is,
by EMA number at once, by an organiser's choice otherwise (``models.Person``)."""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournament.models import Person, Player, Tournament
from tournament.services.bulk import created_with_history, updated_with_history
from tournament.services.common import fields_saved
from tournament.services.results import tournament_touch


def _linked_elsewhere(player: Player, person: Person) -> Player | None:
    """The player of ``player``'s tournament who is already ``person``, if another."""
    return (
        Player.objects.filter(tournament_id=player.tournament_id, person=person)
        .exclude(pk=player.pk)
        .first()
    )


# What a person takes from their one player when that player is corrected.
PERSON_FIELDS = ("name", "name_zh", "country")


class PeopleByQueries:
    """What ``person_follow_player`` reads and writes of the people, one query at a time:
    for a player saved alone."""

    def person_of(self, player: Player) -> Person | None:
        return player.person

    def holder(self, ema_number: str) -> Person | None:
        return Person.objects.filter(ema_number=ema_number).first()

    def only_player_of(self, person: Person | None, player: Player) -> bool:
        """Whether ``player`` is the person's one player (nobody else is that person)."""
        return person is not None and not person.players.exclude(pk=player.pk).exists()

    def linked_elsewhere(self, player: Player, person: Person) -> bool:
        return _linked_elsewhere(player, person) is not None

    def made(self, ema_number: str, defaults: dict) -> Person:
        # Two players saved at once with a new number make it once.
        person, _made = Person.objects.get_or_create(ema_number=ema_number, defaults=defaults)
        return person

    def changed(self, person: Person, fields: list[str]) -> None:
        person.save(update_fields=fields)

    def linked(self, player: Player, person: Person) -> None:
        fields_saved(player, person=person)


def person_follow_player(player: Player, people: PeopleByQueries | None = None) -> None:
    """Keep ``player``'s person in step with the player, after every write that saves a
    player: linked to the person of their EMA number (made when nobody has it yet), and a
    person who is this player alone corrected with them (a name or a number mistyped).

    A person linked by hand without a number takes the player's; a person already playing
    in the tournament as someone else is left for the organiser to sort out.

    ``people`` reads and writes the people: by a query each (``PeopleByQueries``, the
    default), or in memory for the many players of an import (``PeopleInBulk``), the same
    rules either way."""
    people = people or PeopleByQueries()
    current = people.person_of(player)
    if player.ema_number:
        holder = people.holder(player.ema_number)
        # The number given to a person who had none, or corrected (the person is this
        # player alone): the person is who they were.
        if (
            holder is None
            and current is not None
            and (not current.ema_number or people.only_player_of(current, player))
        ):
            current.ema_number = player.ema_number
            people.changed(current, ["ema_number"])
            holder = current
        if holder is None:
            holder = people.made(
                player.ema_number, {key: getattr(player, key) for key in PERSON_FIELDS}
            )
        if not _same_person(current, holder) and not people.linked_elsewhere(player, holder):
            people.linked(player, holder)
    person = people.person_of(player)
    if people.only_player_of(person, player):
        changed = [key for key in PERSON_FIELDS if getattr(person, key) != getattr(player, key)]
        if changed:
            for key in changed:
                setattr(person, key, getattr(player, key))
            people.changed(person, changed)


def _same_person(one: Person | None, other: Person) -> bool:
    # By identity for a person made by an import and not stored yet.
    return one is other or (one is not None and one.pk is not None and one.pk == other.pk)


def _player_key(player: Player) -> object:
    # A player the import has not stored yet is known by its number in its tournament.
    return player.pk if player.pk is not None else ("new", player.number)


class PeopleInBulk(PeopleByQueries):
    """``person_follow_player`` for many players of one tournament at once (an import):
    the people their EMA numbers and links lead to are read in two queries
    (``preload``), what the rules change is kept here, and ``write`` stores it in bulk,
    with its history, before the players themselves are stored.

    People are known by identity (``id``), as a person made here has no key yet."""

    def __init__(self, *, tournament_id: int):
        self.tournament_id = tournament_id
        self._by_pk: dict[int, Person] = {}
        self._by_ema: dict[str, Person | None] = {}
        # id(person) -> {player key: tournament id}: who each person is, every tournament.
        self._players_of: dict[int, dict[object, int]] = {}
        self._person_of: dict[object, Person | None] = {}
        self._made: list[Person] = []
        self._changed: dict[int, tuple[Person, set[str]]] = {}
        self._numbers_changed: set[int] = set()
        # Players linked to a person made here, to point at its key once it is stored.
        self._links_to_made: list[tuple[Player, Person]] = []

    def preload(self, *, person_ids: set[int], ema_numbers: set[str]) -> None:
        """Read at once the people these ids and EMA numbers name, and who each of them is."""
        ema_numbers = {number for number in ema_numbers if number} - set(self._by_ema)
        person_ids = {pk for pk in person_ids if pk is not None} - set(self._by_pk)
        if not (ema_numbers or person_ids):
            return
        found = list(Person.objects.filter(Q(pk__in=person_ids) | Q(ema_number__in=ema_numbers)))
        self._known(found)
        for number in ema_numbers:
            self._by_ema.setdefault(number, None)

    def _known(self, found: list[Person]) -> None:
        fresh = [person for person in found if person.pk not in self._by_pk]
        for person in fresh:
            self._by_pk[person.pk] = person
            self._players_of[id(person)] = {}
            if person.ema_number:
                self._by_ema[person.ema_number] = person
        links = Player.objects.filter(person__in=[person.pk for person in fresh]).values_list(
            "person_id", "pk", "tournament_id"
        )
        for person_id, player_id, tournament_id in links:
            self._players_of[id(self._by_pk[person_id])][player_id] = tournament_id

    def person_of(self, player: Player) -> Person | None:
        key = _player_key(player)
        if key not in self._person_of:
            if player.person_id is not None and player.person_id not in self._by_pk:
                self.preload(person_ids={player.person_id}, ema_numbers=set())
            self._person_of[key] = self._by_pk.get(player.person_id)
        return self._person_of[key]

    def holder(self, ema_number: str) -> Person | None:
        if ema_number not in self._by_ema:
            self.preload(person_ids=set(), ema_numbers={ema_number})
        return self._by_ema[ema_number]

    def only_player_of(self, person: Person | None, player: Player) -> bool:
        if person is None:
            return False
        return not set(self._players_of[id(person)]) - {_player_key(player)}

    def linked_elsewhere(self, player: Player, person: Person) -> bool:
        key = _player_key(player)
        return any(
            other != key and tournament_id == player.tournament_id
            for other, tournament_id in self._players_of[id(person)].items()
        )

    def made(self, ema_number: str, defaults: dict) -> Person:
        person = Person(ema_number=ema_number, **defaults)
        self._made.append(person)
        self._players_of[id(person)] = {}
        self._by_ema[ema_number] = person
        return person

    def changed(self, person: Person, fields: list[str]) -> None:
        if "ema_number" in fields:
            for number, holder in list(self._by_ema.items()):
                if holder is person:
                    self._by_ema[number] = None
            self._by_ema[person.ema_number] = person
        if person.pk is None:
            return  # made here: stored as it ends
        self._changed.setdefault(id(person), (person, set()))[1].update(fields)
        if "ema_number" in fields:
            self._numbers_changed.add(person.pk)

    def linked(self, player: Player, person: Person) -> None:
        key = _player_key(player)
        before = self.person_of(player)
        if before is not None:
            self._players_of[id(before)].pop(key, None)
        self._players_of[id(person)][key] = player.tournament_id
        self._person_of[key] = person
        # Stored with the player, by the import.
        player.person = person
        if person.pk is None:
            self._links_to_made.append((player, person))

    def write(self) -> None:
        """Store the people made and changed, with their history: before the players that
        point to them."""
        changed = list(self._changed.values())
        if changed:
            # A number may pass from one person to another within the import: the numbers
            # that change are cleared first, so that no statement ever holds one twice.
            Person.objects.filter(pk__in=self._numbers_changed).update(ema_number="")
            fields = sorted(set().union(*(fields for _person, fields in changed)))
            updated_with_history(Person, [person for person, _fields in changed], fields)
        created_with_history(Person, self._made)
        for player, person in self._links_to_made:
            player.person = person  # its key, now that it has one


@transaction.atomic
def people_link_by_ema_numbers(*, tournament: Tournament) -> int:
    """Link every player of the tournament who has an EMA number to its person; how many
    links were made or changed."""
    changed = 0
    for player in tournament.players.exclude(ema_number="").select_related("person"):
        before = player.person_id
        person_follow_player(player)
        changed += player.person_id != before
    tournament_touch(tournament.pk, seating=False)
    return changed


def _check_link(player: Player, person: Person) -> None:
    if player.ema_number and person.ema_number != player.ema_number:
        raise ValidationError(
            _(
                "%(player)s has EMA number %(ema)s: they are the person of that number, "
                "linked by it."
            )
            % {"player": player, "ema": player.ema_number},
            code="person_by_ema_number",
        )
    other = _linked_elsewhere(player, person)
    if other is not None:
        raise ValidationError(
            _("%(person)s already plays in this tournament as %(player)s.")
            % {"person": person.display_name, "player": other},
            code="person_already_playing",
        )


@transaction.atomic
def people_link(*, tournament: Tournament, links: list[tuple[int, int]]) -> int:
    """Link each player (by number) to a person (by id), as the organiser confirmed: all
    the links or none. A player with an EMA number is its person's already; a person plays
    once in a tournament."""
    if not links:
        raise ValidationError(_("Tick at least one player to link."), code="nothing_to_link")
    players = {
        p.number: p
        for p in tournament.players.select_for_update().filter(
            number__in=[number for number, _person in links]
        )
    }
    people = Person.objects.in_bulk([person for _number, person in links])
    chosen: dict[int, int] = {}
    for number, person_id in links:
        player, person = players.get(number), people.get(person_id)
        if player is None or person is None:
            raise ValidationError(
                _("This player or person no longer exists; reload the page."),
                code="link_gone",
            )
        if person_id in chosen and chosen[person_id] != number:
            raise ValidationError(
                _("%(person)s was chosen for two players.") % {"person": person.display_name},
                code="person_chosen_twice",
            )
        if number in chosen.values() and chosen.get(person_id) != number:
            raise ValidationError(
                _("%(player)s was ticked as two people: tick one.") % {"player": player},
                code="player_chosen_twice",
            )
        chosen[person_id] = number
    moving = [
        (players[number], people[person_id])
        for number, person_id in links
        if players[number].person_id != person_id
    ]
    # Off their people first, so that two players may trade people in one go.
    for player, _person in moving:
        if player.person_id is not None:
            fields_saved(player, person=None)
    try:
        # A savepoint: a person linked meanwhile by another organiser fails cleanly.
        with transaction.atomic():
            for player, person in moving:
                _check_link(player, person)
                fields_saved(player, person=person)
    except IntegrityError as error:
        raise ValidationError(
            _("These people changed meanwhile; reload the page."), code="link_gone"
        ) from error
    tournament_touch(tournament.pk, seating=False)
    return len(links)


@transaction.atomic
def person_create_for(*, tournament: Tournament, numbers: list[int]) -> int:
    """A new person for each of these players not linked yet (named and coded as the
    player): those the organiser knows to be playing here for the first time."""
    created = 0
    for player in tournament.players.select_for_update().filter(
        number__in=numbers, person__isnull=True
    ):
        if player.ema_number:
            person_follow_player(player)
            continue
        person = Person.objects.create(**{key: getattr(player, key) for key in PERSON_FIELDS})
        fields_saved(player, person=person)
        created += 1
    tournament_touch(tournament.pk, seating=False)
    return created


@transaction.atomic
def person_unlink(*, player: Player) -> Player:
    """Undo a link made by hand. A player with an EMA number stays its person's."""
    if player.ema_number:
        raise ValidationError(
            _("%(player)s is linked by their EMA number; change the number to unlink them.")
            % {"player": player},
            code="person_by_ema_number",
        )
    fields_saved(player, person=None)
    tournament_touch(player.tournament_id, seating=False)
    return player
