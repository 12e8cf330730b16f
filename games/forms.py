from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine import VARIANTS
from games.engine.clock import PRESETS
from games.topics import variant_name


class TableForm(forms.Form):
    """A new table for the host (seat A) and the members they name."""

    variant = forms.ChoiceField(label=_("Variant"), choices=[])
    player_b = forms.CharField(label=_("Player B"), max_length=150)
    player_c = forms.CharField(label=_("Player C"), max_length=150, required=False)
    player_d = forms.CharField(label=_("Player D"), max_length=150, required=False)
    clock = forms.ChoiceField(label=_("Clock"), required=False, choices=[])
    rated = forms.BooleanField(label=_("Rated"), required=False)
    single_game = forms.BooleanField(
        label=_("Single game"),
        required=False,
        help_text=_("Unrated two-player tables may play one game instead of a match of two."),
    )

    def __init__(self, *args, host: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.host = host
        self.members: list[User] = []
        self.fields["variant"].choices = [
            (key, variant_name(key)) for key in VARIANTS if key != "practice"
        ]
        self.fields["clock"].choices = [("", _("no clock")), *[(p, p) for p in PRESETS]]

    def clean(self):
        data = super().clean()
        variant = VARIANTS.get(data.get("variant", ""))
        if variant is None:
            return data
        members = [self.host]
        for field in ["player_b", "player_c", "player_d"][: variant.seats - 1]:
            name = (data.get(field) or "").strip()
            member = User.objects.filter(username__iexact=name, is_active=True).first()
            if member is None:
                self.add_error(field, _("No member has that name."))
            else:
                members.append(member)
        self.members = members
        return data
