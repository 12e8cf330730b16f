"""The match of SPEC §3 and the rated scores of SPEC §4, driven through events."""

import pytest

from games.engine import VARIANTS, Position
from games.engine.match import MatchError, MatchState

# A tiny board: A, a free 1, a free 2, B. A takes the 1, B takes the 2: 2–2, a draw.
DRAW_BOARD = "square 4x1 4 A12B 3,4 A"


def greedy(position: Position) -> int:
    legal = [c for c, why in position.legal_colors().items() if why is None]
    return max(legal, key=lambda c: (len(position.preview(c)), -c))


def play_out(state: MatchState) -> MatchState:
    while state.status == "playing":
        position = state.current.position
        state = state.play(position.to_move, greedy(position))
    return state


def both_ready(state: MatchState) -> MatchState:
    for seat in range(state.seats):
        if state.status == "between_games":
            state = state.ready_for_next(seat)
    return state


def fast(seed: int) -> MatchState:
    return MatchState.new(VARIANTS["fast"].new_position(seed), games=2)


def test_a_drawn_game_and_a_drawn_match():
    state = MatchState.new(Position.from_text(DRAW_BOARD), games=2)
    state = state.play(0, 1).play(1, 2)
    game1 = state.games[0]
    assert (game1.reason, game1.winners) == ("filled", (0, 1))
    assert state.status == "between_games"
    state = both_ready(state)
    game2 = state.current
    # Corners swap, letters stay: B now holds the left cell and moves first.
    assert game2.position.owners()[0] == 1 and game2.position.owners()[3] == 0
    assert game2.first_seat == 1
    assert game2.corners == (1, 0)
    state = state.play(1, 1).play(0, 2)
    assert state.status == "finished"
    assert state.points == (1.0, 1.0)
    assert state.totals == (4, 4)
    assert (state.reason, state.winners) == ("drawn", (0, 1))
    assert state.pairwise_scores() == [(0, 1, 0.5)]


def test_one_and_a_half_to_a_half_is_a_full_win():
    state = MatchState.new(Position.from_text(DRAW_BOARD), games=2)
    state = both_ready(state.play(0, 1).play(1, 2))  # game 1 drawn
    state = state.play(1, 1).resign_game(0)  # game 2: A gives up, B is credited the rest
    game2 = state.games[1]
    assert (game2.reason, game2.winners) == ("resigned", (1,))
    assert game2.position.scores == (1, 3)
    assert state.points == (0.5, 1.5)
    assert (state.reason, state.winners) == ("points", (1,))
    assert state.pairwise_scores() == [(0, 1, 0.0)]


def test_two_nil():
    state = fast(1).resign_game(1)
    state = both_ready(state).resign_game(1)
    assert state.points == (2.0, 0.0)
    assert (state.status, state.reason, state.winners) == ("finished", "points", (0,))
    assert state.pairwise_scores() == [(0, 1, 1.0)]


def test_one_all_decided_on_total_score():
    for seed in range(50):
        state = play_out(fast(seed))
        game1_winner = state.games[0].winners
        if len(game1_winner) != 1:
            continue
        state = both_ready(state).resign_game(game1_winner[0])  # the other side wins game 2
        totals = tuple(sum(g.position.scores[s] for g in state.games) for s in (0, 1))
        if totals[0] == totals[1]:
            continue
        break
    assert state.points == (1.0, 1.0)
    assert state.totals == totals
    leader = 0 if totals[0] > totals[1] else 1
    assert (state.reason, state.winners) == ("totals", (leader,))
    assert state.pairwise_scores() == [(0, 1, 0.6 if leader == 0 else 0.4)]


def test_resign_match_and_flag_lose_the_match_for_two_sides():
    state = fast(3).resign_match(0)
    assert (state.status, state.reason, state.winners) == ("finished", "resigned", (1,))
    assert state.games[0].reason == "resigned"
    assert state.pairwise_scores() == [(0, 1, 0.0)]
    between = fast(3).resign_game(0)
    flagged = between.flag(1)  # between games: the match is lost all the same
    assert (flagged.reason, flagged.winners) == ("flagged", (0,))
    assert flagged.pairwise_scores() == [(0, 1, 1.0)]
    assert fast(3).abandon(0).reason == "abandoned"


def test_moves_out_of_turn_or_after_the_end_are_refused():
    state = fast(4)
    with pytest.raises(MatchError) as failure:
        state.play(1, 1)
    assert failure.value.code == "not_your_turn"
    own = state.current.position.seat_colors[0]
    with pytest.raises(MatchError) as failure:
        state.play(0, own)
    assert failure.value.code == "illegal_color"
    finished = state.resign_match(1)
    with pytest.raises(MatchError) as failure:
        finished.play(0, 1)
    assert failure.value.code == "game_over"
    with pytest.raises(MatchError):
        finished.resign_game(0)
    with pytest.raises(MatchError):
        state.ready_for_next(0)  # not between games


def test_abort_only_before_every_seat_moved_in_game_one():
    state = fast(5)
    assert state.abort().status == "aborted"
    position = state.current.position
    state = state.play(0, greedy(position))
    assert state.can_abort  # B has not moved yet
    state = state.play(1, greedy(state.current.position))
    assert not state.can_abort
    with pytest.raises(MatchError):
        state.abort()


def test_single_game_format():
    state = MatchState.new(VARIANTS["vinco"].new_position(2), games=1)
    state = play_out(state)
    assert state.status == "finished"
    assert len(state.games) == 1
    assert state.winners == state.games[0].winners


def test_four_players_rotate_diagonally_and_turns_start_with_c():
    state = MatchState.new(VARIANTS["four"].new_position(3), games=2)
    start1 = state.current.start
    state = both_ready(state.resign_game(0).resign_game(1).resign_game(2))
    assert state.games[0].reason == "last_side" and state.games[0].winners == (3,)
    game2 = state.current
    assert game2.first_seat == 2  # C now holds the bottom-left corner
    assert game2.corners == (2, 3, 0, 1)
    for seat in range(4):
        assert game2.start.territory((seat + 2) % 4) == start1.territory(seat)
    order = []
    position = game2.position
    for _ in range(4):
        order.append(position.to_move)
        position = position.play(greedy(position))
    assert order == [2, 3, 0, 1]


def test_pairs_rotate_one_corner_clockwise_and_turns_start_with_d():
    state = MatchState.new(VARIANTS["pairs"].new_position(3), games=2)
    start1 = state.current.start
    state = both_ready(state.resign_game(0))
    assert state.games[0].winners == (1, 3)  # the other team, both partners
    game2 = state.current
    assert game2.first_seat == 3
    # A moves from bottom-left to top-left, which was B's corner.
    assert game2.start.territory(0) == start1.territory(1)
    assert game2.start.territory(3) == start1.territory(0)


def test_a_partners_resignation_loses_the_match_for_the_team():
    state = MatchState.new(VARIANTS["pairs"].new_position(4), games=2).resign_match(2)
    assert (state.status, state.winners) == ("finished", (1, 3))
    assert sorted(state.pairwise_scores()) == [(0, 1, 0.0), (0, 3, 0.0), (2, 1, 0.0), (2, 3, 0.0)]


def test_four_players_resign_match_ranks_last_and_the_others_play_on():
    state = MatchState.new(VARIANTS["four"].new_position(6), games=2)
    state = state.resign_match(1)
    assert state.status == "playing" and state.out == (1,)
    assert 1 in state.current.position.out
    state = play_out(state)
    state = both_ready(state)
    assert 1 in state.current.position.out  # out for game 2 as well, keeps its start
    assert state.current.position.territory(1) == state.current.start.territory(1)
    state = play_out(state)
    assert state.status == "finished"
    scores = {(a, b): s for a, b, s in state.pairwise_scores()}
    assert scores[(0, 1)] == 1.0 and scores[(1, 2)] == 0.0 and scores[(1, 3)] == 0.0


def test_four_players_last_seat_standing_wins_the_match():
    state = MatchState.new(VARIANTS["four"].new_position(6), games=2)
    state = state.resign_match(0).resign_match(1).flag(2)
    assert (state.status, state.winners, state.reason) == ("finished", (3,), "flagged")
    scores = {(a, b): s for a, b, s in state.pairwise_scores()}
    assert scores[(0, 1)] == 0.0  # A went out before B: A ranks lower
    assert scores[(2, 3)] == 0.0


def test_three_starts_single_game_points_to_the_sole_winner():
    state = play_out(MatchState.new(VARIANTS["three"].new_position(8), games=1))
    winners = state.games[0].winners
    expected = [
        1.0 if s in winners and len(winners) == 1 else 0.5 if s in winners else 0.0
        for s in range(3)
    ]
    assert list(state.points) == expected


def test_state_round_trips_through_json():
    import json

    state = both_ready(play_out(fast(9)))
    state = state.play(state.current.position.to_move, greedy(state.current.position))
    data = json.loads(json.dumps(state.to_dict()))
    assert MatchState.from_dict(data) == state


def test_events_never_change_the_old_state():
    state = fast(10)
    before = state.to_dict()
    state.play(0, greedy(state.current.position))
    state.resign_match(1)
    assert state.to_dict() == before


def test_take_back_returns_the_game_to_an_earlier_move():
    from games.engine import VARIANTS
    from games.engine.match import MatchError, MatchState

    state = MatchState.new(VARIANTS["classic"].new_position(seed=4), games=1)
    positions = [state.current.position]
    for _ in range(5):
        position = state.current.position
        colour = next(c for c, why in position.legal_colors().items() if why is None)
        state = state.play(position.to_move, colour)
        positions.append(state.current.position)
    back = state.take_back(2)
    assert back.current.ply == 3 and back.current.position == positions[3]
    assert back.current.log == state.current.log[:3]
    assert state.current.ply == 5  # the old state is unchanged
    with pytest.raises(MatchError):
        state.take_back(6)
    with pytest.raises(MatchError):
        state.take_back(0)


# --- stalling (SPEC §3) -----------------------------------------------------------------


def play_nothing(state: MatchState, plies: int) -> MatchState:
    """``plies`` moves that capture nothing (the free cells border each side in colours
    5 and 6 only; 1-4 take nothing)."""
    for _ in range(plies):
        position = state.current.position
        colour = next(c for c in (1, 2, 3, 4) if position.legal_colors()[c] is None)
        state = state.play(position.to_move, colour)
    return state


def test_twenty_plies_without_a_capture_end_the_game_and_the_higher_score_wins():
    state = MatchState.new(Position.from_text("square 6x1 6 AA556B 3,4 A"), games=1)
    state = play_nothing(state, 19)
    assert state.status == "playing" and not state.current.over
    state = play_nothing(state, 1)
    game = state.current
    assert (game.reason, game.winners, game.ply) == ("stalled", (0,), 20)
    assert not game.position.is_over  # the position does not know the rule: FPN unchanged
    assert (state.status, state.reason, state.winners) == ("finished", "stalled", (0,))
    assert state.points == (1.0, 0.0)


def test_stalling_with_equal_scores_is_a_draw_and_a_capture_starts_the_count_again():
    state = MatchState.new(Position.from_text("square 9x1 6 A5556666B 3,4 A"), games=2)
    state = play_nothing(state, 18)
    state = state.play(0, 5)  # A takes the three fives: the count starts again
    state = play_nothing(state, 19)
    assert not state.current.over and state.current.position.scores == (4, 1)
    state = play_nothing(state, 1)
    assert (state.games[0].reason, state.games[0].winners) == ("stalled", (0,))

    even = MatchState.new(Position.from_text("square 5x1 6 A556B 3,4 A"), games=2)
    even = play_nothing(even, 20)
    game = even.games[0]
    assert (game.reason, game.winners) == ("stalled", (0, 1))
    assert even.status == "between_games" and even.points == (0.5, 0.5)


def test_a_stalled_game_survives_the_states_round_trip():
    state = play_nothing(MatchState.new(Position.from_text("square 6x1 6 AA556B 3,4 A")), 20)
    again = MatchState.from_dict(state.to_dict())
    assert again.games[0].reason == "stalled" and again == state
