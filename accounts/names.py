"""Member names that cannot pass for one another (Unicode TR39, in the spirit of its
skeletons): ``аdmin`` with a Cyrillic ``а``, ``ａｄｍｉｎ`` in full width or ``ALİCE``
beside ``alice`` are the same name to a reader, so they are the same name here.

``skeleton`` folds a name to what it looks like: compatibility forms (NFKC), case, accents
and marks, and every character to the prototype of its confusable set (the confusables
data of ``confusable-homoglyphs``, from Unicode's), and then the digits that stand for
letters (``b0b``, ``al1ce``, ``m0derator``, ``moder4tor``: 0/o, 1/l/i, 3/e, 4/a, 5/s,
7/t). Two names with one skeleton cannot
both exist, and no name may have a reserved name's. ``mixed_scripts`` refuses names that
mix scripts (Latin with Cyrillic, say); a name all in Cyrillic or all in Greek is welcome.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import categories, utils

# Scripts every name may use beside its own (digits, the underscore and the like).
NEUTRAL = {"COMMON", "INHERITED"}

# Digits read as the letters they stand for, after the confusables (which already make
# ``l`` and ``I`` a ``1``): ``i`` joins them.
DIGITS = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "i": "1"})


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: the characters Unicode's confusables data
    links (directly or through others) form one set, written as its lowest ASCII member,
    else its lowest member (``I``, ``l``, ``1`` and ``ӏ`` are all ``1``)."""
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    for char, entries in utils.load("confusables.json").items():
        for entry in entries:
            other = entry["c"].strip("\u200e\u200f")
            if len(char) == 1 and len(other) == 1:
                a, b = root(char), root(other)
                if a != b:
                    parent[max(a, b, key=_rank)] = min(a, b, key=_rank)
    return {c: root(c) for c in parent}


def _rank(c: str) -> tuple[bool, str]:
    return (not c.isascii(), c)


def _prototype(char: str) -> str:
    return _prototypes().get(char, char)


def skeleton(name: str) -> str:
    """What ``name`` looks like, as a string to compare (see the module's doc)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(
        c for c in unicodedata.normalize("NFD", folded) if unicodedata.category(c) != "Mn"
    )
    return "".join(_prototype(c).casefold() for c in bare).translate(DIGITS)


def look(name: str) -> str:
    """What ``name`` looks like letter by letter, before case is folded (as Unicode's
    TR39 skeleton): ``aIice`` with a capital I, or ``аӏісе`` in Cyrillic, look like
    ``alice``, which ``skeleton`` (case first) does not see."""
    bare = "".join(
        c
        for c in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
        if unicodedata.category(c) != "Mn"
    )
    mapped = "".join(_prototype(c) for c in bare)
    return "".join(_prototype(c) for c in mapped.casefold()).translate(DIGITS)


def looks(name: str) -> set[str]:
    """Both folds of ``name``: two names that share either cannot both exist."""
    return {skeleton(name), look(name)}


def mixed_scripts(name: str) -> bool:
    """Whether ``name`` mixes letters of two scripts."""
    scripts = {categories.alias(c) for c in unicodedata.normalize("NFKC", name)}
    return len(scripts - NEUTRAL) > 1
