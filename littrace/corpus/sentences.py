"""The one sentence splitter: it does not stop at abbreviations ("et al.", "e.g.", "Fig."),
initials or decimals. Citation contexts, chunks and the reader all cut text with it."""

from __future__ import annotations

import re

# Sentence splitting: a boundary is [.?!] (and closing quotes/brackets), whitespace, and a
# capital, digit or opening bracket, unless the word before is an abbreviation or initial.
_BOUNDARY = re.compile(r"[.?!][\"”’)\]]*\s+(?=[A-Z0-9(\[“\"])")
ABBREVIATIONS = frozenset(
    {
        "al", "e.g", "i.e", "cf", "vs", "fig", "figs", "eq", "eqs", "sec", "secs", "tab",
        "ref", "refs", "no", "vol", "pp", "approx", "resp", "dr", "mr", "ms", "st", "etc",
        "ch", "app", "appx", "alg", "def", "thm", "prop", "lem", "cor", "ex", "incl", "viz",
    }
)  # fmt: skip


def split_sentences(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the sentences in ``text``.

    Example:
        >>> text = "As Smith et al. (2020) show in Fig. 2, it works. Next, e.g. 3.5 points."
        >>> [text[a:b] for a, b in split_sentences(text)]
        ['As Smith et al. (2020) show in Fig. 2, it works.', 'Next, e.g. 3.5 points.']
    """
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if text[match.start()] == ".":
            word = (
                text[start : match.start()].rsplit(None, 1)[-1]
                if text[start : match.start()].strip()
                else ""
            )
            word = word.lstrip('([“"').lower()
            if word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
        end = match.end()
        spans.append((start, len(text[:end].rstrip())))
        start = end
    if text[start:].strip():
        spans.append((start, len(text.rstrip())))
    return spans


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (:func:`split_sentences`).

    Example:
        >>> sentences("Lo et al. (2020) parse PDFs. They release S2ORC.")
        ['Lo et al. (2020) parse PDFs.', 'They release S2ORC.']
    """
    return [text[start:end] for start, end in split_sentences(text)]
