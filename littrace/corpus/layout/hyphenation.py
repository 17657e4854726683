"""Line joining with line-end hyphenation repaired, and the document vocabulary it consults.

A line ending in a letter and ``-`` is joined to the next line's first word; the hyphen is
*kept* when the next line starts with anything but a lower-case letter ("BERT-" + "Base",
"COVID-" + "19"), when either part is itself hyphenated ("state-of-" + "the-art"), when the
document uses the hyphenated form elsewhere and never the closed one, or when the prefix is
one that is normally hyphenated ("self-", "non-", "cross-", ...) and the tail is not a plain
suffix ("-est", "-ing"); otherwise it is dropped ("retriev-" + "al" -> "retrieval"). A soft
hyphen is always dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Hyphenation repair (see the module docstring).
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_ASCII_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")  # _WORD on lower-cased ASCII text
_LETTERS_TAIL = re.compile(r"[^\W\d_]+$")
_LETTERS_HEAD = re.compile(r"^[^\W\d_]+(?:-[^\W\d_]+)*")
_HYPHEN_PREFIXES = frozenset(
    {
        "self", "non", "cross", "well", "zero", "few", "semi", "quasi", "pseudo", "anti",
        "state", "end", "real", "human", "task", "domain", "long", "short", "high", "low",
        "large", "small", "fine", "open",
    }
)  # fmt: skip
_PLAIN_SUFFIXES = frozenset(
    {"est", "er", "ers", "ing", "ings", "ed", "ly", "ness", "ity", "ities", "ize", "ise", "ment"}
)


def vocabulary(texts: Iterable[str]) -> set[str]:
    """The lower-cased words (hyphenated compounds whole) in ``texts``, for :func:`join_lines`."""
    words: set[str] = set()
    for text in texts:
        text = text.lower()
        # In ASCII text the letters are a-z, and the simpler pattern runs faster.
        words.update((_ASCII_WORD if text.isascii() else _WORD).findall(text))
    return words


def join_lines(
    texts: Iterable[str],
    vocab: set[str] | frozenset[str] = frozenset(),
    soft_ends: Iterable[bool] = (),
) -> str:
    """Join line texts with spaces, repairing line-end hyphenation (rule in module docstring).

    Example:
        >>> join_lines(["the retriev-", "al of state-of-", "the-art models"])
        'the retrieval of state-of-the-art models'
    """
    softs = list(soft_ends)
    pieces: list[str] = []
    for index, text in enumerate(texts):
        if not pieces:
            pieces.append(text)
            continue
        previous = pieces[-1]
        if index - 1 < len(softs) and softs[index - 1]:
            pieces[-1] = previous + text
        elif previous.endswith("-") and len(previous) > 1 and previous[-2].isalpha() and text:
            pieces[-1] = previous[:-1] + _hyphen_joint(previous[:-1], text, vocab) + text
        else:
            pieces.append(text)
    return " ".join(pieces)


def _hyphen_joint(before: str, after: str, vocab: set[str] | frozenset[str]) -> str:
    """``"-"`` to keep the line-end hyphen between ``before`` and ``after``, else ``""``."""
    if not after[0].islower():
        return "-"
    prefix_token = before.rsplit(" ", 1)[-1]
    head_match = _LETTERS_HEAD.match(after)
    head = head_match.group(0) if head_match else ""
    if "-" in prefix_token or "-" in head:
        return "-"
    tail_match = _LETTERS_TAIL.search(prefix_token)
    stem = (tail_match.group(0) if tail_match else "").lower()
    head = head.lower()
    if f"{stem}{head}" in vocab:
        return ""
    if f"{stem}-{head}" in vocab:
        return "-"
    if stem in _HYPHEN_PREFIXES and head not in _PLAIN_SUFFIXES:
        return "-"
    return ""
