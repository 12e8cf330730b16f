"""The site's API page (/developers/): what a program can call, in the reader's language,
linked from every page's footer and from the tokens page. Each call it lists is one the
site answers, so the page cannot drift from the URLs; its example bot downloads whole."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import resolve
from django.utils import translation

pytestmark = pytest.mark.django_db

# What each placeholder of the page stands for, and the view that must answer the call.
SAMPLES = {"<id>": "7", "<name>": "alice", "<other>": "bob", "<colour>": "3"}
VIEWS = {
    "/api/variants/": "api_variants",
    "/api/tables/": "api_tables",
    "/api/matches/7/": "api_match",
    "/api/users/alice/": "api_user",
    "/api/users/alice/vs/bob/": "api_crosstable",
    "/api/arenas/": "api_arenas",
    "/api/arenas/7/": "api_arena",
    "/api/bot/account/upgrade": "api_bot_upgrade",
    "/api/stream/event": "api_event_stream",
    "/api/bot/match/7/stream": "api_match_stream",
    "/api/bot/match/7/move/3": "api_bot_move",
    "/api/bot/match/7/ready": "api_bot_ready",
    "/api/bot/match/7/resign": "api_bot_resign",
    "/api/bot/match/7/abort": "api_bot_abort",
    "/api/bot/match/7/claim": "api_bot_claim",
    "/api/bot/match/7/chat": "api_bot_chat",
    "/api/challenge/alice": "api_challenge",
    "/api/challenge/7/accept": "api_accept",
    "/api/challenge/7/decline": "api_decline",
    "/api/challenge/7/cancel": "api_cancel",
}


def listed_calls(page: str) -> list[str]:
    """Every path the page lists, its placeholders filled in; a row that lists more than
    one ("…/ready, /resign") gives each as a sibling of the first."""
    calls = []
    for row in re.findall(r"<tr><td>(.*?)</td>", page):
        codes = [html.unescape(code) for code in re.findall(r"<code>(.*?)</code>", row)]
        first = codes[0].split(" ", 1)[1]
        for code in codes:
            path = first if code == codes[0] else first.rsplit("/", 1)[0] + code
            for placeholder, value in SAMPLES.items():
                path = path.replace(placeholder, value)
            calls.append(path)
    return calls


def test_the_api_page_lists_every_call_the_site_answers_and_only_those(client):
    page = client.get("/es/developers/").content.decode()
    calls = listed_calls(page)
    assert sorted(calls) == sorted(VIEWS)
    with translation.override("en"):  # English paths have no prefix
        for path, name in VIEWS.items():
            assert resolve(path).url_name == name, path


def test_the_api_page_speaks_the_readers_language_and_is_found(client, make_member):
    page = client.get("/es/developers/").content.decode()
    assert "<h1>La API del sitio</h1>" in page
    assert "Un match tal como lo ve tu puesto" in page
    assert 'href="/es/account/tokens/"' in page
    # Every page's footer leads there; so does the tokens page, where a program starts.
    assert 'href="/nl/developers/"' in client.get("/nl/").content.decode()
    assert '<a href="/pt/developers/">A API do site</a>' in client.get("/pt/bots/").content.decode()
    client.force_login(make_member("alice"))
    tokens = client.get("/el/account/tokens/").content.decode()
    assert re.search(r'<a href="/el/developers/" id="api-reference">[^<]*API', tokens)


def test_the_example_bot_downloads_whole(client):
    answer = client.get("/developers/bot_client.py")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == 'attachment; filename="bot_client.py"'
    sent = b"".join(answer.streaming_content)
    assert sent == (Path(settings.BASE_DIR) / "bench" / "bot_client.py").read_bytes()
