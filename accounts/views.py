from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("tournaments:event_list")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # Named: with django-axes' backend first there are two in AUTHENTICATION_BACKENDS.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        target = request.GET.get("next") or ""
        if not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            target = ""  # only a page of this site: never send a new player elsewhere
        return redirect(target or "tournaments:event_list")
    return render(request, "registration/signup.html", {"form": form})
