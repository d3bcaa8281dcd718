from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico whatever the page says.
    path("favicon.ico", lambda request: HttpResponsePermanentRedirect(static("games/favicon.svg"))),
    # The email provider's delivery reports: /anymail/<provider>/tracking/ (README "Email").
    path("anymail/", include("anymail.urls")),
    # Django's set_language (POST with CSRF): the switcher on the home and setup pages.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.web.urls")),
]

# Friendly pages (JSON under /api/): games/web/views/errors.py.
handler400 = "games.web.views.errors.bad_request"
handler404 = "games.web.views.errors.not_found"
handler500 = "games.web.views.errors.server_error"
