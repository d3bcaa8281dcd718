"""The admin's pages of alerts: devices (never their endpoint or keys), alerts, and the
receipt rates per kind and browser family on the alerts' list."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse

from games.push.core.push_rows import PushAlert, PushDevice
from games.push.services.receipts import rates


@admin.register(PushDevice)
class PushDeviceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pk", "name", "browser", "kinds", "created_at", "last_ok_at")
    list_filter = ("browser",)
    fields = ("name", "browser", "kinds", "created_at", "last_ok_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PushAlert)
class PushAlertAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("pk", "kind", "browser", "status", "attempts", "created_at", "sent_at",
                    "shown_at", "clicked_at", "holds_email")
    list_filter = ("kind", "browser", "status")
    readonly_fields = ("notification", "device", "kind", "browser", "status", "attempts",
                       "last_error", "holds_email", "created_at", "not_before", "claimed_at",
                       "retry_at", "sent_at", "shown_at", "clicked_at")
    change_list_template = "admin/push_alerts.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def changelist_view(self, request: HttpRequest,
                        extra_context: dict[str, Any] | None = None) -> TemplateResponse:
        context = {**(extra_context or {}), "receipt_rates": rates()}
        response = super().changelist_view(request, extra_context=context)
        assert isinstance(response, TemplateResponse)
        return response
