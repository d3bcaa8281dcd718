"""VAPID keys (games.push): the pair in raw base64url, as `vapid --gen` of py-vapid prints
them (the private key's 32 bytes, the public key's 65-byte uncompressed point).

Production sets VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; with DEBUG and neither set, a
development pair is made once and kept in var/vapid-dev.json (var/ is never committed),
so `run.py serve` offers alerts at once and a device subscribed yesterday still gets them.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def new_pair() -> tuple[str, str]:
    """(private, public), raw base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962,
                                           serialization.PublicFormat.UncompressedPoint)
    return _b64url(private), _b64url(public)


def development_pair(path: Path) -> tuple[str, str]:
    """The development pair kept at `path`, made there on first use."""
    if path.is_file():
        kept = json.loads(path.read_text())
        return str(kept["private"]), str(kept["public"])
    private, public = new_pair()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps({"private": private, "public": public}))
    temporary.chmod(0o600)
    temporary.replace(path)
    return private, public
