"""Many rows written at once, each with its history: what an import stores.

``bulk_create`` and ``bulk_update`` send no signal, so simple-history's helpers write the
history rows here, naming the actor as one-by-one saves do (``audit.bulk_history``).
"""

from collections.abc import Sequence

from django.db.models import Model
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from tournament.history import audit

# Rows per statement of a bulk insert or update, at most (Django sends SQLite at most 999
# values a statement: fewer rows there).
BULK_BATCH = 500


def created_with_history(model: type[Model], objs: Sequence[Model]) -> None:
    """Insert ``objs`` (their keys set on them), and a history row for each."""
    if objs:
        bulk_create_with_history(list(objs), model, batch_size=BULK_BATCH, **audit.bulk_history())


def updated_with_history(model: type[Model], objs: Sequence[Model], fields: Sequence[str]) -> None:
    """Store ``fields`` of each of ``objs`` (their rows exist), and a history row for each
    with its values after the change."""
    if objs:
        bulk_update_with_history(
            list(objs), model, list(fields), batch_size=BULK_BATCH, **audit.bulk_history()
        )
