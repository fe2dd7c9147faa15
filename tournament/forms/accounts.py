"""The organisers' unlock of an account locked out after failed logins."""

from django import forms
from django.utils.translation import gettext_lazy as _


class UnlockForm(forms.Form):
    """One row of the locked-out list: the account and the address it failed from (empty:
    every address)."""

    username = forms.CharField(label=_("Account"), max_length=150)
    ip_address = forms.GenericIPAddressField(label=_("Address"), required=False)
