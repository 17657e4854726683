"""Multiple choice by alignment with table cells (issue: reading that generalizes).

LitTraceQA's distractors are usually other cells of the table the answer comes from, so an
option's number appearing in the located table proves nothing. Instead:

* **value options** (each option prints one or more numbers): an option's support is, for
  each of its numbers, the best alignment (:func:`littrace.read.units.align`) of a cell that
  prints that number, averaged over its numbers; the cell must say what the question asks
  (its row and column paths), not merely hold the value;
* **extreme questions** ("which method is best on X"): each option names a row; the column is
  the one whose header path the question names best; the option whose row holds the extreme
  value wins, lower-is-better read from the question, caption and header;
* **bibliography questions** (:mod:`littrace.read.references`): the option printed in the
  entry at the asked position, or in the entries cited by the sentences that best match the
  question ("which work is cited for X"); when the options are reference numbers, the number
  a selected paper gives the work the question names by its authors ("Head et al.");
* **sentence windows**: an option printed in a sentence of a selected paper is supported by
  how much of the question that sentence names (the sentences on either side at half
  weight), each question term weighted by its rarity among the papers' sentences (IDF), so
  that words describing the paper as a whole decide nothing; only its best window counts,
  so an option printed everywhere gains nothing from being printed often.

Only a clear winner is returned (support above zero and ahead of the runner-up), with its
grounds for the trace; otherwise the caller falls back to other evidence.

Example:
    >>> choice = aligned_choice(question, data)  # doctest: +SKIP
    >>> choice.label, choice.how  # doctest: +SKIP
    ('C', "Table 1 row ('Bio', 'NER', 'JNLPBA') column ('SCIBERT', 'Frozen') = 75.77")
"""

from __future__ import annotations

import math
import re
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise, product

from littrace.corpus.model import PaperObject, PaperRecord
from littrace.numbers import Number, numbers, same_number
from littrace.read.abbreviations import Glossary, table_glossary
from littrace.read.extremes import MAX_WORDS, MIN_WORDS, lower_is_better
from littrace.read.heuristic import question_query
from littrace.read.model import Fact, PaperContext, SynthesisInput
from littrace.read.references import (
    authored_entries,
    citation_ids,
    cited_for,
    cited_in_group,
    entry_at,
    entry_support,
    group_position,
    mentions_references,
    named_authors,
    reference_position,
)
from littrace.read.tables import paper_tables, subject_name
from littrace.read.text import asking_sentence, contains_phrase, coverage, norm, sentences, terms
from littrace.read.units import (
    Alignment,
    TableCell,
    align,
    asked_terms,
    label_share,
    own_named,
    path_score,
    printed_as,
    question_terms,
    row_score,
    subject_terms,
    table_cells,
    terms_match,
)
from littrace.read.views import ENUMERATION_ITEM, paper_views, question_parts
from littrace.schema import Question

__all__ = [
    "Choice",
    "TableUnits",
    "aligned_choice",
    "claim_support",
    "described_row_choice",
    "option_claims",
    "reference_choice",
    "reference_number_choice",
    "sentence_choice",
    "table_contenders",
    "table_units",
]

# The winner must lead the runner-up by this much of its own support.
_MARGIN = 0.05
# The least support an option is chosen on by its cells' alignment: a cell the question
# names a tenth of is no reading of it, just a table printing the number.
_FLOOR = 0.1
# An option names a row when it names at least this share of the row's innermost label.
_ROW_NAMED = 0.5


@dataclass(frozen=True)
class Choice:
    """The option chosen by alignment, every option's support, and why."""

    label: str
    support: dict[str, float]
    how: str
    facts: list[Fact] = field(default_factory=list)


@dataclass(frozen=True)
class TableUnits:
    """One selected paper's table as observation units, weighted by how well it fits."""

    context: PaperContext
    obj: PaperObject
    cells: list[TableCell]
    weight: float
    glossary: Glossary

    def fact(self, cell: TableCell) -> Fact:
        chunk = next(
            (c.chunk_id for c in self.context.chunks if c.object_id == self.obj.object_id), ""
        )
        return Fact(
            self.context.paper_id,
            chunk,
            cell.text,
            cell.value,
            "%" if "%" in cell.text else "",
            " / ".join(cell.row_path),
            f"{self.obj.scorer_id}: {' / '.join(cell.column_path)}",
        )


def table_units(question: Question, data: SynthesisInput) -> list[TableUnits]:
    """The selected papers' tables as observation units, weighted by how much of the
    question their caption covers (a located table counts as fully covered)."""
    query = dict.fromkeys(terms(question.question), 1.0)
    located = {
        (item.paper_id, item.locator.get("table_id"))
        for item in data.evidence
        if item.source_type == "table"
    }
    tables = []
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None:
            continue
        for obj in paper_tables(context):
            cells = table_cells(obj.cells, obj.caption)
            if not cells:
                continue
            caption = 1.0 if (paper_id, obj.scorer_id) in located else coverage(query, obj.caption)
            weight = 0.75 + 0.25 * caption
            tables.append(TableUnits(context, obj, cells, weight, table_glossary(context, obj)))
    return tables


def _grounds(table: TableUnits, cell: TableCell) -> str:
    return f"{table.obj.scorer_id} row {cell.row_path} column {cell.column_path} = {cell.text}"


def _winner(support: dict[str, float], margin: float = _MARGIN) -> str | None:
    ranked = sorted(support.items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] <= 0:
        return None
    if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < margin * ranked[0][1]:
        return None
    return ranked[0][0]


def contenders(support: dict[str, float], margin: float = _MARGIN) -> list[str]:
    """The labels within ``margin`` of the best support: what is left to decide between
    when no option wins clearly (every label when none has support)."""
    best = max(support.values(), default=0.0)
    if best <= 0:
        return list(support)
    return [label for label, value in support.items() if best - value < margin * best]


def value_support(
    question: Question, tables: list[TableUnits]
) -> tuple[dict[str, float], dict[str, list[tuple[Alignment, TableUnits]]]] | None:
    """Each option's support from the cells that print its numbers (see the module doc),
    and those cells; None unless every option prints a number."""
    options = question.multiple_choice_options or []
    printed = {o.label: [n.text for n in numbers(o.text)] for o in options}
    if not options or not all(printed.values()):
        return None
    wanted = asked_terms(question.question)
    asking = asking_sentence(question.question)
    focus = asked_terms(asking)
    # Per table: the paper's subject, and the question's terms naming it where it points at it.
    terms_by_table = []
    for table in tables:
        subject = subject_terms(subject_name(table.context), question.question)
        named = own_named(wanted, subject, question.question)
        terms_by_table.append((table, subject, named, own_named(focus, subject, asking)))
    support: dict[str, float] = {}
    best_cells: dict[str, list[tuple[Alignment, TableUnits]]] = {}
    for option in options:
        found = []
        for number in printed[option.label]:
            best: tuple[float, Alignment, TableUnits] | None = None
            for table, subject, named, named_focus in terms_by_table:
                for cell in table.cells:
                    if cell.value is None or not same_number(cell.value, number):
                        continue
                    alignment = align(named, cell, subject, named_focus, table.glossary)
                    score = alignment.score * table.weight
                    if best is None or score > best[0]:
                        best = (score, alignment, table)
            if best is not None:
                found.append((best[1], best[2]))
            support[option.label] = support.get(option.label, 0.0) + (best[0] if best else 0.0)
        support[option.label] = round(support[option.label] / len(printed[option.label]), 4)
        best_cells[option.label] = found
    return support, best_cells


def value_choice(question: Question, tables: list[TableUnits]) -> Choice | None:
    """The option whose numbers sit in the cells that best say what the question asks."""
    found = value_support(question, tables)
    if found is None:
        return None
    support, best_cells = found
    label = _winner(support)
    if label is None or support[label] < _FLOOR:
        return None
    grounds = best_cells[label]
    return Choice(
        label,
        support,
        "; ".join(_grounds(table, a.cell) for a, table in grounds),
        [table.fact(a.cell) for a, table in grounds],
    )


def extreme_choice(question: Question, tables: list[TableUnits]) -> Choice | None:
    """For "which ... is best/lowest ...": the option whose row holds the extreme value of the
    column the question names best, or, for options naming columns (methods printed across,
    "MLP | LSTM | CNN"), whose column holds the extreme of the row it names best."""
    text = question.question
    wants_max, wants_min = bool(MAX_WORDS.search(text)), bool(MIN_WORDS.search(text))
    options = question.multiple_choice_options or []
    if not options or wants_max == wants_min:
        return None
    # An option may print its value beside the row it names: "SciBERT fine-tune on co-read
    # (77.1)". Options that are only numbers name no row, and so pick none.
    named = {o.label: question_terms(_without_numbers(o.text)) for o in options}
    printed = {o.label: o.text.strip() for o in options}
    told = frozenset().union(*named.values())
    wanted = asked_terms(text) - told
    focus = asked_terms(asking_sentence(text)) - told
    best: tuple[float, Choice] | None = None
    for table in tables:
        # An option pointing at the paper's own method ("the paper's own models") names it.
        subject = subject_name(table.context)
        naming = {
            o.label: own_named(named[o.label], subject_terms(subject, o.text), o.text)
            for o in options
        }
        for across in (False, True):
            found = _extreme_line(table, wanted, focus, naming, printed, across)
            if found is None:
                continue
            line_score, line, values = found
            lower = lower_is_better(text, table.obj.caption, " ".join(line))
            if wants_min and not lower:
                lower = True
            elif wants_min and lower and "worst" in text.lower():
                lower = False
            pick = min if lower else max
            label = pick(values, key=lambda lab: values[lab].value or 0.0)
            confidence = line_score * table.weight * len(values) / len(options)
            choice = Choice(
                label,
                {lab: float(c.value or 0.0) for lab, c in values.items()},
                f"{'min' if lower else 'max'} of {'row' if across else 'column'} {line} in "
                f"{table.obj.scorer_id}: " + _grounds(table, values[label]),
                [table.fact(c) for c in values.values()],
            )
            if best is None or confidence > best[0]:
                best = (confidence, choice)
    return best[1] if best else None


def _extreme_line(
    table: TableUnits,
    wanted: frozenset[str],
    focus: frozenset[str],
    named: dict[str, frozenset[str]],
    options: dict[str, str],
    across: bool,
) -> tuple[float, tuple[str, ...], dict[str, TableCell]] | None:
    """The column (``across``: the row) the question names best (what only the sentences
    before the asking one name counts half), its score and path, and by option the cell of
    it in the row (column) the option names; None unless two options name one."""
    score_path = row_score if across else path_score
    lines: dict[int | tuple[str, ...], tuple[float, tuple[str, ...]]] = {}
    for cell in table.cells:
        key: int | tuple[str, ...] = cell.row if across else cell.column_path
        if key not in lines:
            path = cell.row_path if across else cell.column_path
            score = score_path(path, wanted, glossary=table.glossary) + score_path(
                path, focus, glossary=table.glossary
            )
            lines[key] = (score / 2, path)
    if not lines:
        return None
    asked, (score, path) = max(lines.items(), key=lambda item: item[1][0])
    if score <= 0:
        return None
    values: dict[str, TableCell] = {}
    for label, option_terms in named.items():
        shares = [
            (label_share(name[-1], option_terms), printed_as(name[-1], options[label]), cell)
            for cell in table.cells
            if (cell.row if across else cell.column_path) == asked
            and cell.value is not None
            and (name := cell.column_path if across else cell.row_path)
        ]
        # Labels alike in their words are told apart by the option printing one exactly.
        shares = [item for item in shares if item[0] >= _ROW_NAMED]
        if shares:
            values[label] = max(shares, key=lambda item: item[:2])[2]
    return (score, path, values) if len(values) >= 2 else None


def _values(text: str) -> list[Number]:
    """The values ``text`` prints ("SciBERT (77.1)"), not the digits of a name
    ("EVA-02-CLIP-E", "GPT-4o", "Qwen3-4B")."""
    found = []
    for number in numbers(text):
        before = text[number.start - 1 : number.start] if number.start else ""
        after = text[number.end : number.end + 1]
        if not (before.isalnum() or before == "-" or after.isalnum() or after == "-"):
            found.append(number)
    return found


def _without_numbers(text: str) -> str:
    """``text`` without the values it prints, keeping the digits of a name."""
    for number in reversed(_values(text)):
        text = text[: number.start] + text[number.end :]
    return text


# Entries cited by the best-matching sentences that can support an option.
_CITED_ENTRIES = 5


def reference_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """The option printed in the bibliography entry the question asks about."""
    options = question.multiple_choice_options or []
    named = all(any(ch.isalpha() for ch in option.text) for option in options)
    if not options or not named or not mentions_references(question.question):
        return None
    position = reference_position(question.question)
    member = group_position(question.question) if position is None else None
    query = question_query(question, data.plan, 1.0)
    support = {o.label: 0.0 for o in options}
    grounds: dict[str, tuple[str, Fact]] = {}
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None or not context.references:
            continue
        if position is not None:
            entry = entry_at(context.references, position)
            scored = [(entry, 1.0, f"entry {position} of the references")] if entry else []
        elif member is not None:
            cited = cited_in_group(query, context, member)
            scored = (
                [
                    (
                        cited.reference,
                        1.0,
                        f"work {member} cited on p.{cited.page}: {cited.sentence[:80]}",
                    )
                ]
                if cited
                else []
            )
        else:
            scored = [
                (cited.reference, cited.score, f"cited on p.{cited.page}: {cited.sentence[:80]}")
                for cited in cited_for(query, context)[:_CITED_ENTRIES]
            ]
        for entry, weight, why in scored:
            for option in options:
                value = weight * entry_support(option.text, entry.raw)
                if value > support[option.label]:
                    support[option.label] = round(value, 4)
                    fact = Fact(paper_id, "", entry.raw, None, "", entry.label, "reference")
                    grounds[option.label] = (f"{why} [{entry.label}] {entry.raw[:80]}", fact)
    label = _winner(support)
    if label is None:
        return None
    why, fact = grounds[label]
    return Choice(label, support, why, [fact])


def reference_number_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """The reference number under which a selected paper lists the work the question names by
    its authors ("Rein et al."), when the options are numbers."""
    options = question.multiple_choice_options or []
    authors = named_authors(question.question)
    if not options or not authors or not all(o.text.strip().isdigit() for o in options):
        return None
    by_number = {o.text.strip(): o.label for o in options}
    support = {o.label: 0.0 for o in options}
    grounds: dict[str, tuple[str, Fact]] = {}
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None:
            continue
        ids = citation_ids(context.references)
        for entry in authored_entries(question.question, context.references):
            label = by_number.get(ids[entry.label])
            if label is None:
                continue
            support[label] += 1.0
            fact = Fact(paper_id, "", entry.raw, None, "", entry.label, "reference")
            grounds[label] = (f"{paper_id} lists [{ids[entry.label]}] {entry.raw[:80]}", fact)
    label = _winner(support)
    if label is None:
        return None
    why, fact = grounds[label]
    return Choice(label, support, why, [fact])


# Chunk kinds whose sentences are prose a question can be aligned with.
_PROSE = ("title_abstract", "body")
# The sentences around the one printing an option count this much of what they name.
_NEIGHBOUR_WEIGHT = 0.5
# Sentence windows must separate options more clearly than table cells do.
_SENTENCE_MARGIN = 0.15
# A question word the paper's title or abstract says counts this much in a sentence window.
_DESCRIBING_WEIGHT = 0.5
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
# A paragraph's heading printed at its start, a few words closed by a full stop, before a
# sentence: "Authors.", "Entity mentions." (not "Fig. 3", not a full sentence).
_RUN_IN_HEADING = re.compile(r"([A-Z][A-Za-z-]{3,}(?: [A-Za-z-]+){0,2})\.\s+(?=[A-Z])")


@dataclass(frozen=True)
class _Window:
    paper_id: str
    chunk_id: str
    text: str
    own: frozenset[str]
    around: frozenset[str]


def _windows(data: SynthesisInput) -> list[_Window]:
    """Each prose sentence of the selected papers with the sentences beside it in its
    paragraph; a paragraph's run-in heading ("Authors. Each node of this type ...") is named
    by every sentence of the paragraph, since it says what they are about."""
    windows = []
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None:
            continue
        for chunk in context.chunks:
            if chunk.type not in _PROSE:
                continue
            for paragraph in _PARAGRAPH_BREAK.split(chunk.text):
                parts = sentences(paragraph)
                heading = _RUN_IN_HEADING.match(paragraph)
                topic = frozenset(terms(heading.group(1))) if heading else frozenset()
                held = [frozenset(terms(part)) | topic for part in parts]
                for i, part in enumerate(parts):
                    around = frozenset().union(*held[max(0, i - 1) : i], *held[i + 1 : i + 2])
                    windows.append(_Window(paper_id, chunk.chunk_id, part, held[i], around))
    return windows


def _rarity(asked: Iterable[str], units: Sequence[Container[str]]) -> dict[str, float]:
    """Each asked term's weight: its rarity (IDF) among what the units (a window's own
    terms, a table row's) name."""
    frequency = {t: sum(t in unit for unit in units) for t in asked}
    return {t: math.log((len(units) + 1) / (n + 0.5)) for t, n in frequency.items()}


def _window_score(window: _Window, weight: dict[str, float]) -> float:
    """The weight of the terms ``window`` names, those only its neighbours name at half."""
    named = sum(w for t, w in weight.items() if t in window.own)
    nearby = sum(w for t, w in weight.items() if t in window.around - window.own)
    return named + _NEIGHBOUR_WEIGHT * nearby


def _prints(sentence: str, option: str) -> bool:
    printed = numbers(option)
    if printed and len(terms(option)) <= len(printed):
        found = numbers(sentence)
        return all(any(same_number(n.value, p.text) for n in found) for p in printed)
    return contains_phrase(sentence, option)


def describing_terms(question: str, paper: PaperRecord) -> frozenset[str]:
    """The question's terms that describe ``paper``: those of a pair of terms the question
    and the paper's title or abstract both print one after the other ("scientific
    literature"), since a question describes its paper in the abstract's words.

    Example:
        >>> paper = PaperRecord("p", "Graphs", (), "We organize scientific literature.", "", 2018, True)
        >>> sorted(describing_terms("How many nodes has the scientific literature graph?", paper))
        ['literature', 'scientific']
    """
    said = terms(f"{paper.title}\n{paper.abstract}")
    pairs = set(pairwise(said))
    asked = terms(question)
    return frozenset(t for pair in pairwise(asked) if pair in pairs for t in pair)


def sentence_choice(
    question: Question, data: SynthesisInput, among: Sequence[str] | None = None
) -> Choice | None:
    """The option (of the labels ``among``, default all) printed in the sentence window that
    names most of the question."""
    every = question.multiple_choice_options or []
    options = [o for o in every if among is None or o.label in among]
    windows = _windows(data)
    if not options or not windows:
        return None
    told = frozenset(t for o in every for t in terms(o.text))
    asked = [t for t in dict.fromkeys(terms(question.question)) if t not in told]
    weight = _rarity(asked, [window.own for window in windows])
    total = sum(weight.values())
    if total <= 0:
        return None
    # Words the question describes a paper by ("the paper on organizing the scientific
    # literature") find the paper, not the sentence in it.
    weight_in = {}
    for paper_id in {window.paper_id for window in windows}:
        described = describing_terms(question.question, data.contexts[paper_id].paper)
        weight_in[paper_id] = {
            t: w * (_DESCRIBING_WEIGHT if t in described else 1.0) for t, w in weight.items()
        }
    support = {o.label: 0.0 for o in options}
    grounds: dict[str, _Window] = {}
    for window in windows:
        for option in options:
            if not _prints(window.text, option.text):
                continue
            score = round(_window_score(window, weight_in[window.paper_id]) / total, 4)
            if score > support[option.label]:
                support[option.label], grounds[option.label] = score, window
    label = _winner(support, _SENTENCE_MARGIN)
    if label is None:
        return None
    window = grounds[label]
    fact = Fact(window.paper_id, window.chunk_id, window.text, None, "", "", "sentence")
    return Choice(label, support, f"sentence: {window.text[:120]}", [fact])


def printed_support(
    question: Question, passages: Sequence[str], among: Sequence[str] | None = None
) -> dict[str, float]:
    """Each option's (of the labels ``among``, default all) share of its telling numbers that
    ``passages`` print at the option's precision; empty when no option prints one.

    A number every option prints tells nothing. Options that state several numbers ("36.4 ->
    44.4 (up 8.0)") differ from their distractors in one of them, so the option whose
    numbers the evidence holds is the one read there; a number that is the difference of two
    of the option's own numbers the evidence holds counts as held (the "up 8.0").
    """
    options = [
        o for o in question.multiple_choice_options or [] if among is None or o.label in among
    ]
    printed = {o.label: numbers(o.text) for o in options}
    texts = {label: {n.text for n in found} for label, found in printed.items()}
    common = set.intersection(*texts.values()) if texts else set()
    if not any(found - common for found in texts.values()):
        return {}
    values = {n.value for passage in passages for n in numbers(passage)}

    def held(text: str) -> bool:
        return any(same_number(value, text) for value in values)

    support = {}
    for label, option_numbers in printed.items():
        found = [n for n in option_numbers if held(n.text)]
        telling = [n.text for n in option_numbers if n.text not in common]
        held_here = {n.text for n in found} | {
            text
            for text in telling
            if any(
                same_number(abs(a - b), text)
                for a, b in product([n.value for n in found if n.text != text], repeat=2)
            )
        }
        support[label] = (
            round(sum(text in held_here for text in telling) / len(telling), 4) if telling else 0.0
        )
    return support


def table_contenders(question: Question, data: SynthesisInput) -> list[str]:
    """The option labels the selected papers' table cells leave in contention: those whose
    cells align nearly as well as the best one's (every label when no cell prints them,
    or when the one left is named too little to be chosen)."""
    every = [o.label for o in question.multiple_choice_options or []]
    found = value_support(question, table_units(question, data))
    if found is None:
        return every
    left = contenders(found[0])
    # One contender is a choice, and needs the support a choice needs.
    return every if len(left) == 1 and found[0][left[0]] < _FLOOR else left


def aligned_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """The option chosen by aligning the question with the selected papers' bibliography
    entries or table cells."""
    found = reference_choice(question, data) or reference_number_choice(question, data)
    if found is not None:
        return found
    tables = table_units(question, data)
    if not tables:
        return None
    return (
        extreme_choice(question, tables)
        or value_choice(question, tables)
        or described_row_choice(question, tables)
    )


def described_row_choice(question: Question, tables: list[TableUnits]) -> Choice | None:
    """For options naming rows of a table ("Memorization | Privacy Protection | ..."), the
    option whose row prints what the question says of it ("scored with a non-matching
    rate"): the question's terms each weighted by their rarity among the table's rows (IDF),
    so that what every row prints decides nothing."""
    options = question.multiple_choice_options or []
    if not options or any(_values(o.text) for o in options):
        return None
    named = {o.label: question_terms(o.text) for o in options}
    told = frozenset().union(*named.values())
    asked = asked_terms(question.question) - told
    best: tuple[float, Choice] | None = None
    for table in tables:
        content: dict[int, set[str]] = {}
        paths: dict[int, tuple[str, ...]] = {}
        for cell in table.cells:
            content.setdefault(cell.row, set()).update(
                terms(" ".join((*cell.row_path, *cell.column_path, cell.text)))
            )
            paths[cell.row] = cell.row_path
        labels = [
            (row, label, question_terms(label))
            for row, path in paths.items()
            for label in path
            if label
        ]
        rows: dict[str, tuple[int, str]] = {}
        for option in options:
            # An option is a row's name (each names most of the other), not a sentence
            # that shares a word with it.
            shares = [
                (
                    min(label_share(label, named[option.label]), label_share(option.text, naming)),
                    row,
                    label,
                )
                for row, label, naming in labels
            ]
            share, row, label = max(shares, default=(0.0, -1, ""))
            if share >= _ROW_NAMED:
                rows[option.label] = (row, label)
        if len({row for row, _ in rows.values()}) < 2:
            continue
        held = list(content.values())
        # Terms no row prints say nothing of this table.
        weight = {t: w for t, w in _rarity(asked, held).items() if any(t in row for row in held)}
        total = sum(weight.values())
        if total <= 0:
            continue
        support = {
            option: round(sum(w for t, w in weight.items() if t in content[row]) / total, 4)
            for option, (row, _) in rows.items()
        }
        chosen = _winner(support)
        if chosen is None or (best is not None and support[chosen] <= best[0]):
            continue
        row, label = rows[chosen]
        cells = [c for c in table.cells if c.row == row]
        how = f"{table.obj.scorer_id} row {label!r} prints what the question says of it"
        best = (support[chosen], Choice(chosen, support, how, [table.fact(c) for c in cells]))
    return best[1] if best else None


# An enumeration marker that says which of several things a claim is about: "(i)", "(b)".
_MARKER = re.compile(rf"{ENUMERATION_ITEM}\s*")
# A claim part ends at a semicolon or where the next marked one begins.
_CLAIM_END = re.compile(rf";\s*|\s*(?={ENUMERATION_ITEM}\s)")
# A claim said of every paper at once.
_EVERY = re.compile(r"\b(?:both|each|all|same)\b", re.IGNORECASE)
# What follows "so" is inferred from the claims, not printed anywhere.
_CONSEQUENCE = re.compile(r",?\s+(?:so|hence|thus|therefore)\s+")
_CONJUNCTION = re.compile(r",?\s+(?:and|while|whereas|but)\s+")


@dataclass(frozen=True)
class Claim:
    """One part of an option ("(ii) GloVe", "the embedding paper uses 5 × 10−5"): what it
    says (its numbers, else its words) and the question text it answers."""

    text: str
    marker: str


def option_claims(text: str) -> list[Claim]:
    """An option cut into the claims it makes, at semicolons and enumeration markers.

    Example:
        >>> [(c.marker, c.text) for c in option_claims("(i) GloVe; (ii) Skip-gram on NYT")]
        [('(i)', 'GloVe'), ('(ii)', 'Skip-gram on NYT')]
    """
    claims = []
    for piece in _CLAIM_END.split(text):
        marker = _MARKER.match(piece.strip())
        body = piece.strip()[marker.end() :] if marker else piece.strip()
        body = _CONSEQUENCE.split(body, maxsplit=1)[0]
        # "A uses 1e-5 and B uses 5 × 10−5": two claims, each with its value.
        halves = _CONJUNCTION.split(body, maxsplit=1)
        said = halves if len(halves) == 2 and all(_values(h) for h in halves) else [body]
        for claim in said:
            if terms(claim) or _values(claim):
                claims.append(Claim(claim.strip(" ,."), marker.group(0).strip() if marker else ""))
    return claims


# A count as one word prints it: "3", "2-5", "2.5".
_COUNT = re.compile(r"\d+(?:\.\d+)?(?:[-–]\d+(?:\.\d+)?)?")
# How far after its number a counted word may be printed ("3 APIs", "3 distinct APIs").
_COUNT_REACH = 3


def _counts(text: str) -> list[tuple[str, str]]:
    """The numbers ``text`` prints with the word they count: "2-5 tools; at most 3 APIs"
    gives ("2-5", "tools") and ("3", "apis")."""
    words = text.split()
    found = []
    for word, after in pairwise(words):
        if _COUNT.fullmatch(word) and after[:1].isalpha():
            noun = terms(after)
            if noun:
                found.append((word, noun[0]))
    return found


def _prints_count(sentence: str, count: str, noun: str) -> bool:
    """Whether ``sentence`` prints ``count`` (a number or a range, read as printed) with
    ``noun`` a few words after it."""
    words = sentence.split()
    for i, word in enumerate(words):
        if word.strip(",;:()") != count:
            continue
        for after in words[i + 1 : i + 1 + _COUNT_REACH]:
            said = terms(after)
            if said and terms_match(said[0], frozenset([noun])):
                return True
    return False


def _marked_segment(question: str, marker: str) -> str:
    """The question's text after ``marker`` up to the next marker ("" when not printed)."""
    start = question.find(marker)
    if not marker or start < 0:
        return ""
    rest = question[start + len(marker) :]
    following = _MARKER.search(rest)
    return rest[: following.start()] if following else rest


def _claim_papers(
    claim: Claim, question: str, contexts: Sequence[PaperContext], views: dict[str, str]
) -> tuple[list[str], str]:
    """The selected papers a claim is about, and the question text it answers: the paper
    the question mentions after the claim's marker, else the papers whose view of the
    question (``views``, :mod:`littrace.read.views`) shares most of the claim's words, else
    all."""
    segment = _marked_segment(question, claim.marker)
    if segment:
        works = {
            w for part in question_parts(segment, [c.paper for c in contexts]) for w in part.works
        }
        about = [c.paper_id for c in contexts if norm(c.paper.title) in works]
        if about:
            return about, segment
    held = {paper_id: set(terms(view)) for paper_id, view in views.items()}
    shared = set.intersection(*held.values()) if held else set()
    said = set(terms(_without_numbers(claim.text))) - shared
    overlap = {paper_id: len(said & (words - shared)) for paper_id, words in held.items()}
    best = max(overlap.values(), default=0)
    about = [paper_id for paper_id, value in overlap.items() if value == best]
    if best > 0 and len(about) < len(overlap):
        return about, views[about[0]]
    return list(views), question


def _cell_windows(tables: list[TableUnits]) -> list[_Window]:
    """Each cell of the selected papers' tables as a window: its header paths are what it
    names, the caption what is around it."""
    found = []
    for table in tables:
        around = frozenset(terms(table.obj.caption))
        chunk = table.fact(table.cells[0]).chunk_id
        for cell in table.cells:
            own = frozenset(terms(" ".join(cell.row_path + cell.column_path)))
            found.append(_Window(table.context.paper_id, chunk, cell.text, own, around))
    return found


def claim_support(
    question: Question, data: SynthesisInput, among: Sequence[str] | None = None
) -> dict[str, float]:
    """Each option's (of the labels ``among``, default all) mean support over the claims it
    makes (:func:`option_claims`): a claim is supported by the sentence window or table cell
    of the paper it is about that prints it (its numbers, else most of its words) and names
    most of the question text it answers, each term weighted by its rarity (IDF) as in
    :func:`sentence_choice`. Options that say the same things of different papers ("(i)
    GloVe; (ii) Skip-gram" against "(i) Skip-gram; (ii) GloVe") differ here, where a bag of
    their words cannot; empty when no option makes two claims or none is found."""
    options = [
        o for o in question.multiple_choice_options or [] if among is None or o.label in among
    ]
    claims = {o.label: option_claims(o.text) for o in options}
    if not options or all(len(found) < 2 for found in claims.values()):
        return {}
    windows = _windows(data) + _cell_windows(table_units(question, data))
    values = [[n.value for n in numbers(window.text)] for window in windows]
    contexts = [data.contexts[p] for p in data.papers if p in data.contexts]
    views = paper_views(question.question, [c.paper for c in contexts])
    told = frozenset(t for o in options for t in terms(o.text))
    owns = [window.own for window in windows]
    given = numbers(question.question)
    given_values, given_texts = {n.value for n in given}, {n.text for n in given}
    support = {}
    for option in options:
        scores = []
        for claim in claims[option.label]:
            papers, asked_text = _claim_papers(claim, question.question, contexts, views)
            asked = [t for t in dict.fromkeys(terms(asked_text)) if t not in told]
            weight = _rarity(asked, owns)
            total = sum(weight.values())
            # A number the question prints ("ACL 2024") says which claim, not what it claims.
            printed = [n for n in _values(claim.text) if n.value not in given_values]
            counted = [(n, w) for n, w in _counts(claim.text) if n not in given_texts]
            words = set(terms(_EVERY.sub("", _without_numbers(claim.text)))) - set(asked)
            best = dict.fromkeys(papers, 0.0)
            for window, held in zip(windows, values, strict=True):
                if window.paper_id not in best or total <= 0:
                    continue
                # "3 APIs" is read where the sentence counts APIs, not wherever a 3 is.
                if counted:
                    if not all(_prints_count(window.text, n, noun) for n, noun in counted):
                        continue
                elif printed:
                    if not all(any(same_number(v, p.text) for v in held) for p in printed):
                        continue
                elif not words or len(words & (window.own | window.around)) < 0.5 * len(words):
                    continue
                score = _window_score(window, weight) / total
                best[window.paper_id] = max(best[window.paper_id], score)
            # "Both use GloVe" must hold in each paper, not in one of them.
            every = len(best) > 1 and _EVERY.search(claim.text)
            scores.append(sum(best.values()) / len(best) if every else max(best.values()))
        support[option.label] = round(sum(scores) / len(scores), 4) if scores else 0.0
    return support if any(support.values()) else {}
