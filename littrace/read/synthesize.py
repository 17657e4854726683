"""Model-free cross-paper synthesis (Lit3R §2.2.2 without a model).

From the selected papers it extracts facts (table cells with their row and column, numbers
in the localized sentences) and answers:

* a **value** the question asks for: the table cell whose row label is the entity the question
  names (other than the paper's own subject, unless nothing else matches) and whose header
  is a column the question names;
* a **calculation** when the question asks for a difference or a ratio: of the two cells of
  one row or column the question names best, or of one number of each of two works it
  describes, stated in a table or in prose (:mod:`littrace.read.compute`); else, for a gap
  to an unnamed "strongest baseline", the subject's cell minus the best other row of that
  column, in Python, printed with the table's precision;
* a **tally** when a count question bounds a quantity ("how many of those datasets were used
  by at least 50 papers"): the rows of the table listing what it counts whose cell in the
  column the bound names meets it (:mod:`littrace.read.choice.tally`);
* a **comparison** across papers ("which of A, B and C ... the largest/best ..."): each
  option's value from its own paper, then the maximum or the minimum;
* a **chart** question ("which method obtains the best ... in Figure 2"): the extreme bar,
  series or x tick read from the located figure's vector graphics
  (:func:`littrace.read.charts.chart_answer`); a value the located figure prints at a bar's
  end or inside a bar's segment, the one whose x label, series and panel the question names
  best (:func:`littrace.read.charts.printed_reading`), is the value asked for and, among the
  options, the one chosen;
* **multiple choice**: the option aligned with table cells or bibliography entries
  (:mod:`littrace.read.choice`), else, for options naming displays ("Eq. 8"), the one whose
  display's surroundings describe the question (:func:`littrace.read.choice.display_choice`,
  then the paper's evidence), else the option the clause defining the symbol the question
  asks about says (:mod:`littrace.read.symbols`), else the factor a located equation prints
  before a symbol
  the question names, else the object id the localizer found, else the option equal to the
  computed value (numbers compared numerically at the option's printed precision), else the
  option that is the difference or ratio the question asks of two numbers it names (one of
  each work, when it compares works; :func:`littrace.read.compute.computed_value`); failing
  those, among the options whose table cells align nearly as well as the best one's
  (:func:`littrace.read.choice.table_contenders`; all options when no cell prints them): the
  option printed in the sentence window naming most of the question's rarer terms
  (:func:`littrace.read.choice.sentence_choice`; any option's window when the contenders'
  cells align exactly alike, since then the table does not show the answer is theirs), else
  the option best supported by the evidence: present in a passage, weighted by how much of
  the question the passage covers;
  options the passages support equally (often none of them printed verbatim) are told apart
  by the share of their telling numbers the passages print
  (:func:`littrace.read.choice.printed_support`), then by the evidence of each claim they
  make, in the paper it is about (:func:`littrace.read.choice.claim_support`: "(i) GloVe;
  (ii) Skip-gram" against its swap), then by embedding: the option closest in
  meaning to a passage sentence, weighted by the passage's score; only labels that exist;
* **freeform**: the chosen option's text, else what the question asks of the bibliography
  entry at the position it names, else the computed value, else, for a quantity asked of
  several papers, the number all of them print (:func:`shared_number`), else the
  best-supported short span of the best evidence sentence;
* **tables** through :mod:`littrace.read.tables`.

Example:
    >>> synthesis = synthesize(data)  # doctest: +SKIP
    >>> synthesis.answer  # doctest: +SKIP
    {'freeform': {'text': '41.2'}, 'multiple_choice': {'gold': 'A'}}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from littrace.corpus.document import PaperObject
from littrace.littraceqa import Question
from littrace.numbers import decimals, numbers, parse_value, same_shown
from littrace.read.cells import CellMatch, label_terms, lookup_cell
from littrace.read.charts import attached_label, chart_answer, labelled_values, printed_reading
from littrace.read.charts.answer import located_figures
from littrace.read.choice import (
    aligned_choice,
    claim_support,
    counting_sentence,
    display_choice,
    printed_support,
    row_sentence_choice,
    sentence_choice,
    table_contenders,
)
from littrace.read.choice.tally import tally
from littrace.read.compute import asks_difference, computed_value
from littrace.read.extremes import extreme_word, lower_is_better, wants_lower
from littrace.read.footnotes import footnotes
from littrace.read.heuristic import question_query
from littrace.read.records import Fact, PaperContext, Synthesis, SynthesisInput
from littrace.read.references import asked_entry, entry_answer, mentions_references
from littrace.read.symbols import symbol_choice
from littrace.read.tables import (
    cell_fact,
    figure_table,
    find_cell,
    paper_tables,
    subject_terms,
    table_rows,
)
from littrace.read.text import asking_clause, contains_phrase, norm, sentences, terms
from littrace.read.units import CONTRAST_MARKERS, without_marks

if TYPE_CHECKING:
    from littrace.index.encoders import Encoder

_TERM_WITH_FACTOR = re.compile(r"(\d+(?:\.\d+)?)\s*\*?\s*([A-Za-z][\w]*)")
_ARTICLES = {"a", "an", "the"}
_ASKS_QUANTITY = re.compile(
    r"\bhow (?:many|much|long|large|often)\b|\bwhat (?:number|percentage|share|fraction)\b",
    re.IGNORECASE,
)
# A question asking one thing of every paper it compares.
_OF_EVERY_PAPER = re.compile(r"\b(?:both|each of them|all of them|in common|share)\b", re.I)
# Whole numbers read as years rather than quantities.
_YEARS = range(1900, 2101)
# Sentences embedded per question for semantic option support, best passages first.
_MAX_SENTENCES = 64


@dataclass(frozen=True)
class Value:
    """A computed answer value, printed as the source prints it, and what it came from."""

    text: str
    number: float | None
    facts: tuple[Fact, ...]
    how: str


def _format(value: float, places: int) -> str:
    return f"{value:.{places}f}"


def _column_values(obj: PaperObject, column: str) -> list[tuple[str, str]]:
    header = obj.cells[0]
    if column not in header:
        return []
    j = header.index(column)
    return [(row[0], row[j]) for row in obj.cells[1:] if len(row) > j]


def gap_value(question: Question, context: PaperContext) -> Value | None:
    """Subject row minus the best other row of the asked column, when the question asks a gap."""
    if not asks_difference(question.question):
        return None
    subject = subject_terms(context)
    for obj in paper_tables(context):
        own = next((row for row in obj.cells[1:] if row and label_terms(row[0]) <= subject), None)
        if own is None:
            continue
        match = lookup_cell(obj.cells, own[0], question.question)
        if match is None:
            continue
        others = [
            (row, parse_value(value))
            for row, value in _column_values(obj, match.column)
            if row != own[0]
        ]
        numbers_only = [(row, value) for row, value in others if value is not None]
        own_value = parse_value(match.value)
        if not numbers_only or own_value is None:
            continue
        pick = min if lower_is_better(question.question, obj.caption) else max
        row, best = pick(numbers_only, key=lambda item: item[1] or 0.0)
        assert best is not None
        places = max(
            decimals(match.value), *(decimals(v) for _, v in _column_values(obj, match.column))
        )
        facts = (
            cell_fact(context, obj, match),
            cell_fact(context, obj, CellMatch(_format(best, places), row, match.column, 1.0)),
        )
        gap = abs(own_value - best)
        return Value(_format(gap, places), gap, facts, f"|{own[0]} - {row}| in {obj.scorer_id}")
    return None


def cell_value(
    question: Question, context: PaperContext, entity: str | None = None
) -> Value | None:
    """The asked table cell of one paper as a value."""
    found = find_cell(question.question, context, entity)
    if found is None:
        return None
    obj, match = found
    return Value(
        without_marks(match.value.replace("%", "").strip()),
        parse_value(match.value),
        (cell_fact(context, obj, match),),
        f"{obj.scorer_id} row {match.row!r} column {match.column!r}",
    )


def sentence_value(question: Question, data: SynthesisInput, context: PaperContext) -> Value | None:
    """The number in the paper's sentence that best covers the question (without its subject)."""
    query = question_query(question, data.plan, 1.0).without(subject_terms(context))
    best: tuple[float, str, str] | None = None
    for chunk in context.chunks:
        if chunk.type != "body":
            continue
        for sentence in sentences(chunk.text):
            if not numbers(sentence):
                continue
            score = query.score(sentence)
            if best is None or score > best[0]:
                best = (score, sentence, chunk.chunk_id)
    if best is None or best[0] <= 0:
        return None
    found = numbers(best[1])[-1]
    fact = Fact(context.paper_id, best[2], best[1], found.value, found.unit)
    return Value(found.text.replace("%", "").strip(), found.value, (fact,), "sentence number")


def _paper_of(option: str, data: SynthesisInput) -> PaperContext | None:
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context and contains_phrase(context.paper.title, option):
            return context
    return None


def comparison(question: Question, data: SynthesisInput) -> tuple[str, list[Fact], str] | None:
    """Option label of the extreme value when each option names one selected paper."""
    options = question.multiple_choice_options or []
    word = extreme_word(question.question)
    if not options or word is None:
        return None
    values: list[tuple[str, float, Value]] = []
    for option in options:
        context = _paper_of(option.text, data)
        if context is None:
            continue
        value = cell_value(question, context, option.text) or sentence_value(
            question, data, context
        )
        if value is not None and value.number is not None:
            values.append((option.label, value.number, value))
    if len(values) < 2:
        return None
    lower = wants_lower(word, question.question)
    pick = min if lower else max
    label, _, value = pick(values, key=lambda item: item[1])
    facts = [fact for _, _, v in values for fact in v.facts]
    return label, facts, f"{'min' if lower else 'max'} over {len(values)} options ({value.how})"


def _passages(data: SynthesisInput) -> list[tuple[str, float]]:
    query = question_query(data.question, data.plan, 1.0)
    found: list[tuple[str, float]] = []
    for item in data.evidence:
        found.append((item.text, item.score))
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        reading = data.readings.get(paper_id)
        if context is None or reading is None:
            continue
        chunks = {c.chunk_id: c for c in context.chunks}
        notes = footnotes(context.chunks)
        for chunk_id in reading.chunk_ids:
            chunk = chunks.get(chunk_id)
            if chunk is not None:
                found.append((chunk.text, query.score(chunk.text)))
                # A passage is read with the footnotes its sentences mark.
                found.extend(
                    (note.text, query.score(note.text))
                    for note in notes
                    if note.anchor_chunk == chunk_id and note.chunk_id != chunk_id
                )
    return found


def _equation_factor(question: Question, data: SynthesisInput) -> str | None:
    """The number printed right before a symbol the question names, in a located equation
    (the factor of that term)."""
    for item in data.evidence:
        if item.source_type != "equation_algorithm":
            continue
        for match in _TERM_WITH_FACTOR.finditer(item.text):
            if re.search(rf"(?<!\w){re.escape(match.group(2))}(?!\w)", question.question):
                return match.group(1)
    return None


def _located_id(question: Question, data: SynthesisInput) -> str | None:
    """For options that are printed ids ("Equation 3"): the id of the best located object."""
    for item in data.evidence:
        for name in ("equation_id", "table_id", "figure_id", "algorithm_id"):
            located = item.locator.get(name)
            if located and any(
                norm(o.text) == norm(str(located)) for o in question.multiple_choice_options or []
            ):
                return str(located)
    return None


def option_support(question: Question, passages: list[tuple[str, float]]) -> dict[str, float]:
    """Each option's evidence support: the best score of a passage that holds it."""
    support: dict[str, float] = {}
    for option in question.multiple_choice_options or []:
        support[option.label] = max(
            (score for text, score in passages if contains_phrase(text, option.text)),
            default=0.0,
        )
    return support


def semantic_support(
    question: Question,
    passages: list[tuple[str, float]],
    encoder: Encoder | None,
    labels: list[str],
) -> dict[str, float]:
    """Each of ``labels``' options' best cosine with a passage sentence, times the passage's
    score relative to the best passage; empty without an encoder or scored passages.

    Lexical support misses an option the evidence paraphrases ("one GPU" for "a single
    graphics card"); the dense encoder does not.
    """
    passages = [(text, score) for text, score in passages if score > 0 and text.strip()]
    if encoder is None or not passages:
        return {}
    top = max(score for _, score in passages)
    weight: dict[str, float] = {}
    for text, score in passages:
        for sentence in sentences(text):
            weight[sentence] = max(weight.get(sentence, 0.0), score / top)
    units = sorted(weight, key=lambda sentence: -weight[sentence])[:_MAX_SENTENCES]
    options = [o for o in question.multiple_choice_options or [] if o.label in labels]
    if not options or not units:
        return {}
    vectors = encoder.encode_documents([o.text for o in options] + units)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.maximum(norms, 1e-12)
    cosine = vectors[: len(options)] @ vectors[len(options) :].T
    weighted = cosine * np.array([weight[u] for u in units], dtype=np.float32)[None, :]
    return {o.label: round(float(row.max()), 6) for o, row in zip(options, weighted, strict=True)}


@dataclass(frozen=True)
class Supported:
    """The best-supported option (:func:`supported_option`), each option's lexical support,
    and the tie-breaks that told the tied options apart, in the order applied, each with the
    trace key and the words the trace explains it in."""

    label: str
    support: dict[str, float]
    tie_breaks: list[tuple[str, str, dict[str, float]]]


def supported_option(
    question: Question, data: SynthesisInput, among: Sequence[str] | None = None
) -> Supported:
    """The best-supported option label (of the labels ``among``, default all) by lexical
    support; options tied there are told apart, in turn, by their share of telling numbers
    the passages print (:func:`littrace.read.choice.printed_support`), their support from
    the evidence of each claim they make (:func:`littrace.read.choice.claim_support`), the
    evidence setting none of them against another (:func:`uncontrasted`) and their semantic
    support (ties left after all go to the earlier label)."""
    passages = _passages(data)
    support = option_support(question, passages)
    order = [
        option.label
        for option in question.multiple_choice_options or []
        if among is None or option.label in among
    ]
    best = max(support[label] for label in order)
    tied = [label for label in order if support[label] == best]
    texts = [text for text, _ in passages]
    tie_breaks: list[tuple[str, str, dict[str, float]]] = []
    breakers: list[tuple[str, str, Callable[[list[str]], dict[str, float]]]] = [
        (
            "printed_support",
            "the numbers the evidence prints",
            lambda labels: printed_support(question, texts, labels),
        ),
        (
            "claim_support",
            "each claim's evidence",
            lambda labels: claim_support(question, data, labels),
        ),
        (
            "uncontrasted",
            "the evidence setting none of them against another",
            lambda labels: uncontrasted(question, texts, labels),
        ),
        (
            "semantic_support",
            "embedding",
            lambda labels: semantic_support(question, passages, data.encoder, labels),
        ),
    ]
    for key, words, breaker in breakers:
        if len(tied) < 2:
            break
        scores = breaker(tied)
        if len(set(scores.values())) < 2:
            continue  # they tell nothing apart
        top = max(scores.values())
        tie_breaks.append((key, words, scores))
        tied = [label for label in tied if scores.get(label, 0.0) == top]
    return Supported(min(tied, key=order.index), support, tie_breaks)


def uncontrasted(
    question: Question, passages: Sequence[str], labels: list[str]
) -> dict[str, float]:
    """Of the options ``labels``, 1.0 for each that no passage prints as the contrast of
    what it says, 0.0 for one it does: "summarize for a 5th grader rather than 2nd grader"
    says the prompt is for a 5th grader.

    Example:
        >>> from littrace.littraceqa import MultipleChoiceOption as O, Question
        >>> q = Question(query_id="q", benchmark="LitTraceQA", question="Which reader?",
        ...              answer_types=["multiple_choice"],
        ...              multiple_choice_options=[O(label="A", text="5th grader"),
        ...                                       O(label="B", text="2nd grader")])
        >>> uncontrasted(q, ["We prompt for a 5th grader rather than 2nd grader."], ["A", "B"])
        {'A': 1.0, 'B': 0.0}
    """
    return {
        option.label: 0.0
        if any(
            contains_phrase(text, f"{marker} {option.text}")
            for text in passages
            for marker in CONTRAST_MARKERS
        )
        else 1.0
        for option in question.multiple_choice_options or []
        if option.label in labels
    }


def _match_option(question: Question, value: Value | str) -> str | None:
    text = value.text if isinstance(value, Value) else value
    number = value.number if isinstance(value, Value) else parse_value(value)
    options = question.multiple_choice_options or []
    for option in options:
        # Numbers are compared as numbers below: norm drops a minus sign.
        both_numbers = number is not None and parse_value(option.text) is not None
        if not both_numbers and norm(option.text) == norm(text):
            return option.label
    if number is not None:
        for option in options:
            printed = _stated_number(question, option.text)
            if printed is not None and same_shown(number, decimals(text), printed):
                return option.label
    return None


def _stated_number(question: Question, option: str) -> str | None:
    """The number ``option`` states: the option itself when it is one number (units and marks
    allowed), else its one number when the words beside it restate the question's ("2 times"
    for "how many times longer ...")."""
    if parse_value(option) is not None:
        return option
    found = numbers(option)
    if len(found) != 1:
        return None
    rest = terms(option[: found[0].start] + option[found[0].end :])
    asked = set(terms(question.question))
    return option[found[0].start : found[0].end] if rest and asked.issuperset(rest) else None


def reference_answer(data: SynthesisInput) -> str | None:
    """What the question asks of the bibliography entry at the position it names, or of
    the work it points at by the sentence citing it."""
    contexts = [data.contexts[p] for p in data.papers if p in data.contexts]
    query = question_query(data.question, data.plan, 1.0)
    found = asked_entry(data.question.question, contexts, query)
    return entry_answer(data.question.question, found[1]) if found else None


def shared_number(question: Question, data: SynthesisInput) -> str | None:
    """The number every selected paper prints in the passages read for the question (its
    evidence, pooled and read chunks), when the question asks a quantity or asks it of
    every paper ("to what length do both extend it?"): the value the papers agree on, not
    one only one of them states (its starting point); of several, the one whose weakest
    paper's best passage says most of the question; None for one paper or a tie. Numbers
    the question prints and years are no answer."""
    asks = _ASKS_QUANTITY.search(question.question) or _OF_EVERY_PAPER.search(question.question)
    if not asks:
        return None
    given = {n.value for n in numbers(question.question)}
    query = question_query(question, data.plan, 1.0)
    printed: dict[str, dict[float, tuple[float, str]]] = {}
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None:
            continue
        reading = data.readings.get(paper_id)
        read = set(context.pool_scores) | set(reading.chunk_ids if reading else ())
        texts = [item.text for item in data.evidence if item.paper_id == paper_id]
        texts += [chunk.text for chunk in context.chunks if chunk.chunk_id in read]
        by_value = printed.setdefault(paper_id, {})
        for text in texts:
            score = query.score(text)
            for number in numbers(text):
                value = number.value
                if value in given or (value.is_integer() and int(value) in _YEARS):
                    continue
                if value not in by_value or score > by_value[value][0]:
                    by_value[value] = (score, number.text)
    if len(printed) < 2:
        return None
    shared = set.intersection(*(set(values) for values in printed.values()))
    # Each shared value counts as much as its weakest paper's best passage says the question.
    ranked = sorted(
        ((min(values[value][0] for values in printed.values()), value) for value in shared),
        reverse=True,
    )
    if not ranked or ranked[0][0] <= 0 or (len(ranked) > 1 and ranked[1][0] >= ranked[0][0]):
        return None
    value = ranked[0][1]
    return max((values[value] for values in printed.values()), key=lambda held: held[0])[1]


# A word saying a number is approximate is no part of the value ("around 165 GPa").
_HEDGE = re.compile(r"^(?:around|about|approximately|roughly|nearly|almost|~)\s+(?=\d)", re.I)


def answer_span(question: Question, data: SynthesisInput) -> str | None:
    """The best-supported short span of the best evidence sentence: its longest run of words
    the question does not contain, preferring runs with digits or names."""
    asked = set(terms(question.question))
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context:
            asked |= subject_terms(context)
    quantity = _ASKS_QUANTITY.search(question.question) is not None
    # A bibliography entry answers only a question asking about references; elsewhere its
    # title merely echoes the question ("What is the Young's Modulus of Silicon?").
    entries = mentions_references(asking_clause(question.question))
    first: str | None = None
    for item in sorted(data.evidence, key=lambda item: -item.score):
        if item.source_type not in ("text_span", "citation_context"):
            continue
        if item.locator.get("section") == "References" and not entries:
            continue
        words = item.text.rstrip(".").split()
        runs: list[list[str]] = [[]]
        for i, word in enumerate(words):
            key = terms(word)
            if not key or key[0] in asked or (i == 0 and word[:1].isupper()):
                # An article opens the span that follows it ("a single GPU").
                runs.append([word] if word.lower() in _ARTICLES and i > 0 else [])
            else:
                runs[-1].append(word)
        runs = [run for run in runs if run and run[-1].lower() not in _ARTICLES]
        spans = [_HEDGE.sub("", " ".join(run).strip(",;:")) for run in runs if run]
        if spans:
            best = max(
                spans,
                key=lambda s: (
                    bool(re.search(r"\d", s)) and quantity,
                    bool(re.search(r"\d|[A-Z]", s)),
                    len(s.split()),
                ),
            )
            if not quantity:
                return best
            # A quantity asked for is the number the span prints ("6" of "in 6 out of 9"),
            # from the best evidence that prints one.
            amount = next((w.strip(",;:()") for w in best.split() if re.search(r"\d", w)), None)
            if amount:
                return amount
            first = first or best
    return first


# A number printed at a scale: "1.6B", "2.5M", "164K".
_SCALED = re.compile(r"\d\s*(?:[KMBT]|thousand|million|billion|trillion)\b")


def synthesize(data: SynthesisInput) -> Synthesis:
    """The model-free answer for ``data`` (see the module doc)."""
    question = data.question
    types = question.answer_types
    answer: dict[str, Any] = {}
    facts: list[Fact] = []
    steps: list[dict[str, Any]] = []
    value: Value | None = None
    # The cells a table answer was read from: its evidence, unless a choice rests on others.
    table_grounds: list[Fact] = []
    table_stated = False
    computed = computed_value(data)
    if computed is not None:
        value = Value(computed.text, computed.number, tuple(computed.facts), computed.how)
    tallied = tally(data) if value is None else None
    if tallied is not None:
        value = Value(str(tallied.count), tallied.count, tuple(tallied.facts), tallied.how)
    on_chart = printed_reading(question, data) if value is None else None
    if on_chart is not None:
        reading, fact, how = on_chart
        value = Value(reading.text, reading.value, (fact,), how)
    for paper_id in data.papers[:1]:
        context = data.contexts.get(paper_id)
        if context is not None and value is None:
            value = gap_value(question, context) or cell_value(question, context)
    # A count is whole: a cell printing a fraction ("6.8" linked entries on average) is no
    # answer to "how many", where a sentence counting what it counts is; one printed at a
    # scale ("1.6B" samples) is whole.
    if value is None or (
        computed is None and decimals(value.text) > 0 and not _SCALED.search(value.text)
    ):
        counting = counting_sentence(question, data)
        if counting is not None:
            count, fact = counting
            number = float(count) if count.isdigit() else None  # a range: "4 to 8"
            value = Value(count, number, (fact,), f"sentence counting it: {fact.text[:120]}")
    if value is not None:
        facts.extend(value.facts)
        steps.append({"step": "value", "value": value.text, "how": value.how})

    if "table" in types and question.table_schema:
        figures = [
            figure_table(obj, labelled)
            for context, obj in located_figures(question, data)
            if context.paper.pdf_path
            and (labelled := labelled_values(context.paper.pdf_path, obj.page, obj.bbox))
        ]
        rows, row_facts, how, table_grounds, table_stated = table_rows(data, figures)
        facts.extend(row_facts)
        answer["table"] = {"rows": rows}
        steps.append({"step": "table", "rows": len(rows), "how": how})

    chosen: str | None = None
    grounds: list[Fact] = []
    from_operands = False
    if "multiple_choice" in types and question.multiple_choice_options:
        how = ""
        compared = (
            comparison(question, data)
            or chart_answer(question, data)
            or attached_label(question, data)
        )
        if compared is not None:
            chosen, compared_facts, how = compared
            facts.extend(compared_facts)
        texts = [o.text for o in question.multiple_choice_options]
        shown = printed_reading(question, data, texts) if chosen is None else None
        if shown is not None:
            chosen, how = _match_option(question, shown[0].text), shown[2]
            facts.append(shown[1])
        # A computation the question asks for ("how many more epochs ... than ...") is
        # answered by its result: a cell printing an option is then one of its operands.
        if chosen is None and computed is not None and value is not None:
            chosen = _match_option(question, value)
            if chosen:
                how, grounds, from_operands = "computed value", list(value.facts), True
        aligned = aligned_choice(question, data) if chosen is None else None
        if aligned is not None:
            chosen, how = aligned.label, f"alignment: {aligned.how}"
            facts.extend(aligned.facts)
            grounds = aligned.facts
            steps.append({"step": "alignment", "support": aligned.support})
        described = display_choice(question, data) if chosen is None else None
        if described is not None:
            chosen, how = described.label, described.how
            facts.extend(described.facts)
            grounds = described.facts
            steps.append({"step": "display", "support": described.support})
        defined = symbol_choice(question, data) if chosen is None else None
        if defined is not None:
            chosen, how, defining = defined
            facts.append(defining)
        for special, name in (
            (_equation_factor, "factor in a located equation"),
            (_located_id, "located object id"),
        ):
            if chosen is None:
                found = special(question, data)
                chosen = _match_option(question, found) if found else None
                how = name if chosen else how
        # A value read rather than computed (a cell, a tally) answers after the readings above.
        if chosen is None and value is not None and computed is None:
            chosen = _match_option(question, value)
            how = "computed value" if chosen else how
        if chosen is None:
            # The operands whose computation is one of the options, when the best-named
            # pair's is none of them.
            stated = [_stated_number(question, o.text) for o in question.multiple_choice_options]
            operands = computed_value(data, [number for number in stated if number])
            chosen = _match_option(question, operands.text) if operands else None
            if operands is not None and chosen is not None:
                how = f"computed value among the options: {operands.how}"
                facts.extend(operands.facts)
                grounds, from_operands = operands.facts, True
        step: dict[str, Any] = {"step": "multiple_choice"}
        among: list[str] | None = None
        windowed = None
        if chosen is None:
            contending = table_contenders(question, data)
            among = contending.labels
            if len(among) < len(question.multiple_choice_options):
                step["table_contenders"] = among
            # Cells aligned alike do not show the answer is theirs: a sentence printing
            # another option with the question's words around it decides first.
            if contending.tied:
                windowed = sentence_choice(question, data)
            windowed = windowed or sentence_choice(question, data, among)
            # Nor a sentence printing them: one naming the row of one of them may.
            windowed = windowed or row_sentence_choice(question, data)
        if windowed is not None:
            chosen, how, step["support"] = windowed.label, windowed.how, windowed.support
            facts.extend(windowed.facts)
        if chosen is None:
            ranked = supported_option(question, data, among)
            chosen, step["support"] = ranked.label, ranked.support
            how = "evidence support"
            for key, words, scores in ranked.tie_breaks:
                step[key] = scores
                how += f", ties told apart by {words}"
        answer["multiple_choice"] = {"gold": chosen}
        steps.append(step | {"chosen": chosen, "how": how})

    if "freeform" in types:
        options = {o.label: o.text for o in question.multiple_choice_options or []}
        text = (
            options.get(chosen or "")
            or reference_answer(data)
            or _equation_factor(question, data)
            or (value.text if value else None)
            or shared_number(question, data)
            or answer_span(question, data)
            or ""
        )
        if computed is not None and value is not None and text == value.text and not grounds:
            grounds, from_operands = list(value.facts), True
        answer["freeform"] = {"text": text}
        steps.append({"step": "freeform", "text": text})

    rows_read = not grounds and bool(table_grounds)
    if rows_read:
        grounds, from_operands = table_grounds, table_stated
    chunk_ids = list(dict.fromkeys(f.chunk_id for f in facts if f.chunk_id))
    return Synthesis(
        answer,
        list(data.papers),
        chunk_ids,
        facts,
        "heuristic",
        steps,
        grounds,
        from_operands,
        rows_read,
    )
