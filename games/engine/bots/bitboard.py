"""Two-seat positions for search as bare bitboards: a :class:`Game` holds what never
changes during one decision, a :data:`State` is five ``int``s.

The rule every function here follows: on a settled two-seat position (every position a
move or the generator makes) it gives exactly what :class:`~games.engine.position.Position`
gives: ``play`` the same territories, ``gain`` the same cells as ``preview``, ``over`` and
``outcome`` the same end, scores and winners (``tests/engine/test_bitboard.py`` compares
them on thousands of random positions of every two-seat variant). It trades checks for
speed: colours are not validated and the pie rule's swap is left to the caller.

A state is ``(A's territory, B's territory, A's colour, B's colour, seat to move)``;
the free cells are the playable cells neither territory holds (dead cells included: no
chain ever reaches them).

>>> from games.engine import Position
>>> pos = Position.from_text("square 5x3 6 1234B/33332/A4121 5,6 A")
>>> game, state = Game.of(pos), state_of(pos)
>>> after = play(game, state, 3)
>>> game.scores(after), over(game, after), outcome(game, after)
((8, 1), True, 1)
>>> sorted(pos.board.cells_of(gain(game, state, 3))) == sorted(pos.preview(3))
True
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.position import Position
from games.engine.rules import enclosed_by

State = tuple[int, int, int, int, int]


class Game:
    """The static part of a two-seat position: the board's step and fills, the free cells
    of each colour (paint included, so a colour's mask is what its chain runs through),
    the dead cells and the countable value."""

    __slots__ = (
        "board",
        "colours",
        "countable",
        "dead",
        "fill",
        "half",
        "playable",
        "reach",
        "spread",
        "targets",
        "value_of",
    )

    board: object
    colours: int
    countable: int
    dead: int
    fill: Callable[[int, int], int]
    half: int  # a score above this wins
    playable: int
    reach: Callable[[int, int, int], tuple[int, bool]]
    spread: Callable[[int], int]
    targets: tuple[int, ...]  # per colour 1..k ([0] unused): cells of that colour, and paint
    value_of: Callable[[int], int]

    @classmethod
    def of(cls, position: Position) -> Game:
        """The game of ``position`` (two seats, each its own side)."""
        if position.seats != 2 or len(position.sides) != 2:
            raise ValueError("the bitboard core plays two-seat games only")
        board = position.board
        bits = board.bits
        palette = [0] * (position.colors + 1)
        owners = position.owners()
        for cell, colour in enumerate(position.cell_colors()):
            if owners[cell] is None and colour:
                palette[colour] |= 1 << bits[cell]
        game = object.__new__(cls)
        game.board = board
        game.colours = position.colors
        game.playable = board.playable
        game.spread, game.fill, game.reach = board.spread, board.fill, board.reach
        game.value_of = board.value_of
        game.targets = tuple(mask | board.paint_mask if n else 0 for n, mask in enumerate(palette))
        game.dead = board.mask_of(position.dead)
        game.countable = position.countable
        game.half = game.countable // 2
        return game

    def scores(self, state: State) -> tuple[int, int]:
        return self.value_of(state[0]), self.value_of(state[1])

    def free(self, state: State) -> int:
        """Free cells that can still change owner (dead cells left out)."""
        return self.playable & ~(state[0] | state[1] | self.dead)


def state_of(position: Position) -> State:
    """The state of a two-seat position."""
    mask_of = position.board.mask_of
    a, b = position.seat_colors
    return (mask_of(position.territory(0)), mask_of(position.territory(1)), a, b, position.to_move)


def moves(game: Game, state: State) -> list[int]:
    """The colours the seat to move may play: all but the two seats' current colours."""
    a, b = state[2], state[3]
    return [c for c in range(1, game.colours + 1) if c != a and c != b]


def chain(game: Game, state: State, colour: int) -> int:
    """The cells the mover's chain takes with ``colour`` (enclosure left out)."""
    own = state[state[4]]
    free = game.playable & ~(state[0] | state[1])
    target = game.targets[colour] & free
    seeds = game.spread(own) & target
    return game.fill(seeds, target) if seeds else 0


def gain(game: Game, state: State, colour: int) -> int:
    """Every cell the mover takes with ``colour``: the chain, then the free regions it
    cuts off from the other seat (``Position.preview``)."""
    mover = state[4]
    own, others = state[mover], state[1 - mover]
    free = game.playable & ~(own | others)
    target = game.targets[colour] & free
    seeds = game.spread(own) & target
    if not seeds:
        return 0
    taken = game.fill(seeds, target)
    # the rules' own enclosure (it reads only the board's ``spread`` and ``reach``,
    # which the game keeps)
    return taken | enclosed_by(game, taken, free ^ taken, others)


def play(game: Game, state: State, colour: int) -> State:
    """The state after the seat to move plays ``colour`` (a legal colour: unchecked)."""
    a, b, ca, cb, mover = state
    taken = gain(game, state, colour)
    if mover == 0:
        return (a | taken, b, colour, cb, 1)
    return (a, b | taken, ca, colour, 0)


def over(game: Game, state: State) -> bool:
    """The game has ended: a seat holds more than half the countable value, or nothing
    countable is left free."""
    value_of = game.value_of
    a, b = value_of(state[0]), value_of(state[1])
    half = game.half
    return a > half or b > half or a + b == game.countable


def outcome(game: Game, state: State) -> int:
    """Of an ended game: 1 A won, -1 B won, 0 a draw."""
    a, b = game.scores(state)
    return (a > b) - (a < b)
