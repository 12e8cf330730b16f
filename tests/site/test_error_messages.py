"""Every refusal a person can meet is in their language (issue 13.2): each ``TableError``
raised anywhere in the code carries a message marked for translation, translated in all
five languages; so are the engine's messages as the site shows them."""

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games.errors import _ENGINE_MESSAGES, _ILLEGAL_MESSAGES

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
ERRORS = {"TableError", "Revoked"}


def _msgid(node: ast.expr) -> str | None:
    """The msgid of ``_("…")``, ``_("…") % {…}`` or ``interpolated(_("…"), {…})``; None for
    anything else."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        node = node.left
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "interpolated":
        node = node.args[0]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("_", "gettext", "gettext_lazy")
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ):
        return node.args[0].value
    return None


def raised_messages() -> list[tuple[str, str]]:
    """(where, msgid or the offending source) of every TableError(code, message) call."""
    found = []
    for folder in ("games", "lobby", "accounts", "ratings"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts or "engine" in path.parts:
                continue
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "TableError"
                    and len(node.args) == 2
                ):
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    msgid = _msgid(node.args[1])
                    found.append((where, msgid or ast.unparse(node.args[1])))
    return found


def test_the_walk_finds_the_errors():
    found = raised_messages()
    assert len(found) > 40
    assert any(m == "This table is full." for _, m in found)


@pytest.mark.parametrize("where_and_message", raised_messages(), ids=lambda wm: wm[0])
def test_every_raised_message_is_marked_and_translated(where_and_message):
    where, message = where_and_message
    assert not message.startswith(("'", '"', "f'", 'f"')), f"{where}: not marked: {message}"
    if message.startswith(("failure.", "error.")) or " " not in message:
        return  # passes on a message made elsewhere (marked where it is made)
    for language in LANGUAGES:
        with translation.override(language):
            assert translation.gettext(message) != message, f"{where}: {language}: {message}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_engines_messages_as_shown_are_translated(language):
    for message in [*_ENGINE_MESSAGES.values(), *_ILLEGAL_MESSAGES.values()]:
        with translation.override("en"):
            english = str(message)
        with translation.override(language):
            assert str(message) != english, (language, english)
