"""What the service tests read from a refusal: the codes of a ``ValidationError``."""

from django.core.exceptions import ValidationError


def codes(error: ValidationError) -> set[str]:
    """Every code of ``error``, whether its messages are keyed by field or not."""
    if hasattr(error, "error_dict"):
        return {e.code for errors in error.error_dict.values() for e in errors}
    return {e.code for e in error.error_list}
