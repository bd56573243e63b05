"""The Content-Security-Policy of the site (django-csp), and the API docs pages' own.

The policy itself is ``CONTENT_SECURITY_POLICY`` in the settings: the site's own scripts
and styles only, no inline script or style, no eval. Two things it cannot say there:

* the websocket address of the page's own host: CSP level 3 lets ``'self'`` match it, but
  browsers that predate that rule do not, so the middleware adds ``ws://<host>`` (``wss://``
  on https) to ``connect-src``, the host being the request's, checked by Django against
  ``ALLOWED_HOSTS``;
* the API docs (Swagger UI, Redoc, drf-spectacular-sidecar): Swagger UI runs under the
  site's policy (its start script is a file of its own, ``SpectacularSwaggerSplitView``,
  and its page's styles a stylesheet); Redoc writes its styles into ``<style>`` elements,
  searches in a worker made from a ``blob:`` and shows its maker's logo from
  cdn.redoc.ly in every page it draws, so its page allows those three.
"""

from __future__ import annotations

from csp.constants import SELF, UNSAFE_INLINE
from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.core.exceptions import DisallowedHost


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with the request's own websocket origin in connect-src."""

    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if report_only or not self._has_connect_src(parts):
            return parts
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts
        scheme = "wss" if request.is_secure() else "ws"
        update = dict(parts.update or {})
        update["connect-src"] = [*_listed(update.get("connect-src")), f"{scheme}://{host}"]
        parts.update = update
        return parts

    @staticmethod
    def _has_connect_src(parts: PolicyParts) -> bool:
        if parts.replace and "connect-src" in parts.replace:
            return parts.replace["connect-src"] is not None
        config = parts.config
        if config is None:
            config = getattr(settings, "CONTENT_SECURITY_POLICY", {}).get("DIRECTIVES", {})
        return bool(config.get("connect-src"))


def _listed(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


# What Redoc's page adds to the site's policy (config.urls).
REDOC_POLICY = {
    "style-src": [UNSAFE_INLINE],
    "worker-src": [SELF, "blob:"],
    "img-src": ["https://cdn.redoc.ly"],
}
