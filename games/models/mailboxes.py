"""Which mailbox an address reaches: what the setup caps and host refusals count by
(games.play.web_setup), so that spellings of one mailbox are not counted as many.

- Case is folded (local part and domain): mail providers ignore it in practice.
- A `+tag` is removed from the local part: `ann+1@x.org` reaches `ann@x.org`.
- At Gmail only (gmail.com, googlemail.com), dots in the local part are removed and the
  two domains are one: Google delivers `a.n.n@gmail.com` to `ann@gmail.com`, so without
  this one Gmail mailbox would have 2^(n-1) spellings for free. Elsewhere a dot is
  significant (`ann.lee@` and `annlee@` are often two people), and so is a `-` (it is a
  tag separator at a few providers only, and common in real names): neither is folded.
- An internationalised domain is compared in its ASCII (IDNA) form.
"""

from __future__ import annotations

import contextlib
import hashlib

GMAIL_DOMAINS = frozenset({"gmail.com", "googlemail.com"})


def mailbox(address: str) -> str:
    """The folded address of the mailbox `address` reaches (not for sending to)."""
    local, at, domain = address.strip().casefold().rpartition("@")
    if not at:
        return domain  # no "@": nothing to fold but the case
    local = local.split("+", 1)[0]
    with contextlib.suppress(UnicodeError):  # not a valid IDN: compared as typed
        domain = domain.encode("idna").decode("ascii")
    if domain in GMAIL_DOMAINS:
        local, domain = local.replace(".", ""), "gmail.com"
    return f"{local}@{domain}"


def mailbox_hash(address: str) -> str:
    """sha256 of the folded mailbox: what is stored instead of the address."""
    return hashlib.sha256(mailbox(address).encode()).hexdigest()
