"""A service's refusal shown on the form that was sent: each error beside its field."""

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ValidationError


def add_service_errors(form, error: ValidationError) -> None:
    """Put a service's ValidationError beside the fields it names, or on top of the form."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


@dataclass(frozen=True)
class Saved:
    """What a service returned for a form it accepted (``form_saved``)."""

    result: object


def form_saved(request, form, save: Callable[[], object]) -> Saved | None:
    """The pages' one recipe for a form sent to a service: on a POST whose ``form`` is valid,
    run ``save`` (the service call, reading the form's cleaned data) and give what it
    returned; when the service refuses, put its errors beside the form's fields. None
    whenever the page is to show the form (again): a GET, an invalid form, a refusal.

        form = CommitForm(request.POST or None, tournament=tournament)
        if saved := form_saved(request, form, lambda: services.draw_commit(**form.cleaned_data)):
            return redirect("fairness", saved.result.tournament.slug)
        return render(request, "tournaments/commit.html", {"form": form})
    """
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        return Saved(save())
    except ValidationError as error:
        add_service_errors(form, error)
        return None
