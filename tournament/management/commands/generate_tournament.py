"""Build a complete synthetic tournament (``tournament.server.rehearsal``) to rehearse an event or
measure the server."""

import time

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.server.rehearsal import SessionPlayed, build_tournament


class Command(BaseCommand):
    help = gettext_lazy(
        "Create a tournament of N players and R sessions and play every session through: "
        "drawn, every hand entered, every table confirmed, the session closed. The same "
        "arguments give the same players, seats and hands."
    )

    def add_arguments(self, parser):
        # argparse wants plain strings, not lazy translations.
        parser.description = str(self.help)
        parser.add_argument("--players", type=int, required=True, help="a multiple of 4")
        parser.add_argument("--sessions", type=int, required=True)
        parser.add_argument("--seed", type=int, required=True, help="a whole number, 0 or more")
        parser.add_argument(
            "--slug", default=None, help="short name (default: rehearsal-<N>x<R>-s<seed>)"
        )
        parser.add_argument(
            "--played",
            type=int,
            default=None,
            help="play only the first N sessions; the next is drawn and opened (default: all)",
        )
        parser.add_argument("--name", default=None)
        parser.add_argument(
            "--organiser",
            default=None,
            help="username of an existing account: it organises the tournament",
        )

    def handle(self, *args, players, sessions, seed, organiser=None, played=None, **opts):
        slug, name = opts.get("slug"), opts.get("name")
        account = None
        if organiser is not None:
            account = get_user_model().objects.filter(username=organiser).first()
            if account is None:
                raise CommandError(_("No account with the username %(u)s.") % {"u": organiser})
        started = time.perf_counter()
        try:
            tournament = build_tournament(
                players=players,
                sessions=sessions,
                seed=seed,
                slug=slug,
                name=name,
                organiser=account,
                played=played,
                progress=self._session_played,
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        seconds = time.perf_counter() - started
        hands = players // 4 * (sessions if played is None else min(played, sessions)) * 16
        self.stdout.write(
            _(
                "Built %(slug)s: %(players)s players, %(sessions)s sessions, %(hands)s hands "
                "in %(seconds).1f s (%(per_hand).1f ms per hand)."
            )
            % {
                "slug": tournament.slug,
                "players": players,
                "sessions": sessions,
                "hands": hands,
                "seconds": seconds,
                "per_hand": 1000 * seconds / hands,
            }
        )

    def _session_played(self, played: SessionPlayed) -> None:
        self.stdout.write(
            _(
                "Session %(number)s/%(sessions)s: drawn in %(draw).1f s, %(tables)s tables, "
                "%(hands)s hands in %(play).1f s (%(per_hand).1f ms per hand)"
            )
            % {
                "number": played.number,
                "sessions": played.sessions,
                "tables": played.tables,
                "hands": played.hands,
                "draw": played.draw_seconds,
                "play": played.play_seconds,
                "per_hand": 1000 * played.play_seconds / played.hands,
            }
        )
