#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

# Commands that touch no server state (no database, no secret): a player runs them on
# their own machine without the server's settings (saboteur_site/offline_settings.py).
OFFLINE_COMMANDS = {"verifygame"}


def main() -> None:
    offline = len(sys.argv) > 1 and sys.argv[1] in OFFLINE_COMMANDS
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.offline_settings"
                          if offline else "saboteur_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
