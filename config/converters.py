"""The path converter of every id in the site's URLs: ASCII digits that fit a database
id. Anything else (``²``, a 5,000-digit number) matches no URL: a 404, never a 500."""

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
