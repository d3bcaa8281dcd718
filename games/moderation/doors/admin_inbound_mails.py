"""Inbound emails (moves by email): what each reply did, and replies whose From is not
the seat's address (the token decides; moderators may want a look).

Its own module as each admin page of the games app is (games.admin lists them).
"""

from __future__ import annotations

from django.contrib import admin

from games.inbound.core.inbound_mail import InboundMail
from games.moderation.doors.admin_records import GameColumn, SecretFieldsAdmin


@admin.register(InboundMail)
class InboundMailAdmin(GameColumn, SecretFieldsAdmin):
    list_display = ("received_at", "sender", "game_name", "seat", "outcome", "from_mismatch",
                    "answered")
    list_filter = ("from_mismatch", "outcome", "answered")
    search_fields = ("sender", "game__name", "message_id")
    list_select_related = ("game", "seat")
    show_full_result_count = False
    fields = ("received_at", "sender", "game", "seat", "outcome", "from_mismatch", "answered",
              "message_id", "event_id", "detail")
    secret_fields = ("detail",)  # a refusal can name a card of the hand
