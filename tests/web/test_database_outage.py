"""The database away for a moment (PostgreSQL restarting): a page answers 503 with Retry-After
in the site's style, the tablet's background save a JSON answer telling it to send the hand
again, and the log one warning line, no traceback; a query the database refused stays a
server error. (The real restart under `make serve`: tests/test_outages.py.)"""

import json
import logging
import sys
from unittest import mock

import psycopg
import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client, RequestFactory

from tests import html
from tournament.server.database_outage import DatabaseOutageLogFilter, database_unavailable
from tournament.views.errors import server_error

from ..conftest import login


def raised_by_django(cause: Exception) -> OperationalError:
    """``cause`` as Django's database layer raises it: wrapped, the driver's error its cause."""
    error = OperationalError(*cause.args)
    error.__cause__ = cause
    return error


REFUSED = raised_by_django(psycopg.OperationalError("connection failed: Connection refused"))
SHUT_DOWN = raised_by_django(
    psycopg.errors.AdminShutdown("terminating connection due to administrator command")
)


@pytest.fixture
def connection_lost():
    """This thread's connection found closed, as it is after PostgreSQL went away."""
    with mock.patch("tournament.server.database_outage._connection_gone", return_value=True):
        yield


def test_what_counts_as_the_database_away(connection_lost):
    assert database_unavailable(REFUSED)
    assert database_unavailable(SHUT_DOWN)
    assert database_unavailable(InterfaceError("connection already closed"))
    assert not database_unavailable(
        raised_by_django(psycopg.errors.QueryCanceled("canceling statement due to timeout"))
    )
    # SQLite's errors (a missing table, say) are the app's, not an outage.
    assert not database_unavailable(OperationalError("no such table: tournament_hand"))
    assert not database_unavailable(ValueError("connection refused"))


# The first read of every tournament page, where the database's error is raised.
TOURNAMENT_READ = "tournament.views.common.tournament_by_slug"


@pytest.fixture
def database_away():
    with mock.patch(TOURNAMENT_READ, side_effect=SHUT_DOWN):
        yield


def test_a_page_answers_503_to_come_back_to(tournament, database_away, caplog):
    response = Client().get("/t/spring-open/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Cache-Control"] == "no-store"
    page = response.content.decode()
    assert "The server cannot reach its database for a moment" in html.text(page)
    assert html.elements(page, "link[rel=stylesheet][href]")
    assert html.one(page, "meta[http-equiv=refresh]").attrs["content"] == "5"
    [line] = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert line.levelno == logging.WARNING
    assert line.exc_info is None
    assert line.getMessage() == (
        "Service Unavailable: /t/spring-open/ (the database cannot be reached: "
        "terminating connection due to administrator command)"
    )


def test_a_form_posted_is_told_it_was_not_saved(session_in_play, referee, database_away):
    response = login(referee).post(
        "/t/spring-open/sessions/1/tables/1/", {"number": 1, "outcome": "draw"}
    )
    assert response.status_code == 503
    page = response.content.decode()
    assert "What you just sent was not saved" in page
    assert "http-equiv" not in page


def test_the_tablets_save_is_told_to_send_the_hand_again(session_in_play, referee, database_away):
    response = login(referee).post(
        "/t/spring-open/sessions/1/tables/1/",
        {"number": 1, "outcome": "draw"},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    answer = json.loads(response.content)
    assert answer == {
        "saved": False,
        "retry": True,
        "error": "The server cannot reach its database for a moment. The hand is kept and "
        "sent again.",
    }


def test_a_query_the_database_refused_stays_a_server_error(tournament):
    refused = raised_by_django(psycopg.errors.QueryCanceled("canceling statement"))
    with mock.patch(TOURNAMENT_READ, side_effect=refused):
        response = Client(raise_request_exception=False).get("/t/spring-open/")
    assert response.status_code == 500


def test_a_driver_error_without_a_code_on_a_working_connection_stays_a_server_error(
    tournament,
):
    """psycopg refuses some queries before sending them, with no code (more parameters than
    the protocol takes): the connection is fine, the app's error must show as one."""
    refused = raised_by_django(psycopg.OperationalError("sending query and params failed"))
    with mock.patch(TOURNAMENT_READ, side_effect=refused):
        response = Client(raise_request_exception=False).get("/t/spring-open/")
    assert response.status_code == 500


def test_the_database_away_outside_a_view_is_the_same_503(connection_lost):
    """Raised after the view (a session saved on the way out): Django's own handler, then
    its log line, one warning without the traceback."""
    request = RequestFactory().get("/t/spring-open/", HTTP_ACCEPT="application/json")
    try:
        raise REFUSED
    except OperationalError:
        response = server_error(request)
        record = logging.LogRecord(
            "django.request",
            logging.ERROR,
            __file__,
            1,
            "%s: %s",
            ("Service Unavailable", "/t/spring-open/"),
            sys.exc_info(),
        )
    record.request = request
    assert response.status_code == 503
    assert json.loads(response.content)["retry"] is True
    assert DatabaseOutageLogFilter().filter(record)
    assert (record.levelname, record.exc_info) == ("WARNING", None)
    assert record.getMessage() == (
        "Service Unavailable: /t/spring-open/ (the database cannot be reached: "
        "connection failed: Connection refused)"
    )
