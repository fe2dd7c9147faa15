"""People across tournaments: a tournament's players linked to the person each of them is,
by EMA number at once, by an organiser's choice otherwise (``models.Person``)."""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournament.models import Person, Player, Tournament
from tournament.services.results import tournament_touch


def _person_from(player: Player, *, ema_number: str = "") -> Person:
    return Person.objects.create(
        name=player.name,
        name_zh=player.name_zh,
        country=player.country,
        ema_number=ema_number,
    )


def _linked_elsewhere(player: Player, person: Person) -> Player | None:
    """The player of ``player``'s tournament who is already ``person``, if another."""
    return (
        Player.objects.filter(tournament_id=player.tournament_id, person=person)
        .exclude(pk=player.pk)
        .first()
    )


def _only_player_of(person: Person | None, player: Player) -> bool:
    """Whether ``player`` is the person's one player (nobody else is that person)."""
    return person is not None and not person.players.exclude(pk=player.pk).exists()


# What a person takes from their one player when that player is corrected.
PERSON_FIELDS = ("name", "name_zh", "country")


def person_follow_player(player: Player) -> None:
    """Keep ``player``'s person in step with the player, after every write that saves a
    player: linked to the person of their EMA number (made when nobody has it yet), and a
    person who is this player alone corrected with them (a name or a number mistyped).

    A person linked by hand without a number takes the player's; a person already playing
    in the tournament as someone else is left for the organiser to sort out."""
    current = player.person
    if player.ema_number:
        holder = Person.objects.filter(ema_number=player.ema_number).first()
        # The number given to a person who had none, or corrected (the person is this
        # player alone): the person is who they were.
        if (
            holder is None
            and current is not None
            and (not current.ema_number or _only_player_of(current, player))
        ):
            current.ema_number = player.ema_number
            current.save(update_fields=["ema_number"])
            holder = current
        if holder is None:
            # Two players saved at once with a new number make it once.
            holder, _made = Person.objects.get_or_create(
                ema_number=player.ema_number,
                defaults={key: getattr(player, key) for key in PERSON_FIELDS},
            )
        if player.person_id != holder.pk and _linked_elsewhere(player, holder) is None:
            player.person = holder
            player.save(update_fields=["person"])
    person = player.person
    if _only_player_of(person, player):
        changed = [key for key in PERSON_FIELDS if getattr(person, key) != getattr(player, key)]
        if changed:
            for key in changed:
                setattr(person, key, getattr(player, key))
            person.save(update_fields=changed)


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
            player.person = None
            player.save(update_fields=["person"])
    try:
        # A savepoint: a person linked meanwhile by another organiser fails cleanly.
        with transaction.atomic():
            for player, person in moving:
                _check_link(player, person)
                player.person = person
                player.save(update_fields=["person"])
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
        player.person = _person_from(player)
        player.save(update_fields=["person"])
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
    player.person = None
    player.save(update_fields=["person"])
    tournament_touch(player.tournament_id, seating=False)
    return player
