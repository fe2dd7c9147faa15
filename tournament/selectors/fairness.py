"""The committed draw: the commitments of a tournament, the record anyone can check, and the
fairness page.
"""

import json
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournament.models import SEATING_METHOD_CHOICES, SEPARATE_BY_CHOICES, DrawCommitment
from tournament.seating import commitment as commitment_rules
from tournament.selectors.seating import drawn_tables


def draw_commitments(tournament) -> list[DrawCommitment]:
    """Every commitment of the tournament, the newest first (withdrawn ones included)."""
    return list(
        DrawCommitment.objects.filter(tournament=tournament).order_by("-committed_at", "-id")
    )


def pending_commitment(tournament, *, lock: bool = False) -> DrawCommitment | None:
    """The live commitment whose draw is not made yet, if any; ``lock`` for a write."""
    found = DrawCommitment.objects.filter(
        tournament=tournament, withdrawn_at__isnull=True, revealed_at__isnull=True
    )
    if lock:
        found = found.select_for_update()
    return found.first()


def live_commitment(commitments: list[DrawCommitment]) -> DrawCommitment | None:
    """The one not withdrawn, among ``draw_commitments``' list."""
    return next((c for c in commitments if c.withdrawn_at is None), None)


def _revealed(commitment: DrawCommitment, under_review: set[int]) -> bool:
    """The seed and salt may be shown: the commitment was withdrawn, or its draw revealed
    them and that draw is not one kept ``under_review`` from the visitor: its seed would give
    its seating away."""
    if commitment.withdrawn_at is not None:
        return True
    return commitment.revealed_at is not None and commitment.session_number not in under_review


def fairness_record(
    commitment: DrawCommitment, *, under_review: frozenset[int] = frozenset()
) -> dict:
    """The record ``python -m tournament.seating verify`` checks: the seed, the salt and the
    seating only once the draw revealed them (or the withdrawal, which has no seating), and
    never the seating of the sessions kept ``under_review`` from the visitor (nor the seed,
    while its own draw is)."""
    public = _revealed(commitment, under_review)
    return commitment_rules.fairness_record(
        document=json.loads(commitment.document),
        hash=commitment.hash,
        seed=commitment.secret_seed if public else None,
        salt=commitment.salt if public else None,
        public_value=commitment.public_value or None,
        seating={
            int(number): tables
            for number, tables in commitment.drawn.items()
            if public and int(number) not in under_review
        },
    )


@dataclass
class CoveredSession:
    """A session drawn under the commitment, and whether it still stands as drawn."""

    number: int
    tables: int
    # "standing": drawn as committed; "redrawn": cancelled and drawn again without the
    # commitment; "cancelled": cancelled and not drawn again.
    state: str


@dataclass
class FairnessPage:
    """What the fairness page shows: the live commitment with its document read, the
    withdrawn ones, the sessions it covers and the command that checks it."""

    live: DrawCommitment | None
    withdrawn: list[DrawCommitment]
    document: dict | None
    method_label: str
    # The method's options in words: (label, value).
    options: list[tuple[str, str]]
    draw_seed: int | None
    covered: list[CoveredSession]
    command: str
    # The live commitment's seed is shown: its draw revealed it, and the visitor may see it.
    revealed: bool = False


def _options_in_words(options: dict) -> list[tuple[str, str]]:
    words = []
    if "sessions" in options:
        words.append((_("Sessions planned"), str(options["sessions"])))
    if "separate_by" in options:
        apart = dict(SEPARATE_BY_CHOICES).get(options["separate_by"], options["separate_by"])
        words.append((_("Keep apart players of the same"), str(apart)))
    if "top" in options:
        words.append((_("Top tables"), str(options["top"])))
    return words


def fairness_page(tournament, *, under_review: frozenset[int] = frozenset()) -> FairnessPage:
    """The tournament's commitments and, for the live one, the sessions it covers and
    whether they stand as drawn: two queries. The sessions kept ``under_review`` from the
    visitor are left out, and their draw reveals nothing yet."""
    commitments = draw_commitments(tournament)
    live = live_commitment(commitments)
    withdrawn = [c for c in commitments if c.withdrawn_at is not None]
    document = json.loads(live.document) if live else None
    method_label = ""
    options = []
    draw_seed = None
    covered = []
    command = ""
    if live is not None:
        method_label = str(dict(SEATING_METHOD_CHOICES).get(document["method"], document["method"]))
        options = _options_in_words(document["options"])
        command = f"python -m tournament.seating verify fairness.json --hash {live.hash}"
    revealed = live is not None and _revealed(live, under_review)
    if revealed:
        draw_seed = commitment_rules.draw_seed(live.secret_seed, live.public_value or None)
        as_drawn = drawn_tables(tournament, [int(number) for number in live.drawn], as_drawn=True)
        for key, tables in sorted(live.drawn.items(), key=lambda item: int(item[0])):
            number = int(key)
            if number in under_review:
                continue
            if number not in as_drawn:
                state = "cancelled"
            elif as_drawn[number] != [tuple(table) for table in tables]:
                state = "redrawn"
            else:
                state = "standing"
            covered.append(CoveredSession(number=number, tables=len(tables), state=state))
    return FairnessPage(
        live=live,
        withdrawn=withdrawn,
        document=document,
        method_label=method_label,
        options=options,
        draw_seed=draw_seed,
        covered=covered,
        command=command,
        revealed=revealed,
    )
