r"""Which mailbox an address reaches, at two grains (docs/DESIGN.md "One address, one
person"). Every comparison of two addresses in the server goes through this module.

1. **Identity: `mailbox_key`, `same_mailbox`, `mailbox_key_hash`.** Two addresses are the
   same person exactly when their keys are equal. The key is the address with
   - the local part as the mail backends deliver it (`as_delivered`: Django's SMTP backend
     and anymail read an address with the standard library's RFC 5322 parser, which
     undoes quotes and backslash escapes, drops comments and decodes encoded words, so
     `"alice"@a.test`, `"a\lice"@a.test` and `alice(x)@a.test` all go to `alice@a.test`
     and are `alice@a.test`'s key), except for ASCII case (`Bob` is `bob`, but `ı`, `İ`,
     `ß`, `K` and every other non-ASCII letter stay what they are: no Unicode case
     folding, which is what made `bob@maıl.test` open `bob@mail.test`'s games on
     PostgreSQL);
   - the domain in its IDNA (punycode) form, lower-cased, label by label: `maıl.test`
     is `xn--mal-kua.test`, the domain the mail goes to, so the two spellings are one
     key. A label is encoded only when the encoding gives it back unchanged (IDNA's
     mapping is the identity on it); a label that IDNA would map (upper-case non-ASCII,
     `ß`, full-width or compatibility letters, `K`) is kept as written: mail systems
     disagree on what it becomes (IDNA 2003 makes `straße` `strasse`, IDNA 2008
     `xn--strae-oqa`), so it is never merged with any other spelling.
   The key decides everything an address gives access to or owns: its seats, its home
   and its JSON twin, the data export, "forget me", the links emails, digests and
   unsubscribing, the rows it is the recipient of. Tables keep `mailbox_key_hash` (the
   key's sha256) in an indexed column (games.people.core.mailbox_keys), so the database
   compares exactly, never with its own case folding (`iexact`, UPPER/LOWER).

2. **Counting: `mailbox`, `mailbox_hash`.** Coarser, for the caps and refusals only (the
   setup page's caps, offers a day, one seat per person at a table, "no more emails"):
   a limit must not be walked around by spelling one mailbox many ways, so this folds
   what mail providers fold on delivery:
   - Unicode case in the local part (a limit errs on the side of counting two look-alikes
     as one; it never opens anything);
   - a `+tag`: `ann+1@x.org` reaches `ann@x.org`;
   - at Gmail only (gmail.com, googlemail.com), dots in the local part, and the two
     domains are one: Google delivers `a.n.n@gmail.com` to `ann@gmail.com`. Elsewhere a
     dot is significant (`ann.lee@` and `annlee@` are often two people), and so is a `-`
     (a tag separator at a few providers only, and common in real names).
   It is computed from the key, so two addresses with one key always count as one
   mailbox; the converse does not hold (`ann+1@x.org` and `ann@x.org` are two homes,
   counted as one mailbox by the caps).
"""

from __future__ import annotations

import contextlib
import encodings.idna
import hashlib
import re
import string
from email import _header_value_parser as rfc5322
from email.errors import HeaderParseError

from django.core.mail.message import sanitize_address

GMAIL_DOMAINS = frozenset({"gmail.com", "googlemail.com"})
ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _ascii_lower(text: str) -> str:
    return text.translate(ASCII_LOWER)


def _label_key(label: str) -> str:
    """One domain label: ASCII lower-cased; non-ASCII in its IDNA form when IDNA leaves
    it as written, else as written (see the module)."""
    label = _ascii_lower(label)
    if label.isascii():
        return label
    try:
        encoded = encodings.idna.ToASCII(label).decode("ascii")
        mapped_back = encodings.idna.ToUnicode(encoded)
    except UnicodeError:  # not a valid IDN label: no mail system sends to it
        return label
    return _ascii_lower(encoded) if mapped_back == label else label


# What the parser would change: quotes, escapes, comments, folding white space, encoded
# words, a display name. An address without any of these reads as it is written.
_PARSER_CHANGES = re.compile(r'["\\()<>,;:\s]|=\?')


def as_delivered(address: str) -> tuple[str, str] | None:
    """(local part, domain) of `address` as Django's mail backends read it (the SMTP
    backend's `sanitize_address`, anymail's address parsing: the standard library's
    RFC 5322 parser): quotes and backslash escapes undone, comments and white space
    dropped, encoded words decoded. None when it is not one address."""
    address = address.strip()
    local, at, domain = address.rpartition("@")
    if at and local and domain and not _PARSER_CHANGES.search(address):
        return local, domain
    try:
        token, rest = rfc5322.get_mailbox(address)
    except (HeaderParseError, ValueError, IndexError, TypeError, AttributeError):
        return None  # the parser's own errors on malformed input, not only HeaderParseError
    local, domain = token.local_part, token.domain
    if rest or not isinstance(local, str) or not isinstance(domain, str) or not domain:
        return None
    return local, domain


def delivered_address(address: str) -> str:
    """The envelope address (RCPT TO) Django's mail backends send `address` to: what
    every email the server sends is addressed to (games.mail.core.message). Raises ValueError
    for what no backend can send to."""
    try:
        return str(sanitize_address(address.strip(), "utf-8"))
    except (TypeError, AttributeError, IndexError) as error:  # the parser's, on garbage
        raise ValueError(f"not an address: {error}") from error


def domain_key(domain: str) -> str:
    """The domain's part of the key: label by label (see the module)."""
    return ".".join(_label_key(label) for label in domain.split("."))


def mailbox_key(address: str) -> str:
    """The address's identity: equal for two addresses exactly when they are the same
    person's (see the module). Not for sending to (delivered_address is)."""
    parts = as_delivered(address)
    if parts is None:  # not an address the mail could go to: compared as written
        local, at, domain = address.strip().rpartition("@")
        if not at:
            return _ascii_lower(domain)  # no "@": nothing to encode
    else:
        local, domain = parts
    return f"{_ascii_lower(local)}@{domain_key(domain)}"


def same_mailbox(first: str, second: str) -> bool:
    """Whether two addresses are the same person's (neither may be blank)."""
    return bool(first.strip()) and mailbox_key(first) == mailbox_key(second)


def mailbox_key_hash(address: str) -> str:
    """sha256 of the key: what the tables keep and compare ("" for no address, which
    matches no one: games.people.core.mailbox_keys.of_mailbox)."""
    if not address.strip():
        return ""
    return hashlib.sha256(mailbox_key(address).encode()).hexdigest()


def mailbox(address: str) -> str:
    """The folded address of the mailbox `address` reaches, for counting (not for
    sending to, nor for deciding whose something is)."""
    local, at, domain = mailbox_key(address).casefold().rpartition("@")
    if not at:
        return domain  # no "@": nothing to fold but the case
    local = local.split("+", 1)[0]
    with contextlib.suppress(UnicodeError):  # not a valid IDN: compared as typed
        domain = domain.encode("idna").decode("ascii")
    if domain in GMAIL_DOMAINS:
        local, domain = local.replace(".", ""), "gmail.com"
    return f"{local}@{domain}"


def mailbox_hash(address: str) -> str:
    """sha256 of the counted mailbox: what the caps' rows keep instead of the address."""
    return hashlib.sha256(mailbox(address).encode()).hexdigest()
