#!/usr/bin/env python
import os
import sys
from pathlib import Path


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings
    from django.core.management import execute_from_command_line

    # SQLite opens its file but makes no folder; the settings make none either.
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        Path(database["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
