"""A service's refusal shown on the form that was sent: each error beside its field."""

from django.core.exceptions import ValidationError


def add_service_errors(form, error: ValidationError) -> None:
    """Put a service's ValidationError beside the fields it names, or on top of the form."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)
