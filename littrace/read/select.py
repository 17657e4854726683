"""Which candidate papers the answer rests on, and how many (TRACE §3.1, Lit3R §2.2).

Paper F1 is a third of the score, so the count matters as much as the choice:

1. With ``read.select.cover_groups_first``, every planned answer-target group gets its own
   paper: the best-scoring relevant reading that is the group's subject (``covers``).
2. A question about the papers that cite a named one ("the papers that cite X") adds every
   candidate whose bibliography lists the subject paper's title.
3. Each paper the question describes by year, with or without a venue ("an ACL 2020 paper
   that ...", "the 2019 paper it cites", "a 2022 Immunology editorial"), gets the
   best-scoring read candidate whose pool record has that year and venue (as many as the
   plan counts when one description stands for several papers: "two ACL 2020 papers"),
   one linked by citation to a paper already selected first (a citation's year, "Lo et al.,
   2020", describes no paper: step 6 resolves it).
4. Without any of those (a question that leaves its sources unnamed), papers join when
   their evidence is sufficient and their score is within ``score_gap`` of the best
   reading's; a single-paper plan keeps one paper.
5. Nothing relevant: the top candidate, so every answer names a paper.
6. A question about a selected paper's reference at a position ("its reference [5]"),
   printing one of its author-year citations ("a corpus it cites as Lo et al., 2020"), or
   going on to ask about a work it cites ("that cited dataset paper", "that BERT model's own
   paper": the work cited by the sentence that best matches the question), adds the read
   candidate that entry is (same title).
7. Another record of a selected work (same title: an arXiv and a proceedings record) joins it.

At most ``read.select.max_papers`` papers are returned, in candidate order.

Example:
    >>> from littrace.config import SelectSettings
    >>> from littrace.llm.replies import Plan
    >>> from littrace.read.records import PaperReading
    >>> readings = [PaperReading("p1", True, True, 0.9), PaperReading("p2", True, True, 0.5)]
    >>> select_papers(Plan(desired_papers=1), readings, SelectSettings()).papers
    ['p1']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from littrace.config import SelectSettings
from littrace.corpus.document import PaperRecord, Reference
from littrace.index.citations import compact_title
from littrace.littraceqa import Question
from littrace.llm.replies import Plan
from littrace.read.heuristic import question_query
from littrace.read.records import PaperContext, PaperReading
from littrace.read.references import asked_entry, cited_for
from littrace.read.text import norm, terms

# The question asks for the papers that cite a named one (not for what a paper cites).
_CITING = re.compile(
    r"\bpapers?\s+(?:that|which)\s+cite\b|\bciting\s+papers?\b|\bpapers?\s+citing\b"
    r"|\bcited\s+by\b",
    re.I,
)


# A cited work the question goes on to ask about: "that cited dataset paper", "the cited
# work", "that cited dataset", "that BERT model's own paper" (the paper of a model the
# selected one builds on).
_CITED_SUBJECT = re.compile(
    r"\b(?:that|the|this)\s+(?:cited\s+(?:[\w-]+\s+){0,3}?|(?:[\w-]+\s+){0,3}?[\w-]+['’]s\s+own\s+)"
    r"(?:paper|work|study|article|dataset|corpus|benchmark|model|method|system|toolkit)s?\b",
    re.I,
)


# A year as papers are described: "ACL 2020", "a 2019 paper", "2025 arXiv".
_YEAR = re.compile(r"(?<![\w.])((?:19|20)\d\d)(?!\w|\.\w)")
# Words before or after a year that may hold its venue ("Findings of EMNLP 2025", "2022
# Journal of Physics: Conference Series paper").
_VENUE_WINDOW = 6
# Words on either side of a year that say what the question says of that paper ("an
# academic-paper corpus released in an ACL 2020 paper").
_WORDS_AROUND = 10
# A clause describing the paper may run longer; punctuation ends it.
_CLAUSE_WORDS = 30
_CLAUSE_BREAK = re.compile(r"[,;:.?!)]$")
_COORDINATING = frozenset({"and", "but", "while", "whereas", "or"})


@dataclass(frozen=True)
class Description:
    """A paper the question describes: its year and, when named next to it, its venue, with
    the words printed around them (what the question says of that paper)."""

    year: int
    venue: str | None
    words: str = field(default="", compare=False)

    def fits(self, paper: PaperRecord) -> bool:
        if paper.year != self.year:
            return False
        return self.venue is None or norm(paper.venue) == norm(self.venue)

    def __str__(self) -> str:
        return f"{self.venue or ''} {self.year}".strip()


def paper_descriptions(question: str, venues: list[str]) -> list[Description]:
    """The papers ``question`` describes by year, each with the venue among ``venues`` (the
    candidates' venues) printed next to the year, in question order."""
    words = question.split()
    found: list[Description] = []
    for index, word in enumerate(words):
        match = _YEAR.search(word)
        if match is None:
            continue
        before = f" {norm(' '.join(words[max(0, index - _VENUE_WINDOW) : index]))}"
        if before.endswith(" et al"):
            continue  # a citation's year ("Lo et al., 2020"): its entry says which paper
        after = f"{norm(' '.join(words[index + 1 : index + _VENUE_WINDOW + 1]))} "
        # The venue is printed right before the year ("ACL 2020") or right after it ("2022
        # Immunology editorial"); the longest name wins ("Findings of EMNLP" over "EMNLP").
        named = [
            v
            for v in venues
            if norm(v) and (before.endswith(f" {norm(v)}") or after.startswith(f"{norm(v)} "))
        ]
        venue = max(named, key=len) if named else None
        around = " ".join(words[max(0, index - _WORDS_AROUND) : _clause_end(words, index)])
        description = Description(int(match.group(1)), venue, around)
        if description in found:
            at = found.index(description)
            found[at] = replace(found[at], words=f"{found[at].words} {around}")
        else:
            found.append(description)
    return found


def _clause_end(words: list[str], index: int) -> int:
    """Where the words saying what the question says of the paper described at ``index``
    end: ``_WORDS_AROUND`` words on, or further at the end of its clause ("the ACL 2020 paper
    that pretrains a BERT-Base model from scratch on the full text of its own academic
    corpus compares ..."), at most ``_CLAUSE_WORDS``; a coordination ("... corpus and
    compares it with the scientific BERT of an EMNLP 2019 paper") or another year starts
    what it says of another."""
    end = index + 1
    while (
        end < min(len(words), index + _CLAUSE_WORDS)
        and not _CLAUSE_BREAK.search(words[end - 1])
        and words[end].lower() not in _COORDINATING
        and not _YEAR.search(words[end])
    ):
        end += 1
    return max(end, min(len(words), index + _WORDS_AROUND + 1))


@dataclass
class Selection:
    """The selected papers, best first, and why each was taken."""

    papers: list[str]
    reasons: dict[str, str] = field(default_factory=dict)


def _names_work(entry_title: str, title: str) -> bool:
    """Whether a bibliography entry's title names the work titled ``title`` (its whole title
    or the main part before a colon), spaces and hyphens aside ("SciB-ERT", a name hyphenated
    at a line break)."""
    wanted = {compact_title(title), compact_title(title.split(":")[0])} - {""}
    return bool(entry_title) and compact_title(entry_title) in wanted


def cites(context: PaperContext, title: str) -> bool:
    """Whether ``context``'s bibliography lists a work titled ``title`` (or its main part)."""
    return any(_names_work(ref.title, title) for ref in context.references)


def linked(a: PaperContext, b: PaperContext) -> bool:
    """Whether one of two papers cites the other."""
    return a.paper_id != b.paper_id and (cites(a, b.paper.title) or cites(b, a.paper.title))


def is_entry(context: PaperContext, entry: Reference) -> bool:
    """Whether ``context`` is the work a bibliography ``entry`` names."""
    return _names_work(entry.title, context.paper.title)


def select_papers(
    plan: Plan,
    readings: list[PaperReading],
    settings: SelectSettings,
    question: Question | None = None,
    contexts: dict[str, PaperContext] | None = None,
) -> Selection:
    """Select the answer papers from ``readings`` (in candidate order); see the module doc.

    ``question`` and ``contexts`` (paper id -> context) enable the citing-papers rule.
    """
    order = {reading.paper_id: i for i, reading in enumerate(readings)}
    relevant = [r for r in readings if r.relevant]
    reasons: dict[str, str] = {}
    if settings.cover_groups_first:
        for group in plan.target_groups:
            owners = [r for r in relevant if group.name in r.covers]
            if owners:
                owner = max(owners, key=lambda r: (r.score, -order[r.paper_id]))
                reasons.setdefault(owner.paper_id, f"subject of target group {group.name!r}")
    if reasons and question is not None and contexts and _CITING.search(question.question):
        subjects = [contexts[p].paper.title for p in list(reasons) if p in contexts]
        for reading in readings:
            context = contexts.get(reading.paper_id)
            if context is None or reading.paper_id in reasons:
                continue
            cited = next((t for t in subjects if cites(context, t)), None)
            if cited is not None:
                reasons[reading.paper_id] = f"cites {cited!r}"
    if question is not None and contexts:
        _add_described(plan, readings, question, contexts, reasons)
    if not reasons:
        best = max((r.score for r in relevant), default=0.0)
        wanted = 1 if plan.desired_papers == 1 else settings.max_papers
        for reading in sorted(relevant, key=lambda r: (-r.score, order[r.paper_id])):
            if len(reasons) >= wanted:
                break
            if reading.sufficient and reading.score >= settings.score_gap * best:
                reasons[reading.paper_id] = f"sufficient evidence, score {reading.score:.3f}"
            elif not reasons:
                reasons[reading.paper_id] = f"most relevant, score {reading.score:.3f}"
    if not reasons and readings:
        reasons[readings[0].paper_id] = "top candidate (no relevant reading)"
    if contexts and question is not None:
        _add_cited_entry(plan, readings, question, contexts, reasons)
    if contexts:
        _add_same_work(readings, contexts, reasons)
    papers = sorted(reasons, key=order.__getitem__)[: settings.max_papers]
    return Selection(papers, {paper: reasons[paper] for paper in papers})


def _add_described(
    plan: Plan,
    readings: list[PaperReading],
    question: Question,
    contexts: dict[str, PaperContext],
    reasons: dict[str, str],
) -> None:
    """Step 3: the best-scoring read candidate that fits each description of the question."""
    venues = sorted({c.paper.venue for c in contexts.values() if c.paper.venue})
    descriptions = paper_descriptions(question.question, venues)
    each = plan.desired_papers if len(descriptions) == 1 else 1
    ranked = sorted(readings, key=lambda r: -r.score)
    for description in descriptions:
        fitting = [
            r
            for r in ranked
            if r.paper_id in contexts and description.fits(contexts[r.paper_id].paper)
        ]
        # Of the papers that fit alike, the one whose title and abstract hold more of what the
        # question says around the description, then one a selected paper cites (or that
        # cites it): papers a question describes together are usually linked.
        said = set(terms(description.words))
        selected = [contexts[p] for p in reasons if p in contexts]
        fitting.sort(
            key=lambda r: (
                -_holds(contexts[r.paper_id].paper, said),
                not any(linked(contexts[r.paper_id], c) for c in selected),
            )
        )
        wanted = max(1, each) - sum(r.paper_id in reasons for r in fitting)
        for reading in fitting[: max(0, wanted)]:
            reasons.setdefault(reading.paper_id, f"fits the description {str(description)!r}")


def _holds(record: PaperRecord, said: set[str]) -> float:
    """The share of the terms ``said`` that the paper's title and abstract hold."""
    return len(said & set(terms(f"{record.title} {record.abstract}"))) / max(1, len(said))


def _add_cited_entry(
    plan: Plan,
    readings: list[PaperReading],
    question: Question,
    contexts: dict[str, PaperContext],
    reasons: dict[str, str],
) -> None:
    """Step 6: the candidate that is the entry a selected paper lists at the asked position,
    or under the citation the question prints ("a corpus it cites as Lo et al., 2020")."""
    selected = [contexts[p] for p in reasons if p in contexts]
    found = asked_entry(question.question, selected) or _quoted_entry(question.question, selected)
    if found is None and _CITED_SUBJECT.search(question.question):
        found = _best_cited(plan, readings, question, selected, contexts)
    if found is None:
        return
    citing, entry = found
    for reading in readings:
        context = contexts.get(reading.paper_id)
        if context is not None and reading.paper_id not in reasons and is_entry(context, entry):
            reasons[reading.paper_id] = f"is entry {entry.label} of {citing}'s references"
            return


def _best_cited(
    plan: Plan,
    readings: list[PaperReading],
    question: Question,
    selected: list[PaperContext],
    contexts: dict[str, PaperContext],
) -> tuple[str, Reference] | None:
    """(paper id, entry) of the work a selected paper cites in the sentence that best says
    what the question says of it, among the works that are read candidates."""
    query = question_query(question, plan, 1.0)
    candidates = [contexts[r.paper_id] for r in readings if r.paper_id in contexts]
    best: tuple[float, str, Reference] | None = None
    for context in selected:
        for cited in cited_for(query, context):
            if any(
                is_entry(other, cited.reference) for other in candidates if other is not context
            ):
                if best is None or cited.score > best[0]:
                    best = (cited.score, context.paper_id, cited.reference)
                break
    return (best[1], best[2]) if best else None


def _quoted_entry(question: str, contexts: list[PaperContext]) -> tuple[str, Reference] | None:
    """(paper id, entry) of the first reference of ``contexts`` whose author-year citation
    ("Lo et al., 2020") the question prints, else of the one reference whose first author the
    question names with "et al." and whose year it prints apart ("a 2023 reading tool by
    Chang et al.")."""
    asked = f" {norm(question)} "
    years = {int(year) for year in _YEAR.findall(question)}
    named: list[tuple[str, Reference]] = []
    for context in contexts:
        for ref in context.references:
            label = norm(ref.label)
            if _YEAR.search(ref.label) and len(label.split()) > 1 and f" {label} " in asked:
                return context.paper_id, ref
            author = norm(ref.first_author)
            if author and ref.year in years and f" {author} et al " in asked:
                named.append((context.paper_id, ref))
    return named[0] if len(named) == 1 else None


def _add_same_work(
    readings: list[PaperReading], contexts: dict[str, PaperContext], reasons: dict[str, str]
) -> None:
    """Step 7: candidates whose title is a selected paper's (the same work, another record)."""
    titles = {norm(contexts[p].paper.title): p for p in reasons if p in contexts}
    for reading in readings:
        context = contexts.get(reading.paper_id)
        if context is None or reading.paper_id in reasons:
            continue
        twin = titles.get(norm(context.paper.title))
        if twin is not None and norm(context.paper.title):
            reasons[reading.paper_id] = f"another record of {twin}"
