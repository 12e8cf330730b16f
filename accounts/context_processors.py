from django.conf import settings
from django.http import HttpRequest
from django.urls import translate_url
from django.utils.translation import get_language_info


def site(request: HttpRequest) -> dict:
    """The language switcher's links: this very page in every language."""
    path = request.get_full_path()
    return {
        "language_links": [
            {
                "code": code,
                "name": get_language_info(code)["name_local"],
                "url": translate_url(path, code),
            }
            for code, _name in settings.LANGUAGES
        ],
    }
