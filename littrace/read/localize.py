"""The evidence localizer (TRACE §3.2), independent of the answerer.

For every selected paper it scores typed candidates against the question:

* tables, figures, equations and algorithms (``PaperObject``) by their caption, text and the
  text block printed right above them (a display's lead-in); the locator carries the page of
  the body and the printed id in the scorer's form (``"Table 4"``, ``"Equation 3"``,
  ``"Algorithm 1"``);
* body sentences (``text_span`` with page and section), placed on the page that prints them;
* citing sentences and bibliography entries (``citation_context`` located at the page of
  the entry in the bibliography, with the reference number as bare digits), entries scoring
  extra when the question is about a reference itself ("reference [11]", "reference number").
  An entry comes with the sentence citing it (a ``text_span`` on that page), as
  LitTraceQA's gold evidences a citation.

A candidate scores its weighted term coverage of the question, without the terms of the
selected papers' titles (they identify the papers, not the place) and with the terms of the
paper's abstract at half weight (they describe the paper as a whole), plus bonuses for an object
the question names, a table cell at the row and column the question names, a modality the plan
or the question asks for, a passage holding an answer option the question does not list (a
table by the share of the options it prints: distractors are cells of the answer's table), and
a sentence holding a number or name the question lacks.
Candidates are de-duplicated under the scorer's coarse key
(:func:`littrace.evaluate.official.evidence_key`); each paper keeps its best
``read.evidence.per_paper`` items, every selected paper keeps at least one (closure), and the
list is cut to ``read.evidence.max_items``.

Example:
    >>> items = localize(question, plan, ["p1"], contexts, settings.read)  # doctest: +SKIP
    >>> items[0].submission()  # doctest: +SKIP
    {'paper_id': 'p1', 'source_type': 'table', 'locator': {'page': 4, 'table_id': 'Table 1'}}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from littrace.asks import question_modalities
from littrace.config import ReadSettings
from littrace.corpus.captions import caption_title
from littrace.corpus.document import Block, Chunk, Citation, PaperObject, Reference
from littrace.evaluate.official import evidence_key
from littrace.littraceqa import Question, SourceType
from littrace.llm.replies import Plan
from littrace.read.abbreviations import table_glossary
from littrace.read.cells import lookup_cell
from littrace.read.heuristic import question_query
from littrace.read.options import option_claims
from littrace.read.records import EvidenceItem, Fact, PaperContext
from littrace.read.references import (
    authored_entries,
    citation_ids,
    entry_at,
    reference_position,
)
from littrace.read.text import Query, contains_phrase, norm, sentences, stem, terms
from littrace.read.units import asked_terms, header_labels, named_share
from littrace.read.views import paper_views

# Bonuses added to a candidate's term coverage (in [0, 1]).
NAMED_OBJECT_BONUS = 1.0  # the question prints the object's id ("Figure 2")
MODALITY_BONUS = 0.2  # the plan asks for this kind of evidence
OPTION_BONUS = 0.3  # the passage holds one of the multiple-choice options
OPTION_TABLE_BONUS = 0.6  # a table holds all the options (its share of them, for fewer)
REFERENCE_BONUS = 0.5  # the question is about a bibliography entry
# A citing sentence covering less of the question's terms than this is no evidence beside
# its entry: it names the work, the question asks about something else.
CITING_SENTENCE_COVERAGE = 0.1
# A term only another paper's part of the question prints weighs this much (views.py).
OTHER_PART_WEIGHT = 0.75
# A question term the paper's abstract holds weighs this much: it describes the paper as a
# whole ("fine-tunes on Long CoT responses with the question removed"), not the place.
ABSTRACT_WEIGHT = 0.5
AUTHOR_MARGIN = 0.05  # above the best other citation, for the work named by its authors
CELL_BONUS = 0.3  # a table cell sits at the row and column the question names
HEADER_BONUS = 0.3  # a table's headers are what a table question names (two in full: all)
CAPTION_BONUS = 0.3  # the question describes the table the way its caption's title does
ANSWER_BONUS = 0.05  # a sentence holds a number or name the question does not
OBJECT_BONUS = 0.1  # a typed object is a structurally stronger locator than a sentence
APPENDIX_BONUS = 0.3  # the question places its evidence in the appendix, and here it is
LEAD_IN_CHARS = 300  # end of the block above a display that introduces it
LEAD_IN_SLACK = 2.0  # points a block may overlap the display's top and still be above it
LEAD_IN_GAP = 40.0  # points between a block and the display below it, at most
_MODALITY = {
    "table": "table",
    "figure": "figure",
    "equation": "equation",
    "algorithm": "algorithm",
}
# Title terms a question must use to describe an object by it (one shared word is chance).
_TITLE_TERMS = 2
_REFERENCE_QUESTION = re.compile(r"\breferences?\b", re.IGNORECASE)
# A bracketed number, a citation where the paper's bibliography has that entry ("[23]"), not
# where it has none ("the [110] crystal direction").
_BRACKETED = re.compile(r"\[(\d+)\]")
# An appendix section's heading: "A.1 Training Data", "F Resource Cost Comparison", "Appendix".
_APPENDIX_HEADING = re.compile(r"^(?:[Aa]ppendix\b|APPENDIX\b|[A-H](?:\.\d+)*\.?\s+[A-Z])")


def appendix_page(context: PaperContext) -> int | None:
    """The page the paper's appendix starts on: its first lettered section ("A.1 ..."), or
    one titled "Appendix"; None when it has none."""
    pages = [
        chunk.page
        for chunk in context.chunks
        if chunk.type == "body" and chunk.section and _APPENDIX_HEADING.match(chunk.section)
    ]
    return min(pages, default=None)


def object_locator(obj: PaperObject) -> tuple[SourceType, dict[str, Any]]:
    """The submission source type and locator of a table, figure, equation or algorithm."""
    if obj.kind == "table":
        return "table", {"page": obj.page, "table_id": obj.scorer_id}
    if obj.kind == "figure":
        return "figure", {"page": obj.page, "figure_id": obj.scorer_id}
    if obj.kind == "equation":
        return "equation_algorithm", {"page": obj.page, "equation_id": obj.scorer_id}
    return "equation_algorithm", {"page": obj.page, "algorithm_id": obj.scorer_id}


def bare_label(label: str) -> str:
    """A reference label as the scorer wants it: the digits of ``"[24]"`` -> ``"24"``."""
    match = re.search(r"\d+[a-z]?", label)
    return match.group(0) if match else label.strip()


def _adjacent_block(context: PaperContext, obj: PaperObject, below: bool) -> Block | None:
    """The body block printed right above ``obj`` (or ``below`` it) in its column, at most
    ``LEAD_IN_GAP`` points away."""
    x0, y0, x1, y1 = obj.bbox
    beside = [
        block
        for block in context.blocks
        if block.page == obj.page
        and (block.bbox[1] >= y1 - LEAD_IN_SLACK if below else block.bbox[3] <= y0 + LEAD_IN_SLACK)
        and min(block.bbox[2], x1) - max(block.bbox[0], x0) > 0
    ]
    if not beside:
        return None
    if below:
        block = min(beside, key=lambda b: b.bbox[1])
        gap = block.bbox[1] - y1
    else:
        block = max(beside, key=lambda b: b.bbox[3])
        gap = y0 - block.bbox[3]
    return block if gap <= LEAD_IN_GAP else None


def lead_in(context: PaperContext, obj: PaperObject) -> str:
    """The end of the body block printed right above ``obj`` in its column: the sentence that
    introduces a display ("... combines the task loss with the alignment terms:")."""
    block = _adjacent_block(context, obj, below=False)
    return block.text[-LEAD_IN_CHARS:] if block else ""


def follow_on(context: PaperContext, obj: PaperObject) -> str:
    """The start of the body block printed right below ``obj`` in its column: what a display
    is followed by ("where h is the bandwidth", "Here, p(·) is the softmax")."""
    block = _adjacent_block(context, obj, below=True)
    return block.text[:LEAD_IN_CHARS] if block else ""


def _sentence_item(
    context: PaperContext, pages: list[tuple[int, str]], chunk: Chunk, sentence: str, score: float
) -> EvidenceItem:
    """The text span of ``sentence`` of ``chunk``: the page that prints it, its section."""
    locator: dict[str, Any] = {"page": _page_of(pages, sentence, chunk.page)}
    if chunk.section:
        locator["section"] = chunk.section
    return EvidenceItem(
        context.paper_id, "text_span", locator, score, chunk.chunk_id, text=sentence
    )


def _object_item(
    context: PaperContext, obj: PaperObject, chunk_id: str, score: float, text: str
) -> EvidenceItem:
    """The evidence item of a table, figure, equation or algorithm: its typed locator and
    box."""
    source_type, locator = object_locator(obj)
    bbox = [float(x) for x in obj.bbox]
    return EvidenceItem(context.paper_id, source_type, locator, score, chunk_id, bbox, text)


def _page_of(pages: list[tuple[int, str]], sentence: str, default: int) -> int:
    needle = norm(sentence)[:80]
    if needle:
        for page, text in pages:
            if needle in text:
                return page
    return default


def _local_query(question: Question, plan: Plan, identifying: set[str]) -> Query:
    """The question without what identifies the papers (their titles' terms): those say which
    paper, not where in it."""
    return question_query(question, plan, 1.0).without(identifying)


def _bears_answer(sentence: str, asked: set[str]) -> bool:
    """Whether a sentence holds something the question does not: a number or a name."""
    words = sentence.split()[1:]
    return any(
        (any(ch.isdigit() for ch in word) or word[:1].isupper()) and not set(terms(word)) <= asked
        for word in words
    )


def _options(question: Question) -> list[str]:
    return [option.text for option in question.multiple_choice_options or []]


def _claimed(options: list[str], asked: set[str]) -> list[frozenset[str]]:
    """The names each claim of a composite option prints ("(i) GloVe; (ii) Skip-gram
    embeddings trained on the NYT corpus": {glove}, {skip-gram, nyt}), the question's own
    terms set aside: a sentence printing one claim's names is where that claim was read.
    Numbers name nothing here: a table printing the options is found by its cells."""
    found = []
    for option in options:
        claims = option_claims(option)
        for claim in claims if len(claims) > 1 else ():
            names = {
                term
                for word in claim.text.split()
                if word[:1].isupper() and not any(ch.isdigit() for ch in word)
                for term in terms(word)
            } - asked
            if names:
                found.append(frozenset(names))
    return found


def _holds_option(text: str, options: list[str], claimed: list[frozenset[str]]) -> bool:
    """Whether a passage prints an option whole, or most of the names of one of its claims."""
    if any(contains_phrase(text, option) for option in options):
        return True
    if not claimed:
        return False
    held = set(terms(text))
    return any(2 * len(names & held) >= len(names) for names in claimed)


def _citing_span(citation: Citation, score: float, coverage: float) -> EvidenceItem | None:
    """The sentence citing an entry, as the text span evidenced beside it, when it says
    :data:`CITING_SENTENCE_COVERAGE` of what the question asks (``coverage``); LitTraceQA's
    gold evidences the citing sentence where the question describes it ("cites X as an
    example of ..."), not where it only names the work ("which reference number ...")."""
    if coverage < CITING_SENTENCE_COVERAGE:
        return None
    locator: dict[str, Any] = {"page": citation.page}
    if citation.section:
        locator["section"] = citation.section
    return EvidenceItem(citation.paper_id, "text_span", locator, score, text=citation.sentence)


def caption_named(
    caption: str, asked: set[str] | frozenset[str], identifying: set[str] | frozenset[str]
) -> float:
    """The share of the caption title's terms among the question's terms ``asked``, when it
    uses at least :data:`_TITLE_TERMS` of them and half ("the ADE20K semantic segmentation
    table" for "Semantic segmentation on ADE20K"); else 0. ``identifying`` terms (the
    paper's name) tell which paper, not which of its objects, and do not count."""
    title = set(terms(caption_title(caption))) - identifying
    if not title:
        return 0.0
    # A compound's parts name the caption's words ("the hyperparameter-robustness study" for
    # "Hyperparameter robustness on ...").
    asked = set(asked) | {stem(part) for term in asked if "-" in term for part in term.split("-")}
    used = len(title & asked)
    share = used / len(title)
    return share if used >= _TITLE_TERMS and share >= 0.5 else 0.0


def paper_candidates(
    question: Question,
    plan: Plan,
    context: PaperContext,
    identifying: set[str] | None = None,
    view: str | None = None,
    is_cited: bool = False,
) -> list[EvidenceItem]:
    """Every scored evidence candidate of one paper, best first.

    ``identifying`` are the terms that identify the question's papers (default: this paper's
    title); they do not count towards where the evidence is. ``view`` is the part of a
    multi-paper question that concerns this paper (:mod:`littrace.read.views`; default the
    whole question): the other papers' parts weigh :data:`OTHER_PART_WEIGHT`, and only the
    view names bibliography entries by position. An ``is_cited`` paper is the work another
    selected paper's named entry is: the question's reference and author names are that
    paper's, not entries of this one.
    """
    own = view if view is not None else question.question
    identifying = identifying or set(terms(context.paper.title))
    query = _local_query(question, plan, identifying)
    described = set(terms(context.paper.abstract))
    in_view = set(terms(own))
    query = Query(
        {
            t: w
            * (ABSTRACT_WEIGHT if t in described else 1.0)
            * (1.0 if t in in_view else OTHER_PART_WEIGHT)
            for t, w in query.terms.items()
        },
        query.phrases,
    )
    # Options the question itself lists are entities to compare, not values to find.
    options = [o for o in _options(question) if not contains_phrase(question.question, o)]
    asked = set(terms(question.question))
    claimed = _claimed(options, asked)
    wanted_terms = asked_terms(own)
    planned = set(plan.modalities)
    if own != question.question:
        # The kinds of evidence this paper's part of the question asks for ("its results table").
        planned &= set(question_modalities(own))
    wanted = planned | {kind for kind in _MODALITY if stem(kind) in in_view}
    if is_cited:
        wanted.discard("citation")
    about_references = not is_cited and (
        bool(_REFERENCE_QUESTION.search(own))
        or any(entry_at(context.references, int(n)) for n in _BRACKETED.findall(own))
    )
    chunk_of_object = {c.object_id: c for c in context.chunks if c.object_id}
    pages = [(page, norm(text)) for page, text in sorted(context.pages.items())]
    items: list[EvidenceItem] = []

    # A question placing its evidence in the appendix ("in the appendix of ...").
    appendix = appendix_page(context) if "appendix" in wanted_terms else None

    def add(item: EvidenceItem, text: str, modality: str) -> None:
        if appendix is not None and modality != "citation" and item.locator["page"] >= appendix:
            item.score += APPENDIX_BONUS
            item.reasons.append("in the appendix the question names")
        if modality in wanted:
            item.score += MODALITY_BONUS
            item.reasons.append(f"modality {modality}")
        if options and modality == "table":
            # Distractors are other cells of the answer's table: the table printing most of
            # the options is where they were read.
            held = sum(contains_phrase(text, option) for option in options)
            if held:
                item.score += OPTION_TABLE_BONUS * held / len(options)
                item.reasons.append(f"holds {held} of {len(options)} options")
        elif options and _holds_option(text, options, claimed if modality == "text" else []):
            item.score += OPTION_BONUS
            item.reasons.append("holds an option")
        items.append(item)

    for obj in context.objects:
        chunk = chunk_of_object.get(obj.object_id)
        text = f"{obj.caption}\n{obj.text}\n{lead_in(context, obj)}"
        glossary = table_glossary(context, obj) if obj.kind == "table" and obj.cells else None
        if glossary is not None:
            # A table printing short forms ("QQP 50K") is about their long forms too.
            spelled = (glossary.spell(label) for label in header_labels(obj.cells))
            text += "\n" + " ".join(filter(None, spelled))
        chunk_id = chunk.chunk_id if chunk is not None else ""
        item = _object_item(context, obj, chunk_id, query.score(text) + OBJECT_BONUS, text)
        cell = lookup_cell(obj.cells, own, own)
        if obj.kind == "table" and cell is not None:
            item.score += CELL_BONUS * cell.score
            item.reasons.append(f"a cell at the asked row and column ({cell.score:.2f})")
        # Which table: among tables, when the question asks for one (a header word such as
        # "Model" must not lift tables above the sentence a text question asks about).
        if obj.kind == "table" and obj.cells and "table" in wanted:
            named = sum(
                named_share(label, wanted_terms, frozenset(), glossary)
                for label in header_labels(obj.cells)
            )
            if named > 0:
                item.score += HEADER_BONUS * min(named, 2.0) / 2.0
                item.reasons.append(f"headers the question names ({named:.2f})")
        if contains_phrase(own, obj.scorer_id):
            item.score += NAMED_OBJECT_BONUS
            item.reasons.append(f"question names {obj.scorer_id}")
        # A table's caption says what it holds; a figure's often only what it shows it as
        # ("Overview of ...", "Performance of ..."), words questions use for other things.
        described_as = (
            caption_named(obj.caption, in_view, identifying) if obj.kind == "table" else 0
        )
        if described_as > 0:
            item.score += CAPTION_BONUS * described_as
            item.reasons.append(f"described as its caption's title ({described_as:.2f})")
        add(item, text, _MODALITY[obj.kind])

    for chunk in context.chunks:
        if chunk.type != "body":
            continue
        for sentence in sentences(chunk.text):
            item = _sentence_item(context, pages, chunk, sentence, query.score(sentence))
            if _bears_answer(sentence, asked):
                item.score += ANSWER_BONUS
                item.reasons.append("holds a number or name the question lacks")
            add(item, sentence, "text")

    entries = {ref.label: ref for ref in context.references}
    ids = citation_ids(context.references)
    by_authors = (
        set()
        if is_cited
        else {ref.label for ref in authored_entries(question.question, context.references)}
    )
    authored: list[EvidenceItem] = []
    # Each label's best citing sentence: where an entry is cited, evidence beside the entry.
    citing: dict[str, tuple[float, Citation]] = {}
    for citation in context.citations:
        score = query.score(citation.sentence)
        for label in citation.labels:
            if label not in citing or score > citing[label][0]:
                citing[label] = (score, citation)
    for citation in context.citations:
        for label in citation.labels:
            entry = entries.get(label)
            text = f"{citation.sentence}\n{entry.title if entry else ''}"
            # A citation is located where its entry is printed, as LitTraceQA's gold does
            # (page of the bibliography entry, section "References"); the citing sentence
            # is the reason it scores.
            locator = {
                "page": entry.page if entry else citation.page,
                "citation_id": ids.get(label, bare_label(label)),
            }
            if entry is not None:
                locator["section"] = "References"
            elif citation.section:
                locator["section"] = citation.section
            item = EvidenceItem(
                context.paper_id, "citation_context", locator, query.score(text), text=text
            )
            item.bbox = [float(x) for x in citation.bbox] if citation.bbox else None
            if label in by_authors:
                authored.append(item)
            item.companion = _citing_span(citation, item.score, query.score(citation.sentence))
            add(item, text, "citation")

    position = None if is_cited else reference_position(own)
    asked_entry = entry_at(context.references, position) if position is not None else None
    for ref in context.references:
        label = ids[ref.label]
        locator = {"page": ref.page, "section": "References", "citation_id": label}
        item = EvidenceItem(
            context.paper_id, "citation_context", locator, query.score(ref.raw), text=ref.raw
        )
        if about_references:
            item.score += REFERENCE_BONUS
            item.reasons.append("question is about a reference")
        if ref is asked_entry:
            item.score += NAMED_OBJECT_BONUS
            item.reasons.append(f"the entry at the position the question names ({position})")
        if ref.label in by_authors:
            authored.append(item)
        if ref.label in citing:
            coverage, citation = citing[ref.label]
            item.companion = _citing_span(citation, item.score, coverage)
        add(item, ref.raw, "citation")

    # The work the question names by its authors ("Rein et al.") is the citation it means,
    # whichever citation scored best, unless it names an entry of this paper by position;
    # whether citations are the evidence at all is left to the scores (a table "taken from
    # Hosking and Lapata (2021)" is still the table).
    citation_scores = [item.score for item in items if item.source_type == "citation_context"]
    for item in authored if asked_entry is None else ():
        item.score = max(item.score, *citation_scores) + AUTHOR_MARGIN
        item.reasons.append("the work the question names by its authors")
    items.sort(key=lambda item: -item.score)
    return items


def cited_works(question: Question, contexts: list[PaperContext]) -> set[str]:
    """The selected papers another selected paper cites, by title in its bibliography: in the
    entry the question names ("cites Chang et al. (2023)", "its reference [30]") when it
    names one, else in any entry ("the corpus it attributes to a NAACL 2018 paper")."""
    position = reference_position(question.question)
    named: dict[str, list[Reference]] = {}
    for citing in contexts:
        entries = list(authored_entries(question.question, citing.references))
        at = entry_at(citing.references, position) if position is not None else None
        if at is not None:
            entries.append(at)
        named[citing.paper_id] = entries
    if not any(named.values()):
        named = {citing.paper_id: list(citing.references) for citing in contexts}
    return {
        other.paper_id
        for citing in contexts
        for entry in named[citing.paper_id]
        for other in contexts
        if norm(other.paper.title) not in ("", norm(citing.paper.title))
        and norm(other.paper.title) in norm(entry.raw)
    }


def localize(
    question: Question,
    plan: Plan,
    papers: list[str],
    contexts: dict[str, PaperContext],
    settings: ReadSettings,
) -> list[EvidenceItem]:
    """Typed evidence for the selected ``papers``, ranked, de-duplicated, capped and closed."""
    config = settings.evidence
    firsts: list[EvidenceItem] = []
    seconds: list[EvidenceItem] = []
    identifying = {
        term
        for paper_id in papers
        if paper_id in contexts
        for term in terms(contexts[paper_id].paper.title)
    }
    selected = [contexts[p] for p in papers if p in contexts]
    views = paper_views(question.question, [context.paper for context in selected])
    cited = cited_works(question, selected)
    for paper_id in papers:
        context = contexts.get(paper_id)
        if context is None:
            continue
        seen: set[tuple[str, str, str, str]] = set()
        kept: list[EvidenceItem] = []
        for item in paper_candidates(
            question, plan, context, identifying, views[paper_id], paper_id in cited
        ):
            key = evidence_key(item.submission())
            if key in seen:
                continue
            seen.add(key)
            kept.append(item)
            if len(kept) >= config.per_paper:
                break
        if kept:
            firsts.append(kept[0])
            if kept[0].companion is not None:
                firsts.append(kept[0].companion)
            seconds.extend(kept[1:])
    # Closure first: each paper's best item goes in before any paper's second one.
    ranked = firsts + sorted(seconds, key=lambda item: -item.score)
    return ranked[: config.max_items]


def ground_evidence(
    evidence: list[EvidenceItem],
    grounds: list[Fact],
    contexts: Mapping[str, PaperContext],
    computed: bool = False,
    rows_read: bool = False,
) -> list[EvidenceItem]:
    """``evidence`` pointing where the answer was read (``grounds``: the table cells a
    choice by alignment rests on, the equation a question describes, the cells and stated
    numbers a value was ``computed`` from, or the cells a table answer's rows were read off,
    ``rows_read``, every table of which is evidence). A table read takes the place of the
    paper's other table evidence (a table a table answer's rows were read off, of its
    sentences too; a sentence read, of its other sentences; an equation or
    algorithm read, of all its evidence); a number stated in a sentence that a value was
    computed from, of the paper's tables, figures and sentences, where the localizer looked
    for a printed value. Either is the paper's evidence when it has none; citations stay
    (the question may be about them), and a paper evidenced by a figure keeps it when a
    table only confirms the value.

    Example:
        >>> ground_evidence(items, synthesis.grounds, contexts)  # doctest: +SKIP
    """
    # Each paper's first item read, and the further tables a table answer's rows were read
    # off (rows of two tables of one paper).
    read_in: dict[str, list[EvidenceItem]] = {}
    for fact in grounds:
        context = contexts.get(fact.paper_id)
        if context is None:
            continue
        held = read_in.get(fact.paper_id)
        if held is not None and not rows_read:
            continue
        item = _read_item(context, fact)
        if item is None or (
            held is not None
            and (item.source_type != "table" or any(h.locator == item.locator for h in held))
        ):
            continue
        read_in.setdefault(fact.paper_id, []).append(item)
    if not read_in:
        return evidence
    replaced = _COMPUTED_REPLACES if computed else _ROWS_REPLACE if rows_read else _READ_REPLACES
    grounded: list[EvidenceItem] = []
    placed: set[str] = set()
    for item in evidence:
        reads = read_in.get(item.paper_id)
        if reads is None or item.source_type not in replaced[reads[0].source_type]:
            grounded.append(item)
            continue
        if item.paper_id not in placed:
            placed.add(item.paper_id)
            for read in reads:
                read.score = item.score
            grounded += reads
    for paper_id, reads in read_in.items():
        if paper_id not in placed and not any(item.paper_id == paper_id for item in evidence):
            grounded += reads
    return grounded


# What a read answer replaces in its paper's evidence: the other items of its kind.
_READ_REPLACES: dict[str, set[str]] = {
    "table": {"table"},
    "text_span": {"text_span"},
    # An equation or algorithm read is what the question asks for (which display it
    # describes): it alone is its paper's evidence.
    "equation_algorithm": {
        "table",
        "figure",
        "equation_algorithm",
        "text_span",
        "citation_context",
    },
}
# What the tables a table answer's rows were read off replace: the paper's other tables and
# sentences (its rows are in the table, whatever sentence the localizer found).
_ROWS_REPLACE: dict[str, set[str]] = {**_READ_REPLACES, "table": {"table", "text_span"}}
# What an operand a value was computed from replaces: where a printed value was sought.
_COMPUTED_REPLACES: dict[str, set[str]] = {
    "table": {"table"},
    "text_span": {"table", "figure", "text_span"},
    "equation_algorithm": {"table", "figure", "equation_algorithm"},
}


def _read_item(context: PaperContext, fact: Fact) -> EvidenceItem | None:
    """The evidence item of where ``fact`` was read: its table, equation or algorithm, or its
    prose sentence."""
    chunk = next((c for c in context.chunks if c.chunk_id == fact.chunk_id), None)
    if chunk is None:
        return None
    if chunk.type == "body":
        pages = [(page, norm(text)) for page, text in sorted(context.pages.items())]
        item = _sentence_item(context, pages, chunk, fact.text, 0.0)
        item.reasons.append("the answer was read in this sentence")
        return item
    obj = next((o for o in context.objects if o.object_id == chunk.object_id), None)
    if obj is None or obj.kind not in ("table", "equation", "algorithm"):
        return None
    item = _object_item(context, obj, chunk.chunk_id, 0.0, f"{obj.caption}\n{obj.text}")
    item.reasons.append(f"the answer was read off this {obj.kind}")
    return item
