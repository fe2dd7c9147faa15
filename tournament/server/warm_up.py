"""What a new app process would otherwise do on its first requests, done once before it
serves: the URLs resolved (which imports every view, the API and what they import) and the
project's templates compiled. Under gunicorn's ``preload_app`` the master does it and every
worker it forks starts warm: a server started again after a crash answers its first requests
as fast as its later ones, instead of a second late on each worker's first.

Nothing here opens a database or cache connection: a connection made before the fork would
be shared by every worker.
"""

from pathlib import Path

from django import forms
from django.conf import settings
from django.forms.renderers import get_default_renderer
from django.template import engines
from django.urls import get_resolver

from tournament.server.release import release


def project_templates() -> list[str]:
    """The names of the templates in the project's own folders (``TEMPLATES["DIRS"]``)."""
    names = []
    for folder in settings.TEMPLATES[0]["DIRS"]:
        root = Path(folder)
        names += sorted(str(path.relative_to(root)) for path in root.rglob("*.html"))
    return names


def warm_up() -> int:
    """Resolve the URLs and compile the project's templates; how many templates."""
    resolver = get_resolver()
    # The URLconf imported (and so every view), and the names ``reverse`` and ``{% url %}``
    # look up filled in.
    loaded = (resolver.url_patterns, resolver.reverse_dict)
    assert loaded[0] and loaded[1]
    engine = engines["django"]
    names = project_templates()
    for name in names:
        engine.get_template(name)
    # Django's widget templates, which the form renderer finds through the same engine.
    renderer = get_default_renderer()
    widgets = widget_templates()
    for name in widgets:
        renderer.get_template(name)
    # The release's digest, which every kept page's key holds, read once before the fork.
    release()
    return len(names) + len(widgets)


def widget_templates() -> list[str]:
    """The names of Django's own form templates (widgets, fields, forms)."""
    root = Path(forms.__file__).parent / "templates"
    return sorted(str(path.relative_to(root)) for path in root.rglob("*.html"))
