"""A complete bot for VOG Filler's bot API (docs/bot-api.md), standard library only: it
accepts every challenge and plays greedy (the legal colour that gains most cells).

    python bench/bot_client.py --url http://127.0.0.1:8000 --token vog_...

Each line it reads, and each call it makes, is logged as a JSON line on stdout. It stops
when the server ends its event stream (the token revoked, the account banned)."""

import argparse
import http.client
import json
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request


def log(**data):
    print(json.dumps(data), flush=True)


def call(args, path, **fields):
    """POST a form to the API: (status, JSON answer)."""
    body = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(
        args.url + path, body, {"Authorization": f"Bearer {args.token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            status, data = answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        status, data = error.code, json.load(error)
    log(call=path, status=status, answer=data)
    return status, data


def stream(args, path, name):
    """The objects of an NDJSON stream (keep-alives logged and skipped) until it ends."""
    url = urllib.parse.urlsplit(args.url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    connection.request("GET", path, headers={"Authorization": f"Bearer {args.token}"})
    response = connection.getresponse()
    while line := response.readline():
        data = json.loads(line) if line.strip() else None
        log(stream=name, line=data)
        if data is not None:
            yield data
    log(stream=name, ended=True)


def greedy(state):
    """The legal colour whose chain and enclosure take the most cells (lowest on a tie)."""
    previews = state["you"]["previews"]
    return max(sorted(previews, key=int), key=lambda colour: len(previews[colour]))


def play(args, match_id):
    done = set()  # what it already did: a later state (a seat coming, say) may come first
    for state in stream(args, f"/api/bot/match/{match_id}/stream", match_id):
        if state["type"] not in ("matchFull", "matchState"):
            continue  # a chat line
        match, game, seat = state["match"], state["game"], state["you"]["seat"]
        turn = (match["status"], game["number"], game["ply"])
        if turn in done:
            continue
        if match["status"] == "between_games" and seat not in match["ready"]:
            done.add(turn)
            if call(args, f"/api/bot/match/{match_id}/ready")[0] != 200:
                done.discard(turn)  # tried again at the next state
        elif match["status"] == "playing" and not game["over"] and game["to_move"] == seat:
            done.add(turn)
            colour = greedy(state)
            path = f"/api/bot/match/{match_id}/move/{colour}"
            if call(args, path, ply=game["ply"])[0] != 200:
                done.discard(turn)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    args = parser.parse_args()
    for event in stream(args, "/api/stream/event", "event"):
        if event["type"] == "challenge":
            call(args, f"/api/challenge/{event['challenge']['id']}/accept")
        elif event["type"] == "matchStart":
            threading.Thread(target=play, args=(args, event["match"]["id"]), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
