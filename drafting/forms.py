from __future__ import annotations

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from drafting.models import MAX_SEATS, MIN_SEATS, Pod

# The pod settings both forms ask for (a casual pod's own form and a limited event's
# "make pods"), with the same words and defaults as the Pod fields they fill.


def _review_seconds_field(max_value: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=_("review time between boosters (seconds)"),
        min_value=0,
        max_value=max_value,
        initial=20,
    )


def _build_minutes_field() -> forms.IntegerField:
    return forms.IntegerField(
        label=_("deck-building time (minutes)"), min_value=1, max_value=240, initial=30
    )


def _abandon_after_field(required: bool) -> forms.IntegerField:
    return forms.IntegerField(
        label=_("timed-out picks in a row before a bot takes the seat (0 = never)"),
        min_value=0,
        max_value=60,
        initial=3,
        required=required,
    )


class PodForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=120, required=False)
    game_system = forms.ChoiceField(label=_("game"), choices=(), required=False)
    kind = forms.ChoiceField(label=_("kind"), choices=Pod.Kind.choices, initial=Pod.Kind.DRAFT)
    seats_count = forms.IntegerField(
        label=_("seats"), min_value=MIN_SEATS, max_value=MAX_SEATS, initial=8
    )
    set_codes = forms.CharField(
        label=_("boosters"),
        required=False,
        help_text=_(
            "The set of each booster in order, e.g. %(examples)s; empty: the game's own boosters."
        ),
    )
    pick_base_seconds = forms.IntegerField(
        label=_("pick time: base seconds"), min_value=0, max_value=3600, initial=5
    )
    pick_seconds_per_card = forms.IntegerField(
        label=_("pick time: seconds per card in the pack"), min_value=0, max_value=3600, initial=5
    )
    pick_max_seconds = forms.IntegerField(
        label=_("pick time: at most (seconds, 0 = no timer)"),
        min_value=0,
        max_value=3600,
        initial=75,
    )
    review_seconds = _review_seconds_field(max_value=3600)
    build_minutes = _build_minutes_field()
    abandon_after = _abandon_after_field(required=False)

    def clean_abandon_after(self) -> int:
        value = self.cleaned_data.get("abandon_after")
        return 3 if value is None else value

    def __init__(self, *args, game_system: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        from engine.core import registry

        info = registry.get(game_system) if game_system else registry.default_drafting_system()
        games = self.fields["game_system"]
        games.choices = [
            (i.key, i.label(get_language() or "en")) for i in registry.drafting_systems()
        ]
        games.initial = info.key
        # Every game's own boosters as the example, named: the game is chosen on the same
        # form, and one game's sets do not open in another's pod.
        examples = [
            _("%(game)s: “%(sets)s” (sealed: %(n)d)")
            % {
                "game": i.label(get_language() or "en"),
                "sets": " ".join([i.draft_sets[0]] * i.boosters_per_player),
                "n": i.sealed_boosters,
            }
            for i in registry.drafting_systems()
        ]
        field = self.fields["set_codes"]
        field.help_text = field.help_text % {"examples": "; ".join(examples)}

    def clean_set_codes(self) -> list[str]:
        text = (self.cleaned_data.get("set_codes") or "").replace(",", " ")
        return [code.strip().upper() for code in text.split() if code.strip()]

    def pod_settings(self) -> dict:
        """The settings for ``create_pod``: no boosters given means the game's own."""
        settings = dict(self.cleaned_data)
        for key in ("set_codes", "game_system"):
            if not settings.get(key):
                settings.pop(key, None)
        return settings


class EventPodsForm(forms.Form):
    """The pod settings an organiser chooses when making the pods of a Draft or Sealed
    event (the event console). The pick timer's scale multiplies the default times."""

    timer = forms.BooleanField(label=_("pick timer"), required=False, initial=True)
    timer_scale = forms.IntegerField(
        label=_("pick time (percent of 5 s + 5 s a card, at most 75 s)"),
        min_value=25,
        max_value=400,
        initial=100,
    )
    review_seconds = _review_seconds_field(max_value=600)
    build_minutes = _build_minutes_field()
    boosters_per_player = forms.IntegerField(
        label=_("boosters per player"), min_value=1, max_value=12
    )
    abandon_after = _abandon_after_field(required=True)

    def __init__(self, *args, event=None, **kwargs):
        super().__init__(*args, **kwargs)
        if event is not None:
            from drafting.services.creating import event_pod_kind
            from engine.core import registry

            info = registry.get(event.game_system)
            sealed = event_pod_kind(event) == Pod.Kind.SEALED
            self.fields["boosters_per_player"].initial = (
                info.sealed_boosters if sealed else info.boosters_per_player
            )
            if sealed:  # no picks, so no pick timer and no review
                for name in ("timer", "timer_scale", "review_seconds", "abandon_after"):
                    self.fields[name].required = False
                    self.fields[name].widget = forms.HiddenInput()

    def pod_settings(self) -> dict:
        """The keyword arguments of ``drafting.services.creating.create_event_pods``."""
        data = self.cleaned_data
        scale = (data.get("timer_scale") or 100) / 100
        timer = bool(data.get("timer"))
        out = {
            "pick_base_seconds": round(5 * scale),
            "pick_seconds_per_card": round(5 * scale),
            "pick_max_seconds": round(75 * scale) if timer else 0,
            "review_seconds": data.get("review_seconds"),
            "build_minutes": data["build_minutes"],
            "boosters_per_player": data["boosters_per_player"],
            "abandon_after": data.get("abandon_after"),
        }
        return {k: v for k, v in out.items() if v is not None}
