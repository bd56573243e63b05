"""Printouts of an event: pages (the print preview) and PDF, on the site and in the API.

Thin: parse ``?round=`` and ``?paper=``, let ``services.printouts`` say what the document
holds and who may print it, render ``templates/tournaments/print/`` and, for a PDF, hand
the HTML to WeasyPrint. A slip or a decklist sheet asked by someone not logged in is
sent to log in, as the console is; by anyone else but an official, refused (403).
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api import ApiMixin, _errors, _event_or_404
from tournaments.models import Event
from tournaments.services import printouts as service
from tournaments.services.errors import NotAllowed
from tournaments.views import _event, _game_name, _pairing_rows

TEMPLATES = {
    service.PAIRINGS: "tournaments/print/pairings.html",
    service.BY_NAME: "tournaments/print/pairings_by_name.html",
    service.SLIPS: "tournaments/print/slips.html",
    service.STANDINGS: "tournaments/print/standings.html",
    service.DECKLISTS: "tournaments/print/decklists.html",
}


def _document(request, event: Event, kind: str, *, pdf: bool) -> service.Printout:
    paper = service.paper_of(request.GET.get("paper"), request.META.get("HTTP_ACCEPT_LANGUAGE", ""))
    return service.printout(
        request.user,
        event,
        kind,
        paper=paper,
        round_number=request.GET.get("round"),
        pairing_rows=_pairing_rows,
    )


def _html(request, doc: service.Printout, *, pdf: bool) -> str:
    event = doc.event
    links = {}
    if not pdf:
        base = reverse("tournaments:printout_pdf", args=[event.slug, doc.kind])
        query = f"round={doc.round.number}&" if doc.round is not None else ""
        links = {paper: f"{base}?{query}paper={paper}" for paper in service.PAPERS}
    return render_to_string(
        TEMPLATES[doc.kind],
        {
            "doc": doc,
            "event": event,
            "game_name": _game_name(event),
            "pdf": pdf,
            "pdf_links": links,
            **doc.data,
        },
        request=request,
    )


def _page(request: HttpRequest, slug: str, kind: str, *, pdf: bool) -> HttpResponse:
    event = _event(slug)
    try:
        doc = _document(request, event, kind, pdf=pdf)
    except NotAllowed as exc:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(str(exc)) from None
    except service.NothingToPrint as exc:
        raise Http404(str(exc)) from None
    except service.BadPaper as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    html = _html(request, doc, pdf=pdf)
    if not pdf:
        return HttpResponse(html)
    response = HttpResponse(service.render_pdf(html), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{doc.filename}"'
    return response


@require_GET
def printout_page(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """The print preview: the document as the browser prints it (``print.css``)."""
    return _page(request, slug, kind, pdf=False)


@require_GET
def printout_pdf(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    return _page(request, slug, kind, pdf=True)


# ---------------------------------------------------------------- API


class PDFRenderer(BaseRenderer):
    """Lets a client ask for ``application/pdf``; the PDF itself is sent as it is made."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, bytes) else JSONRenderer().render(data)


class PrintoutView(ApiMixin, APIView):
    renderer_classes = [PDFRenderer, JSONRenderer]

    @extend_schema(
        summary="A printout (PDF)",
        description=(
            "`pairings` (by table) and `pairings-by-name` for the wall, `slips` (a result "
            "slip per table), `standings`, `decklists` (a registration sheet per player, "
            "sections as the game names them). The pairings and the standings are as "
            "public as their pages (a round under review: officials only); the slips and "
            "the decklist sheets are for the event's organisers and judges. Errors are "
            'JSON: `{"detail": "..."}`.'
        ),
        parameters=[
            OpenApiParameter(
                "kind", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(service.KINDS)
            ),
            OpenApiParameter(
                "round",
                OpenApiTypes.INT,
                description="The round (pairings and slips); default: the last published.",
            ),
            OpenApiParameter(
                "paper",
                OpenApiTypes.STR,
                enum=list(service.PAPERS),
                description="Paper size; default: from Accept-Language (A4 unless a Letter region).",
            ),
        ],
        responses={
            (200, "application/pdf"): OpenApiResponse(
                response=OpenApiTypes.BINARY, description="The PDF."
            ),
            **_errors(400, 401, 403, 404),
        },
    )
    def get(self, request, event_slug: str, kind: str):
        event = _event_or_404(event_slug)
        try:
            doc = _document(request, event, kind, pdf=True)
        except service.NothingToPrint as exc:
            raise exceptions.NotFound(str(exc)) from None
        except service.BadPaper as exc:
            raise exceptions.ValidationError({"paper": [str(exc)]}) from None
        response = HttpResponse(
            service.render_pdf(_html(request, doc, pdf=True)), content_type="application/pdf"
        )
        response["Content-Disposition"] = f'inline; filename="{doc.filename}"'
        return response

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(response, Response):  # an error: always JSON
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
            response.content_type = None
        return response
