"""``manage.py recalculate_ratings``."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.ratings.conftest import random_history, snapshot

pytestmark = pytest.mark.django_db


def test_recalculating_by_hand_shows_progress_and_equals_the_updates(members):
    from ratings import services

    for match_id in random_history("hex", members, 25, seed=5):
        services.match_rating_update(match_id=match_id)
    before = snapshot("hex")
    out = StringIO()
    call_command("recalculate_ratings", "hex", stdout=out)
    text = out.getvalue()
    assert "[" + "#" * 30 + "] 25/25" in text
    assert "Hexagons 13×11: 25 matches rated" in text
    assert snapshot("hex") == before


def test_every_scale_without_an_argument(members):
    out = StringIO()
    call_command("recalculate_ratings", stdout=out)
    assert out.getvalue().count("0 matches rated") == 5


def test_an_unknown_scale_is_refused():
    with pytest.raises(CommandError):
        call_command("recalculate_ratings", "vinco", stdout=StringIO())
