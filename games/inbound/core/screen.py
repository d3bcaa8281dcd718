"""Reading a stored raw message, in the worker, under limits a crafted email cannot pass.

Python's MIME parser checks every line against the boundary of every multipart level
open around it, and recurses once per level: a message nested 400 deep with 760,000
short lines costs it about 30 s of CPU. The web request never parses (the webhook stores
the bytes, `games.inbound.core.providers`); the worker reads them here, in three steps:

1. `multipart_declarations`: before any parsing, the multipart levels the message could
   open, counted in every spelling Python's parser honours, in time linear in its size:
   a header folded anywhere (`multipart/mixed;\\r\\n boundary\\r\\n =b1`, bare CR line
   ends too), any case, quoted, an RFC 2047 encoded word as the media type, and the
   boundary parameter in RFC 2231's forms (`boundary*=''b1`, `boundary*0=`). Over
   MAX_MULTIPART the message is not parsed at all.
2. The parser itself is fed in small chunks and makes its parts through our factory, which
   refuses a part past MAX_PARTS or nested past MAX_DEPTH; after each chunk the CPU time
   spent is checked against PARSE_CPU_SECONDS. So whatever spelling the count of step 1
   missed, the parser stops early.
3. The task (`games.inbound.services.process.process_inbound_mail`) runs under Celery's soft and
   hard time limits besides.

Past any of them the message is `Unreadable`: its seat is told "we could not read your
email".
"""

from __future__ import annotations

import re
import time
from email.feedparser import BytesFeedParser
from email.message import Message
from email.policy import default as default_policy
from typing import Any

from anymail.inbound import AnymailInboundMessage

# How many multipart levels a real reply opens (a forwarded thread, alternatives, inline
# pictures), with room to spare; each one multiplies the parser's work per line.
MAX_MULTIPART = 20
MAX_DEPTH = 20
# Parts of one message (a reply with 40 pictures has about 45).
MAX_PARTS = 500
# A 2.5 MB message parses in a tenth of that (bench/inbound.py).
PARSE_CPU_SECONDS = 2.0
FEED_CHUNK = 16_384

FOLDED = re.compile(rb"\n[ \t]+")
# No "^": a pattern that starts with its literal is searched for at C speed; the match is
# checked to start a line instead.
CONTENT_TYPE = re.compile(rb"content-type[ \t]*:([^\n]*)")
NEWLINE = ord("\n")
BOUNDARY = re.compile(rb"boundary[ \t]*(?:\*[0-9]*)?\*?[ \t]*=")


class Unreadable(Exception):
    """The message is past a limit of the parser: it is not read."""


def multipart_declarations(raw: bytes) -> int:
    """How many multipart levels `raw` could open (an upper bound), in every spelling:
    the Content-Type headers whose media type is multipart (or hidden in an encoded
    word), and the boundary parameters, whichever count is larger."""
    text = FOLDED.sub(b" ", raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")).lower()
    declared = 0
    for match in CONTENT_TYPE.finditer(text):
        if match.start() and text[match.start() - 1] != NEWLINE:
            continue  # not a header: a header starts its line
        value = match.group(1)
        media_type = value.split(b";", 1)[0]
        if b"multipart" in value or b"=?" in media_type:
            declared += 1
    return max(declared, len(BOUNDARY.findall(text)))


class _Guard:
    """The parser's message factory: counts the parts it makes and how deep they sit."""

    def __init__(self) -> None:
        self.parser: BytesFeedParser[Any] | None = None
        self.parts = 0

    def new_part(self, policy: Any = default_policy) -> AnymailInboundMessage:
        if self.parser is not None:  # (the parser calls the factory once to try it)
            self.parts += 1
            # The parser's stack of open parts: the one public hook into its nesting is
            # this factory, so the depth is read from the stack it is about to push on.
            depth = len(getattr(self.parser, "_msgstack", ()))
            if self.parts > MAX_PARTS:
                raise Unreadable(f"more than {MAX_PARTS} parts")
            if depth >= MAX_DEPTH:
                raise Unreadable(f"nested more than {MAX_DEPTH} deep")
        return AnymailInboundMessage(policy=policy)


def parse(raw: bytes) -> AnymailInboundMessage:
    """`raw` parsed, or Unreadable when it is past a limit (see the module's docstring)."""
    declared = multipart_declarations(raw)
    if declared > MAX_MULTIPART:
        raise Unreadable(f"{declared} multipart declarations")
    guard = _Guard()
    parser = BytesFeedParser(guard.new_part, policy=default_policy)
    guard.parser = parser
    started = time.thread_time()
    try:
        for start in range(0, len(raw), FEED_CHUNK):
            parser.feed(raw[start:start + FEED_CHUNK])
            if time.thread_time() - started > PARSE_CPU_SECONDS:
                raise Unreadable(f"more than {PARSE_CPU_SECONDS} s of parsing")
        message: Message = parser.close()
    except Unreadable:
        raise
    except (RecursionError, ValueError, TypeError, LookupError, IndexError) as error:
        raise Unreadable(f"the parser failed: {type(error).__name__}") from None
    assert isinstance(message, AnymailInboundMessage)
    return message
