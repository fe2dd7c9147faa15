"""The release: a digest of the files the pages are drawn with, which the whole pages kept in
the shared cache are keyed by (``views.shared_pages``)."""

import functools
import hashlib

from django.conf import settings

# What the code that draws the pages is made of: the project's Python, templates, catalogue
# and static files.
_RELEASE_FILES = (
    "tournament/**/*.py",
    "tournament/static/**/*",
    "templates/**/*",
    "locale/**/*.mo",
)


@functools.cache
def release() -> str:
    """A digest of the files this release draws pages with, read once per process: kept
    HTML is keyed by it, so that a page kept by another release (before an upgrade, or by
    a server not upgraded yet) is never served by this one."""
    digest = hashlib.sha256()
    for pattern in _RELEASE_FILES:
        for path in sorted(settings.BASE_DIR.glob(pattern)):
            if path.is_file():
                digest.update(str(path.relative_to(settings.BASE_DIR)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
