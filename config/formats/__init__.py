"""Dates as each language writes them, where Django's locale data does not
(``FORMAT_MODULE_PATH``): Bulgarian's date and time with the day first and a 24-hour clock
(Django's fall back to the American "Дек. 7, 2026, 6:05 след обяд" and "12/07/2026", which
a Bulgarian reads as the 12th of July).

Month names: Django translates ``"December"`` and the rest with a capital in Bulgarian and
Portuguese, which both write them lowercase ("7 декември 2026 г.", "7 de dezembro de
2026"). Our catalogs come first (``LOCALE_PATHS``), so the names below, marked for them,
give every language its month as it writes it; Greek, Spanish and Dutch keep Django's."""

from django.utils.translation import gettext_noop

MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
