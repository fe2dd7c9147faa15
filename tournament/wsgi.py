"""WSGI entry point: the application, warmed up before it serves (``server.warm_up``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_wsgi_application()

from tournament.server.warm_up import warm_up  # noqa: E402 (needs the settings loaded)

warm_up()
