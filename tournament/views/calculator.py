"""The public fan calculator: anyone scores a hand and checks a claim. It never writes."""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament.forms.calculator import CalculatorForm
from tournament.scoring.claims import check_claim


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
            )
    return render(
        request, "scoring/calculator.html", {"form": form, "scored": scored, "check": check}
    )
