"""The forms of the lobby: a table's settings (a new table, a challenge) and Play now."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import VARIANTS
from games.engine.clock import PRESETS, ClockError, parse_preset
from games.errors import clock_message
from games.topics import variant_name

FORMATS = [("match", _("match of two games")), ("single", _("single game"))]


def _variant_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_("Variant"),
        choices=[],
        error_messages={
            "required": _("Choose a variant."),
            "invalid_choice": _("There is no such variant."),
        },
    )


def _clock_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label=_("Clock"),
        required=False,
        choices=[],
        error_messages={"invalid_choice": _("There is no such clock.")},
    )


#: the option of a table's clock whose value the page's script sets to the clock of the
#: member's own, "m+s" (static/js/clock_own.js); hidden, so never chosen, without it
OWN_CLOCK = "own"


class OwnClockSelect(forms.Select):
    """The clocks as a list: none, the presets, and "your own clock", which the page's
    script shows with two number inputs (templates/lobby/_clock_own.html)."""

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if value == OWN_CLOCK:
            option["attrs"].update({"hidden": True, "data-clock-own": True})
        return option


class OwnClockField(forms.CharField):
    """No clock, a preset or a clock of one's own, all written ``m+s`` (SPEC §3): what the
    engine plays (``games.engine.clock.parse_preset``), else the reason in words."""

    widget = OwnClockSelect

    def __init__(self, **kwargs):
        super().__init__(label=_("Clock"), required=False, **kwargs)
        self.widget.choices = [
            ("", _("no clock")),
            *[(p, p) for p in PRESETS],
            (OWN_CLOCK, _("your own clock")),
        ]

    def validate(self, value):
        super().validate(value)
        if value:
            try:
                parse_preset(value)
            except ClockError as error:
                raise forms.ValidationError(clock_message(error), code=error.reason) from None


class TableSettingsForm(forms.Form):
    """A table's settings (SPEC §10): variant, clock (a preset or the table's own), match
    or single game, rated."""

    variant = _variant_field()
    clock = OwnClockField()
    format = forms.ChoiceField(
        label=_("Format"),
        choices=FORMATS,
        initial="match",
        error_messages={
            "required": _("Choose a match or a single game."),
            "invalid_choice": _("Choose a match or a single game."),
        },
    )
    rated = forms.BooleanField(label=_("Rated"), required=False)

    def __init__(self, *args, variants=None, **kwargs):
        super().__init__(*args, **kwargs)
        keys = variants or [key for key in VARIANTS if key != "practice"]
        self.fields["variant"].choices = [(key, variant_name(key)) for key in keys]

    @property
    def settings(self) -> dict:
        """The cleaned settings as the services take them."""
        data = self.cleaned_data
        return {
            "variant": data["variant"],
            "clock": data["clock"],
            "single_game": data["format"] == "single",
            "rated": data["rated"],
        }


class TableForm(TableSettingsForm):
    private = forms.BooleanField(
        label=_("Private"),
        required=False,
        help_text=_("Only people with the invitation link can join; never rated."),
    )


class ChallengeForm(TableSettingsForm):
    def __init__(self, *args, **kwargs):
        two_player = [key for key, v in VARIANTS.items() if v.seats == 2 and key != "practice"]
        super().__init__(*args, variants=two_player, **kwargs)


class PlayNowForm(forms.Form):
    clock = _clock_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["clock"].required = True
        self.fields["clock"].error_messages["required"] = _("Choose a clock.")
        self.fields["clock"].choices = [(p, p) for p in PRESETS]


class PracticeForm(forms.Form):
    """Play the computer: board, level, who starts, a clock or none."""

    board = forms.ChoiceField(
        label=_("Board"),
        choices=[],
        error_messages={"invalid_choice": _("There is no such practice board.")},
    )
    level = forms.TypedChoiceField(
        label=_("Computer level"),
        coerce=int,
        choices=[
            (1, _("1 — random")),
            (2, _("2 — greedy")),
            (3, _("3 — careful")),
            (4, _("4 — strong")),
        ],
        initial=2,
        error_messages={"invalid_choice": _("The computer plays at levels 1 to 4.")},
    )
    starts = forms.ChoiceField(
        label=_("Who starts"),
        choices=[("me", _("I start")), ("computer", _("The computer starts"))],
        initial="me",
    )
    clock = _clock_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["board"].choices = [
            (key, variant_name(key)) for key in VARIANTS["practice"].boards
        ]
        self.fields["clock"].choices = [("", _("no clock")), *[(p, p) for p in PRESETS]]


class BotsForm(forms.Form):
    level = PracticeForm.base_fields["level"]
