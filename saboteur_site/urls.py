from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # The email provider's delivery reports: /anymail/<provider>/tracking/ (README "Email").
    path("anymail/", include("anymail.urls")),
    # Django's set_language (POST with CSRF): the switcher on the home and setup pages.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.web.urls")),
]
