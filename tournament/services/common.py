"""What many services do alike: refuse the value of one form field, save a few fields of a
row."""

from django.core.exceptions import ValidationError
from django.db.models import Model


def refused(field: str, message: str, code: str) -> ValidationError:
    """A refusal shown beside the form field ``field``."""
    return ValidationError({field: ValidationError(message, code=code)})


def fields_saved(row: Model, **values) -> None:
    """Set ``values`` on ``row`` and save those fields alone (a save, not a QuerySet.update:
    the history keeps the change)."""
    for name, value in values.items():
        setattr(row, name, value)
    row.save(update_fields=list(values))
