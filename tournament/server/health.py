"""The health check a process manager or load balancer polls: ``/healthz`` answers 200 while
the app runs and reaches its database, 503 when the database cannot be reached."""

import logging

from django.db import DatabaseError, connection
from django.http import HttpResponse, HttpResponseNotAllowed

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
        if database_reachable():
            response = HttpResponse("ok\n", content_type="text/plain")
        else:
            response = HttpResponse("database unreachable\n", status=503, content_type="text/plain")
        response["Cache-Control"] = "no-store"
        return response
