"""Players' names where room is short (hand tabs, a sheet's columns): the part of each name
that tells the players at this table apart.

Vietnamese tables share family names ("Nguyễn Văn An", "Nguyễn Thị Bình"): the first word
tells nobody apart there, the last word (the given name, what the table calls them) does.

>>> short_names(["Nguyễn Văn An", "Nguyễn Thị Bình", "Trần Văn Chi"])
['An', 'Bình', 'Chi']
>>> short_names(["Ann Lee", "Bob Lee"])
['Ann', 'Bob']
>>> short_names(["Lan Anh", "Lan Chi", "Minh Anh"])
['Lan Anh', 'Lan Chi', 'Minh Anh']
>>> short_names(["Annabelle", "Anna", "Giang", "Bình"], cut=True)
['Annab', 'Anna', 'Gian', 'Bình']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

_PICKS: tuple[Callable[[list[str]], str], ...] = (
    lambda words: words[0],
    lambda words: words[-1],
    lambda words: f"{words[0]} {words[-1]}" if len(words) > 1 else words[0],
)


def _unique(labels: Sequence[str]) -> bool:
    return len({label.casefold() for label in labels}) == len(labels)


def _prefix(label: str, labels: Sequence[str], shortest: int = 4) -> str:
    """The label's shortest beginning (at least ``shortest`` letters) no other label starts with."""
    for size in range(shortest, len(label)):
        head = label[:size].casefold()
        if sum(other.casefold().startswith(head) for other in labels) == 1:
            return label[:size]
    return label


def short_names(names: Sequence[str], *, cut: bool = False) -> list[str]:
    """One word per player when one word tells them apart: the first words, else the last
    words, else first and last; the whole names when nothing shorter does.  With ``cut``
    (a sheet's narrow columns), a label longer than four letters is then cut to its
    shortest unique beginning of at least four."""
    words = [name.split() or [name] for name in names]
    labels = list(names)
    for pick in _PICKS:
        picked = [pick(w) for w in words]
        if _unique(picked):
            labels = picked
            break
    if cut:
        labels = [_prefix(label, labels) for label in labels]
    return labels
