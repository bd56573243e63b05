"""The tiebreaker rulesets' names in the page's language (the pure ``standings`` module
names them in English only)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.standings import RULESETS

_NAMES = {
    "mtr": _("Magic Tournament Rules (points, OMW%, GW%, OGW%)"),
    "pokemon": _("Play! Pokémon (points, OWP, OOWP)"),
    "melee": _("melee.gg (2025): points, OMW%, GW%, OGW%, top cut by finish"),
    "melee2024": _("melee.gg (January 2024): Swiss standings, drawn games worth 0"),
}


def ruleset_name(key: str) -> str:
    """The ruleset's name, translated (its own label for a ruleset not named here)."""
    if key in _NAMES:
        return str(_NAMES[key])
    ruleset = RULESETS.get(key)
    return ruleset.label if ruleset is not None else key


def ruleset_choices() -> list[tuple[str, str]]:
    return [(key, _NAMES.get(key, r.label)) for key, r in RULESETS.items()]
