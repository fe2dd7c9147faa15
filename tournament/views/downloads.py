"""The public downloads (``standings.xlsx``, ``ema.xlsx``, ``ema.csv``, ``series.xlsx``)
served from the files stored for each version of their data (``services.exports``), never
built in the request.

- The file of the data's current version, when it is ready: served as stored, with an ETag
  and its build time (a reader who has it gets 304).
- While it is being built, the previous version's file, whole and as it was served before,
  with ``X-Workbook-Status: previous; a newer one is being prepared`` and the version it is
  of in ``X-Workbook-Version`` (HTTP's own ``Warning`` header is obsolete, RFC 9111). A file
  is a snapshot of the results as they stood; it is not altered to say it is behind: the
  pages that link it say so beside the link (``exports_behind``), where a person sees it.
- No file yet: a short page (202) that says it is being prepared, how far, and reloads
  itself every ``WAIT_SECONDS`` (no script: the site's CSP has none inline) until the file
  comes instead.
- Its build failed and no earlier file exists: a page that says so (503, to be tried again
  after ``RETRY_AFTER``), never a server error.

Asking for a version that has no file yet asks for its build: the one write these GETs make
(``services.exports`` says why).
"""

from collections.abc import Callable

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.utils.translation import gettext_lazy as _

from tournament import services
from tournament.selectors.exports import (
    ExportState,
    build_progress,
    export_content,
    export_language,
    export_state,
    export_version,
)
from tournament.services.exports import RETRY_AFTER

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CONTENT_TYPES = {
    "standings.xlsx": XLSX_CONTENT_TYPE,
    "ema.xlsx": XLSX_CONTENT_TYPE,
    "ema.csv": "text/csv; charset=utf-8",
    "series.xlsx": XLSX_CONTENT_TYPE,
}
# What the wait page calls each file.
EXPORT_TITLES = {
    "standings.xlsx": _("The standings workbook"),
    "ema.xlsx": _("The results for the EMA (.xlsx)"),
    "ema.csv": _("The results for the EMA (.csv)"),
    "series.xlsx": _("The series workbook"),
}
# The wait page reloads itself this often.
WAIT_SECONDS = 2


def export_download(
    request, owner, *, kind: str, filename: str, context: Callable[[], dict]
) -> HttpResponse:
    """The download of ``owner``'s file of ``kind`` as ``filename``. ``context()`` gives the
    wait page's (read only when one is drawn): the page the file is linked from
    (``back_url``, ``back_label``), and the tournament for the site's menu."""
    version = export_version(owner)
    language = export_language(kind)
    # Twice at most: the file read may be replaced by a newer one before its bytes are read.
    for _attempt in range(2):
        state = export_state(owner, kind, language, version)
        if state.current is None:
            state = services.export_build_ask(state=state)
        if state.served is None:
            break
        response = _file_response(request, state, filename)
        if response is not None:
            return response
    if state.building is None and state.failed is not None:
        return _failed_page(request, state, context())
    return _wait_page(request, state, context())


def _status(state: ExportState) -> str:
    if state.current is not None:
        return "current"
    if state.building is not None:
        return "previous; a newer one is being prepared"
    return "previous; the newer one could not be built"


def _file_response(request, state: ExportState, filename: str) -> HttpResponse | None:
    served = state.served
    etag = f'"{served.pk}-{served.version}"'
    last_modified = int(served.finished_at.timestamp()) if served.finished_at else None
    headers = {
        "ETag": etag,
        # Kept, but asked about again each time: the next version may be ready.
        "Cache-Control": "no-cache",
        "X-Workbook-Version": served.version,
        "X-Workbook-Status": _status(state),
    }
    if last_modified is not None:
        headers["Last-Modified"] = http_date(last_modified)
    # 304 to a reader who has this file (412 to a failed If-Match), without reading it.
    answered = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if answered is not None:
        for name, value in headers.items():
            answered[name] = value
        return answered
    content = export_content(served)
    if content is None:
        return None
    response = HttpResponse(content, content_type=CONTENT_TYPES[state.kind], headers=headers)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _wait_page(request, state: ExportState, context: dict) -> HttpResponse:
    progress = running = None
    if state.building is not None:
        progress = build_progress(state.building)
        if progress.running_since is not None:
            running = max(0, round((timezone.now() - progress.running_since).total_seconds()))
    response = render(
        request,
        "exports/wait.html",
        {
            **context,
            "what": EXPORT_TITLES[state.kind],
            "progress": progress,
            "running_seconds": running,
            "reload_seconds": WAIT_SECONDS,
        },
        status=202,
    )
    response["Retry-After"] = str(WAIT_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def _failed_page(request, state: ExportState, context: dict) -> HttpResponse:
    retry = int(RETRY_AFTER.total_seconds())
    response = render(
        request,
        "exports/failed.html",
        {**context, "what": EXPORT_TITLES[state.kind], "retry_minutes": max(1, retry // 60)},
        status=503,
    )
    response["Retry-After"] = str(retry)
    response["Cache-Control"] = "no-store"
    return response
