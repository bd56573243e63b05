from __future__ import annotations

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from engine.core import registry
from tournaments.models import Event, EventStaff
from tournaments.standings import RULESETS


class EventForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = [
            "name",
            "game_system",
            "format",
            "structure",
            "players_per_game",
            "swiss_rounds",
            "top_cut",
            "best_of",
            "grand_final_reset",
            "allow_split_finals",
            "round_minutes",
            "tiebreaks",
            "starts_at",
            "location",
            "max_players",
            "decklist_deadline",
            "auto_advance",
            "play_online",
            "time_bank_minutes",
            "is_public",
            "description",
        ]
        widgets = {
            "starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}),
            "decklist_deadline": forms.DateTimeInput(attrs={"type": "datetime-local"}),
            "description": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_system"] = forms.ChoiceField(
            label=_("game"),
            choices=[(s.key, s.name) for s in registry.all_systems()],
            initial=registry.default_system().key,
        )
        # Every system's formats; ``clean`` checks the one chosen against the game.
        self.fields["format"] = forms.ChoiceField(
            label=_("format"), choices=registry.all_formats(get_language() or "en")
        )
        most = max((s.max_players for s in registry.all_systems()), default=2)
        self.fields["players_per_game"] = forms.TypedChoiceField(
            label=_("players per game"),
            coerce=int,
            initial=2,
            choices=[(n, str(n)) for n in range(2, most + 1)],
            help_text=_(
                "2: ordinary matches. 3 or 4: Swiss rounds seat players in pods and rank "
                "them by placement points (best of 1; a top cut is one final pod)."
            ),
        )
        self.fields["tiebreaks"] = forms.ChoiceField(
            label=_("tiebreakers"), choices=[(key, r.label) for key, r in RULESETS.items()]
        )
        # Left empty (or not sent, as by older pages and tools): the event keeps its bank.
        self.fields["time_bank_minutes"].required = False

    def clean(self):
        data = super().clean()
        system, fmt = data.get("game_system"), data.get("format")
        if system and fmt:
            try:
                registry.get(system).format(fmt)
            except registry.UnknownGameSystem:
                self.add_error(
                    "format",
                    _("%(game)s has no format %(format)s.")
                    % {"game": registry.get(system).name, "format": fmt},
                )
        return data

    def clean_time_bank_minutes(self):
        value = self.cleaned_data.get("time_bank_minutes")
        if value is None:
            current = self.instance.time_bank_minutes if self.instance.pk else None
            return current or Event._meta.get_field("time_bank_minutes").default
        return value


class StaffForm(forms.Form):
    username = forms.CharField(label=_("username"), max_length=150)
    role = forms.ChoiceField(label=_("role"), choices=EventStaff.Role.choices)


class AddPlayerForm(forms.Form):
    display_name = forms.CharField(label=_("name"), max_length=80)
    username = forms.CharField(label=_("username (optional)"), max_length=150, required=False)


class DecklistForm(forms.Form):
    text = forms.CharField(
        label=_("decklist"),
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false"}),
        max_length=20000,
    )
