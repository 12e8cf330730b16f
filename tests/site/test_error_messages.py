"""Every refusal a person can meet is in their language (issue 13.2): each ``TableError``
(or ``accounts.errors.Refusal``) raised anywhere in the code carries a message marked for
translation, translated in all five languages; so are the engine's messages as the site
shows them."""

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games.errors import CLOCK_MESSAGES, ENGINE_MESSAGES, ILLEGAL_MESSAGES

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
UNMARKED = "not marked for translation: "


def _msgid(node: ast.expr) -> str | None:
    """The msgid of ``_("…")``, ``_("…") % {…}`` or ``interpolated(_("…"), {…})``; None for
    anything else."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        node = node.left
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "interpolated":
        node = node.args[0]
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "illegal_message":
        # The engine's reasons as shown (ILLEGAL_MESSAGES, checked below) or its fallback.
        return "You cannot choose that colour now."
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "clock_message":
        # Why a clock is refused (CLOCK_MESSAGES, checked below) or its fallback.
        return str(CLOCK_MESSAGES["format"])
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("_", "gettext", "gettext_lazy")
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ):
        return node.args[0].value
    return None


# Functions that hand a message made elsewhere to ``TableError``: the messages their
# callers give them (``_bad(…)``) or that they pick themselves (``from_engine``'s tables
# and fallbacks) are what is checked.
FORWARDERS = {
    ("games/protocol.py", "_bad"),
    ("games/errors.py", "from_engine"),
    ("games/errors.py", "illegal_message"),
}


def _enclosing_functions(tree: ast.AST) -> dict[ast.AST, str]:
    """Each node's innermost enclosing function name."""
    owner: dict[ast.AST, str] = {}
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                owner[node] = function.name  # inner functions come later and win
    return owner


def raised_messages() -> list[tuple[str, str]]:
    """(where, msgid or the offending source) of every message a person can meet as a
    ``TableError`` or a ``Refusal``: their ``TableError(code, message)`` calls, the
    messages handed to the forwarding functions, and the messages those functions choose
    themselves."""
    found = []
    for folder in ("games", "lobby", "accounts", "ratings"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts or "engine" in path.parts:
                continue
            relative = str(path.relative_to(ROOT))
            tree = ast.parse(path.read_text(), str(path))
            owner = _enclosing_functions(tree)
            forwarders = {name for file, name in FORWARDERS if file == relative}
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                    continue
                where = f"{relative}:{node.lineno}"
                if node.func.id in ("TableError", "Refusal") and len(node.args) == 2:
                    message = node.args[1]
                    if isinstance(message, ast.Name) and owner.get(node) in forwarders:
                        continue  # checked at its callers, or below
                elif node.func.id == "_bad" and len(node.args) == 1:
                    message = node.args[0]
                elif node.func.id == "_" and owner.get(node) in forwarders:
                    message = node  # a message a forwarder picks itself
                else:
                    continue
                msgid = _msgid(message)
                found.append((where, msgid or UNMARKED + ast.unparse(message)))
    return found


def test_the_walk_finds_the_errors():
    found = raised_messages()
    assert len(found) > 40
    messages = {m for _, m in found}
    assert "This table is full." in messages
    assert "A chat message cannot hold control characters." in messages  # through _bad
    assert "You cannot choose that colour now." in messages  # from_engine's fallback


@pytest.mark.parametrize("where_and_message", raised_messages(), ids=lambda wm: wm[0])
def test_every_raised_message_is_marked_and_translated(where_and_message):
    where, message = where_and_message
    assert not message.startswith(UNMARKED), f"{where}: {message}"
    for language in LANGUAGES:
        with translation.override(language):
            assert translation.gettext(message) != message, f"{where}: {language}: {message}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_engines_messages_as_shown_are_translated(language):
    for message in [
        *ENGINE_MESSAGES.values(),
        *ILLEGAL_MESSAGES.values(),
        *CLOCK_MESSAGES.values(),
    ]:
        with translation.override("en"):
            english = str(message)
        with translation.override(language):
            assert str(message) != english, (language, english)
