from csp.decorators import csp_update
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic.base import RedirectView
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from config.api_root import ApiRoot
from config.security import REDOC_POLICY

urlpatterns = [
    # Browsers ask for /favicon.ico whatever the page links: the site's icon is an SVG.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", ApiRoot.as_view(), name="api-root"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI's start script is served apart (?script), not inline: see config.security.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path(
        "api/redoc/",
        csp_update(REDOC_POLICY)(SpectacularRedocView.as_view(url_name="schema")),
        name="api-redoc",
    ),
    path("api/drafts/", include("drafting.api_urls")),
    path("api/notifications/", include("notifications.api_urls")),
    path("api/", include("tournaments.api_urls")),
    path("draft/", include("drafting.urls")),
    path("play/", include("play.urls")),
    path("staff/", include("dashboard.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("tournaments.urls")),
]
