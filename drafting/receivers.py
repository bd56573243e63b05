"""What the drafting app does when the tournament announces something, and its answer to
the tournament's question (``tournaments.announce``), connected in ``DraftingConfig.ready()``."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import announce, console
from tournaments.services.errors import NotAllowed as EventNotAllowed
from tournaments.services.errors import TournamentError


def seats_to_bots(sender, registration, **kwargs) -> None:
    """A player is leaving an event: once that commits, a bot takes their pod seats."""
    from drafting.services.seats import hand_dropped_seats_to_bots_on_commit

    hand_dropped_seats_to_bots_on_commit(registration)


def limited_decks_problem(event) -> str | None:
    """Why the pods of a limited event have not made every deck yet, or None."""
    from drafting.models import Pod

    pods = Pod.objects.filter(event=event)
    if not pods.exists():
        return _("Seat the players in pods first: their decks come from the pods.")
    open_pods = pods.exclude(status=Pod.Status.FINISHED).count()
    if open_pods:
        return _("The draft is not over: %(n)d pod(s) are still drafting or building decks.") % {
            "n": open_pods
        }
    return None


# ---------------------------------------------------------------- the organiser's console


def pods_form(event, data=None):
    """The pod settings of a limited event's "make pods"."""
    from drafting.forms import EventPodsForm

    form = EventPodsForm(data, event=event)
    if data is not None and not any(name in data for name in form.fields):
        # A bare "make pods" (the API, an old page): the defaults.
        defaults = {name: field.initial for name, field in form.fields.items()}
        initial = {k: v for k, v in defaults.items() if v not in (None, False)}
        form = EventPodsForm(initial, event=event)
    return form


def _pods(make: bool):
    def run(user, event, post):
        from drafting.services.creating import create_event_pods
        from drafting.services.errors import NotAllowed, PodError
        from drafting.services.starting import start_event_pods

        try:
            if make:
                form = pods_form(event, post)
                if not form.is_valid():
                    raise TournamentError(
                        "; ".join(
                            f"{form.fields[k].label if k in form.fields else k}: {' '.join(v)}"
                            for k, v in form.errors.items()
                        )
                    )
                return create_event_pods(user, event, **form.pod_settings())
            return start_event_pods(user, event)
        except NotAllowed as exc:
            raise EventNotAllowed(str(exc)) from None
        except PodError as exc:
            raise TournamentError(str(exc)) from None

    return run


def console_context(event) -> dict:
    return {"pods_form": pods_form(event)}


def connect() -> None:
    announce.registration_leaving.connect(seats_to_bots, dispatch_uid="drafting.seats_to_bots")
    announce.answer_limited_decks(limited_decks_problem)
    console.add_action(
        "make-pods", _pods(True), gettext_lazy("Pods made: players can take their seats now.")
    )
    console.add_action(
        "start-pods", _pods(False), gettext_lazy("The pods have started: the boosters are open.")
    )
    console.add_context(console_context)
