"""A question pointing at the paper's own method, and the rows tables mark as its own."""

from __future__ import annotations

import re

from littrace.read.units.terms import question_terms

# A question pointing at the paper's own method without naming it: "its own model", "the
# proposed method", "the authors' method". Tables mark that method's rows "Ours", "X (ours)" or "X (Our Work)"; the
# word "ours" is what alignment matches such labels by.
_OWN_REFERENCE = re.compile(r"\b(?:own|proposed|ours)\b|\bauthors['’]", re.IGNORECASE)
_OWN_NOTE = re.compile(r"\s*\((?:ours|our\s+\w+|proposed)\)", re.IGNORECASE)
_OWN_LABEL = re.compile(rf"{_OWN_NOTE.pattern}|^\s*ours\b", re.IGNORECASE)
OWN_TERM = "ours"


def refers_to_own(question: str) -> bool:
    """Whether ``question`` points at the paper's own method without naming it."""
    return _OWN_REFERENCE.search(question) is not None


def own_named(named: frozenset[str], subject: frozenset[str], text: str) -> frozenset[str]:
    """``named`` with the paper's ``subject`` terms when ``text`` points at the paper's own
    method ("the authors' method"): such a question names it, not merely implies it."""
    return named | subject if refers_to_own(text) else named


def marks_own(label: str) -> bool:
    """Whether a row label marks the paper's own method ("Ours", "InternViT-6B (ours)")."""
    return _OWN_LABEL.search(label) is not None


def without_own_note(label: str) -> str:
    """``label`` without an own-work note ("InternViT-6B (ours)" reads "InternViT-6B"), unless
    the note is all there is."""
    bare = _OWN_NOTE.sub("", label)
    return bare if bare.strip() else label


def subject_terms(subject: str, question: str) -> frozenset[str]:
    """The terms a question about the paper's own method leaves implicit (``context`` of
    :func:`align`): the name of what the paper introduces, and the mark tables print on its
    rows ("Ours") when the question points at its own method."""
    implied = question_terms(subject)
    return implied | {OWN_TERM} if refers_to_own(question) else implied
