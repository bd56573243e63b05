"""Forms of casual play: they read the request; the rules of a table live in the services."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from play.decks import DeckChoice

MAX_DECKLIST = 20_000  # characters: a decklist is a few hundred


class DeckForm(forms.Form):
    """A seat's deck, for games that need one: a starter deck's key, or ``paste`` and a list."""

    deck = forms.CharField(required=False, max_length=60)
    decklist = forms.CharField(
        required=False, max_length=MAX_DECKLIST, widget=forms.Textarea, strip=False
    )
    # The format a pasted list is checked in (``play.decks.deck_formats``; empty: the
    # game's casual format).
    format = forms.CharField(required=False, max_length=40)

    def deck_choice(self) -> DeckChoice | None:
        choice = self.cleaned_data.get("deck") or ""
        text = self.cleaned_data.get("decklist") or ""
        if not choice and not text.strip():
            return None
        choice = choice or "paste"
        fmt = (self.cleaned_data.get("format") or "") if choice == "paste" else ""
        return DeckChoice(choice=choice, text=text, format=fmt)


class CasualGameForm(DeckForm):
    """A new casual table: how many seats, how many of them bots, how they sit, the clock."""

    system = forms.CharField(max_length=40)
    players = forms.IntegerField(min_value=1, max_value=8, initial=2)
    bots = forms.IntegerField(min_value=0, max_value=7, initial=1)
    bot = forms.CharField(required=False, max_length=40)
    mode = forms.CharField(required=False, max_length=20)
    minutes = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=600,
        error_messages={
            "min_value": _("The clock must be between 0 and 600 minutes."),
            "max_value": _("The clock must be between 0 and 600 minutes."),
            "invalid": _("The clock must be a whole number of minutes."),
        },
    )

    def time_bank(self, default: int | None) -> int | None:
        """Seconds per player: the minutes given (0: untimed), else ``default``."""
        minutes = self.cleaned_data.get("minutes")
        if minutes is None:
            return default
        return minutes * 60 or None

    def first_error(self) -> str:
        for errors in self.errors.values():
            for error in errors:
                return str(error)
        return str(_("Check the form."))
