"""Reads that nearly every request makes, compiled into SQL once per database and then sent
with new values.

Turning a queryset into SQL costs more than running it: at 10,000 players the tournament's
lookup took 0.7 ms of the server's time, of which 0.1 ms went on the statement itself. A
``PreparedRead`` asks the ORM for the SQL once, with example values standing in for the
real ones, and finds where each example went among the statement's parameters; later
calls send that SQL with the values put in their places and convert the rows as the
queryset would have (a date read back from SQLite, say).

Only for reads of a few plain values (``values_list``) with each value used as one
parameter: a list (an ``__in`` lookup) would change the statement's shape. The values are
sent as they are (no conversion as the ORM would make): plain numbers and strings, never
None (``= NULL`` matches nothing where the ORM would write ``IS NULL``).
"""

import threading
from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet


def attnames(model: type[Model]) -> tuple[str, ...]:
    """The model's columns as its rows are read (``values_list(*attnames(model))``)."""
    return tuple(field.attname for field in model._meta.concrete_fields)


def instance(model: type[Model], row, using: str = DEFAULT_DB_ALIAS) -> Model:
    """``model`` as the ORM builds it from ``row`` (read as ``attnames(model)``)."""
    return model.from_db(using, attnames(model), row)


def fits(model: type[Model], field_name: str, number: int, using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether the database can hold ``number`` in the integer field: a number from a link
    (``/players/99999999999/``) that no row can hold is answered without sending it, as the
    ORM does (SQLite would refuse a number beyond 64 bits)."""
    field = model._meta.get_field(field_name)
    low, high = connections[using].ops.integer_field_range(field.get_internal_type())
    return (low is None or number >= low) and (high is None or number <= high)


class PreparedRead:
    """``build(*values)``'s rows, its SQL made once per database from ``build(*examples)``.

    Each example must come out exactly once among the compiled parameters: a value that no
    other part of the statement holds (a string, or a number within its field's range: one
    outside it makes the ORM give up on the statement).
    """

    def __init__(self, build: Callable[..., QuerySet], *examples):
        self.build = build
        self.examples = examples
        self._compiled: dict[str, tuple] = {}
        self._lock = threading.Lock()

    def _compile(self, using: str) -> tuple:
        queryset = self.build(*self.examples)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        params = list(params)
        places = []
        for example in self.examples:
            found = [i for i, param in enumerate(params) if param == example]
            if len(found) != 1:
                raise ValueError(f"{example!r} is among the parameters {len(found)} times.")
            places.append(found[0])
        columns = [expression for expression, _sql, _alias in compiler.select]
        converters = list(compiler.get_converters(columns[: compiler.col_count]).items())
        return sql, params, places, converters

    def rows(self, *values, using: str = DEFAULT_DB_ALIAS) -> list[tuple]:
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.setdefault(using, self._compile(using))
        sql, params, places, converters = compiled
        params = list(params)
        for place, value in zip(places, values, strict=True):
            params[place] = value
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            found = cursor.fetchall()
        if not converters:
            return found
        converted = []
        for row in found:
            row = list(row)
            for place, (functions, expression) in converters:
                value = row[place]
                for function in functions:
                    value = function(value, expression, connection)
                row[place] = value
            converted.append(tuple(row))
        return converted
