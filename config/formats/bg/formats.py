# Bulgarian dates: "7 декември 2026 г.", "7 декември 2026 г., 18:05", "07.12.2026 18:05".
# What is not set here comes from Django's locale data.
DATE_FORMAT = r"j F Y \г."
DATETIME_FORMAT = r"j F Y \г., H:i"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
