"""Printouts of an event: pages (the print preview) and PDF, on the site and in the API.

Thin: parse ``?round=``, ``?paper=`` and ``?layout=`` (result slips 1, 2 or 4 to a
sheet), let ``services.printouts`` say what the document
holds and who may print it, render ``templates/tournaments/print/`` and, for a PDF, hand
the HTML to WeasyPrint. A slip or a decklist sheet asked by someone not logged in is
sent to log in, as the console is; by anyone else but an official, refused (403).

A PDF of more than ``service.BACKGROUND_PAGES`` pages (a big event's slips or decklist
sheets) is made by a Celery task, not in the request: the request answers 202, a page
"Preparing N pages…" that polls (htmx) until the PDF is in the cache, then offers it;
the API answers 202 with ``Location`` (the same address) and ``Retry-After``, and the
PDF itself once made. Two clicks make one PDF (decision 0058).
"""

from __future__ import annotations

import re
import time

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import tasks
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
    service.check_may_print(request.user, event, kind)  # who may, before what they asked
    layout = service.layout_of(request.GET.get("layout"), kind)
    return service.printout(
        request.user,
        event,
        kind,
        paper=paper,
        round_number=request.GET.get("round"),
        pairing_rows=_pairing_rows,
        layout=layout,
    )


def _html(request, doc: service.Printout, *, pdf: bool) -> str:
    event = doc.event
    links = {}
    layouts = {}
    if not pdf:
        base = reverse("tournaments:printout_pdf", args=[event.slug, doc.kind])
        query = f"round={doc.round.number}&" if doc.round is not None else ""
        up = f"&layout={doc.layout}" if doc.layout != 1 else ""
        links = {paper: f"{base}?{query}paper={paper}{up}" for paper in service.PAPERS}
        if doc.kind == service.SLIPS:  # the preview in each layout, on this paper
            page = reverse("tournaments:printout", args=[event.slug, doc.kind])
            layouts = {
                n: f"{page}?{query}paper={doc.paper}" + (f"&layout={n}" if n != 1 else "")
                for n in service.LAYOUTS
            }
    return render_to_string(
        TEMPLATES[doc.kind],
        {
            "doc": doc,
            "event": event,
            "game_name": _game_name(event),
            "pdf": pdf,
            "pdf_links": links,
            "layout_links": layouts,
            **doc.data,
        },
        request=request,
    )


def _queue(key: str) -> None:
    tasks.render_printout.apply_async((key,))


def _background(request, doc: service.Printout) -> tuple[bytes | None, str, dict]:
    """A big printout: its PDF if made, else its key and state (queued on first ask).
    ``?wait=<digest>`` (the preparing page's polls) names the key without laying out
    the HTML again; a failed one is queued again by ``?again=1``."""
    wait = request.GET.get("wait", "")
    if re.fullmatch(r"[0-9a-f]{24}", wait):
        key = service.stored_key(doc, "", digest=wait)
    else:
        html = _html(request, doc, pdf=True)
        key = service.stored_key(doc, html)
    pdf = service.stored_pdf(key)
    if pdf is not None:
        return pdf, key, {"state": service.READY, "pages": service.pages_of(doc)}
    state = service.state_of(key)
    if state is not None and state["state"] == service.FAILED and request.GET.get("again"):
        service.forget_failed(key)
        state = None
    if state is None and not wait:
        _queued, state = service.request_background(key, html, service.pages_of(doc), _queue)
    return None, key, state or {"state": service.FAILED, "pages": service.pages_of(doc)}


def _pdf_response(pdf: bytes, doc: service.Printout) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{doc.filename}"'
    return response


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
    except (service.BadPaper, service.BadLayout) as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    if not pdf:
        return HttpResponse(_html(request, doc, pdf=False))
    if not service.in_background(doc):
        return _pdf_response(service.render_pdf(_html(request, doc, pdf=True)), doc)
    made, key, state = _background(request, doc)
    polling = "wait" in request.GET
    if made is not None and not polling:
        return _pdf_response(made, doc)
    base = reverse("tournaments:printout_pdf", args=[event.slug, kind])
    address = f"{base}?{doc.query}"
    context = {
        "doc": doc,
        "event": event,
        "state": state,
        "pages": state.get("pages") or service.pages_of(doc),
        "elapsed": max(0, int(time.time() - (state.get("queued_at") or time.time()))),
        "download": address,
        "poll": f"{address}&wait={key.rsplit(':', 1)[1]}",
        "again": f"{address}&again=1",
    }
    template = (
        "tournaments/print/_preparing.html" if polling else "tournaments/print/preparing.html"
    )
    return render(request, template, context, status=200 if polling else 202)


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
            "slip per table, 1, 2 or 4 to a page by `layout`, with cut lines), `standings`, `decklists` (a registration sheet per player, "
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
            OpenApiParameter(
                "layout",
                OpenApiTypes.INT,
                enum=list(service.LAYOUTS),
                description=(
                    "Result slips to a sheet of paper: 1 (default), 2 (the sheet cut across) "
                    "or 4 (a landscape sheet cut in quarters), with dashed cut lines. Slips "
                    "only: another printout answers 400 to any layout but 1."
                ),
            ),
        ],
        responses={
            (200, "application/pdf"): OpenApiResponse(
                response=OpenApiTypes.BINARY, description="The PDF."
            ),
            (202, "application/json"): OpenApiResponse(
                response=OpenApiTypes.OBJECT,
                description=(
                    "A big printout (over 60 pages, or over 60 result slips whatever the "
                    "layout) is being made in the background: "
                    '`{"detail", "state": "queued|rendering|failed", "pages"}`; ask '
                    "again at `Location` after `Retry-After` seconds for the PDF."
                ),
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
        except service.BadLayout as exc:
            raise exceptions.ValidationError({"layout": [str(exc)]}) from None
        if not service.in_background(doc):
            return _pdf_response(service.render_pdf(_html(request, doc, pdf=True)), doc)
        made, _key, state = _background(request, doc)
        if made is not None:
            return _pdf_response(made, doc)
        pages = state.get("pages") or service.pages_of(doc)
        response = Response(
            {
                "detail": ngettext(
                    "Preparing %(pages)d page: ask again at this address.",
                    "Preparing %(pages)d pages: ask again at this address.",
                    pages,
                )
                % {"pages": pages},
                "state": state["state"],
                "pages": pages,
            },
            status=202,
        )
        response["Location"] = request.get_full_path()
        response["Retry-After"] = "2"
        return response

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(response, Response):  # an error: always JSON
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
            response.content_type = None
        return response
