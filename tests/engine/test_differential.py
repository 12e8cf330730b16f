"""The fast engine against the plain reference implementation, move by move, over random
games of every variant (practice through its boards), plus invariants of the fast engine.

Hypothesis draws the board seed and the plan of a game: game 1 or game 2 (corners
rotated), how often a player takes the greedy colour instead of a random legal one,
whether B answers with Vinco's swap, when a seat goes out (three and four seats) or a side
concedes (two sides), and the seed of the random moves. After each step both
implementations must agree on the cells taken, every seat's legal colours, scores,
potentials, dead cells, the end and the winners, the score needed to win and the FPN
line; on every fifth ply they also agree on the preview of every colour.

Profiles: ``ci`` (the default, what ``make test`` runs) plays at least 200 games per
variant; ``HYPOTHESIS_PROFILE=dev pytest tests/engine`` plays 20. Both are derandomized
(the same games every run) and keep no example database. A failure names the position
(FPN) and the step that went wrong.
"""

import doctest
import os
import random
from collections import Counter, deque
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import VARIANTS, IllegalMove, Position, reference
from games.engine.match import game_two_rotation as match_rotation
from games.engine.notation import LETTERS
from games.engine.reference import ReferencePosition, neighbour_sets, row_lengths

# make test runs these without coverage: tracing makes them three times slower.
pytestmark = pytest.mark.differential

GAMES = {"ci": 200, "dev": 20}
for _name, _games in GAMES.items():
    settings.register_profile(
        _name,
        max_examples=_games,
        derandomize=True,
        database=None,
        deadline=None,
    )
PROFILE_NAME = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE_NAME not in GAMES:
    PROFILE_NAME = "ci"
PROFILE = settings.get_profile(PROFILE_NAME)

KEYS = list(VARIANTS)  # practice included: it plays on the boards it offers
PREVIEW_EVERY = 5  # all previews are compared on every 5th ply (offset drawn per game)
MAX_PLIES = 600  # far more than any random game takes


@dataclass
class Plan:
    """What Hypothesis draws for one game. The moves come from ``random.Random(moves)``
    so that every example is a whole game of a known number of draws."""

    key: str
    seed: int
    board: str | None
    game2: bool  # matches of two games: start from game 2's rotated corners
    moves: int  # seed of the move chooser
    greedy: int  # per cent of moves that take the colour gaining most
    swap: bool  # Vinco: B answers A's first move with swap
    concede_at: int | None  # two sides: a side concedes at this ply
    out_at: list[int]  # three or four seats: a seat goes out at each of these plies
    preview_offset: int


@st.composite
def plans(draw, key):
    variant = VARIANTS[key]
    board = draw(st.sampled_from(variant.boards)) if variant.boards else None
    seats = variant.seats
    two_sides = len(variant.teams or range(seats)) == 2
    return Plan(
        key=key,
        seed=draw(st.integers(0, 1_000_000)),
        board=board,
        game2=variant.games == 2 and draw(st.booleans()),
        moves=draw(st.integers(0, 2**32 - 1)),
        greedy=draw(st.sampled_from([0, 10, 30, 100])),
        swap=variant.pie and draw(st.booleans()),
        concede_at=draw(st.none() | st.integers(0, 150)) if two_sides else None,
        out_at=sorted(draw(st.lists(st.integers(0, 150), max_size=seats - 1)))
        if not two_sides
        else [],
        preview_offset=draw(st.integers(0, PREVIEW_EVERY - 1)),
    )


@pytest.mark.parametrize("key", KEYS)
def test_fast_engine_agrees_with_the_reference(key):
    tally = Counter()

    @PROFILE
    @given(plan=plans(key))
    def random_games(plan):
        play_one_game(plan, tally)
        tally["games"] += 1

    random_games()
    print(f"\n{key}: " + ", ".join(f"{count} {name}" for name, count in tally.items()))
    assert tally["games"] >= GAMES[PROFILE_NAME]


def play_one_game(plan, tally):
    """Play the game of ``plan`` through both implementations, comparing every step."""
    variant = VARIANTS[plan.key]
    pos = variant.new_position(plan.seed, board=plan.board)
    if plan.game2:
        pos = pos.with_seats_permuted(*match_rotation(pos))
        tally["games 2"] += 1
    ref = ReferencePosition.from_text(pos.to_text())
    agree(pos, ref, "start")
    territories = territories_of(pos)
    rng = random.Random(plan.moves)
    out_at = list(plan.out_at)
    plies = 0
    while not pos.is_over:
        assert plies < MAX_PLIES, f"no end after {plies} plies: {pos.to_text()!r}"
        if plan.concede_at is not None and plies >= plan.concede_at:
            action = ("concede", rng.randrange(pos.seats))
            tally["conceded"] += 1
        elif out_at and plies >= out_at[0]:
            out_at.pop(0)
            action = ("out", rng.choice([s for s in range(pos.seats) if s not in pos.out]))
            tally["seats out"] += 1
        else:
            if plies % PREVIEW_EVERY == plan.preview_offset:
                agree_on_previews(pos, ref)
                tally["plies with all previews"] += 1
            action = ("move", choose_move(pos, plan, rng))
            tally["swaps" if action[1] == "swap" else "moves"] += 1
            plies += 1
        pos, ref, territories = step(pos, ref, territories, action)
    assert ref.is_over


def choose_move(pos, plan, rng):
    legal = pos.legal_moves()
    assert legal, f"a game that is not over has a legal move: {pos.to_text()!r}"
    if pos.can_swap and plan.swap:
        return "swap"
    colours = [move for move in legal if move != "swap"]
    if rng.randrange(100) < plan.greedy:
        return max(colours, key=lambda c: (len(pos.preview(c)), c))
    return rng.choice(colours)


def territories_of(pos):
    return [pos.territory(seat) for seat in range(pos.seats)]


def step(pos, ref, territories, action):
    """Apply ``action`` to both (``territories``: the fast position's); check the
    invariants and that they agree afterwards."""
    kind, arg = action
    context = f"{pos.to_text()!r} then {kind} {arg!r}"
    before_state = snapshot(pos)
    if kind == "move":
        after, ref_after = pos.play(arg), ref.play(arg)
    elif kind == "out":
        after, ref_after = pos.with_out(arg), ref.with_out(arg)
    else:
        after, ref_after = pos.concede(arg), ref.concede(arg)
    # the old position is unchanged: every field and every cached result it had (caches
    # it had not filled yet may be filled now)
    now = snapshot(pos)
    assert all(now.get(slot) == value for slot, value in before_state.items()), context

    after_territories = territories_of(after)
    if kind == "move" and arg != "swap":
        mover = pos.to_move
        taken = after_territories[mover] - territories[mover]
        assert taken == pos.preview(arg), context
        assert taken == ref_after.territory(mover) - ref.territory(mover), context
        assert after.seat_colors[mover] == arg, context

    check_invariants(territories, after, after_territories, action, ref.neighbours, context)
    agree(after, ref_after, context)
    # FPN round trip: the line reads back as an equal position
    text = after.to_text()
    assert Position.from_text(text).to_text() == text, context
    return after, ref_after, after_territories


def snapshot(pos):
    """Every slot of a position that holds something, lists copied."""
    state = {}
    for slot in Position.__slots__:
        value = getattr(pos, slot, None)
        if value is not None:
            state[slot] = list(value) if isinstance(value, list) else value
    return state


def agree(pos, ref, context):
    """Everything the engine API reports about a position, fast against reference."""
    assert pos.to_text() == ref.to_text(), context
    for seat in range(pos.seats):
        assert pos.legal_colors(seat) == ref.legal_colors(seat), context
    assert pos.can_swap == ref.can_swap, context
    assert pos.scores == ref.scores, context
    assert pos.side_scores == ref.side_scores, context
    assert pos.potentials == ref.potentials, context
    assert pos.side_potentials == ref.side_potentials, context
    assert pos.dead == ref.dead, context
    assert pos.countable == ref.countable, context
    assert pos.is_over == ref.is_over, context
    assert pos.winners == ref.winners, context
    assert pos.needed_to_win == ref.needed_to_win, context


def agree_on_previews(pos, ref):
    """Every colour: the same preview if legal, the same reason if not. The position
    read back from FPN, which settles every region afresh where a played position looks
    only next to the gain, previews the same too."""
    again = Position.from_text(pos.to_text())
    for colour, reason in pos.legal_colors().items():
        context = f"{pos.to_text()!r} preview {colour}"
        if reason is None:
            gain = pos.preview(colour)
            assert gain == ref.gain(colour), context
            assert gain == again.preview(colour), f"{context} (read from FPN)"
        else:
            with pytest.raises(IllegalMove) as fast_error:
                pos.preview(colour)
            with pytest.raises(IllegalMove) as ref_error:
                ref.gain(colour)
            assert fast_error.value.reason == ref_error.value.reason == reason, context


def check_invariants(before, after, territories, action, neighbours, context):
    """Invariants of the fast engine from a position with territories ``before`` to
    ``after`` with ``territories``."""
    board = after.board
    if action == ("move", "swap"):
        # the pie rule exchanges whole territories
        assert territories == [before[1], before[0]], context
    else:
        # nobody ever loses a cell: opponents' cells never change owner
        for old, new in zip(before, territories, strict=True):
            assert old <= new, context
    # no cell is owned twice, and owned, free, dead and obstacle cells split the board
    owned = frozenset().union(*territories)
    assert sum(map(len, territories)) == len(owned), context
    assert not owned & board.obstacles, context
    free = set(range(board.size)) - owned - board.obstacles
    dead = after.dead
    assert dead <= free, context
    # every territory stays connected (by the reference's neighbour relation)
    for seat, (old, new) in enumerate(zip(before, territories, strict=True)):
        if new != old:
            assert connected(new, neighbours), f"{context}: {seat}'s territory is split"
    # values are conserved
    free_value = sum(board.values[cell] for cell in free - dead)
    dead_value = sum(board.values[cell] for cell in dead)
    assert sum(after.side_scores) + free_value + dead_value == board.total_value, context
    assert after.countable == board.total_value - dead_value, context
    assert all(p >= s for p, s in zip(after.potentials, after.scores, strict=True)), context
    assert after.is_over == bool(after.winners), context


def connected(cells, neighbours):
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = deque([start])
    while todo:
        for j in neighbours[todo.popleft()]:
            if j in cells and j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(cells)


# --- random small positions -------------------------------------------------------------
# Games from the generators never have dead regions, walls off square boards, scattered
# territories or regions nobody has settled yet; positions drawn cell by cell have all of
# them.


@st.composite
def small_positions(draw):
    """An FPN line on a small board of any shape: random cells (free colours, owned,
    obstacles, paint), values, walls, teams or seats out, the pie rule."""
    shape = draw(st.sampled_from(["square", "hex", "rhombus", "hexagon"]))
    if shape == "hexagon":
        width = height = draw(st.integers(2, 4))
    else:
        width, height = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    lengths = row_lengths(shape, width, height)
    size = sum(lengths)
    seats = draw(st.sampled_from([2, 3, 4]))
    colors = draw(st.integers(seats + 1, 9))
    letters = LETTERS[:seats]
    cell = st.one_of(
        st.sampled_from([str(c) for c in range(1, colors + 1)]),
        st.sampled_from(letters),
        st.sampled_from("#*"),
    )
    cells = draw(st.lists(cell, min_size=size, max_size=size))
    for seat, index in enumerate(draw(st.permutations(range(size)))[:seats]):
        cells[index] = letters[seat]  # every seat owns a cell
    teams = seats == 4 and draw(st.booleans())
    side = [seat % 2 for seat in range(seats)] if teams else list(range(seats))
    out = []
    if seats > 2 and not teams:
        out = draw(st.lists(st.sampled_from(range(seats)), unique=True, max_size=seats - 1))
    active = [seat for seat in range(seats) if seat not in out]
    seat_colors = draw(st.lists(st.integers(1, colors), min_size=seats, max_size=seats))
    for a in active:  # active opponents never share a colour
        taken = {seat_colors[b] for b in active if b < a and side[b] != side[a]}
        if seat_colors[a] in taken:
            seat_colors[a] = min(set(range(1, colors + 1)) - taken)
    rows, start = [], 0
    for length in lengths:
        rows.append("".join(cells[start : start + length]))
        start += length
    fields = [
        shape,
        f"{width}x{height}",
        str(colors),
        "/".join(rows),
        ",".join(map(str, seat_colors)),
        LETTERS[draw(st.sampled_from(active))],
    ]
    playable = [i for i in range(size) if cells[i] != "#"]
    values = draw(st.dictionaries(st.sampled_from(playable), st.sampled_from([2, 3]), max_size=4))
    if values:
        fields.append("v=" + ",".join(f"{i}:{v}" for i, v in sorted(values.items())))
    neighbours = neighbour_sets(shape, width, height)
    pairs = sorted((i, j) for i in range(size) for j in neighbours[i] if i < j)
    walls = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=6))
    if walls:
        fields.append("w=" + ",".join(f"{i}-{j}" for i, j in sorted(walls)))
    if teams:
        fields.append("t=AC/BD")
    if seats == 2 and draw(st.booleans()):
        fields.append("pie=1")
    if out:
        fields.append("out=" + "".join(LETTERS[seat] for seat in out))
    return " ".join(fields)


SMALL_POSITIONS = {"ci": 1000, "dev": 100}


def test_random_small_positions_agree_with_the_reference():
    tally = Counter()

    @settings(PROFILE, max_examples=SMALL_POSITIONS[PROFILE_NAME])
    @given(text=small_positions(), moves=st.integers(0, 2**32 - 1))
    def positions(text, moves):
        pos, ref = Position.from_text(text), ReferencePosition.from_text(text)
        agree(pos, ref, f"{text!r}")
        tally["positions"] += 1
        rng = random.Random(moves)
        for _ in range(12):
            if pos.dead:
                tally["with dead cells"] += 1
            if pos.is_over:
                break
            agree_on_previews(pos, ref)
            action = ("move", rng.choice(pos.legal_moves()))
            if rng.random() < 0.1:
                seat = rng.choice([s for s in range(pos.seats) if s not in pos.out])
                action = ("concede" if len(pos.sides) == 2 else "out", seat)
                if action[0] == "out" and any(len(side) > 1 for side in pos.sides):
                    action = ("concede", seat)
            tally[action[0]] += 1
            context = f"{pos.to_text()!r} then {action}"
            after, ref_after = apply(pos, action), apply(ref, action)
            if action != ("move", "swap"):
                for seat in range(pos.seats):  # nobody loses a cell
                    assert pos.territory(seat) <= after.territory(seat), context
            agree(after, ref_after, context)
            pos, ref = after, ref_after

    positions()
    print("\nsmall positions: " + ", ".join(f"{n} {name}" for name, n in tally.items()))
    assert tally["positions"] >= SMALL_POSITIONS[PROFILE_NAME]
    assert tally["with dead cells"] > 0


def apply(pos, action):
    kind, arg = action
    if kind == "move":
        return pos.play(arg)
    return pos.with_out(arg) if kind == "out" else pos.concede(arg)


def test_the_reference_docstring_example():
    result = doctest.testmod(reference, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
