"""The Glicko-2 maths against Glickman's paper; pure, no database."""

import ast
import doctest
import math
import subprocess
import sys
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

import ratings
from ratings import glicko2, periods
from ratings.glicko2 import INACTIVITY_C, MAX_RD, Rating, rate, rd_after_inactivity


def test_the_papers_worked_example():
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30, 0.06), 1.0), (Rating(1550, 100, 0.06), 0.0)]
    results.append((Rating(1700, 300, 0.06), 0.0))
    new = rate(player, results, tau=0.5)
    assert new.rating == pytest.approx(1464.05, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_the_paper_example_does_not_depend_on_the_order_of_results():
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    forward = rate(Rating(1500, 200, 0.06), results)
    backward = rate(Rating(1500, 200, 0.06), results[::-1])
    assert forward.rating == pytest.approx(backward.rating, abs=1e-9)
    assert forward.rd == pytest.approx(backward.rd, abs=1e-9)


def test_an_empty_period_only_grows_rd_by_the_volatility():
    player = Rating(1623.4, 80.0, 0.07)
    new = rate(player, [])
    assert new.rating == player.rating
    assert new.volatility == player.volatility
    expected = math.sqrt((80.0 / glicko2.SCALE) ** 2 + 0.07**2) * glicko2.SCALE
    assert new.rd == pytest.approx(expected, abs=1e-9)


def test_rate_itself_never_caps_rd():
    assert rate(Rating(1500, 350, 0.06), []).rd > 350


def test_a_win_raises_and_a_loss_lowers_by_the_same_amount_between_equals():
    winner = rate(Rating(), [(Rating(), 1.0)])
    loser = rate(Rating(), [(Rating(), 0.0)])
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating, abs=1e-9)
    assert winner.rd < 350 and loser.rd == pytest.approx(winner.rd)


def test_the_volatility_iteration_is_not_the_fixed_start_value():
    # An upset against a settled opponent moves volatility: the iteration really runs.
    upset = rate(Rating(1400, 50, 0.06), [(Rating(2000, 50, 0.06), 1.0)] * 5)
    assert upset.volatility > 0.06 + 1e-4


def test_inactivity_grows_rd_by_c_squared_per_day_and_caps_at_350():
    assert rd_after_inactivity(60.0, 10.0) == pytest.approx(math.sqrt(60**2 + INACTIVITY_C**2 * 10))
    assert rd_after_inactivity(60.0, 0.0) == 60.0
    assert rd_after_inactivity(60.0, 10_000.0) == MAX_RD == 350.0
    assert rd_after_inactivity(50.0, 5 * 365 - 1) < 350.0 <= rd_after_inactivity(50.0, 5 * 365 + 1)


def test_documented_constant_c_brings_a_settled_rd_of_50_back_to_350_in_five_years():
    assert round(INACTIVITY_C, 2) == 8.11


def test_provisional_while_rd_above_110():
    assert Rating(1500, 110.01, 0.06).provisional
    assert not Rating(1500, 110.0, 0.06).provisional


def test_rating_is_a_frozen_value():
    with pytest.raises(FrozenInstanceError):
        Rating().rating = 1600  # type: ignore[misc]


@pytest.mark.parametrize("module", [glicko2, periods])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_the_maths_imports_without_django_settings():
    code = (
        "import sys; from ratings.glicko2 import Rating, rate; import ratings.periods;"
        "print(rate(Rating(), [(Rating(), 1.0)]).rating > 1500, 'django' in sys.modules)"
    )
    env = {"PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=Path(ratings.__file__).parent.parent,
    ).stdout
    assert out.split() == ["True", "False"]


def _imports(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


def test_ratings_never_imports_games_or_lobby():
    root = Path(ratings.__file__).parent
    offenders = [
        f"{path.relative_to(root)}: {module}"
        for path in sorted(root.rglob("*.py"))
        for module in _imports(path)
        if module.split(".")[0] in {"games", "lobby"}
    ]
    assert offenders == []
