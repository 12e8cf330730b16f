# English dates for a site read across Europe: the day first and the month in words, so
# that no reader takes 12/07 for 12 July or 7 December ("7 Dec 2026"), and a 24-hour
# clock, as every other language of the site has. Django's `en` is American ("12/07/2026",
# "6:05 p.m.").
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j F"
