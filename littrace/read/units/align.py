"""Question-to-cell alignment: how well a question's terms name a cell's row and column."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from littrace.read.abbreviations import Glossary
from littrace.read.units.cells import TableCell
from littrace.read.units.labels import label_share, named_terms
from littrace.read.units.terms import NUMBER_MARK

# A question naming one of a row's settings prefers that row by this much of a label.
_KEY_WEIGHT = 0.25

# Outer labels ("Bio", "NER") say less about a row than its innermost label ("JNLPBA").
_OUTER_WEIGHT = 0.25
# A label named only by the paper's context (its subject, e.g. "SciBERT" for "its own
# model") counts this much of a label the question names.
_CONTEXT_WEIGHT = 0.5

# A row label naming one question term is read at 0.9 of its share, two at 0.95, ...
_UNSPECIFIC = 0.1


@dataclass(frozen=True)
class Alignment:
    """How well a question names one cell's row and column."""

    cell: TableCell
    row_score: float
    column_score: float

    @property
    def score(self) -> float:
        return self.row_score * self.column_score


def named_share(
    label: str,
    wanted: frozenset[str],
    context: frozenset[str],
    glossary: Glossary | None = None,
) -> float:
    """How much of ``label`` ``wanted`` names, or, at half weight, names with the help of the
    paper's subject terms ``context``; a label holding a short form the paper defines
    (``glossary``) is named in either form ("QQP 50K", "Quora Question Pairs 50K split")."""
    spelled = glossary.spell(label) if glossary else None
    forms = (label, spelled) if spelled else (label,)
    named = max(label_share(form, wanted) for form in forms)
    # A label may join the subject with what the question names ("InternVL-C" for "its
    # contrastive model"): named with the subject's help, at the subject's weight.
    helped = max(label_share(form, wanted | context) for form in forms) if context else 0.0
    return max(named, _CONTEXT_WEIGHT * helped)


def path_score(
    path: Sequence[str],
    wanted: frozenset[str],
    context: frozenset[str] = frozenset(),
    glossary: Glossary | None = None,
) -> float:
    """The mean share of ``path``'s labels that ``wanted`` (or, at half weight, ``context``)
    names: every header level counts alike."""
    shares = [named_share(label, wanted, context, glossary) for label in path]
    return sum(shares) / len(shares) if shares else 0.0


def row_score(
    path: Sequence[str],
    wanted: frozenset[str],
    context: frozenset[str] = frozenset(),
    glossary: Glossary | None = None,
) -> float:
    """How well ``wanted`` names a row path: the innermost label counts fully, outer ones
    (sections, groups) a quarter, normalised to [0, 1]."""
    if not path:
        return 0.0
    weights = [_OUTER_WEIGHT] * (len(path) - 1) + [1.0]
    shares = [named_share(label, wanted, context, glossary) for label in path]
    return sum(w * s for w, s in zip(weights, shares, strict=True)) / sum(weights)


def key_share(key: str, wanted: frozenset[str]) -> float:
    """How much of a row key ``wanted`` names; a bare number ("8") only by the number standing
    alone ("with 8 frames"), not as the part of a name ("top-1", "Kinetics-700")."""
    bare = key.strip()
    if bare.isdigit():
        return 1.0 if NUMBER_MARK + bare in wanted else 0.0
    return label_share(key, wanted)


def align(
    wanted: frozenset[str],
    cell: TableCell,
    context: Iterable[str] = frozenset(),
    focus: frozenset[str] | None = None,
    glossary: Glossary | None = None,
) -> Alignment:
    """The alignment of a question's terms with ``cell`` (``context``: terms of the paper's
    subject, which a question about "its own model" does not repeat; ``glossary``: the
    paper's short forms). With ``focus`` (the terms of the sentence that asks), a label named
    only in the sentences before it (describing the paper, or what it is compared with)
    counts half."""
    if focus is not None:
        whole = align(wanted, cell, context, glossary=glossary)
        asking = align(focus, cell, context, glossary=glossary)
        return Alignment(
            cell,
            (whole.row_score + asking.row_score) / 2,
            (whole.column_score + asking.column_score) / 2,
        )
    extra = frozenset(context) - wanted
    keys = max((key_share(key, wanted) for key in cell.row_keys), default=0.0)
    # Of two rows named alike, the one whose label names more of the question is the more
    # specific reading ("Avg. of 15 models with LM" over "With LM" for "15 models with LM
    # averaged").
    named = named_terms(cell.row_path[-1], wanted) if cell.row_path else 0
    specific = 1.0 - _UNSPECIFIC / max(1, named)
    # So too of two columns ("Dense+Sparse" over "Dense" for "its Dense+Sparse combination").
    headed = named_terms(cell.column_path[-1], wanted) if cell.column_path else 0
    return Alignment(
        cell,
        (row_score(cell.row_path, wanted, extra, glossary) + _KEY_WEIGHT * keys) * specific,
        path_score(cell.column_path, wanted, extra, glossary)
        * (1.0 - _UNSPECIFIC / max(1, headed)),
    )
