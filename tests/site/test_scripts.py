"""The site's scripts draw no HTML from strings: fragments the server renders are swapped
by htmx (``hx-get`` triggered by the socket's events), and everything else is built with
DOM nodes (``textContent``, ``<template>`` clones)."""

import re
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"
HTML_FROM_STRINGS = re.compile(r"\.(innerHTML|outerHTML)\s*[+]?=|insertAdjacentHTML\s*\(")


def test_no_script_assigns_html_from_a_string():
    found = [
        f"{path.relative_to(SCRIPTS)}:{number}: {line.strip()}"
        for path in sorted(SCRIPTS.rglob("*.js"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HTML_FROM_STRINGS.search(line)
    ]
    assert not found, found
    assert any(SCRIPTS.rglob("*.js"))  # the scripts were looked at


def test_the_arena_page_swaps_its_standings_by_htmx(client, db):
    from datetime import timedelta

    from games import timing
    from lobby import services as lobby

    now = timing.now()
    arena = lobby.arena_create(
        name="Evening",
        variant="fast",
        clock="1+1",
        starts_at=now - timedelta(minutes=1),
        minutes=30,
    )
    page = client.get(f"/arenas/{arena.pk}/").content.decode()
    live = re.search(r'<div id="arena-live"[^>]*>', page).group(0)
    assert f'hx-get="/arenas/{arena.pk}/standings/"' in live
    assert 'hx-trigger="arena-refresh"' in live
