"""What keeps a table's tablet working without the network (docs/offline.md): the service
worker, which keeps the pages marked ``kept_offline`` and the site's scripts and styles on the
device, and the web app manifest that puts a page on the home screen."""

import functools
import json

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournament.server.release import release

# The header that tells the service worker a page may be kept on the device and shown when the
# network is down; the pages that say it: the table's sheet, the referee's home, the fan
# calculator and the player's own page.
KEPT_HEADER = "X-MCR-Kept-Offline"
# What the service worker keeps at install: the app's own static files a page may use. A few
# dozen kilobytes; the vendored scripts' notices are not pages' files.
_STATIC_KINDS = (".js", ".css", ".svg", ".png")


def kept_offline(view):
    """Mark the view's page as one the service worker keeps: a whole page (no query, which
    asks for a part or another reading of it), answered in full."""

    @functools.wraps(view)
    def marked(request, *args, **kwargs):
        # The page (base.html) then links the manifest and draws the offline line.
        request.kept_offline = True
        request.release = release()
        response = view(request, *args, **kwargs)
        whole_page = request.method == "GET" and not request.GET
        html = response.get("Content-Type", "").startswith("text/html")
        if whole_page and html and response.status_code == 200:
            response[KEPT_HEADER] = "1"
        return response

    return marked


def _static_files() -> list[str]:
    """The addresses of the app's static files, as the pages name them (with their content's
    hash once collected)."""
    folder = settings.BASE_DIR / "tournament" / "static"
    return sorted(
        static(path.relative_to(folder).as_posix())
        for path in folder.rglob("*")
        if path.is_file() and path.suffix in _STATIC_KINDS
    )


@require_safe
def service_worker(request):
    """The service worker, served from the site's root so that it may keep any of its pages.
    It names this release: a new release is a new script, which the browser installs in the
    old one's place, dropping what the old one kept."""
    config = {
        "release": release(),
        "static": _static_files(),
        "staticPrefix": settings.STATIC_URL
        if settings.STATIC_URL.startswith("/")
        else "/" + settings.STATIC_URL,
        "keptHeader": KEPT_HEADER,
        "logout": reverse("logout"),
        "login": reverse("login"),
    }
    body = render_to_string("offline/service-worker.js", {"config": json.dumps(config)})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # Asked for again at each check for a new release, never answered from a cache.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request):
    """The web app manifest of the page that links it: its address (``start``, a page of this
    site) is where the app opens, so that a tablet signed in by its table card opens on that
    table's sheet, a player on their own page."""
    start = request.GET.get("start", "")
    local = start.startswith("/") and url_has_allowed_host_and_scheme(
        start, allowed_hosts={request.get_host()}
    )
    if not local:
        start = reverse("home")
    document = {
        "id": start,
        "name": _("MCR tournaments"),
        "short_name": _("MCR"),
        "lang": get_language(),
        "start_url": start,
        "scope": "/",
        "display": "fullscreen",
        "background_color": "#ffffff",
        "theme_color": "#12332a",
        "icons": [
            {"src": static("icons/app-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/app-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/app-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("icons/app.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(
        document,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )
