"""The home's theme switch: "as my device", light or dark, for every page of the person
(their home and their seat pages; the other pages follow the device). Kept on the home
link's row, so the data export shows it and "forget me" erases it with the row."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.kit.service_errors import ServiceError
from games.people.core.home_links import THEMES, HomeLink, home_row


def set_theme(address: str, theme: str) -> None:
    """Keep the person's theme; anything but "", "light" or "dark" is refused."""
    if theme not in THEMES:
        raise ServiceError("bad_theme", _("There is no such theme."), status=400)
    with transaction.atomic():
        HomeLink.objects.filter(pk=home_row(address).pk).update(theme=theme)


def theme_choices() -> list[tuple[str, str]]:
    """The switch's three choices with their words, in the home's language."""
    return [("", _("As my device")), ("light", _("Light")), ("dark", _("Dark"))]
