"""Wording shared by the planner and the prose: headline case, surnames, printed values, and
present-tense forms of the method phrases."""

from __future__ import annotations

# Present-tense forms of METHOD_PHRASES, for sentences ("GraphMixer mixes structured tokens").
PRESENT = {
    "Mixing": "mixes",
    "Routing": "routes",
    "Distilling": "distills",
    "Anchoring": "anchors",
    "Weaving": "weaves",
    "Scaling": "scales",
    "Calibrating": "calibrates",
    "Pruning": "prunes",
    "Aligning": "aligns",
    "Learning": "learns",
    "Refining": "refines",
    "Compressing": "compresses",
    "Regularizing": "regularizes",
    "Adapting": "adapts",
    "Sampling": "samples",
    "Stitching": "stitches",
}
_SMALL_WORDS = frozenset({"a", "an", "and", "for", "of", "on", "the", "to", "under", "with", "in"})


def title_case(text: str) -> str:
    """Headline capitalisation that keeps small words and existing capitals ("3D", "QA")."""

    def cap(word: str, first: bool) -> str:
        if (not first and word in _SMALL_WORDS) or any(ch.isupper() for ch in word[1:]):
            return word
        parts = word.split("-")
        return "-".join(
            part if i and part in _SMALL_WORDS else part[:1].upper() + part[1:]
            for i, part in enumerate(parts)
        )

    return " ".join(cap(word, i == 0) for i, word in enumerate(text.split()))


def surname(full_name: str) -> str:
    return full_name.split()[-1]


def format_value(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"
