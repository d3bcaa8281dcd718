"""The form that asks for one's own address (lost links, a new home, an open table): a
deliverable address, refused with the reason when its delivered form differs from what
was typed (games.people.core.deliverable)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from games.people.core.deliverable import OwnAddressField


class AddressForm(forms.Form):
    email = OwnAddressField(label=gettext_lazy("Your email address"))
