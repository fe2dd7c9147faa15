"""The health check a process manager or load balancer polls: ``/healthz`` answers 200 while
the app runs and reaches its database, 503 when the database cannot be reached.

The shared cache (Redis) is not needed to serve (``server.cache``): while it cannot be
reached the answer stays 200 with a second line saying so, for whoever reads it. A monitor
that should raise the alarm for it asks ``/healthz?cache=1``, which answers 503 then; a load
balancer must not (every app server shares that Redis: it would take them all out).

The task queue's workers likewise: when none is alive, or the oldest task ready has waited
over a minute, a line says so (e-mails, imports and workbooks wait meanwhile; the pages
serve); ``/healthz?tasks=1`` answers 503 then, for the monitor of the workers."""

import logging

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpResponse, HttpResponseNotAllowed

from tournament.selectors.tasks import queue_state

logger = logging.getLogger(__name__)

PATH = "/healthz"


def database_reachable() -> bool:
    """One cheap query; a failure is logged, as the checker only sees the status."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        logger.error("Health check: the database cannot be reached: %s", error)
        return False
    return True


def cache_unreachable_for() -> float | None:
    """Seconds the shared cache has been away for this process; None while it answers, or
    when there is none to reach (each process's memory)."""
    probe = getattr(cache, "unreachable_for", None)
    return None if probe is None else probe()


class HealthCheckMiddleware:
    """Answers ``/healthz`` ahead of the other middleware.

    A checker asks by the server's own address over plain HTTP (``curl
    http://127.0.0.1:8000/healthz``), which the host check (``ALLOWED_HOSTS``) and the HTTPS
    redirect would turn away; the answer tells nothing but whether the app is up, and needs
    no login.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info != PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        if not database_reachable():
            lines, status = ["database unreachable"], 503
        else:
            lines, status = ["ok"], 200
            away = cache_unreachable_for()
            if away is not None:
                lines.append(f"cache unreachable for {away:.0f} s: pages are drawn without it")
                if request.GET.get("cache") == "1":
                    status = 503
            queue_problem = queue_state().problem()
            if queue_problem:
                lines.append(queue_problem)
                if request.GET.get("tasks") == "1":
                    status = 503
        response = HttpResponse(
            "".join(f"{line}\n" for line in lines), status=status, content_type="text/plain"
        )
        response["Cache-Control"] = "no-store"
        return response
