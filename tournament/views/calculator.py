"""The public fan calculator: anyone scores a hand and checks a claim. It never writes.

``hand_fans`` answers the tile picker (on this page and on a referee's sheet) with the fans of
the hand being built, as a fragment of HTML: the scoring core counts them on the server, so
the picker holds no second calculator.
"""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament.forms.calculator import (
    CalculatorForm,
    RulesFields,
    SheetFansForm,
    profile_links,
)
from tournament.scoring.claims import check_claim
from tournament.scoring.rules import SEED_RULES
from tournament.views.offline import kept_offline


@kept_offline
@require_safe
def calculator(request):
    """GET only, so a scored hand is a link a referee can share.

    With a hand, its fans and the claim compared with them; without one, the verdict on
    the fans named and the total alone (fans that cannot be counted together, counts
    too high, a total that differs from the fans named, the 8-fan minimum).
    """
    form = CalculatorForm(request.GET or None)
    scored = check = None
    if form.is_bound and form.is_valid():
        scored = form.scored
        if form.has_claim:
            check = check_claim(
                claimed_total=form.cleaned_data["claimed_total"],
                claimed_fans=form.claimed,
                scored=scored,
                rules=form.rules,
            )
    rules = form.rules if form.is_bound else SEED_RULES
    return render(
        request,
        "scoring/calculator.html",
        {
            "form": form,
            "scored": scored,
            "check": check,
            "rules": rules,
            "profiles": profile_links(rules),
            "rules_asked": any(name in request.GET for name in RulesFields.base_fields),
        },
    )


@require_safe
def hand_fans(request):
    """The fans of the picker's hand: ``hand`` in the notation, with its conditions written
    (the calculator), or with ``number``, ``winner``, ``outcome`` and ``flowers`` from a
    referee's sheet, which give the winds and the rest as saving the hand would."""
    on_sheet = "number" in request.GET
    form = (SheetFansForm if on_sheet else CalculatorForm)(request.GET)
    scored = form.scored if form.is_valid() else None
    errors = [error for errors in form.errors.values() for error in errors]
    return render(
        request, "scoring/_fans.html", {"scored": scored, "errors": errors, "rules": form.rules}
    )
