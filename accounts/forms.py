from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import REPORT_TEXT_LIMIT, ApiToken, Report, Theme, User


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["language", "theme", "color_symbols", "sound", "accepts_challenges"]
        widgets = {"theme": forms.RadioSelect}


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(
        label=_("I understand that my account and personal data are deleted for good."),
    )

    def __init__(self, *args, member: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.member = member

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.member.check_password(password):
            raise forms.ValidationError(_("The password is not correct."))
        return password


class LanguageForm(forms.Form):
    language = forms.ChoiceField(choices=[])
    next = forms.CharField(required=False, max_length=2000)

    def __init__(self, *args, **kwargs):
        from django.conf import settings

        super().__init__(*args, **kwargs)
        self.fields["language"].choices = settings.LANGUAGES


class ThemeForm(forms.Form):
    """The footer's theme switcher: a theme and the page to go back to."""

    theme = forms.ChoiceField(choices=Theme.choices)
    next = forms.CharField(required=False, max_length=2000)


ID_LIMIT = 2**63 - 1  # the largest id the database holds
#: what a report hears when its chat line or table is no id at all
NO_SUCH_LINE = dict.fromkeys(
    ("invalid", "min_value", "max_value"), _("There is no such chat line.")
)


class ReportForm(forms.Form):
    """A report of a member (SPEC §14), from their page or from one of their chat lines at
    a table (``match`` and ``message``: the table's id and the line's; ``token`` at a
    private table; docs/protocol.md)."""

    reason = forms.ChoiceField(
        label=_("Reason"),
        choices=Report.Reason.choices,
        error_messages={
            "required": _("Choose one of the reasons."),
            "invalid_choice": _("Choose one of the reasons."),
        },
    )
    text = forms.CharField(
        label=_("What happened"),
        required=False,
        max_length=REPORT_TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    match = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=ID_LIMIT,
        widget=forms.HiddenInput,
        error_messages=NO_SUCH_LINE,
    )
    message = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=ID_LIMIT,
        widget=forms.HiddenInput,
        error_messages=NO_SUCH_LINE,
    )
    #: a private table's token, from a spectator who watches it by its invitation
    token = forms.CharField(
        required=False,
        max_length=64,
        widget=forms.HiddenInput,
        error_messages={"max_length": NO_SUCH_LINE["invalid"]},
    )
    next = forms.CharField(required=False, max_length=2000, widget=forms.HiddenInput)

    def clean(self):
        data = super().clean()
        if data.get("message") is not None and data.get("match") is None:
            raise forms.ValidationError(NO_SUCH_LINE["invalid"])
        return data


class TokenForm(forms.Form):
    """A new personal API token (SPEC §15): what it is for, and what it may do."""

    description = forms.CharField(
        label=_("Description"),
        max_length=100,
        help_text=_("What the token is for, e.g. the name of your program."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"),
        choices=ApiToken.Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one scope.")},
    )
