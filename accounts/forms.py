from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import Theme, User


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
