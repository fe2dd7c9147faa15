"""Many rows written at once, each with its history: what an import stores.

``bulk_create`` and ``update`` send no signal, so simple-history's helpers write the
history rows here, naming the actor as one-by-one saves do (``audit.bulk_history``).
Updates go out as one statement sent with each row's values (``executemany``): the ORM's
``bulk_update`` builds a CASE of every row for every field, which took two seconds a
thousand players, for a statement the database then runs slowly too.
"""

from collections.abc import Sequence

from django.db import connection
from django.db.models import Model
from simple_history.utils import bulk_create_with_history, get_history_manager_for_model

from tournament.history import audit

# Rows per statement of a bulk insert, at most (Django sends SQLite at most 999 values a
# statement: fewer rows there).
BULK_BATCH = 500


def created_with_history(model: type[Model], objs: Sequence[Model]) -> None:
    """Insert ``objs`` (their keys set on them), and a history row for each."""
    if objs:
        bulk_create_with_history(list(objs), model, batch_size=BULK_BATCH, **audit.bulk_history())


def updated_with_history(model: type[Model], objs: Sequence[Model], fields: Sequence[str]) -> None:
    """Store ``fields`` of each of ``objs`` (their rows exist), and a history row for each
    with its values after the change."""
    if not objs:
        return
    meta = model._meta
    chosen = [meta.get_field(name) for name in fields]
    name = connection.ops.quote_name
    assignments = ", ".join(f"{name(field.column)} = %s" for field in chosen)
    sql = f"UPDATE {name(meta.db_table)} SET {assignments} WHERE {name(meta.pk.column)} = %s"
    rows = [
        [field.get_db_prep_save(getattr(obj, field.attname), connection) for field in chosen]
        + [obj.pk]
        for obj in objs
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
    get_history_manager_for_model(model).bulk_history_create(
        list(objs), batch_size=BULK_BATCH, update=True, **audit.bulk_history()
    )
