"""Each selected paper's view of a question about several papers.

A multi-paper question describes each paper in its own words: "give (a) the ACL 2020 paper's
author accuracy for bibliography linking on LaTeX parses and (b) the NAACL 2018 paper's Bag of
Concepts F1 for its neural entity linker". Read whole, every paper is searched for every
paper's description, and a reference the question names by number ("cites its reference
[30]") is looked up in the cited paper's bibliography too. A paper's view keeps only what
concerns it:

* the question is cut into parts at sentence ends and again before each **mention** of a
  selected paper: a year of one of them, with the venue printed beside it when there is one
  ("NAACL 2018", "a 2022 arXiv paper"); a year inside a citation ("Ammar et al., 2018")
  dates a cited work, not a mention;
* an item of an enumeration ("(i) the metadata extractor of the NAACL 2018 paper and (ii) the
  embedding layer of the 2022 JPCS paper") that mentions one work is one part, the words
  before its mention included;
* a part that mentions a paper belongs to it: to the papers of that year (versions of one
  work count as one paper), narrowed by the venue; a part that mentions none belongs to
  every paper ("How many participants took part?");
* a paper's view is its own parts and the shared ones, in order.

The parts of other papers are not dropped from what a paper is searched with, only weighed
less (:mod:`littrace.read.localize`): a coordinated question ("the 2025 paper samples at one
temperature, and the 2026 paper runs its model at another") prints some of a paper's words
in another paper's part.

A question about one paper (or one work in several versions) is its only view.

Example:
    >>> from littrace.corpus.document import PaperRecord
    >>> acl = PaperRecord("a", "S2ORC", (), "", "ACL", 2020, True)
    >>> naacl = PaperRecord("n", "Literature Graph", (), "", "NAACL", 2018, True)
    >>> question = ("Give (a) the ACL 2020 paper's author accuracy and (b) the NAACL 2018 "
    ...             "paper's Bag of Concepts F1. Answer in points.")
    >>> paper_views(question, [acl, naacl])["n"]
    "Give (b) the NAACL 2018 paper's Bag of Concepts F1. Answer in points."
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from littrace.corpus.document import PaperRecord
from littrace.read.text import norm, sentences, terms

__all__ = ["ENUMERATION_ITEM", "Part", "paper_views", "question_parts", "work_of"]

_YEAR = re.compile(r"(?<![\w.])((?:19|20)\d\d)(?![\w.])")
# What a citation prints before its year: "Ammar et al., 2018", "Chang et al. (2023)",
# "Lo and Wang (2020)".
_CITED_BEFORE = re.compile(r"(?:\bet\s+al\.?|\b[A-Z][\w'’-]+\s+(?:and|&)\s+[A-Z][\w'’-]+),?\s*\(?$")
_WORD = re.compile(r"[^\W_][\w-]*")
# The marker of an item of an enumeration: "(a)", "(ii)", "(2)".
ENUMERATION_ITEM = r"\((?:[ivx]{1,4}|[a-h]|\d)\)"
# One in running text, between spaces.
_ENUMERATION = re.compile(rf"(?:(?<=\s)|^){ENUMERATION_ITEM}(?=\s)")
# Where a clause or a listed item begins: after a colon, semicolon or comma, or at "and".
_CLAUSE_BOUNDARY = re.compile(r"[:;,]\s+(?:and\s+|while\s+|whereas\s+)?|\s+and\s+")
# The most words that lead from a clause boundary to a mention ("the PDF metadata
# extractor (ScienceParse) of a").
_LEAD_WORDS = 8


@dataclass(frozen=True)
class Part:
    """A piece of the question and the works it mentions (empty: it mentions none)."""

    text: str
    works: frozenset[str]


def work_of(paper: PaperRecord) -> str:
    """The work a paper record is a version of: its normalised title (arXiv and venue
    versions of one paper are one work), else its id."""
    return norm(paper.title) or paper.paper_id


def _venue_words(paper: PaperRecord) -> set[str]:
    return {word.lower() for word in _WORD.findall(paper.venue)}


def _mentions(sentence: str, papers: Sequence[PaperRecord]) -> list[tuple[int, frozenset[str]]]:
    """Where ``sentence`` mentions selected works, and which: (start of the mention, works)."""
    found = []
    for match in _YEAR.finditer(sentence):
        before = sentence[: match.start()]
        if _CITED_BEFORE.search(before):
            continue
        year = int(match.group(1))
        dated = [paper for paper in papers if paper.year == year]
        if not dated:
            continue
        previous = _WORD.findall(before)[-1:]
        beside = {word.lower() for word in previous + _WORD.findall(sentence[match.end() :])[:1]}
        named = [paper for paper in dated if beside & _venue_words(paper)]
        start = match.start()
        if previous and any(previous[0].lower() in _venue_words(p) for p in named):
            start = before.rfind(previous[0])
        found.append((start, frozenset(work_of(paper) for paper in named or dated)))
    return found


def _end(match: re.Match[str]) -> int:
    return match.end()


def _by_mention(text: str, papers: Sequence[PaperRecord]) -> list[Part]:
    """``text`` cut before each mention of a selected work, and before the words that lead
    to it from the clause boundary before it: "..., and the contextual encoder of a 2022
    JPCS paper" is the JPCS paper's from "the contextual encoder"."""
    mentions = _mentions(text, papers)
    starts: list[int] = []
    for start, _ in mentions:
        since = max(starts, default=0)
        boundary = max(_CLAUSE_BOUNDARY.finditer(text, since, start), key=_end, default=None)
        lead = text[boundary.end() : start] if boundary else ""
        fits = boundary is not None and len(_WORD.findall(lead)) <= _LEAD_WORDS
        starts.append(boundary.end() if fits and boundary else start)
    cuts = [0, *starts, len(text)]
    owners = [frozenset[str](), *(works for _, works in mentions)]
    return [
        Part(piece, works)
        for (begin, end), works in zip(pairwise(cuts), owners, strict=True)
        if (piece := text[begin:end].strip())
    ]


def _enumerated(sentence: str) -> list[str]:
    """``sentence`` cut before each item of an enumeration ("(i) ... and (ii) ..."), when it
    has two or more; else the sentence whole."""
    starts = [match.start() for match in _ENUMERATION.finditer(sentence)]
    if len(starts) < 2:
        return [sentence]
    cuts = [0, *starts, len(sentence)]
    return [sentence[begin:end] for begin, end in pairwise(cuts)]


def question_parts(question: str, papers: Sequence[PaperRecord]) -> list[Part]:
    """``question`` cut into parts, each with the works it mentions (see the module doc)."""
    parts = []
    for sentence in sentences(question):
        for item in _enumerated(sentence):
            pieces = _by_mention(item, papers)
            owners = {piece.works for piece in pieces if piece.works}
            if item != sentence and len(owners) == 1 and _ENUMERATION.match(item.strip()):
                # An enumerated item is about the one work it mentions, whatever precedes
                # the mention: "(ii) the embedding layer of the 2022 JPCS paper".
                parts.append(Part(item.strip(), owners.pop()))
            else:
                parts += pieces
    return parts


def paper_views(question: str, papers: Sequence[PaperRecord]) -> dict[str, str]:
    """Each paper id of ``papers`` -> the question as that paper sees it (see the module doc)."""
    if len({work_of(paper) for paper in papers}) < 2:
        return {paper.paper_id: question for paper in papers}
    parts = question_parts(question, papers)
    views = {}
    for paper in papers:
        own = [p.text for p in parts if not p.works or work_of(paper) in p.works]
        view = " ".join(own)
        views[paper.paper_id] = view if terms(view) else question
    return views
