"""Which addresses the server takes: those written as the mail is delivered.

An address is a person only if it has one identity, the mailbox its mail reaches
(games.people.core.mailboxes). Two kinds of spelling would break that, so every form, API
field and command that takes an address refuses them with a reason the writer can act
on (`validate_deliverable`, a Django validator):

- a local part the mail backends rewrite before sending (quotes, backslash escapes,
  comments, encoded words: `"alice"@a.test` goes to `alice@a.test`): the writer is
  shown the address the mail would go to;
- a domain label that IDNA maps (capital or full-width non-ASCII letters, `ß`, `ς`):
  Django's backend (IDNA 2003) and other providers (IDNA 2008) send it to two
  different domains, so no one spelling is the delivered one.

A form that would store an address also refuses one that asked to be forgotten
(`refusal_to_store`).

What is taken has the key of the address it is delivered to (a test holds this for any
address: tests/players/test_deliverable_addresses.py).
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _

from games.people.core.mailboxes import as_delivered, delivered_address, domain_key
from games.people.core.player_data import is_forgotten


def _rewritten(address: str) -> str:
    """The address the mail would go to, if the backends rewrite this one, else ''."""
    local, _at, domain = address.rpartition("@")
    try:
        delivered = delivered_address(address)
    except ValueError:
        return "?"
    if as_delivered(address) != (local, domain):
        return delivered
    return ""


def _ambiguous_domain(domain: str) -> bool:
    """Whether a label of `domain` is one that mail systems send to different domains
    (its key keeps it as written: games.people.core.mailboxes._label_key)."""
    key = domain_key(domain)
    return any(not label.isascii() for label in key.split("."))


def validate_deliverable(address: str) -> None:
    """Raise ValidationError unless `address` (stripped) is a valid address written as
    the mail is delivered (see the module)."""
    address = address.strip()
    validate_email(address)
    rewritten = _rewritten(address)
    if rewritten == "?":
        raise ValidationError(_("Mail cannot be sent to this address."), code="undeliverable")
    if rewritten:
        raise ValidationError(
            _("Mail to this address goes to %(delivered)s: write it that way (without "
              "quotes, backslashes or comments)."), code="not_as_delivered",
            params={"delivered": rewritten})
    if _ambiguous_domain(address.rpartition("@")[2]):
        raise ValidationError(
            _("Mail systems do not agree where the domain of this address leads (capital or "
              "full-width letters, ß or ς): write the domain as your mail provider spells "
              "it, in small letters."), code="ambiguous_domain")


def refusal(address: str) -> str:
    """Why the server takes no `address` (see the module), or ''."""
    try:
        validate_deliverable(address)
    except ValidationError as refused:
        return " ".join(refused.messages)
    return ""


def refusal_to_store(address: str) -> str:
    """`refusal`, or that the address asked to be forgotten: a form that would keep it
    refuses it (forgetting keeps a keyed hash of the mailbox, nothing else)."""
    why = refusal(address)
    if not why and is_forgotten(address):
        why = _("%(email)s does not take emails from this server.") % {
            "email": address.strip()}
    return str(why)


class AddressField(forms.EmailField):
    """A form's email field that takes only deliverable addresses (see the module)."""

    default_validators = [validate_deliverable]


class OwnAddressField(AddressField):
    """The reader's own address: marked as such (autocomplete="email"), so a browser
    or an assistive tool can fill it in (WCAG 1.3.5, identify input purpose). A field
    for someone else's address stays a plain AddressField."""

    widget = forms.EmailInput(attrs={"autocomplete": "email"})

