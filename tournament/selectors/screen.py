"""The hall's screen: the state of the current session (its seating, the standings, the
clock), cached under the versions so that each poll is one query.
"""

from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import timezone

from tournament.hall import clock, screen
from tournament.models import (
    Session,
    Tournament,
)
from tournament.selectors.lookups import PUBLISHED_SESSION, cached


@dataclass(frozen=True)
class ScreenState:
    """What a hall's screen shows around its panels, and how many of each it cycles through:
    the tournament's name, its current session (``screen.current_session``) with that
    session's tables, the number of players, and whether the standings may still change."""

    name: str
    session_minutes: int
    session: Session | None  # without its draw input
    tables: int  # the current session's
    extra_time_tables: int  # the current session's tables given extra time
    players: int  # every registered player: the standings list them all
    unconfirmed_tables: int  # of every session: while there are any, standings are provisional
    # Minutes into the session when the gong sounds; None when sessions end with the bell.
    gong_minute: int | None = None

    @property
    def status(self) -> str | None:
        return self.session.status if self.session else None

    @property
    def panels(self) -> list[screen.Panel]:
        return screen.cycle(status=self.status, tables=self.tables, players=self.players)

    @property
    def phase(self) -> str:
        return screen.phase(self.session.number if self.session else None, self.status)

    def session_clock(self, now=None) -> clock.TableClock | None:
        """The session's own clock (without any table's extra time) while it is in play."""
        if self.status != screen.IN_PLAY:
            return None
        return clock.time_left(
            opened_at=self.session.opened_at,
            session_minutes=self.session_minutes,
            extra_minutes=0,
            now=now or timezone.now(),
            gong_minute=self.gong_minute,
        )


def screen_state(tournament: Tournament, version: int) -> ScreenState:
    """The screen's state under the tournament's data ``version`` (read first): cached,
    so the screens of a hall share it until the next write."""
    return cached(
        f"mcr:screen-state:{tournament.pk}:{version}", lambda: compute_screen_state(tournament)
    )


def compute_screen_state(tournament: Tournament) -> ScreenState:
    """``screen_state`` from the database as it is now: two queries, the sessions with
    their tables counted and the players counted."""
    sessions = {
        session.number: session
        for session in tournament.sessions.filter(PUBLISHED_SESSION)
        .defer("draw_input")
        .annotate(
            table_count=Count("tables"),
            extra_time_count=Count("tables", filter=Q(tables__extra_minutes__gt=0)),
            unconfirmed_count=Count("tables", filter=Q(tables__confirmed_at__isnull=True)),
        )
        .order_by()
    }
    number = screen.current_session((s.number, s.status) for s in sessions.values())
    session = sessions.get(number)
    return ScreenState(
        name=tournament.name,
        session_minutes=tournament.session_minutes,
        session=session,
        tables=session.table_count if session else 0,
        extra_time_tables=session.extra_time_count if session else 0,
        players=tournament.players.count(),
        unconfirmed_tables=sum(s.unconfirmed_count for s in sessions.values()),
        gong_minute=tournament.gong_minute if tournament.session_end == "gong" else None,
    )
