"""Invariants over random games of every variant (Hypothesis picks seeds and moves)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import VARIANTS, Position

KEYS = [key for key in VARIANTS if key != "practice"]


@settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    key=st.sampled_from(KEYS),
    seed=st.integers(0, 10_000),
    choices=st.lists(st.integers(0, 8), min_size=1, max_size=40),
)
def test_random_games_keep_the_invariants(key, seed, choices):
    pos = VARIANTS[key].new_position(seed)
    board = pos.board
    for choice in choices:
        if pos.is_over:
            break
        legal = pos.legal_moves()
        assert legal, "a game that is not over always has a legal move"
        move = legal[choice % len(legal)]
        after = pos.play(move)
        mover = pos.to_move
        if move != "swap":
            gained = pos.preview(move)
            assert gained == after.territory(mover) - pos.territory(mover)
            # nobody else gains or loses anything, and the mover loses nothing
            for seat in range(pos.seats):
                if seat != mover:
                    assert after.territory(seat) == pos.territory(seat)
            assert after.seat_colors[mover] == move
        # the position read back from FPN is equal and plays the same
        assert Position.from_text(after.to_text()) == after
        assert Position.from_text(pos.to_text()).play(move) == after
        pos = after
    # every countable cell is owned or still free; potentials bound scores
    owned = sum(pos.scores)
    free = [c for c, owner in enumerate(pos.owners()) if owner is None]
    free_value = sum(board.values[c] for c in free if c not in board.obstacles | pos.dead)
    assert owned + free_value == pos.countable
    assert all(p >= s for p, s in zip(pos.side_potentials, pos.side_scores, strict=True))
    if pos.is_over:
        assert pos.winners and set(pos.winners) <= set(range(pos.seats))
        assert pos.ranking()[0] == pos.winners
    else:
        assert pos.winners == ()


@settings(max_examples=20, deadline=None, database=None)
@given(key=st.sampled_from(["fast", "hex", "rhombus", "three", "pairs"]), seed=st.integers(0, 999))
def test_greedy_games_end_with_a_result(key, seed):
    pos = VARIANTS[key].new_position(seed)
    for _ in range(1000):
        if pos.is_over:
            break
        pos = pos.play(max(pos.legal_moves(), key=lambda c: (len(pos.preview(c)), c)))
    assert pos.is_over and pos.winners
    assert not any(reason is None for reason in pos.legal_colors().values())
