"""Numbers as papers print them: read from a passage, compared at their printed precision.

:func:`numbers` reads every value printed in a passage (thousands separators, a trailing
``%``, a power of ten as extraction flattens it: ``5 × 10−5``), :func:`parse_value` the value
a table cell is, :func:`first_number` the one in a value a model wrote (the LLM synthesizer's
facts and cells), and :func:`same_number` whether a computed value is a printed one once
rounded to its precision. The reader, the localizer and the LLM schemas all read numbers here.

Example:
    >>> [n.value for n in numbers("lr 3e-4, 42.8% and 1,024")]
    [0.0003, 42.8, 1024.0]
    >>> first_number("F1 91.40")
    (91.4, 2)
    >>> same_number(91.396, "91.40")
    True
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = [
    "Number",
    "decimals",
    "first_number",
    "numbers",
    "parse_value",
    "printed_numbers",
    "same_number",
    "same_shown",
    "spelled_as_digits",
    "without_numbers",
]

# Not glued to a word or a dot ("F1", "v2", the "3" of "1.2.3"); a leading-dot decimal
# (".85") counts. Thousands are grouped with a comma, which extraction may space ("3, 451
# tools"): a spaced group is one number unless it is a list's items ("[31, 104]", "{64,
# 128}", "224, 336, and 448", "62, 74, 112, 121 days", "0-500, 500-1000").
_NUMBER = re.compile(
    r"(?<![\w.^])(?<!\^[-+−])[-+−]?(?:(?:\d{1,3}(?:,\d{3})+"
    r"|(?<![\[{,])(?<!, )\d{1,3}, \d{3}(?![\d.,\]})-]| ?,)|\d+)(?:\.\d+)?|\.\d+)"
    r"(?:[eE](?:[-+−]|\s[-−])?\d+|(?P<power>\s?[×x·]\s?10(?:\^\{?[-+−]?\d{1,2}\}?|[-−]\d{1,2})(?!\d)))?"
    r"(?P<unit>\s?%)?"
)
# "5 × 10−5" as extraction flattens a superscript, or "5×10^{-5}": the power's exponent.
_POWER_EXPONENT = re.compile(r"10\^?\{?([-+−]?\d{1,2})\}?$")
# What a number printed with a power of ten holds ("1e-5", "5 × 10−5").
_POWER_MARK = re.compile(r"[eE×x·]")


_SPELLED = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# A count written as a word, alone or before a hyphen ("two-layer"), not inside a word.
_SPELLED_COUNT = re.compile(rf"\b({'|'.join(_SPELLED)})\b(?!['’])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Number:
    """A number printed in a passage: its value, ``%`` if it had one, and where it was."""

    value: float
    unit: str
    start: int
    end: int
    text: str


def numbers(text: str) -> list[Number]:
    """Every number in ``text``; thousands separators and a trailing ``%`` are understood."""
    found = []
    for match in _NUMBER.finditer(text):
        raw = match.group(0)
        unit = "%" if match.group("unit") else ""
        digits = raw.replace("%", "").replace(", ", "").replace(",", "").replace("−", "-")
        # An exponent's sign set apart by extraction ("1e −4").
        digits = digits.replace("e -", "e-").replace("E -", "E-")
        digits = digits.strip()
        if match.group("power"):
            mantissa, _, power = digits.partition(match.group("power").strip()[0])
            exponent = _POWER_EXPONENT.search(power.strip())
            digits = f"{mantissa.strip()}e{exponent.group(1).replace('−', '-')}" if exponent else ""
        try:
            value = float(digits)
        except ValueError:
            continue
        if math.isfinite(value):
            found.append(Number(value, unit, match.start(), match.end(), raw.strip()))
    return found


def same_shown(value: float, shown: int, printed: str) -> bool:
    """Whether ``printed`` states ``value``, itself shown with ``shown`` decimals: each is
    the other at the other's precision ("0.93" is no "0.9", though it rounds to it).

    Example:
        >>> same_shown(0.93, 2, "0.93"), same_shown(0.93, 2, "0.9"), same_shown(44.4, 1, "44.40")
        (True, False, True)
    """
    if not same_number(value, printed):
        return False
    target = parse_value(printed)
    return target is None or same_number(target, f"{value:.{shown}f}")


def spelled_as_digits(text: str) -> str:
    """``text`` with the counts one to ten written as words printed as digits, so that
    "a two-layer BiLSTM" and "2 layers" state the same count.

    Example:
        >>> spelled_as_digits("a two-layer BiLSTM and one GPU; someone")
        'a 2-layer BiLSTM and 1 GPU; someone'
    """
    return _SPELLED_COUNT.sub(lambda m: str(_SPELLED.index(m.group(1).lower()) + 1), text)


def first_number(text: str) -> tuple[float, int] | None:
    """The first number in ``text`` and its printed decimals, or None.

    Example:
        >>> first_number("BLEU 27.30 (+1.2)"), first_number(".85"), first_number("n/a")
        ((27.3, 2), (0.85, 2), None)
    """
    found = numbers(text)
    return (found[0].value, decimals(found[0].text)) if found else None


def parse_value(text: str) -> float | None:
    """The number ``text`` is, if it is one number (units like ``%`` and marks like ``†``
    allowed, and a spread or change after it: ``23.00(0.08)``, ``47.2 ± 0.3``), else None.
    A setting such as ``k = 5`` is not a value, nor a number with a stray bracket
    (``2021)``, the end of a citation).

    Example:
        >>> parse_value("83.64†"), parse_value("23.00(0.08)"), parse_value("k = 5")
        (83.64, 23.0, None)
        >>> parse_value("21.5M (26.5%)"), parse_value("-437.96 TPa^-1")
        (21.5, -437.96)
    """
    found = numbers(_SPREAD.sub("", text, count=1))
    if len(found) != 1:
        return None
    bare = _SPREAD.sub("", text, count=1)
    # A unit's power is part of the unit: "TPa^-1".
    rest = _UNIT_POWER.sub("", bare[: found[0].start] + bare[found[0].end :]).strip()
    return found[0].value if len(rest) <= 3 and not set(rest) & set("=()[]") else None


_UNIT_POWER = re.compile(r"(?<=[^\W\d_])\^[-+−]?\d+")


# A spread, share or change printed after a value: "(0.08)", "± 0.3", "(+1.2)", "(±0.5)",
# "21.5M (26.5%)", or a signed change set as a subscript ("89.29+46.47", "34.92 -6.45"; a
# minus only before a decimal, so that "2020-2021" stays a range).
_SPREAD = re.compile(
    r"(?:(?<=[\d%])|(?<=\d[KMBk]))\s*(?:\(\s*(?:±|\+/-|\+-|[+−-])?\s*\d[\d.,]*%?\s*\)|(?:±|\+/-|\+-)\s*\d[\d.,]*%?"
    r"|(?:\+|[−-](?=\d+\.\d))\d[\d.,]*%?$)"
)


def spread(text: str) -> str | None:
    """The spread printed after a value as "± s" (a standard deviation or error), as printed.

    Example:
        >>> spread("0.696±0.288"), spread("47.2 (± 0.3)"), spread("27.30 (+1.2)")
        ('0.288', '0.3', None)
    """
    found = _PLUS_MINUS.search(text)
    return found.group(1) if found else None


_PLUS_MINUS = re.compile(r"(?<=[\d%])\s*\(?\s*(?:±|\+/-|\+-)\s*(\d[\d.,]*)")


def share(text: str) -> str | None:
    """The share of a whole printed after a count as a percentage in parentheses, as
    printed.

    Example:
        >>> share("28.9M (35.6%)"), share("42k (0.1%)"), share("27.30 (+1.2)")
        ('35.6', '0.1', None)
    """
    found = _SHARE.search(text)
    return found.group(1) if found else None


_SHARE = re.compile(r"(?<=[\dA-Za-z])\s*\(\s*(\d[\d.]*)\s*%\s*\)")


def decimals(printed: str) -> int:
    """Digits after the decimal point of a printed number, its power of ten counted
    (``"42.80"`` -> 2, ``"5 × 10−5"`` -> 5)."""
    found = numbers(printed) if _POWER_MARK.search(printed) else []
    if found and found[0].value and _POWER_MARK.search(found[0].text):
        mantissa = re.match(r"[-+−]?\d*(?:\.(\d+))?", found[0].text)
        shown = len(mantissa.group(1) or "") if mantissa else 0
        return max(0, shown - math.floor(math.log10(abs(found[0].value))))
    match = re.search(r"\.(\d+)", printed)
    return len(match.group(1)) if match else 0


def same_number(value: float, printed: str) -> bool:
    """Whether ``value`` is the number ``printed``, once rounded to its printed precision."""
    target = parse_value(printed)
    if target is None:
        return False
    digits = decimals(printed)
    return math.isclose(round(value, digits), target, abs_tol=0.5 * 10**-digits * 1e-6) or (
        math.isclose(value, target, rel_tol=1e-9, abs_tol=1e-12)
    )


def printed_numbers(text: str) -> list[Number]:
    """The values ``text`` prints ("SciBERT (77.1)"), not the digits of a name
    ("EVA-02-CLIP-E", "GPT-4o", "Qwen3-4B")."""
    found = []
    for number in numbers(text):
        before = text[number.start - 1 : number.start] if number.start else ""
        after = text[number.end : number.end + 1]
        if not (before.isalnum() or before == "-" or after.isalnum() or after == "-"):
            found.append(number)
    return found


def without_numbers(text: str) -> str:
    """``text`` without the values it prints, keeping the digits of a name."""
    for number in reversed(printed_numbers(text)):
        text = text[: number.start] + text[number.end :]
    return text


# Scales a count is printed in: a suffix ("2.27M", "7B") or a word ("81.1 million", a header's
# "(millions)").
_SCALE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_SCALE_SUFFIXES = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}
_SCALE = re.compile(
    r"(?<=\d)\s?(?P<suffix>[KMBT])(?![\w.])|\b(?P<word>(?i:thousand|million|billion|trillion))"
    r"(?i:s)?\b"
)


def scale_of(text: str, suffixes: bool = True) -> float:
    """The scale ``text`` prints its numbers in: 1e6 for "2.27M", "81.1 million" or a header's
    "(millions)", 1.0 when it prints none; with ``suffixes`` off, only a scale in words (a
    header's "7B" names a model, not the scale of its cells).

    Example:
        >>> scale_of("2.27M"), scale_of("Removed (millions)"), scale_of("7b"), scale_of("37.5")
        (1000000.0, 1000000.0, 1.0, 1.0)
        >>> scale_of("Llama 7B", suffixes=False)
        1.0
    """
    for found in _SCALE.finditer(text):
        if found["word"]:
            return _SCALE_WORDS[found["word"].lower()]
        if suffixes:
            return _SCALE_SUFFIXES[found["suffix"]]
    return 1.0
