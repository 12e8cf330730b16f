"""Why each game and each match ended (SPEC §1, §3), for two seats, three seats, four
seats and Pairs.

Game reasons: ``decided`` (a side's score passed the potential of every other active
side), ``filled`` (no free countable cell left), ``last_side`` (a single active side is
left), and for two sides ``resigned``, ``flagged``, ``abandoned``. Match reasons:
``points``, ``totals``, ``drawn``, ``resigned``, ``flagged``, ``abandoned``, ``aborted``.

The small boards below are written so that every end is worked out by hand in comments.
"""

import random

import pytest

from games.engine import VARIANTS, Position
from games.engine.letters import LETTERS
from games.engine.match import MatchError, MatchState


def run(fpn: str, games: int, *events: int | str) -> MatchState:
    """A match on ``fpn`` driven by events: a colour (or "swap") for the seat to move,
    "next" (every seat ready), or "<letter> resigns game|resigns match|flags|abandons"."""
    state = MatchState.new(Position.from_text(fpn), games=games)
    for event in events:
        if event == "next":
            for seat in range(state.seats):
                if state.status == "between_games" and seat not in state.out:
                    state = state.ready_for_next(seat)
        elif isinstance(event, str) and event != "swap":
            letter, action = event.split(" ", 1)
            seat = LETTERS.index(letter)
            state = {
                "resigns game": state.resign_game,
                "resigns match": state.resign_match,
                "flags": state.flag,
                "abandons": state.abandon,
            }[action](seat)
        else:
            state = state.play(state.current.position.to_move, event)
    return state


def reasons(state: MatchState) -> tuple[str | None, ...]:
    return (*(game.reason for game in state.games), state.reason)


# --- two seats ---------------------------------------------------------------------------


def test_two_seats_decided_with_cells_left_then_filled_and_two_nil_on_points():
    #   2 4 4 B    game 1: A 4 takes five of the eight cells; the two 2s stay free
    #   A 4 2 2    game 2 (B bottom-left, moves first): B 2, A 4 fills the board, 6-2
    state = run("square 4x2 4 244B/A422 3,1 A", 2, 4, "next", 2, 4)
    assert reasons(state) == ("decided", "filled", "points")
    assert state.games[0].position.to_text() == "square 4x2 4 AAAB/AA22 4,1 B"
    assert state.games[1].position.scores == (6, 2)
    assert (state.points, state.totals, state.winners) == ((2.0, 0.0), (11, 3), (0,))


def test_two_seats_a_full_board_is_filled_whoever_leads():
    # A 1 1 B: A's 1s fill the board, 3-1.
    state = run("square 4x1 4 A11B 3,4 A", 1, 1)
    assert reasons(state) == ("filled", "points")
    assert state.winners == (0,)


def test_two_seats_drawn_games_make_a_drawn_match():
    state = run("square 3x1 3 A2B 1,3 A", 2, 2, "next", 2)  # 2-1 for A, then 2-1 for B
    assert reasons(state) == ("filled", "filled", "drawn")
    assert (state.points, state.totals, state.winners) == ((1.0, 1.0), (3, 3), (0, 1))


def test_two_seats_one_all_decided_on_totals():
    #   2 4 3 B    game 1: A 2, B 1, A 4 -> A 5 of 8, decided
    #   A 4 4 1    game 2 (B bottom-left, moves first): B 4 takes five, A can reach 3
    state = run("square 4x2 4 243B/A441 1,3 A", 2, 2, 1, 4, "next", 4)
    assert reasons(state) == ("decided", "decided", "totals")
    assert state.points == (1.0, 1.0) and state.totals == (6, 7)
    assert state.winners == (1,)


def test_two_seats_resigning_a_game_then_the_match():
    state = run("square 5x1 4 A112B 3,4 A", 2, "B resigns game", "next", "A resigns match")
    assert reasons(state) == ("resigned", "resigned", "resigned")
    assert state.winners == (1,)
    assert state.points == (1.0, 1.0)  # the match is lost whatever the points


@pytest.mark.parametrize(("event", "reason"), [("flags", "flagged"), ("abandons", "abandoned")])
def test_two_seats_flag_and_abandonment_lose_the_game_and_the_match(event, reason):
    state = run("square 5x1 4 A112B 3,4 A", 2, f"A {event}")
    assert reasons(state) == (reason, reason)
    assert state.games[0].winners == (1,) and state.winners == (1,)
    # between games the match is lost the same way, and the finished game keeps its reason
    between = run("square 5x1 4 A112B 3,4 A", 2, 1, f"B {event}")
    assert reasons(between) == ("decided", reason)
    assert between.winners == (0,)


def test_aborted_before_every_seat_moved():
    state = MatchState.new(Position.from_text("square 5x1 4 A112B 3,4 A")).abort()
    assert (state.status, state.reason, state.winners) == ("aborted", "aborted", ())
    assert state.games[0].reason is None


# --- three seats (a single game) ----------------------------------------------------------

THREE_ROW = "square 7x1 6 A111B2C 3,4,5 A"  # A 1 1 1 B 2 C
#   B 1 1 C
#   1 1 1 1    one free region that every seat borders
#   A 1 1 1
THREE_OPEN = "square 4x3 5 B11C/1111/A111 2,3,4 A"


def test_three_seats_decided_with_everyone_in():
    # A's 1s: A 4, B can reach 2, C 2
    state = run(THREE_ROW, 1, 1)
    assert reasons(state) == ("decided", "points")
    assert state.games[0].position.owners()[5] is None


def test_three_seats_decided_after_a_seat_went_out_is_decided_not_last_side():
    # A 1 1 1 2 B 3 C. C gives up the game: the 3 borders only B now and is B's. A's 1s
    # then give A 4, more than B can reach (3, with the 2): decided while B is still in.
    state = run("square 8x1 6 A1112B3C 4,5,6 A", 1, "C resigns game", 1)
    game = state.games[0]
    assert game.position.to_text() == "square 8x1 6 AAAA2BBC 1,5,6 B out=C"
    assert (game.reason, game.winners) == ("decided", (0,))
    assert (state.reason, state.winners) == ("points", (0,))


def test_three_seats_a_seat_going_out_can_fill_the_board():
    # B goes out: the 1s border only A among active seats and the 2 only C
    state = run(THREE_ROW, 1, "B resigns game")
    game = state.games[0]
    assert game.position.scores == (4, 1, 2)
    assert (game.reason, game.winners) == ("filled", (0,))


def test_three_seats_a_seat_going_out_can_decide_the_game_for_another():
    # A 1 B 2 2 C: when C goes out its 2s border B alone and B has 3, more than A's 2
    state = run("square 6x1 6 A1B22C 3,4,5 A", 1, "C resigns game")
    game = state.games[0]
    assert game.position.scores == (1, 3, 1)
    assert (game.reason, game.winners) == ("decided", (1,))


def test_three_seats_a_full_board_draw():
    # A 1 B 2 C: A takes the 1, B the 2; A and B have 2 each
    state = run("square 5x1 6 A1B2C 3,4,5 A", 1, 1, 2)
    assert reasons(state) == ("filled", "drawn")
    assert state.winners == (0, 1) and state.points == (0.5, 0.5, 0.0)


def test_three_seats_last_side_after_two_seats_give_up_the_game():
    state = run(THREE_OPEN, 1, "B resigns game")
    assert state.status == "playing"  # A and C still share the 1s
    state = run(THREE_OPEN, 1, "B resigns game", "C resigns game")
    game = state.games[0]
    assert (game.reason, game.winners) == ("last_side", (0,))
    assert game.position.scores == (10, 1, 1)  # A is credited with the 1s it borders
    assert (state.reason, state.winners) == ("points", (0,))


@pytest.mark.parametrize(
    ("event", "reason"),
    [("resigns match", "resigned"), ("flags", "flagged"), ("abandons", "abandoned")],
)
def test_three_seats_the_last_opponent_leaving(event, reason):
    state = run(THREE_OPEN, 1, "B resigns match", f"C {event}")
    assert reasons(state) == ("last_side", reason)
    assert state.winners == (0,)


def test_three_seats_the_game_won_alone_while_a_seat_is_still_in_the_match_is_on_points():
    # B gave up the game only, so when C leaves the match B is still in it: A wins the
    # one game alone and the match on points
    state = run(THREE_OPEN, 1, "B resigns game", "C resigns match")
    assert reasons(state) == ("last_side", "points")
    assert state.winners == (0,) and state.out == (2,)


# --- four seats (each for itself) ----------------------------------------------------------

# one row: A 1 1 1 C 2 D 3 B; game 2 puts each seat on the opposite corner: C 1 1 1 A 2 B 3 D
FOUR_ROW = "square 9x1 8 A111C2D3B 5,6,7,8 A"


def test_four_seats_a_resignation_in_game_two_then_decided_by_potentials():
    # Game 1: A's 1s give it 4; the best anyone else can reach is D's 3. Game 2: D
    # resigns the match (its 3 goes to B); C's 1s give it 4, more than A (2) and B (3)
    # can reach, while A and B are still in: decided, not "the others are out".
    state = run(FOUR_ROW, 2, 1, "next", "D resigns match", 1)
    assert reasons(state) == ("decided", "decided", "drawn")
    game2 = state.games[1]
    assert game2.position.out == (3,) and game2.winners == (2,)
    assert game2.position.side_potentials[:3] == (2, 3, 4)
    # A and C won a game each with 5 in all: a drawn match between them; D ranks last
    assert state.points == (1.0, 0.0, 1.0, 0.0) and state.totals == (5, 3, 5, 2)
    assert state.winners == (0, 2)


#   B 1 2 C
#   1 1 1 1    one free region that every seat borders
#   A 1 1 D
FOUR_OPEN = "square 4x3 6 B12C/1111/A11D 2,3,4,5 A"


def test_four_seats_last_side_in_a_game_then_one_all_on_totals():
    state = run(FOUR_OPEN, 2, "B resigns game", "C resigns game")
    assert state.status == "playing"  # A and D still share the free cells
    state = run(FOUR_OPEN, 2, "B resigns game", "C resigns game", "D resigns game", "next", 1)
    # game 1: A alone is credited with the 8 free cells (9); game 2: C (now bottom-left)
    # takes the 1s (8), more than D can reach with the 2
    assert reasons(state) == ("last_side", "decided", "totals")
    assert state.points == (1.0, 0.0, 1.0, 0.0) and state.totals == (10, 2, 9, 2)
    assert state.winners == (0,)


def test_four_seats_the_last_opponent_leaves_the_match():
    state = run(FOUR_OPEN, 2, "B resigns match", "C flags", "D abandons")
    assert reasons(state) == ("last_side", "abandoned")
    assert state.winners == (0,) and state.out == (1, 2, 3)


def test_four_seats_seats_leaving_fill_the_board_and_the_last_leaves_between_games():
    # B out: its 3 goes to D; C out: the 1s go to A, the 2 to D. Nothing is free: A's 4
    # beats D's 3. D then abandons between the games: the match is A's.
    state = run(FOUR_ROW, 2, "B resigns match", "C flags")
    assert state.status == "between_games"
    assert (state.games[0].reason, state.games[0].position.scores) == ("filled", (4, 1, 1, 3))
    state = run(FOUR_ROW, 2, "B resigns match", "C flags", "D abandons")
    assert reasons(state) == ("filled", "abandoned") and state.winners == (0,)


def test_four_seats_two_games_to_the_same_seat():
    #   B 2 C    game 1: A 3 takes the 3s and is more than anyone can reach
    #   6 3 3    game 2 (C bottom-left, moves first): C 6, D 5, A 3 wins it again
    #   A 3 D
    state = run("square 3x3 6 B2C/633/A3D 5,1,4,2 A", 2, 3, "next", 6, 5, 3)
    assert reasons(state) == ("decided", "decided", "points")
    assert state.points == (2.0, 0.0, 0.0, 0.0) and state.winners == (0,)


def test_four_seats_full_boards_and_totals():
    state = run("square 3x3 6 B2C/524/A2D 5,2,3,1 A", 2, 6, 5, 4, 2, "next", 4, 5, 2)
    assert reasons(state) == ("filled", "decided", "totals")
    assert state.points == (1.0, 0.0, 0.0, 1.0) and state.totals == (5, 3, 3, 6)
    assert state.winners == (3,)


# --- Pairs (A+C against B+D) ---------------------------------------------------------------


def test_pairs_decided_games_and_points():
    state = run("square 4x3 6 B55C/5552/A11D 3,6,1,2 A t=AC/BD", 2, 5, "next", 1, 5)
    assert reasons(state) == ("decided", "decided", "points")
    assert state.points == (2.0, 0.0, 2.0, 0.0) and state.winners == (0, 2)


def test_pairs_full_boards_and_a_drawn_match():
    state = run("square 3x2 6 B2C/A2D 1,3,5,6 A t=AC/BD", 2, 2, "next", 2)
    assert reasons(state) == ("filled", "filled", "drawn")
    assert state.totals == (6, 6, 6, 6) and state.winners == (0, 1, 2, 3)


def test_pairs_one_all_on_totals():
    state = run("square 3x3 6 B4C/266/A4D 1,6,4,5 A t=AC/BD", 2, 2, 3, 6, "next", 4, 2, 6)
    assert reasons(state) == ("decided", "decided", "totals")
    assert state.points == (1.0, 1.0, 1.0, 1.0) and state.totals == (8, 7, 8, 7)
    assert state.winners == (0, 2)


def test_pairs_a_partner_resigns_the_game_then_flags():
    fpn = "square 4x3 6 B55C/5552/A11D 3,6,1,2 A t=AC/BD"
    state = run(fpn, 2, "C resigns game", "next", "A flags")
    assert reasons(state) == ("resigned", "flagged", "flagged")
    assert state.games[0].winners == (1, 3) and state.games[1].winners == (1, 3)
    assert state.winners == (1, 3)


def test_pairs_abandoned_and_resigned_match():
    fpn = "square 4x3 6 B55C/5552/A11D 3,6,1,2 A t=AC/BD"
    assert reasons(run(fpn, 2, "D abandons")) == ("abandoned", "abandoned")
    assert reasons(run(fpn, 2, 5, "B resigns match")) == ("decided", "resigned")


# --- every variant: the recorded reason is what the final position shows --------------------


def free_countable_cells(position: Position) -> set[int]:
    owners = position.owners()
    return {
        cell
        for cell in range(position.board.size)
        if owners[cell] is None
        and cell not in position.board.obstacles
        and cell not in position.dead
    }


def check_game_reason(game, two_sides: bool) -> None:
    position = game.position
    active = [n for n, side in enumerate(position.sides) if set(side) - set(position.out)]
    if game.reason in ("resigned", "flagged", "abandoned"):
        assert two_sides and position.resigned and game.winners
        return
    if game.reason == "stalled":  # the match's rule: twenty plies captured nothing
        assert not position.is_over and all(gained == 0 for _, gained in game.log[-20:])
        assert (len(game.log) >= 20 and game.log[-21:][0][1] > 0) or len(game.log) == 20
        best = max(position.side_scores[n] for n in active)
        assert {position.side_of(seat) for seat in game.winners} == {
            n for n in active if position.side_scores[n] == best
        }
        return
    assert game.reason in ("decided", "filled", "last_side"), game.reason
    assert (game.reason == "last_side") == (len(active) == 1)
    if game.reason == "filled":
        assert not free_countable_cells(position)
    if game.reason == "decided":
        assert free_countable_cells(position)
        (winner,) = {position.side_of(seat) for seat in game.winners}
        scores, potentials = position.side_scores, position.side_potentials
        assert all(scores[winner] > potentials[n] for n in active if n != winner)


@pytest.mark.parametrize(
    "key", ["fast", "hex", "vinco", "walls", "values", "three", "four", "pairs"]
)
def test_random_matches_end_for_the_reasons_their_positions_show(key):
    variant = VARIANTS[key]
    seen = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = MatchState.new(variant.new_position(seed), games=variant.games)
        while state.status in ("playing", "between_games"):
            if state.status == "between_games":
                state = state.start_next_game()
                continue
            position = state.current.position
            seat = rng.choice([s for s in range(state.seats) if s not in state.out])
            roll = rng.random()
            try:
                if roll < 0.01:
                    state = state.resign_match(seat)
                elif roll < 0.02:
                    state = state.resign_game(seat)
                else:
                    state = state.play(position.to_move, rng.choice(position.legal_moves()))
            except MatchError:
                continue  # that seat was already out of this game
        for game in state.games:
            check_game_reason(game, len(variant.new_position(seed).sides) == 2)
            seen.add(game.reason)
        if state.reason in ("points", "totals"):
            assert len({state.board.side_of(seat) for seat in state.winners}) == 1
        if state.reason == "drawn":
            assert len({state.board.side_of(seat) for seat in state.winners}) > 1
    assert "decided" in seen
