"""Pages of a user's own notices: the list (unread first in mind, newest first), marking
read, and the settings of which notices come on which channel. Thin: ``services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from notifications import services, texts
from notifications.models import Notice

PAGE_SIZE = 30


@login_required
@require_GET
def notice_list(request: HttpRequest) -> HttpResponse:
    notices = services.visible(request.user)
    unread_only = request.GET.get("unread") == "1"
    if unread_only:
        notices = notices.filter(read_at__isnull=True)
    page = Paginator(notices, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "notifications/list.html",
        {
            "page": page,
            "items": [(n, texts.title(n), texts.body(n)) for n in page.object_list],
            "unread": services.unread_count(request.user),
            "unread_only": unread_only,
        },
    )


def _back(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@login_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    try:
        notice = services.mark_read(request.user, request.POST.get("notice"))
    except Notice.DoesNotExist:
        raise Http404("no such notice") from None
    if request.POST.get("open") and notice.url:
        return redirect(notice.url)
    return redirect(_back(request, "notifications:list"))


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    count = services.mark_all_read(request.user)
    if count:
        messages.success(request, _("Every notice is marked read."))
    return redirect(_back(request, "notifications:list"))


@login_required
@require_http_methods(["GET", "POST"])
def notice_settings(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        muted = [
            f"{kind}:{channel}"
            for kind in Notice.Kind.values
            for channel in services.CHANNELS
            if not request.POST.get(f"{kind}:{channel}")
        ]
        try:
            services.save_preferences(request.user, muted, request.POST.get("language") or "")
        except services.NoticeError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Notice settings saved."))
            return redirect("notifications:settings")
    prefs = services.preferences(request.user)
    rows = [
        (
            kind,
            label,
            [
                (f"{kind}:{channel}", services.wants(prefs, kind, channel), where)
                for channel, where in (
                    (services.BROWSER, _("on the site")),
                    (services.EMAIL, _("by e-mail")),
                )
            ],
        )
        for kind, label in Notice.Kind.choices
    ]
    return render(
        request,
        "notifications/settings.html",
        {
            "rows": rows,
            "prefs": prefs,
            "has_email": bool(request.user.email),
            "mail_language": services.language_for(prefs),
        },
    )
