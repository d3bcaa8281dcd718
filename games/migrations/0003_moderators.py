"""Moderation permissions and the "moderators" group.

The group gets exactly what the moderation tools need: read access to the game
tables in the admin, `games.view_secrets` (the moderation page: every hand, role,
goal and the deck; raw moves; private dispute texts) and `games.moderate_game`
(every moderator action, resolving disputes). Nothing else: the admin never edits
game rows directly, every change goes through games.moderation.services with a reason.
"""

from django.db import migrations

GROUP = "moderators"
PERMISSIONS = [
    ("game", "view_game"),
    ("game", "view_secrets"),
    ("game", "moderate_game"),
    ("seat", "view_seat"),
    ("move", "view_move"),
    ("message", "view_message"),
    ("gamenotice", "view_gamenotice"),
    ("dispute", "view_dispute"),
    ("notification", "view_notification"),
    ("moderatoraction", "view_moderatoraction"),
]


def create_group(apps, schema_editor):
    # Permissions are normally created after all migrations (post_migrate); create
    # this app's now so the group can point at them.
    from django.contrib.auth.management import create_permissions

    config = apps.get_app_config("games")
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0, using=schema_editor.connection.alias)
    config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.using(schema_editor.connection.alias).get_or_create(name=GROUP)
    wanted = []
    for model, codename in PERMISSIONS:
        wanted.append(Permission.objects.using(schema_editor.connection.alias).get(
            content_type__app_label="games", content_type__model=model, codename=codename))
    group.permissions.set(wanted)


def remove_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).filter(name=GROUP).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_email_moderation_models"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="game",
            options={
                "ordering": ["-created_at"],
                "permissions": [
                    ("view_secrets", "Can see a game's hidden information"),
                    ("moderate_game", "Can take moderator actions on a game"),
                ],
                "verbose_name": "game",
                "verbose_name_plural": "games",
            },
        ),
        migrations.RunPython(create_group, remove_group),
    ]
