"""Settings for the commands a player runs on their own machine (manage.py's
OFFLINE_COMMANDS: `verifygame`): they read no database and hold no secret, so they need
none of the server's settings.

The real settings, with throwaway random keys (SECRET_KEY, LINK_KEY: nothing here signs
anything that outlives the command, nor makes a link) and an in-memory database: no
DEBUG, no SECRET_KEY, no LINK_KEY, no DATABASE_URL in the environment. manage.py picks
this module only for those commands; the server (gunicorn's wsgi, `run.py serve`, every
other command) reads saboteur_site.settings, which still refuses to start without
SECRET_KEY and LINK_KEY when DEBUG is off.
"""

import os
import secrets

os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("LINK_KEY", secrets.token_urlsafe(50))
os.environ["DATABASE_URL"] = "sqlite://:memory:"

from .settings import *  # noqa: F403
