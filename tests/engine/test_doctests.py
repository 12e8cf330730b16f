"""The examples in the engine's docstrings run and stay true."""

import doctest
import importlib

import pytest

MODULES = [
    "games.engine",
    "games.engine.board",
    "games.engine.bots.bitboard",
    "games.engine.bots.blocking",
    "games.engine.clock",
    "games.engine.errors",
    "games.engine.letters",
    "games.engine.notation",
    "games.engine.palette",
    "games.engine.position",
    "games.engine.record",
    "games.engine.record_data",
    "games.engine.record_text",
    "games.engine.topology",
    "games.engine.variants",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
