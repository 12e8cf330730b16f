"""Names fold the digits that stand for letters too (``accounts.names.DIGITS``): every
member's two folds again, so ``b0b`` beside an existing ``bob`` is refused."""

import importlib

from django.db import migrations

fill = importlib.import_module("accounts.migrations.0007_name_look").fill


class Migration(migrations.Migration):
    dependencies = [("accounts", "0011_moderators_reports")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
