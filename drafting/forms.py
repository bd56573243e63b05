from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from drafting.models import MAX_SEATS, MIN_SEATS, Pod


class PodForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=120, required=False)
    kind = forms.ChoiceField(label=_("kind"), choices=Pod.Kind.choices, initial=Pod.Kind.DRAFT)
    seats_count = forms.IntegerField(
        label=_("seats"), min_value=MIN_SEATS, max_value=MAX_SEATS, initial=8
    )
    set_codes = forms.CharField(
        label=_("boosters"),
        initial="VS1 VS1 VS1 VS1",
        help_text=_("The set of each booster in order, e.g. “VS1 VS1 VS1 VS1” (sealed: six)."),
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
    review_seconds = forms.IntegerField(
        label=_("review time between boosters (seconds)"), min_value=0, max_value=3600, initial=20
    )
    build_minutes = forms.IntegerField(
        label=_("deck-building time (minutes)"), min_value=1, max_value=240, initial=30
    )

    def clean_set_codes(self) -> list[str]:
        text = self.cleaned_data["set_codes"].replace(",", " ")
        codes = [code.strip().upper() for code in text.split() if code.strip()]
        if not codes:
            raise forms.ValidationError(_("Give the set of each booster."))
        return codes
