"""Member names that cannot pass for one another (Unicode TR39, in the spirit of its
skeletons): ``аdmin`` with a Cyrillic ``а``, ``ａｄｍｉｎ`` in full width or ``ALİCE``
beside ``alice`` are the same name to a reader, so they are the same name here.

``skeleton`` folds a name to what it looks like: compatibility forms (NFKC), case, accents
and marks, and every character to the prototype of its confusable set (the confusables
data of ``confusable-homoglyphs``, from Unicode's). Two names with one skeleton cannot
both exist, and no name may have a reserved name's. ``mixed_scripts`` refuses names that
mix scripts (Latin with Cyrillic, say); a name all in Cyrillic or all in Greek is welcome.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables

# Scripts every name may use beside its own (digits, the underscore and the like).
NEUTRAL = {"COMMON", "INHERITED"}


@cache
def _prototype(char: str) -> str:
    """The character a reader takes ``char`` for: an ASCII look-alike when there is one,
    else the lowest of its confusable set."""
    found = confusables.is_confusable(char, greedy=True) or []
    alikes = {char}
    for entry in found:
        for homoglyph in entry.get("homoglyphs", ()):
            alikes.add(homoglyph["c"])
    ascii_alikes = sorted(c for c in alikes if c.isascii() and len(c) == 1)
    return ascii_alikes[0] if ascii_alikes else min(alikes)


def skeleton(name: str) -> str:
    """What ``name`` looks like, as a string to compare (see the module's doc)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(
        c for c in unicodedata.normalize("NFD", folded) if unicodedata.category(c) != "Mn"
    )
    return "".join(_prototype(c).casefold() for c in bare)


def mixed_scripts(name: str) -> bool:
    """Whether ``name`` mixes letters of two scripts."""
    scripts = {categories.alias(c) for c in unicodedata.normalize("NFKC", name)}
    return len(scripts - NEUTRAL) > 1
