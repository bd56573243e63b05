"""The site's URLs plus one page that fails, for the error-capture tests."""

from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def broken_page(request):
    if request.user.is_authenticated:
        raise RuntimeError(f"the broken page broke for {request.user.get_username()}")
    raise RuntimeError("the broken page broke")


urlpatterns = [path("broken/", broken_page), *site_urlpatterns]
