"""Table answers whose value columns read different selected papers (TRACE §3.3 across papers).

A multi-paper table question gives each paper either its own rows (keyed by the paper) or
its own columns: the rows are entities both papers report (datasets, languages) and each
value column names the paper it reads ("Finetune (2019 paper)", "nDCG@10 (embedding
paper)"). For the second kind, a value column belongs to the paper its name points at (the
paper's year or venue, or a title word no other selected paper's title holds); the papers'
projections are then joined by row key: the entity the question lists that a row's label
names ("Japanese" for "ja"), else the label as printed (case, spacing and hyphens aside).

Example:
    >>> papers = {"a": Cue(2019, "EMNLP", "SciBERT: a pretrained model for scientific text"),
    ...           "b": Cue(2020, "ACL", "S2ORC: the open research corpus")}
    >>> column_papers(["Finetune (2019 paper)", "Corpus BERT mean", "F1"], papers)
    {'Finetune (2019 paper)': 'a', 'Corpus BERT mean': 'b'}
    >>> join_rows([[("BC5CDR", {"x": 1})], [("bc5cdr", {"y": 2}), ("JNLPBA", {"y": 3})]], [])
    [('BC5CDR', {'x': 1, 'y': 2})]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from littrace.read.text import stem, terms
from littrace.read.units import label_share, question_terms, terms_match
from littrace.read.units.terms import LANGUAGES

# Words every paper description uses ("the 2019 paper's model"): they point at no paper.
GENERIC = frozenset(
    stem(word) for word in ("paper", "work", "model", "method", "dataset", "study", "article")
)
_KEY_CHARS = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class Cue:
    """What a column name may point at a paper by: its year, venue and title."""

    year: int | None
    venue: str
    title: str


def _words(text: str) -> set[str]:
    """``text``'s terms with their hyphen parts ("corpus-pretrained": corpus, pretrained)."""
    found: set[str] = set()
    for term in terms(text):
        found.update(part for part in (term, *term.split("-")) if part)
    return found - GENERIC


def paper_cues(name: str, paper: Cue, others: Sequence[Cue]) -> int:
    """How many words of a column ``name`` point at ``paper`` and at none of ``others``: its
    year, its venue, a word of its title."""
    named = _words(name)
    title = frozenset(_words(paper.title))
    others_titles = frozenset(word for other in others for word in _words(other.title))
    count = 0
    for word in named:
        if paper.year and word == str(paper.year):
            count += all(other.year != paper.year for other in others)
        elif paper.venue and word == paper.venue.casefold():
            count += all(other.venue.casefold() != word for other in others)
        elif (
            # A name with digits in it ("S2ORC") points at a paper as a word does.
            word.isalnum()
            and not word.isdigit()
            and len(word) > 2
            and terms_match(word, title)
            and not terms_match(word, others_titles)
        ):
            count += 1
    return count


def column_papers(names: Sequence[str], papers: Mapping[str, Cue]) -> dict[str, str]:
    """The paper (key of ``papers``) each column name points at most, where one does."""
    owners: dict[str, str] = {}
    for name in names:
        counts = {
            paper_id: paper_cues(name, cue, [c for p, c in papers.items() if p != paper_id])
            for paper_id, cue in papers.items()
        }
        best = max(counts.values(), default=0)
        leaders = [paper_id for paper_id, count in counts.items() if count == best]
        if best > 0 and len(leaders) == 1:
            owners[name] = leaders[0]
    return owners


def names_entity(label: str, entity: str) -> bool:
    """Whether a printed ``label`` and a listed ``entity`` name each other in full (a
    language code its language: "ja" and "Japanese")."""
    spelled = LANGUAGES.get(label.strip(), label)
    return (
        label_share(label, question_terms(entity)) >= 1.0
        and label_share(entity, question_terms(spelled)) >= 1.0
    )


def _join_reordered(
    joined: dict[str, tuple[str, dict[str, Any]]],
    holders: dict[str, int],
    words: dict[str, tuple[int, tuple[str, ...]]],
) -> None:
    """Joins, in place, two rows that one part each holds and that print the same words in
    another order or number ("GENIA - LAS" under "DEP", "GENIA" under "DEP (LAS)";
    "authors" and "Author"), where no other row prints those words."""
    alike: dict[tuple[str, ...], list[str]] = {}
    for key, count in holders.items():
        if count == 1:
            alike.setdefault(words[key][1], []).append(key)
    for first, *rest in alike.values():
        if len(rest) != 1 or words[first][0] == words[rest[0]][0]:
            continue
        for name, value in joined.pop(rest[0])[1].items():
            joined[first][1].setdefault(name, value)
        holders[first] += holders.pop(rest[0])


def join_rows(
    parts: Sequence[Sequence[tuple[str, dict[str, Any]]]],
    entities: Sequence[str],
    keys: Sequence[str] = (),
) -> list[tuple[str, dict[str, Any]]]:
    """Rows of several papers' projections joined by key: the listed entity a label names,
    else the label (case, spacing and punctuation aside), with the values of the further
    key columns ``keys`` ("SciERC" with "NER" apart from "SciERC" with "REL"). Keys every
    part holds are kept when there are any (the rows both papers report), else every key;
    and the keys of listed entities, whichever part holds them."""
    joined: dict[str, tuple[str, dict[str, Any]]] = {}
    holders: dict[str, int] = {}
    words: dict[str, tuple[int, tuple[str, ...]]] = {}
    for index, part in enumerate(parts):
        seen: set[str] = set()
        for label, raw in part:
            entity = next((e for e in entities if names_entity(label, e)), None)
            named = " ".join([entity or label, *(str(raw.get(k) or "") for k in keys)])
            key = _KEY_CHARS.sub("", named.casefold())
            values = joined.setdefault(key, (entity or label, {}))[1]
            for name, value in raw.items():
                values.setdefault(name, value)
            if key not in seen:
                holders[key] = holders.get(key, 0) + 1
                seen.add(key)
                printed = _KEY_CHARS.sub(" ", named.casefold()).split()
                words.setdefault(key, (index, tuple(sorted(map(stem, printed)))))
    _join_reordered(joined, holders, words)
    shared = [key for key, count in holders.items() if count == len(parts)]
    kept = shared if shared and len(parts) > 1 else list(joined)
    # An entity the question lists is a row, though one paper alone reports it.
    kept += [key for key in joined if key not in kept and joined[key][0] in entities]
    return [joined[key] for key in kept]
