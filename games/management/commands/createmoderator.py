"""python manage.py createmoderator USERNAME --email EMAIL [--password-from-env [VAR]]

Creates a staff user in the "moderators" group (or puts an existing user there and
makes them staff). The password is asked for twice, or read from the environment
variable VAR (default MODERATOR_PASSWORD) for scripted setups. Moderators get the
dispute emails at EMAIL.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.contrib.auth.models import Group, User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games.moderation.services.dispute_mail import MODERATORS_GROUP
from games.people.core.deliverable import validate_deliverable

DEFAULT_ENV = "MODERATOR_PASSWORD"


class Command(BaseCommand):
    help = "Create a moderator: a staff user in the moderators group."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--email", required=True, help="where dispute emails go")
        parser.add_argument("--password-from-env", nargs="?", const=DEFAULT_ENV, default=None,
                            metavar="VAR",
                            help=f"read the password from $VAR (default {DEFAULT_ENV}) "
                                 "instead of asking")

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"].strip()
        email: str = options["email"].strip()
        try:
            validate_deliverable(email)
        except ValidationError as refused:
            raise CommandError(f"{email!r}: {' '.join(refused.messages)}") from None
        try:
            group = Group.objects.get(name=MODERATORS_GROUP)
        except Group.DoesNotExist:
            raise CommandError("the moderators group is missing: run migrate first") from None
        user = User.objects.filter(username=username).first()
        password = self.password(options["password_from_env"], required=user is None)
        with transaction.atomic():
            created = user is None
            if user is None:
                user = User(username=username)
            user.email = email
            user.is_staff = True
            user.is_active = True
            if password is not None:
                try:
                    validate_password(password, user)
                except ValidationError as error:
                    raise CommandError(" ".join(error.messages)) from None
                user.set_password(password)
            user.save()
            user.groups.add(group)
        verb = "created" if created else "updated"
        self.stdout.write(f"moderator {username} {verb} (staff, in the {MODERATORS_GROUP} group)")

    def password(self, env_var: str | None, *, required: bool) -> str | None:
        """From the environment, or asked twice; None keeps an existing user's password."""
        if env_var is not None:
            value = os.environ.get(env_var)
            if not value:
                raise CommandError(f"${env_var} is not set")
            return value
        if not required and not self.confirm_change():
            return None
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("the passwords do not match")
        if not first:
            raise CommandError("the password may not be empty")
        return first

    def confirm_change(self) -> bool:
        answer = input("The user exists. Set a new password? [y/N] ")
        return answer.strip().lower().startswith("y")
