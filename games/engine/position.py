"""An immutable Filler position and the rules of SPEC §1 on it.

>>> pos = Position.from_text("square 5x3 6 1234B/33332/A4121 5,6 A")
>>> pos.legal_colors()
{1: None, 2: None, 3: None, 4: None, 5: 'own', 6: 'opponent'}
>>> sorted(pos.preview(3))  # the chain of 3s, and the 1-2 pocket it cuts off from B
[0, 1, 2, 5, 6, 7, 8]
>>> after = pos.play(3)
>>> after.scores, after.needed_to_win, after.is_over, after.winners
((8, 1), 8, True, (0,))
>>> after.to_text()
'square 5x3 6 AAA4B/AAAA2/A4121 3,6 B'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from games.engine import moves, notation, outcome, seating
from games.engine.board import Board
from games.engine.letters import LETTERS
from games.engine.moves import LegalReason
from games.engine.outcome import Outcome, SideFigures
from games.engine.rules import Region, regions, settle

__all__ = ["LETTERS", "Move", "Position"]
Move = int | Literal["swap"]


class Position:
    """A position: the board, who owns what, each seat's colour and the seat to move.

    Build one with :meth:`from_text` or ``VARIANTS[key].new_position(seed)``; every
    change (:meth:`play`, :meth:`with_out`, :meth:`concede`, ...) returns a new position.
    Equal FPN means equal positions.
    """

    __slots__ = (
        "_board",
        "_colors",
        "_dead",
        "_foes",
        "_free",
        "_out",
        "_outcome",
        "_owned",
        "_palette",
        "_pie",
        "_regions",
        "_resigned",
        "_seat_colors",
        "_settled",
        "_side_of",
        "_teams",
        "_text",
        "_to_move",
    )

    _board: Board
    _colors: int
    _palette: tuple[int, ...]  # per colour 1..k: cells of that colour (free or not; [0] unused)
    _owned: tuple[int, ...]  # per seat: its territory
    _free: int  # playable cells nobody owns
    _seat_colors: tuple[int, ...]
    _to_move: int
    _teams: tuple[tuple[int, ...], ...]
    _side_of: tuple[int, ...]
    _foes: tuple[tuple[int, ...], ...] | None  # per seat: active seats of the other sides
    _pie: bool
    _out: tuple[int, ...]
    _resigned: tuple[int, ...]
    _dead: int | None  # None: not computed yet
    # enclosure has been applied to every region and _dead is known: a move then only
    # needs to look at the regions next to what it took
    _settled: bool
    _outcome: Outcome | None
    _regions: list[Region] | None
    _text: str | None

    def __init__(self) -> None:
        raise TypeError("use Position.from_text(...) or VARIANTS[key].new_position(seed)")

    # --- construction -----------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str) -> Position:
        """The position of an FPN line, taken as given (enclosure is not re-applied).
        Raises ``ValueError`` naming the malformed field."""
        fpn = notation.parse(text)
        colours, owners = notation.cell_layout(fpn)
        return cls.from_layout_unchecked(
            notation.board_of(fpn),
            fpn.colors,
            colours,
            owners,
            fpn.seat_colors,
            fpn.to_move,
            teams=fpn.teams,
            pie=fpn.pie,
            out=fpn.out,
            resigned=fpn.resigned,
        )

    @classmethod
    def from_layout_unchecked(
        cls,
        board: Board,
        colors: int,
        cell_colors: Sequence[int],
        owners: Sequence[int | None],
        seat_colors: Sequence[int],
        to_move: int,
        *,
        teams: tuple[tuple[int, ...], ...] | None = None,
        pie: bool = False,
        out: tuple[int, ...] = (),
        resigned: tuple[int, ...] = (),
    ) -> Position:
        """Unchecked: a position from per-cell colours (0: none) and owners (None: free)."""
        bits = board.bits
        palette = [0] * (colors + 1)
        owned = [0] * len(seat_colors)
        for cell, (colour, owner) in enumerate(zip(cell_colors, owners, strict=True)):
            if colour:
                palette[colour] |= 1 << bits[cell]
            if owner is not None:
                owned[owner] |= 1 << bits[cell]
        all_owned = 0
        for cells in owned:
            all_owned |= cells
        seats = range(len(seat_colors))
        teams = teams or tuple((seat,) for seat in seats)
        game = object.__new__(cls)  # carries what every position of the game shares
        game._board, game._colors, game._palette = board, colors, tuple(palette)
        game._teams = teams
        game._side_of = tuple(next(n for n, t in enumerate(teams) if s in t) for s in seats)
        game._foes = None
        return game._derive(
            tuple(owned),
            board.playable & ~all_owned,
            seat_colors=tuple(seat_colors),
            to_move=to_move,
            pie=pie,
            out=out,
            resigned=resigned,
            dead=None,
            settled=False,
        )

    def _derive(
        self,
        owned: tuple[int, ...],
        free: int,
        *,
        dead: int | None,
        settled: bool,
        seat_colors: tuple[int, ...] | None = None,
        to_move: int | None = None,
        pie: bool | None = None,
        out: tuple[int, ...] | None = None,
        resigned: tuple[int, ...] | None = None,
    ) -> Position:
        """A position of the same game: board, palette and teams are shared, and what is
        not given is kept from this one."""
        pos = object.__new__(Position)
        pos._board = self._board
        pos._colors = self._colors
        pos._palette = self._palette
        pos._teams = self._teams
        pos._side_of = self._side_of
        pos._foes = self._foes if out is None else None
        pos._owned = owned
        pos._free = free
        pos._seat_colors = self._seat_colors if seat_colors is None else seat_colors
        pos._to_move = self._to_move if to_move is None else to_move
        pos._pie = self._pie if pie is None else pie
        pos._out = self._out if out is None else out
        pos._resigned = self._resigned if resigned is None else resigned
        pos._dead = dead
        pos._settled = settled
        pos._outcome = pos._regions = pos._text = None
        return pos

    def settled(self) -> Position:
        """This position with enclosure applied to every free region (what generation
        does to a fresh board); returns ``self`` if nothing changes."""
        if self._settled:
            return self
        owned, free, dead = settle(
            self._board, list(self._owned), self._free, self._active(), self._side_of, None
        )
        return self._derive(tuple(owned), free, dead=dead, settled=True)

    # --- plain data -------------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self._board

    @property
    def seats(self) -> int:
        return len(self._seat_colors)

    @property
    def colors(self) -> int:
        """Palette size k: colours are 1..k."""
        return self._colors

    @property
    def seat_colors(self) -> tuple[int, ...]:
        return self._seat_colors

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self._teams

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The units that win: teams in Pairs, otherwise one tuple per seat."""
        return self._teams

    def side_of(self, seat: int) -> int:
        return self._side_of[seat]

    @property
    def out(self) -> tuple[int, ...]:
        """Seats that are out, in the order they went out."""
        return self._out

    @property
    def resigned(self) -> tuple[int, ...]:
        """Seats of the side that conceded this game (empty if none did)."""
        return self._resigned

    @property
    def pie(self) -> bool:
        """The pie rule still applies (FPN ``pie=1``)."""
        return self._pie

    @property
    def can_swap(self) -> bool:
        """B may answer A's first move with ``play("swap")``."""
        return self._pie and self._to_move == 1 and not self.is_over

    def owners(self) -> tuple[int | None, ...]:
        """Per cell: the seat that owns it, or None."""
        owners: list[int | None] = [None] * self._board.size
        for seat, cells in enumerate(self._owned):
            for cell in self._board.cells_of(cells):
                owners[cell] = seat
        return tuple(owners)

    def cell_colors(self) -> tuple[int, ...]:
        """Per cell: the colour shown (the owner's current colour for owned cells, 0 for
        free paint cells and obstacles)."""
        board = self._board
        shown = [0] * board.size
        for colour in range(1, self._colors + 1):
            for cell in board.cells_of(self._palette[colour] & self._free):
                shown[cell] = colour
        for seat, cells in enumerate(self._owned):
            for cell in board.cells_of(cells):
                shown[cell] = self._seat_colors[seat]
        return tuple(shown)

    def territory(self, seat: int) -> frozenset[int]:
        return self._board.cells_of(self._owned[seat])

    @property
    def dead(self) -> frozenset[int]:
        """Free cells in regions no active seat borders: they count for nobody."""
        return self._board.cells_of(self._dead_cells())

    @property
    def countable(self) -> int:
        """Total value of the cells that are neither obstacles nor dead."""
        return self._board.total_value - self._board.value_of(self._dead_cells())

    # --- moves ------------------------------------------------------------------------

    def legal_colors(self, seat: int | None = None) -> dict[int, LegalReason]:
        """``{colour: None if legal else "own" | "opponent"}`` for colours 1..k, as seen
        by ``seat`` (default: the seat to move); every colour is ``"game_over"`` once the
        game has ended."""
        seat = self._to_move if seat is None else seat
        return moves.legal_colors(
            self._colors, self._seat_colors, seat, self._opponents(seat), over=self.is_over
        )

    def legal_moves(self) -> list[Move]:
        """The colours the seat to move may play, then ``"swap"`` when allowed."""
        legal: list[Move] = [c for c, reason in self.legal_colors().items() if reason is None]
        if self.can_swap:
            legal.append("swap")
        return legal

    def preview(self, colour: int) -> frozenset[int]:
        """Cells the seat to move would gain with ``colour`` (chain and enclosure):
        exactly what :meth:`play` gives it. Raises :class:`IllegalMove` like ``play``."""
        return self._board.cells_of(self._resolve(self._checked(colour)).gain)

    def play(self, colour: Move) -> Position:
        """The position after the seat to move plays ``colour`` (or ``"swap"``); raises
        :class:`IllegalMove` with a ``reason`` if the rules forbid it."""
        if colour == "swap":
            return self._swapped()
        checked = self._checked(colour)
        owned, free, _, dead = self._resolve(checked)
        mover = self._to_move
        return self._derive(
            owned,
            free,
            seat_colors=moves.with_colour(self._seat_colors, mover, checked),
            to_move=self._next_active(mover),
            # the pie rule lives on through A's first move only
            pie=self._pie and mover == 0,
            dead=dead,
            settled=True,
        )

    def _checked(self, colour: object) -> int:
        mover = self._to_move
        return moves.check(
            colour,
            self._colors,
            self._seat_colors,
            mover,
            self._opponents(mover),
            over=self.is_over,
        )

    def _resolve(self, colour: int) -> moves.Resolution:
        board, free, mover = self._board, self._free, self._to_move
        target = (self._palette[colour] | board.paint_mask) & free
        if not self._settled:
            return moves.resolve_unsettled(
                board,
                target,
                self._owned,
                free,
                mover,
                active=self._active(),
                side_of=self._side_of,
            )
        others = 0
        for seat in self._opponents(mover):
            others |= self._owned[seat]
        return moves.resolve(board, target, self._owned, free, mover, others, self._dead_cells())

    def _swapped(self) -> Position:
        """The pie rule: A and B exchange territories and colours, and A moves next."""
        moves.check_swap(over=self.is_over, allowed=self.can_swap)
        a, b = self._owned
        colour_a, colour_b = self._seat_colors
        return self._derive(
            (b, a),
            self._free,
            seat_colors=(colour_b, colour_a),
            to_move=0,
            pie=False,
            dead=self._dead,
            settled=self._settled,
        )

    def with_turn(self, seat_colors: Sequence[int], to_move: int) -> Position:
        """The same territories with these seat colours and ``to_move`` to move: the
        positions an analysis reaches by other move orders (nothing is checked)."""
        return self._derive(
            self._owned,
            self._free,
            seat_colors=tuple(seat_colors),
            to_move=to_move,
            dead=self._dead,
            settled=self._settled,
        )

    # --- seats leaving ----------------------------------------------------------------

    def with_out(self, seat: int) -> Position:
        """``seat`` is out (three or four seats, each for itself; SPEC §1): its cells
        stay its own but block everyone else, its colour is free, enclosure and
        potentials count active seats only; if it was to move, the next active seat is."""
        owned, free, dead, out, to_move = seating.go_out(
            self._board,
            self._owned,
            self._free,
            seat,
            sides=self._teams,
            side_of=self._side_of,
            out=self._out,
            to_move=self._to_move,
            over=self.is_over,
        )
        return self._derive(owned, free, to_move=to_move, out=out, dead=dead, settled=True)

    def concede(self, seat: int) -> Position:
        """``seat``'s side gives up this game. Two sides: the other side is credited with
        every free non-dead cell and wins whatever the score (FPN ``r=``). Three or four
        sides: the seat is out (:meth:`with_out`)."""
        seating.check_seat(self.seats, seat)
        if len(self._teams) > 2:
            return self.with_out(seat)
        over = self.is_over
        owned, free, loser = seating.conceded(
            self._owned,
            self._free,
            seat,
            sides=self._teams,
            side_of=self._side_of,
            free_regions=() if over else self._free_regions(),
            over=over,
        )
        return self._derive(owned, free, resigned=loser, dead=self._dead_cells(), settled=True)

    def with_seats_permuted(self, perm: Sequence[int], to_move: int) -> Position:
        """The same board with seat ``s``'s territory and colour given to ``perm[s]`` and
        ``to_move`` to move (game 2 of a match: the corners rotate, letters, teams and
        seats that are out stay)."""
        owned, colours = seating.permuted(
            self._owned, self._seat_colors, perm, to_move, out=self._out
        )
        # a side may now hold other corners: enclosure and dead cells are worked out afresh
        return self._derive(
            owned, self._free, seat_colors=colours, to_move=to_move, dead=None, settled=False
        )

    # --- scores and the end -----------------------------------------------------------

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat: the value of its own territory."""
        return self._result().scores

    @property
    def potentials(self) -> tuple[int, ...]:
        """Per seat: its score plus every free non-dead region it borders (an out seat's
        potential is its score)."""
        return outcome.seat_potentials(self._board, self._result(), self._teams, self._free_regions)

    @property
    def side_scores(self) -> tuple[int, ...]:
        return self._result().side_scores

    @property
    def side_potentials(self) -> tuple[int, ...]:
        return self._result().side_potentials

    @property
    def is_over(self) -> bool:
        return self._result().over

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats of the winning side, sorted; a draw lists the seats of every side tied
        for the top score; empty while the game goes on."""
        return self._result().winners

    @property
    def needed_to_win(self) -> int | None:
        """Two sides: more than half the countable value (the equator); else None."""
        return self.countable // 2 + 1 if len(self._teams) == 2 else None

    def side_figures(self) -> tuple[SideFigures, ...]:
        """What is shown above the board, per side (SPEC §1)."""
        return outcome.side_figures(self._result(), self._teams, self.needed_to_win)

    def ranking(self) -> tuple[tuple[int, ...], ...]:
        """Seats from first place down, ties grouped: the active sides by score (a side
        that conceded last), then the seats that are out, the one out earliest last."""
        return outcome.ranking(self._result(), self._teams, out=self._out, resigned=self._resigned)

    def _result(self) -> Outcome:
        if self._outcome is None:
            self._outcome = outcome.compute_outcome(
                self._board,
                self._owned,
                self._teams,
                self._side_of,
                out=self._out,
                resigned=self._resigned,
                countable=self.countable if self._settled else None,
                free_regions=self._free_regions,
            )
        return self._outcome

    # --- internals ----------------------------------------------------------------------

    def _active(self) -> list[int]:
        return [seat for seat in range(self.seats) if seat not in self._out]

    def _opponents(self, seat: int) -> tuple[int, ...]:
        """Active seats of the other sides: their colours are forbidden to ``seat``."""
        if self._foes is None:
            side_of, active = self._side_of, self._active()
            self._foes = tuple(
                tuple(s for s in active if side_of[s] != side_of[seat])
                for seat in range(self.seats)
            )
        return self._foes[seat]

    def _next_active(self, after: int) -> int:
        if not self._out:
            return (after + 1) % self.seats
        return seating.next_active(self.seats, after, self._out)

    def _free_regions(self) -> list[Region]:
        """Free regions with the active seats each borders (cached)."""
        if self._regions is None:
            territories = [(seat, self._owned[seat]) for seat in self._active()]
            self._regions = regions(self._board, self._free, territories)
        return self._regions

    def _dead_cells(self) -> int:
        if self._dead is None:
            dead = 0
            for region, border in self._free_regions():
                if not border:
                    dead |= region
            self._dead = dead
        return self._dead

    # --- notation ---------------------------------------------------------------------

    def to_text(self) -> str:
        """The canonical FPN line; ``Position.from_text(pos.to_text()) == pos``."""
        if self._text is None:
            fpn = notation.fpn_of(
                self._board,
                self._colors,
                self._palette,
                self._owned,
                self._free,
                self._seat_colors,
                self._to_move,
                teams=self._teams,
                pie=self._pie,
                out=self._out,
                resigned=self._resigned,
            )
            self._text = notation.write(fpn)
        return self._text

    def __repr__(self) -> str:
        return f"Position.from_text({self.to_text()!r})"

    def __reduce__(self) -> tuple[object, ...]:
        # pickled (cache, copy) as its FPN line; a plain function rather than the bound
        # classmethod, which Twisted's method pickling (loaded under Daphne) gets wrong
        return (_from_text, (self.to_text(),))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self is other or self.to_text() == other.to_text()

    def __hash__(self) -> int:
        return hash(self.to_text())


def _from_text(text: str) -> Position:
    return Position.from_text(text)
