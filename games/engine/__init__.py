"""The rules of Filler ("7 Colors"): boards, positions, variants and notation.

Pure Python: nothing here imports Django, Channels or Celery.

>>> from games.engine import Position
>>> pos = Position.from_text("square 5x3 6 1234B/33332/A4121 5,6 A")
>>> pos.play(4).scores
(2, 1)
"""

from games.engine.board import Board
from games.engine.errors import IllegalMove
from games.engine.outcome import SideFigures
from games.engine.palette import PALETTE, PaletteColor
from games.engine.position import Position
from games.engine.variants import VARIANTS, Variant

__all__ = [
    "PALETTE",
    "VARIANTS",
    "Board",
    "IllegalMove",
    "PaletteColor",
    "Position",
    "SideFigures",
    "Variant",
]
