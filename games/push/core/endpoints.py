"""The SSRF guard: a device's endpoint is where the server will POST on anyone's behalf,
so it must be `https:` on a public address: never loopback, a private range, link-local
or any address that is not globally routable (the server would otherwise post into its
own network). PUSH_ALLOW_LOOPBACK lets tests and local runs use a push service on
loopback (plain http there too); settings refuse it with DEBUG=0.

The name is resolved when the device is added and again before each push (a name may
point elsewhere later); every address it resolves to must be public.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings

Resolver = Callable[[str], list[str]]
MAX_ENDPOINT = 1000


class BadEndpoint(ValueError):
    """The endpoint is refused; the message says why (no part of the endpoint in it)."""


def resolve(host: str) -> list[str]:
    try:
        found = socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as error:
        raise BadEndpoint("the push service's name does not resolve") from error
    return sorted({str(info[4][0]) for info in found})


def _allowed(address: str, *, loopback: bool) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if loopback and ip.is_loopback:
        return True
    return ip.is_global and not ip.is_multicast


def check_endpoint(endpoint: str, resolver: Resolver = resolve) -> str:
    """The endpoint if the server may post to it; else BadEndpoint."""
    if len(endpoint) > MAX_ENDPOINT:
        raise BadEndpoint("the endpoint is too long")
    loopback = bool(settings.PUSH_ALLOW_LOOPBACK)
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        port = parts.port
    except ValueError as error:
        raise BadEndpoint("the endpoint is not a URL") from error
    if parts.username or parts.password or not host:
        raise BadEndpoint("the endpoint is not a push service's URL")
    if parts.scheme != "https" and not (loopback and parts.scheme == "http"):
        raise BadEndpoint("the endpoint must be https")
    del port  # any port: the address is what is checked
    try:
        addresses = [str(ipaddress.ip_address(host))]
    except ValueError:
        addresses = resolver(host)
    if not addresses or not all(_allowed(a, loopback=loopback) for a in addresses):
        raise BadEndpoint("the endpoint is not on a public address")
    if parts.scheme == "http" and not all(ipaddress.ip_address(a).is_loopback
                                          for a in addresses):
        raise BadEndpoint("the endpoint must be https")
    return endpoint
