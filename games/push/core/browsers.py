"""A device's browser family, from the User-Agent it subscribed with: only the family
(receipt rates per browser in /metrics and the admin), never the whole string."""

from __future__ import annotations


def browser_family(user_agent: str) -> str:
    agent = user_agent.lower()
    if "edg/" in agent or "edga/" in agent or "edgios/" in agent:
        return "edge"
    if "samsungbrowser" in agent:
        return "samsung"
    if "opr/" in agent:
        return "opera"
    if "firefox/" in agent or "fxios/" in agent:
        return "firefox"
    if "chrome/" in agent or "crios/" in agent or "chromium/" in agent:
        return "chrome"
    if "safari/" in agent:
        return "safari"
    return "other"
