"""A stand-in push service for the tests: an RFC 8030 endpoint on loopback that checks
what a real one checks and records what it got.

Each subscription it hands out (`subscribe()`) has its own receiver key pair and auth
secret, as a browser's; a push to it must carry a valid VAPID JWT (RFC 8292: ES256 over
the header and claims, signed with the key in `k=`, `aud` the service's origin, `exp`
within a day) and an aes128gcm body that decrypts with the subscription's keys (RFC 8291).
It records TTL, Urgency, Topic, the raw body and the decrypted payload; `answer()` makes
it answer the next pushes with given statuses (429 with Retry-After, 404, 410, 5xx).
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    ttl: str | None
    urgency: str | None
    topic: str | None
    encoding: str | None
    body: bytes
    payload: dict[str, Any] | None
    claims: dict[str, Any]
    problem: str = ""


@dataclass
class Subscription:
    endpoint: str
    key: ec.EllipticCurvePrivateKey
    auth: bytes

    def as_browser_gives_it(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint,
                "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}


@dataclass
class StandIn:
    server: ThreadingHTTPServer
    subscriptions: dict[str, Subscription] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    answers: list[tuple[int, dict[str, str]]] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def subscribe(self) -> Subscription:
        name = b64url(os.urandom(9))
        found = Subscription(endpoint=f"{self.origin}/push/{name}",
                             key=ec.generate_private_key(ec.SECP256R1()), auth=os.urandom(16))
        self.subscriptions[f"/push/{name}"] = found
        return found

    def answer(self, *statuses: int, retry_after: int | None = None) -> None:
        """The next pushes get these statuses (then 201 again)."""
        extra = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        self.answers.extend((status, extra) for status in statuses)

    def check(self, path: str, headers: Any, body: bytes) -> Received:
        claims, problem = self._vapid(headers.get("Authorization", ""))
        subscription = self.subscriptions.get(path)
        payload = None
        if subscription is None:
            problem = problem or "unknown subscription"
        elif headers.get("Content-Encoding") != "aes128gcm":
            problem = problem or "not aes128gcm"
        else:
            try:
                plain = http_ece.decrypt(body, private_key=subscription.key,
                                         auth_secret=subscription.auth, version="aes128gcm")
                payload = json.loads(plain)
            except Exception as error:
                problem = problem or f"does not decrypt: {error!r}"
        return Received(path=path, ttl=headers.get("TTL"), urgency=headers.get("Urgency"),
                        topic=headers.get("Topic"), encoding=headers.get("Content-Encoding"),
                        body=body, payload=payload, claims=claims, problem=problem)

    def _vapid(self, authorization: str) -> tuple[dict[str, Any], str]:
        if not authorization.startswith("vapid "):
            return {}, "no VAPID authorization"
        parts = dict(item.strip().split("=", 1) for item in authorization[6:].split(","))
        token, key = parts.get("t", ""), parts.get("k", "")
        try:
            header, claims_part, signature = token.split(".")
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
            raw = unb64url(signature)
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                       int.from_bytes(raw[32:], "big"))
            public.verify(der, f"{header}.{claims_part}".encode(), ec.ECDSA(hashes.SHA256()))
            claims = json.loads(unb64url(claims_part))
        except (ValueError, InvalidSignature) as error:
            return {}, f"bad VAPID signature: {error!r}"
        if claims.get("aud") != self.origin:
            return claims, "wrong audience"
        if not time.time() < int(claims.get("exp", 0)) <= time.time() + 24 * 3600:
            return claims, "expired or too long"
        return claims, ""


def start() -> StandIn:
    standin: StandIn

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            standin.received.append(standin.check(self.path, self.headers, body))
            status, extra = standin.answers.pop(0) if standin.answers else (201, {})
            self.send_response(status)
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    standin = StandIn(server=server)
    # Looking for a shutdown every 20 ms, not every 0.5 s: the teardown of each test that
    # uses the service waited out the default.
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                     daemon=True).start()
    return standin
