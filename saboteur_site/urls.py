from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, re_path

from games.inbound.doors.webhook import inbound_webhook

urlpatterns = [
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico whatever the page says.
    path("favicon.ico", lambda request: HttpResponsePermanentRedirect(static("games/favicon.svg"))),
    # Replies to turn emails: stored unread, with anymail's credential checks; anymail's own
    # inbound views (which parse the message) are never reached
    # (games/inbound/doors/webhook.py).
    re_path(r"^anymail/(?P<esp>[a-z_]+)/inbound(?:_mime)?/$", inbound_webhook),
    # The email provider's delivery reports: /anymail/<provider>/tracking/
    # (docs/operations.md "Email: how it runs").
    path("anymail/", include("anymail.urls")),
    # Django's set_language (POST with CSRF): the switcher on the home and setup pages.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.site.urls")),
]

# Friendly pages (JSON under /api/): games/site/error_pages.py.
handler400 = "games.site.error_pages.bad_request"
handler404 = "games.site.error_pages.not_found"
handler500 = "games.site.error_pages.server_error"
