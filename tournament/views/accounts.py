"""Accounts locked out after failed logins: the list an organiser reads when a referee cannot
log in, and the unlock that lets them try again at once."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from tournament.forms.accounts import UnlockForm
from tournament.permissions import can_unlock_login, can_unlock_logins, unlockable_usernames
from tournament.server import login_throttle
from tournament.tables import paginate
from tournament.tables.accounts import LockoutsTable


def _check(request) -> None:
    if not can_unlock_logins(request.user):
        raise PermissionDenied


@login_required
@require_safe
def lockout_list(request):
    _check(request)
    # Only the accounts this organiser may unlock: those serving their tournaments.
    failed = login_throttle.failed_logins(usernames=unlockable_usernames(request.user))
    context = {
        "failed_logins": paginate(request, LockoutsTable(failed)) if failed else None,
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": login_throttle.cool_off_minutes(),
    }
    return render(request, "registration/lockouts.html", context)


@login_required
@require_POST
def lockout_unlock(request):
    _check(request)
    form = UnlockForm(request.POST)
    if form.is_valid():
        username, address = form.cleaned_data["username"], form.cleaned_data["ip_address"]
        if not can_unlock_login(request.user, username):
            raise PermissionDenied
        login_throttle.unlock(username=username, ip_address=address, by=request.user)
        if address:
            message = _("%(username)s may log in again from %(address)s.")
        else:
            message = _("%(username)s may log in again from every address.")
        messages.success(request, message % {"username": username, "address": address})
    else:
        messages.error(request, _("Nothing unlocked: the account or the address is not valid."))
    return redirect("lockouts")
