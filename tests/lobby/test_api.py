"""The public JSON API (SPEC §8) against matches played through the services, and the
downloadable record replayed by ``python -m games.engine replay`` for every variant."""

import random
import subprocess
import sys

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import VARIANTS, Position
from lobby import services as lobby_services
from tests.moves import play_opening, play_out, played
from tests.timeshift import T0

pytestmark = pytest.mark.django_db

PLAYABLE = [key for key in VARIANTS if key != "practice"]


@pytest.fixture
def players(make_member):
    return [make_member(name) for name in ("ann", "ben", "cat", "dan")]


def new_match(variant, players, seed=5, **options):
    seats = VARIANTS[variant].seats
    return services.match_create(
        variant=variant, members=players[:seats], now=T0, seed=seed, **options
    )


def test_variants(client):
    data = client.get("/api/variants/").json()["variants"]
    assert [v["key"] for v in data] == list(VARIANTS)
    fast = data[0]
    assert fast == {
        "key": "fast",
        "name": "Fast 8×7",
        "shape": "square",
        "width": 8,
        "height": 7,
        "colors": 6,
        "seats": 2,
        "teams": None,
        "format": "match",
        "rated_scale": "fast",
    }
    assert next(v for v in data if v["key"] == "pairs")["teams"] == [["A", "C"], ["B", "D"]]


@pytest.mark.parametrize("variant", ["fast", "vinco", "three", "four", "pairs"])
def test_a_match_replays_to_what_the_api_says(client, players, variant):
    match = new_match(variant, players)
    state = play_out(match, players[: VARIANTS[variant].seats], rng=random.Random(3))
    response = client.get(f"/api/matches/{match.pk}/")
    assert response["Access-Control-Allow-Origin"] == "*"
    data = response.json()
    assert data["status"] == "finished" and data["variant"] == variant
    # Made and started by one call at one moment (the clock of the service, not of the
    # database row's insert).
    assert data["created"] == data["started"] == T0.isoformat()
    for game in data["games"]:
        position = Position.from_text(game["start"])
        if game["number"] == 2:
            for seat in state.out:
                position = position.with_out(seat)
        for colour in game["moves"]:
            position = position.play(colour)
        assert position.to_text() == game["final"]
        assert list(position.scores) == game["scores"]
    assert data["points"] == list(state.points) and data["totals"] == list(state.totals)
    assert data["result"]["reason"] == state.reason
    assert data["result"]["winners"] == ["ABCD"[s] for s in state.winners]


def test_a_resigned_four_player_match(client, players):
    match = new_match("four", players)
    state = play_out(match, players, rng=random.Random(1), resign_at=30)
    data = client.get(f"/api/matches/{match.pk}/").json()
    assert data["points"] == list(state.points)
    assert any(game["reason"] for game in data["games"])


def test_unknown_and_private_matches_answer_404_with_json(client, players):
    assert client.get("/api/matches/999999/").status_code == 404
    assert client.get("/api/matches/999999/").json()["error"] == "not_found"
    secret = new_match("fast", players, private=True)
    assert client.get(f"/api/matches/{secret.pk}/").status_code == 404
    assert client.get(f"/api/matches/{secret.token}/").json()["id"] == secret.pk
    assert client.get("/api/users/nobody/").status_code == 404
    assert client.get("/api/users/nobody/").json() == {
        "error": "not_found",
        "message": "No member has that name.",  # as every error of the API words it
        "detail": "No member has that name.",
    }
    # In the request's language: the path's prefix, else its Accept-Language.
    spanish = client.get("/es/api/matches/999999/")
    assert (spanish.status_code, spanish.json()["detail"]) == (
        404,
        "Ningún match tiene ese número.",
    )
    bulgarian = client.get("/api/arenas/999999/", HTTP_ACCEPT_LANGUAGE="bg")
    assert bulgarian.status_code == 404 and bulgarian.json()["detail"] != "No arena has that id."


def test_etags_revalidate_and_change_with_the_match(client, players):
    match = new_match("fast", players)
    first = client.get(f"/api/matches/{match.pk}/")
    etag = first["ETag"]
    assert first["Cache-Control"] == "no-cache"  # revalidated every time, never kept
    again = client.get(f"/api/matches/{match.pk}/", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    services.match_resign(match_id=match.pk, user=players[0], now=T0)
    changed = client.get(f"/api/matches/{match.pk}/", headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_match_costs_the_same_queries_whatever_its_length(client, players):
    short = new_match("fast", players)
    long = new_match("big", players)
    play_out(long, players[:2], rng=random.Random(2))
    counts = []
    for match in (short, long):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/api/matches/{match.pk}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 4


def test_users_and_rating_changes(client, players):
    from ratings import tasks as rating_tasks

    match = new_match("fast", players, clock="3+2", rated=True)
    play_opening(match, players[:2], now=T0)
    services.match_resign(match_id=match.pk, user=players[1], now=T0)
    rating_tasks.rating_update(match.pk)
    data = client.get(f"/api/matches/{match.pk}/").json()
    changes = {c["seat"]: c for c in data["rating_changes"]}
    assert changes["A"]["change"] > 0 > changes["B"]["change"] and changes["A"]["scale"] == "fast"
    user = client.get("/api/users/ann/").json()
    assert user["ratings"]["fast"]["matches"] == 1 and user["ratings"]["fast"]["provisional"]
    assert user["recent_matches"][0]["id"] == match.pk
    assert user["recent_matches"][0]["result"]["winners"] == ["A"]


def test_the_tables_list_is_paginated(client, make_member):
    for index in range(55):
        lobby_services.table_open(
            host=make_member(f"h{index}"),
            variant="fast",
            clock="",
            single_game=False,
            rated=False,
            private=False,
            now=T0,
        )
    first = client.get("/api/tables/").json()
    assert first["count"] == 55 and len(first["tables"]) == 50 and first["next"]
    second = client.get(first["next"]).json()
    assert [t["host"] for t in second["tables"]] == [f"h{i}" for i in range(50, 55)]


def replay_cli(text: str, folder) -> subprocess.CompletedProcess:
    """``python -m games.engine replay`` on a downloaded record; it must agree (exit 0)."""
    path = folder / "match.txt"
    path.write_text(text)
    replayed = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
    )
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    return replayed


def test_the_record_of_a_match_aborted_after_its_first_moves_downloads_and_replays(
    client, players, tmp_path
):
    """A moderator's abort (or a practice table left behind) comes after moves: its
    record is still a record (it was a 500)."""
    match = new_match("fast", players)
    play_opening(match, players[:2])
    services.match_abort(match_id=match.pk, now=T0, reason="stuck")
    response = client.get(f"/match/{match.pk}/record.txt")
    assert response.status_code == 200
    text = response.content.decode()
    assert "\naborted\n" in text and '[Reason "aborted"]' in text
    replayed = replay_cli(text, tmp_path)
    assert "(aborted)" in replayed.stdout


@pytest.mark.parametrize("variant", PLAYABLE)
def test_a_downloaded_record_replays_to_the_sites_results(client, players, variant, tmp_path):
    match = new_match(variant, players, seed=11)
    state = play_out(match, players[: VARIANTS[variant].seats], rng=random.Random(7))
    response = client.get(f"/match/{match.pk}/record.txt")
    assert response["Content-Disposition"] == f'attachment; filename="vog-filler-{match.pk}.txt"'
    text = response.content.decode()
    assert '[Site "VOG Filler"]' in text and f'[Variant "{variant}"]' in text
    replayed = replay_cli(text, tmp_path)
    totals = ", ".join(f"{'ABCD'[seat]} {total}" for seat, total in enumerate(state.totals))
    assert f"Match totals: {totals}\n" in replayed.stdout
    result = next(line for line in replayed.stdout.splitlines() if line.startswith("Match result"))
    assert f"({state.reason})" in result


def test_any_other_api_path_answers_json_in_the_request_language(client):
    """A program that mistypes an endpoint reads JSON, not the site's 404 page."""
    for path in ("/api/nothing", "/api/bot/match/abc/ready", "/api/", "/api/matches/"):
        answer = client.post(path)
        assert answer.status_code == 404, path
        assert answer.json() == {"error": "not_found", "message": "There is no such API endpoint."}
    # Only the trailing slash off: the endpoint meant is named; a read is redirected.
    slashed = client.post("/api/challenge/3/accept/")
    assert slashed.status_code == 404
    assert slashed.json()["message"] == (
        "There is no such API endpoint: did you mean /api/challenge/3/accept?"
    )
    read = client.get("/api/variants?x=1")
    assert (read.status_code, read["Location"]) == (301, "/api/variants/?x=1")
    spanish = client.get("/api/nothing/", HTTP_ACCEPT_LANGUAGE="es")
    assert spanish.json()["message"] == "No existe ese punto de acceso de la API."
    greek = client.get("/el/api/nothing/")
    assert greek.status_code == 404 and greek.json()["message"] != "There is no such API endpoint."
    # Pages keep the site's own 404.
    assert "application/json" not in client.get("/nothing/")["Content-Type"]


def test_a_program_posting_to_a_read_endpoint_is_told_the_method():
    """No CSRF page for a program: the read API and unknown paths answer JSON."""
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    posted = strict.post("/api/variants/", HTTP_ACCEPT_LANGUAGE="nl")
    assert posted.status_code == 405 and posted["Allow"] == "GET, HEAD"
    assert posted.json() == {"error": "method", "message": "Gebruik hier GET."}
    assert strict.delete("/api/users/nobody/").json()["error"] == "method"
    assert strict.post("/api/nothing").json()["error"] == "not_found"
    assert strict.head("/api/variants/").status_code == 200


def test_the_crosstable_gives_two_members_score_against_each_other(client, make_member):
    """Their public matches finished against each other, from the first named member's
    side; a private one, one under way and one with someone else are not in it."""
    ann, ben, cat = make_member("ann"), make_member("ben"), make_member("cat")
    played([ann, ben], ben)
    played([ben, ann], ann)
    played([ben, ann], ben)
    played([ann, ben], ann, private=True)
    played([ann, cat], ann)
    new_match("fast", [ann, ben])
    assert client.get("/api/users/ann/vs/ben/").json() == {
        "users": {"ann": 2.0, "ben": 1.0},
        "matches": 3,
        "won": 2,
        "drawn": 0,
        "lost": 1,
    }
    assert client.get("/api/users/BEN/vs/ann/").json()["users"] == {"ben": 1.0, "ann": 2.0}
    from games.selectors import head_to_head

    with CaptureQueriesContext(connection) as captured:
        head_to_head(ann, ben)
    assert len(captured) == 1  # the winners alone, however many matches
    assert client.get("/api/users/ann/vs/nobody/").status_code == 404
    same = client.get("/api/users/ann/vs/ann/")
    assert same.status_code == 404 and same.json()["message"] == "Name two different members."
