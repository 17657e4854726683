"""Text helpers of the scan and the detectors: cleaning, math characters and fonts,
word counts, and the patterns of numbers and equation numbers."""

from __future__ import annotations

import functools
import itertools
import re

_MATH_FONT_PARTS = (
    "cmmi",
    "cmsy",
    "cmex",
    "msbm",
    "msam",
    "math",
    "symbol",
    "stix",
    "txmi",
    "txsy",
    "txex",
    "lmmi",
    "lmsy",
    "esint",
)
_MATH_CHAR = re.compile(
    "[=+<>±×÷·−∗∘′\u0391-\u03c9\u2100-\u214f\u2190-\u22ff\U0001d400-\U0001d7ff]"
)
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st"})
_WORD = re.compile(r"[\"“‘(\[]?[A-Za-z][a-z]+(?:[-'’][a-z]+)*[\"”’)\],.;:!?]*")

EQUATION_NUMBER = re.compile(
    r"\(\s*((?:[A-Z]\.?)?\d{1,3}[a-z]?|(?:[A-Z]\.)?\d{1,2}\.\d{1,3}[a-z]?)\s*\)"
)
"""A printed equation number, its label in group 1: "(3)", "(3.2)", "(A.1)", "(B.12)", "(S3)",
"(3a)". Years are out: four digits never match."""

NUMBER_START = re.compile(r"[-+−]?\d")
"""A cell or token that starts like a number: "12", "-0.3", "+4.1"."""
NUMBER = re.compile(r"[-+−]?\d+(?:[.,]\d+)*%?")
# Control characters (CMEX delimiters often extract as these) and the replacement character.
_JUNK = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufffd]")


@functools.lru_cache(maxsize=512)
def is_math_font(font: str) -> bool:
    lowered = font.lower()
    return any(part in lowered for part in _MATH_FONT_PARTS)


def math_chars(text: str) -> int:
    """How many characters of ``text`` are math symbols, Greek or math alphanumerics."""
    return len(_MATH_CHAR.findall(text))


@functools.lru_cache(maxsize=4096)
def word_count(text: str) -> int:
    """Tokens that are words of two or more letters (punctuation around them allowed).

    Cached: the prose, heading and equation tests ask several times about each line.
    """
    return sum(1 for _ in filter(_WORD.fullmatch, text.split()))


def clean_text(text: str) -> str:
    """``text`` with ligatures expanded and junk characters dropped."""
    # Most spans are plain ASCII: no ligatures to expand (``translate`` with a dict costs
    # a lookup per character), and junk only if a control character is there.
    if text.isascii():
        return text if text.isprintable() else _JUNK.sub("", text)
    return _JUNK.sub("", text.translate(_LIGATURES))


def split_numbers(piece: tuple[float, float, str]) -> list[tuple[float, float, str]]:
    """A piece cut between its space-separated numbers, x positions shared out by length."""
    x0, x1, text = piece
    tokens = text.split()
    if len(tokens) < 2 or not any(
        NUMBER.fullmatch(a) and NUMBER.fullmatch(b) for a, b in itertools.pairwise(tokens)
    ):
        return [piece]
    per_char = (x1 - x0) / max(len(text), 1)
    atoms: list[tuple[float, float, str]] = []
    start = 0
    for token in tokens:
        begin = text.index(token, start)
        start = begin + len(token)
        atoms.append((x0 + begin * per_char, x0 + start * per_char, token))
    merged = [atoms[0]]
    for atom in atoms[1:]:  # only number-number boundaries are cut
        if NUMBER.fullmatch(atom[2]) and NUMBER.fullmatch(merged[-1][2]):
            merged.append(atom)
        else:
            merged[-1] = (merged[-1][0], atom[1], f"{merged[-1][2]} {atom[2]}")
    return merged
