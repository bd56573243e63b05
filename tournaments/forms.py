from __future__ import annotations

import json

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from engine.core import registry
from tournaments.models import Event, EventStaff
from tournaments.ruleset_names import ruleset_choices


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
            "seeding",
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
            "decklists_public",
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
            choices=[(s.key, s.label(get_language() or "en")) for s in registry.all_systems()],
            initial=registry.default_system().key,
        )
        # Each game's formats, for the page to offer only the chosen game's.
        self.fields["game_system"].widget.attrs["data-formats"] = json.dumps(
            {s.key: [f.key for f in s.formats] for s in registry.all_systems()}
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
            label=_("tiebreakers"), choices=ruleset_choices()
        )
        # Left empty (or not sent, as by older pages and tools): the event keeps its bank.
        self.fields["time_bank_minutes"].required = False
        self.fields["seeding"].required = False  # not sent: the event keeps its seeding

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

    def clean_seeding(self):
        value = self.cleaned_data.get("seeding")
        if not value:
            return self.instance.seeding if self.instance.pk else Event.Seeding.NONE
        return value


# The create-event form's sections, and when a field applies: any one of the conditions
# (each: every named field has one of the values). The page hides what does not apply
# (static/js/event_form.js); the server validates every field whatever is shown.
EVENT_FORM_SECTIONS = [
    (
        "basics",
        _("Basics"),
        ["name", "game_system", "format", "starts_at", "location", "max_players", "is_public",
         "decklists_public", "description"],
    ),
    (
        "structure",
        _("Format and structure"),
        ["structure", "swiss_rounds", "top_cut", "best_of", "grand_final_reset",
         "allow_split_finals"],
    ),
    ("timing", _("Timing"), ["round_minutes", "decklist_deadline", "auto_advance"]),
    ("online", _("Online play"), ["play_online", "time_bank_minutes"]),
    ("advanced", _("Advanced"), ["players_per_game", "tiebreaks"]),
]  # fmt: skip
_CUTS = [str(value) for value, _label in Event.TOP_CUT_CHOICES if value]
EVENT_FIELD_APPLIES = {
    "swiss_rounds": [{"structure": ["swiss"]}],
    "top_cut": [{"structure": ["swiss"]}],
    "grand_final_reset": [{"structure": ["double_elim"]}],
    "allow_split_finals": [
        {"structure": ["single_elim"]},
        {"structure": ["swiss"], "top_cut": _CUTS},
    ],
    "time_bank_minutes": [{"play_online": ["on"]}],
}


def _field_applies() -> dict[str, list[dict]]:
    """EVENT_FIELD_APPLIES, and the rules that depend on the registry: published
    decklists and their deadline apply to the games whose players bring decklists."""
    rules = dict(EVENT_FIELD_APPLIES)
    with_decklists = [s.key for s in registry.all_systems() if s.needs_decklists]
    rules["decklists_public"] = [{"game_system": with_decklists}]
    rules["decklist_deadline"] = rules["decklists_public"]
    # Players per game: for the formats of single players that seat more than two a game,
    # in Swiss rounds (pods are paired by Swiss rounds only).
    rules["players_per_game"] = [
        {"game_system": [s.key], "format": pods, "structure": [Event.Structure.SWISS.value]}
        for s in registry.all_systems()
        if (
            pods := [
                f.key
                for f in s.formats
                if f.team_size == 1 and max(f.players_per_game or (s.max_players,)) > 2
            ]
        )
    ]
    return rules


def event_form_sections(form: forms.BaseForm) -> list[dict]:
    """The form's fields grouped in sections, each with the rule saying when it applies."""
    placed = {name for _key, _title, names in EVENT_FORM_SECTIONS for name in names}
    applies = _field_applies()
    sections = []
    for key, title, names in EVENT_FORM_SECTIONS:
        if key == "advanced":  # any field no section names
            names = names + [n for n in form.fields if n not in placed]
        fields = [
            (
                form[name],
                json.dumps(applies[name]) if name in applies else "",
            )
            for name in names
            if name in form.fields
        ]
        sections.append({"key": key, "title": title, "fields": fields})
    return sections


class StaffForm(forms.Form):
    username = forms.CharField(label=_("username"), max_length=150)
    role = forms.ChoiceField(
        label=_("role"),
        choices=EventStaff.Role.choices,
        widget=forms.Select(attrs={"class": "w-12"}),  # as narrow as the username beside it
    )


class AddPlayerForm(forms.Form):
    display_name = forms.CharField(label=_("name"), max_length=80)
    username = forms.CharField(label=_("username (optional)"), max_length=150, required=False)


class DecklistForm(forms.Form):
    text = forms.CharField(
        label=_("decklist"),
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false"}),
        max_length=20000,
    )
