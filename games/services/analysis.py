"""The computer's review of a finished match (SPEC §13): asking for it, working it out on
the ``analysis`` queue, and trying other colours from a position of the replay (the
``analysis_try`` queue).

An analysis is a row (``Analysis``) per match: asked for once, worked out once (asking
again is harmless). The work runs outside any transaction, move after move, writing its
progress to the row and telling the table as it goes (``table.analysis``, not a new
``version``); the result is stored whole at the end.
"""

from __future__ import annotations

import hashlib
import json
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.limits import Limit
from accounts.models import User
from games import events
from games.engine import VARIANTS, Position
from games.engine.analysis import (
    Reviewed,
    model_for,
    review_game,
    summary,
    verdict,
)
from games.engine.endgame import result
from games.engine.errors import IllegalMove
from games.engine.match import MatchState
from games.engine.replay import steps
from games.errors import TableError, illegal_message
from games.models import SEAT_LETTERS, Analysis, Match
from games.services.underway import work_begin, work_end, work_hand_over, work_held

LIVE = (Analysis.Status.QUEUED, Analysis.Status.RUNNING)
TRY_SECONDS = 0.8  # the search's time for one tried colour
TRY_RUNNING_SECONDS = 10  # a try not answered by then may be asked again
TRY_KEPT_SECONDS = 24 * 3600
#: Analyses a member asks for (new ones: asking again is free).
ANALYSES_ASKED = Limit("analyses-asked", 5, 3600, setting="ANALYSIS_PER_HOUR")
#: Requests to the analysis of a member a minute, like the site's other writes: asking
#: for one, and each colour tried or refused (a flood of them once slowed others' moves
#: 4.7×); the page asking again for an answer being worked out is not counted.
ANALYSIS_POSTS = Limit("analysis-posts", 60, 60, setting="ANALYSIS_POSTS_PER_MINUTE")
#: A match's review stops at this many plies of a game, and at this much CPU time for
#: the whole match (a Fast or Classic match of ordinary length is always reviewed whole;
#: what lies beyond is marked not reviewed). The stored result stays under
#: ``RESULT_BYTES``.
REVIEW_PLIES = 400
REVIEW_CPU_SECONDS = 120.0
#: an analysis running this long has lost its worker (its budget is ``REVIEW_CPU_SECONDS``)
ANALYSIS_RUNNING_LOST_SECONDS = 15 * 60
#: an analysis queued this long may have lost its task (the broker restarted): it is sent
#: again, as often as beat looks (a twin finds it done and does nothing)
ANALYSIS_QUEUED_RESEND_SECONDS = 10 * 60
RESULT_BYTES = 100_000
#: Colours tried being worked out at once, all members together (a slot each).
TRIES_IN_FLIGHT = 4


def analysable(match: Match) -> bool:
    """A finished match of a two-seat variant (the swap included) with moves."""
    return (
        match.status == Match.Status.FINISHED
        and VARIANTS[match.variant].seats == 2
        and bool(match.state)
    )


def analysis_queue(
    match: Match, *, now: datetime, member: User | None = None, state: MatchState | None = None
) -> Analysis:
    """Queue the analysis of ``match`` (inside the caller's transaction; the task is sent
    after the commit), whose engine state is ``state`` when it is not yet stored. One
    that failed is queued again; any other is left as it is."""
    analysis, created = Analysis.objects.get_or_create(
        match=match, defaults={"requested_at": now, "requested_by": member}
    )
    if not created and analysis.status not in (Analysis.Status.FAILED, Analysis.Status.BUSY):
        return analysis
    state = state or MatchState.from_dict(match.state)
    if backlog_full(besides=match.pk):
        # Queued by itself or asked for: either waits behind the same backlog. The page
        # says the computer was busy, and a player may ask again later.
        analysis.status = Analysis.Status.BUSY
        analysis.requested_at = now
        analysis.save(update_fields=["status", "requested_at"])
        return analysis
    analysis.status = Analysis.Status.QUEUED
    analysis.done = 0
    analysis.total = sum(game.ply for game in state.games)
    analysis.result = None
    analysis.requested_at = now
    analysis.requested_by = member
    analysis.save()
    transaction.on_commit(lambda: events.analysis_wanted(match.pk))
    return analysis


def analysis_request(*, match_id: int, member: User | None, now: datetime) -> Analysis:
    """A member asks for the analysis of a finished match: its players for any match,
    anyone for a rated one. Asking again returns the analysis asked for before; a new one
    counts toward the member's ``ANALYSIS_PER_HOUR`` and waits behind at most
    ``ANALYSIS_BACKLOG`` others."""
    if member is None or not member.is_authenticated:
        raise TableError("not_allowed", _("Log in to ask for an analysis."))
    analysis_post_check(member, now)
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            raise TableError("not_found", _("No such table."))
        if not match.rated and not match.seats.filter(member=member).exists():
            raise TableError(
                "not_allowed", _("Only its players can ask for the analysis of an unrated match.")
            )
        if not analysable(match):
            raise TableError("invalid", _("Only finished matches of two players are analysed."))
        found = Analysis.objects.filter(match=match).first()
        if found is not None and found.status not in (
            Analysis.Status.FAILED,
            Analysis.Status.BUSY,
        ):
            return found
        if backlog_full():
            raise TableError(
                "busy", _("The computer has too many matches to analyse: ask again later.")
            )
        _hourly_check(member, now)
        return analysis_queue(match, now=now, member=member)


def backlog_full(*, besides: int | None = None) -> bool:
    """Whether ``ANALYSIS_BACKLOG`` analyses of other matches than ``besides`` already
    wait or run (those queued by themselves included)."""
    live = Analysis.objects.filter(status__in=LIVE).exclude(match_id=besides)
    return live.count() >= settings.ANALYSIS_BACKLOG


def analysis_post_check(member: User, now: datetime) -> None:
    """A member's request to the analysis, counted with their others (``ANALYSIS_POSTS``)."""
    if not ANALYSIS_POSTS.hit(member.pk, now=now):
        raise TableError("rate_limited", _("Slow down: too many requests in a short time."))


def _hourly_check(member: User, now: datetime) -> None:
    if not ANALYSES_ASKED.hit(member.pk, now=now):
        raise TableError(
            "rate_limited",
            _("You have asked for %(limit)d analyses this hour: ask again later.")
            % {"limit": ANALYSES_ASKED.rate()[0]},
        )


def analyses_resume(*, now: datetime) -> int:
    """What a stopped worker or a restarted broker left behind (beat, every ten minutes):
    an analysis running for ``ANALYSIS_RUNNING_LOST_SECONDS`` failed (its page says so
    and a player may ask again), and one queued for ``ANALYSIS_QUEUED_RESEND_SECONDS`` is
    sent to the worker again. Without this they would show as under way for ever and
    fill the backlog, until every request was refused as busy. Returns how many."""
    with transaction.atomic():
        stopped = list(
            Analysis.objects.select_for_update()
            .filter(
                status=Analysis.Status.RUNNING,
                started_at__lte=now - timedelta(seconds=ANALYSIS_RUNNING_LOST_SECONDS),
            )
            .values_list("match_id", "total")
        )
        Analysis.objects.filter(match_id__in=[match_id for match_id, _ in stopped]).update(
            status=Analysis.Status.FAILED, finished_at=now
        )
    for match_id, total in stopped:
        events.analysis_progress(match_id, status="failed", done=0, total=total)
    waiting = list(
        Analysis.objects.filter(
            status=Analysis.Status.QUEUED,
            requested_at__lte=now - timedelta(seconds=ANALYSIS_QUEUED_RESEND_SECONDS),
        ).values_list("match_id", flat=True)
    )
    for match_id in waiting:
        events.analysis_wanted(match_id)
    return len(stopped) + len(waiting)


def analysis_run(*, match_id: int, now) -> Analysis | None:
    """Work the analysis of a match out (the ``analysis`` queue): every move of both games
    reviewed, the row and the table told of each one, the result stored at the end.
    ``now`` is the clock (a callable). Nothing happens for an analysis done or not asked."""
    with transaction.atomic():
        analysis = (
            Analysis.objects.select_for_update()
            .select_related("match")
            .filter(match_id=match_id, status__in=LIVE)
            .first()
        )
        if analysis is None:
            return None
        analysis.status = Analysis.Status.RUNNING
        analysis.done = 0
        analysis.started_at = now()
        analysis.save(update_fields=["status", "done", "started_at"])
    match = analysis.match
    total = analysis.total
    try:
        result = _review(match, total)
    except Exception:
        Analysis.objects.filter(pk=match_id).update(
            status=Analysis.Status.FAILED, finished_at=now()
        )
        events.analysis_progress(match_id, status="failed", done=0, total=total)
        raise
    Analysis.objects.filter(pk=match_id).update(
        status=Analysis.Status.DONE, done=total, result=result, finished_at=now()
    )
    events.analysis_progress(match_id, status="done", done=total, total=total)
    analysis.refresh_from_db()
    return analysis


def _review(match: Match, total: int) -> dict:
    """Every game of the match reviewed, with the progress written and told as it goes,
    within the budget (``REVIEW_PLIES`` a game, ``REVIEW_CPU_SECONDS`` a match)."""
    model = model_for(match.variant)
    games: list[list[Reviewed]] = []
    positions: list[list[Position]] = []
    started = time.process_time()

    def spent() -> bool:
        return time.process_time() - started >= REVIEW_CPU_SECONDS

    for timeline in steps(MatchState.from_dict(match.state)):
        played, before = [], timeline[0].position
        for step in timeline:
            if step.move is not None:
                played.append((before, step.move))
            before = step.position
        done_before = sum(len(game) for game in positions)

        def progress(done: int, offset: int = done_before) -> None:
            Analysis.objects.filter(pk=match.pk).update(done=offset + done)
            events.analysis_progress(match.pk, status="running", done=offset + done, total=total)

        games.append(review_game(played[:REVIEW_PLIES], model, progress=progress, stop=spent))
        positions.append([position for position, _ in played])
    return analysis_result(games, positions, moves=_moves_of(match))


def _moves_of(match: Match) -> list[list[tuple[str, int | str]]]:
    """Each game's moves as (seat letter, colour played), for the moves not reviewed."""
    return [
        [
            (SEAT_LETTERS[mover], move)
            for (mover, _gained), move in zip(game.log, game.moves, strict=True)
        ]
        for game in MatchState.from_dict(match.state).games
    ]


def analysis_result(
    games: list[list[Reviewed]],
    positions: list[list[Position]],
    *,
    moves: list[list[tuple[str, int | str]]] | None = None,
) -> dict:
    """What is stored and shown (SPEC §13): per game its moves, per seat the accuracy (the
    mean over the match's reviewed moves) and the judged moves, with each game's own
    figures. A judged move also keeps the cells its best colour would have taken. Moves
    beyond the review's budget (``moves`` gives them) are entries ``"reviewed": false``;
    the cells of judged moves are left out from the last game backwards while the result
    would pass ``RESULT_BYTES``."""
    entries = []
    for number, (reviews, befores) in enumerate(zip(games, positions, strict=True)):
        game = [_entry(review, before) for review, before in zip(reviews, befores, strict=False)]
        for ply in range(len(reviews) + 1, len(befores) + 1):
            seat, played = moves[number][ply - 1] if moves else ("", None)
            game.append({"ply": ply, "seat": seat, "played": played, "reviewed": False})
        entries.append(game)
    _fit(entries)
    per_game = [summary(reviews) for reviews in games]
    whole = summary(review for reviews in games for review in reviews)
    seats = []
    for seat, overall in enumerate(whole):
        seats.append(
            {
                "seat": SEAT_LETTERS[seat],
                **_figures(overall),
                "games": [_figures(game[seat]) for game in per_game],
            }
        )
    complete = all(len(r) == len(b) for r, b in zip(games, positions, strict=True))
    return {"games": entries, "seats": seats, "complete": complete}


def _fit(entries: list[list[dict]]) -> None:
    """Leave out the best colours' cells, the latest first, until the result fits."""
    size = len(json.dumps(entries, separators=(",", ":")))
    for game in reversed(entries):
        for entry in reversed(game):
            if size < RESULT_BYTES - 10_000:  # room for the seats' figures
                return
            cells = entry.pop("best_cells", None)
            if cells is not None:
                size -= len(json.dumps(cells, separators=(",", ":"))) + len('"best_cells":,')


def _entry(review: Reviewed, before: Position) -> dict:
    entry = {
        "ply": review.ply,
        "seat": SEAT_LETTERS[review.seat],
        "played": review.played,
        "best": review.best,
        "before": review.before,
        "after": review.after,
        "exact": review.exact,
        "judgement": review.judgement,
    }
    if review.judgement and review.best != "swap":
        entry["best_cells"] = sorted(before.preview(review.best))
    return entry


def _figures(seat) -> dict:
    return {
        "accuracy": seat.accuracy,
        "inaccuracies": seat.inaccuracies,
        "mistakes": seat.mistakes,
        "blunders": seat.blunders,
    }


# --- trying another colour -----------------------------------------------------------------


def analysis_try(
    *, match_id: int, member: User | None, game: int, ply: int, colour: str, now: datetime
) -> dict | None:
    """A member tries ``colour`` in the position after ``ply`` moves of ``game`` of a
    finished match: the computer's answer and the mover's win chances, once worked out
    on the ``analysis_try`` queue (``None`` meanwhile: ask again). Kept per position; a
    member has one try in flight at a time."""
    if member is None or not member.is_authenticated:
        raise TableError("not_allowed", _("Log in to try other colours."))
    try:
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            raise TableError("not_found", _("No such table."))
        if not analysable(match):
            raise TableError("invalid", _("Only finished matches of two players are analysed."))
        position = _position_at(match, game, ply)
        move = _move(position, colour)
    except TableError:
        analysis_post_check(member, now)  # a refusal counts
        raise
    key = _try_key(match.variant, position, move)
    answer = cache.get(key)
    if answer is not None:
        return answer
    running = try_work_name(member.pk)
    if work_held(running, now=now) == key:
        return None  # still being worked out: the page asks again
    analysis_post_check(member, now)  # new work
    if not work_begin(running, now=now, seconds=TRY_RUNNING_SECONDS, value=key):
        held = work_held(running, now=now)
        if held == key:
            return None  # still being worked out
        # A worker keeps its answer a moment before it frees the member's try: a try
        # whose answer is kept is over, and its hold goes to this one.
        if held is None:
            taken = work_begin(running, now=now, seconds=TRY_RUNNING_SECONDS, value=key)
        else:  # the worker may let go between the look and the hand-over: take it afresh
            taken = cache.get(held) is not None and (
                work_hand_over(running, held=held, value=key, now=now, seconds=TRY_RUNNING_SECONDS)
                or work_begin(running, now=now, seconds=TRY_RUNNING_SECONDS, value=key)
            )
        if not taken:
            raise TableError("busy", _("Wait for the answer to the colour you tried before."))
    if not any(
        work_begin(try_slot_name(slot), now=now, seconds=TRY_RUNNING_SECONDS, value=key)
        for slot in range(TRIES_IN_FLIGHT)
    ):
        work_end(running, value=key)
        raise TableError(
            "busy", _("The computer is busy with other colours tried: try again in a moment.")
        )
    transaction.on_commit(
        lambda: events.analysis_try_wanted(member.pk, match.variant, position.to_text(), move)
    )
    return None


def _position_at(match: Match, game: int, ply: int) -> Position:
    """The position after ``ply`` moves of ``game``, from the replay's steps (kept in the
    cache per version: the page asks again and again while a try is worked out)."""
    from games.selectors import match_steps  # games.selectors imports the services

    timelines = match_steps(match)["games"]
    if not 1 <= game <= len(timelines):
        raise TableError("invalid", _("There is no such game in this match."))
    for step in timelines[game - 1]:
        if step["ply"] == ply and step["event"] is None:
            return Position.from_text(step["position"])
    raise TableError("invalid", _("There is no such move in this game."))


def _move(position: Position, colour: str) -> int | str:
    if colour == "swap":
        if not position.can_swap:
            raise TableError("illegal_color", illegal_message("swap"))
        return "swap"
    try:
        move = int(colour)
    except (TypeError, ValueError):
        raise TableError("illegal_color", illegal_message("palette")) from None
    try:
        position.play(move)
    except IllegalMove as error:
        raise TableError("illegal_color", illegal_message(error.reason)) from None
    return move


def _try_key(variant: str, position: Position, move: int | str) -> str:
    digest = hashlib.sha256(position.to_text().encode()).hexdigest()[:32]
    return f"analysis-try:{variant}:{digest}:{move}"


def analysis_try_work(*, member_id: int, variant: str, fpn: str, move: int | str) -> dict:
    """Work a tried colour out (the ``analysis_try`` queue, with a time limit): the
    computer's answer in the position after it and the mover's win chances there."""
    position = Position.from_text(fpn)
    key = _try_key(variant, position, move)
    try:
        after = position.play(move)
        mover = position.to_move
        if after.is_over:
            chances = float(result(after, mover))
            answer = {"colour": move, "answer": None, "chances": chances, "exact": True}
        else:
            found = verdict(after, model_for(variant), time_limit=TRY_SECONDS)
            theirs = after.to_move != mover
            answer = {
                "colour": move,
                "answer": found.best,
                "chances": round(100.0 - found.before if theirs else found.before, 1),
                "exact": found.exact,
            }
        cache.set(key, answer, TRY_KEPT_SECONDS)
    finally:
        for slot in range(TRIES_IN_FLIGHT):
            work_end(try_slot_name(slot), value=key)
        work_end(try_work_name(member_id), value=key)
    return answer


def try_slot_name(slot: int) -> str:
    """One of the ``TRIES_IN_FLIGHT`` places of tried colours being worked out."""
    return f"analysis-try-slot:{slot}"


def try_work_name(member_id: int) -> str:
    """The name a member's try in flight is under way by (``underway``): one at a time."""
    return f"analysis-try:{member_id}"
