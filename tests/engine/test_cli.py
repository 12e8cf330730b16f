"""``python -m games.engine``: drawing a position and playing a game in the terminal."""

import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.__main__ import main

POCKET = "square 5x3 6 1234B/33332/A4121 5,6 A"


def test_show_draws_the_board_and_the_figures(capsys):
    assert main(["--no-color", "show", POCKET]) == 0
    out = capsys.readouterr().out
    assert "  1   2   3   4   B\n" in out
    assert "  A   4   1   2   1\n" in out
    assert "score   1  potential  14  to move" in out
    assert "needed to win: 8 of 15" in out


def test_show_in_colour_uses_the_palette_and_the_symbols(capsys):
    assert main(["show", "square 4x1 6 A1#B 5,6 A w=1-2"]) == 0
    out = capsys.readouterr().out
    # colour 1 is red #CE1511 with the symbol ● in white; A shows its letter on sky
    # #46C2F6 in black (the ink that reads on it)
    assert "\x1b[1;38;2;255;255;255;48;2;206;21;17m ● \x1b[0m" in out
    assert "\x1b[1;30;48;2;70;194;246m A " in out
    assert "│" in out


def test_show_an_ended_game_names_the_winner(capsys):
    main(["--no-color", "show", "square 5x3 6 AAA4B/AAAA2/A4121 3,6 B"])
    assert "result: A wins (8-1)" in capsys.readouterr().out


def test_show_rejects_a_bad_line(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["show", "square 4x3"])
    assert exit.value.code == 2
    assert "not a position" in capsys.readouterr().err


def test_play_prints_every_move_and_the_result(capsys):
    assert main(["play", "fast", "--seed", "3", "--players", "greedy,random", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "  1. A (greedy) " in out and "  2. B (random) " in out
    assert "result: A wins (35-7)" in out


def test_play_four_seats_as_a_program():
    result = subprocess.run(
        [sys.executable, "-m", "games.engine", "--no-color", "play", "four", "--seed", "1"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],
    )
    lines = result.stdout.splitlines()
    assert any(line.startswith("  4. D (random) ") for line in lines)
    # the last lines: the result, then the final position's FPN
    assert lines[-2] == "result: A wins (92-40-43-34)"
    assert lines[-1].startswith("square 16x16 8 ")
