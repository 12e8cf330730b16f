# Greek times on a 24-hour clock ("07/12/2026 18:05"), as every other language of the site
# writes them: Django's `el` gives "6:05 μ.μ.". What is not set here comes from Django's
# locale data.
DATETIME_FORMAT = "d/m/Y H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
