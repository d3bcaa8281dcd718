from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    # The email provider's delivery reports: /anymail/<provider>/tracking/ (README "Email").
    path("anymail/", include("anymail.urls")),
    path("", include("games.web.urls")),
]
