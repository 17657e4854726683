"""Computed answers: the difference or ratio of two numbers the question names ("by how many
points does A exceed B", "how many times larger is A's batch size").

The operands are the two cells the question names best that share a row or a column (the
two methods of one column, the two settings of one row), or one number of each of two works
the question describes: among the best-aligned cells of each paper
(:func:`littrace.read.units.align`, each paper read with its own view of the question) and,
for two works, the quantities their prose sentences state (scored by their sentence window
and how near the asking sentence's terms stand), the pair with the highest summed score. The
answer is their absolute difference, printed with the operands' decimals ("83.64" - "79.14"
= "4.50"), or the larger over the smaller.

Multiple-choice options are checked the same way: the pair whose result is an option, each
operand scored against the best-named number of its own paper (papers name what they
measure in their own words: "S2ORC-SciBERT" for "the corpus-pretrained model").

Example:
    >>> computed = computed_value(data)  # doctest: +SKIP
    >>> computed.text, computed.how  # doctest: +SKIP
    ('4.50', "|83.64 - 79.14|: Table 1 ('ChemProt',) ...")
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from littrace.numbers import Number, decimals, numbers, parse_value, same_number
from littrace.read.choice import TableUnits, table_units
from littrace.read.choice.counts import stated
from littrace.read.choice.sentences import sentence_windows, window_weights
from littrace.read.cross_paper import GENERIC
from littrace.read.extremes import lower_is_better
from littrace.read.records import Fact, SynthesisInput
from littrace.read.tables import subject_name
from littrace.read.text import asking_clause, asking_sentence, terms
from littrace.read.units import (
    TableCell,
    align,
    asked_terms,
    key_share,
    named_share,
    own_named,
    question_terms,
    subject_terms,
)
from littrace.read.views import paper_views, question_parts, work_of

__all__ = ["Computed", "asked_operation", "asks_difference", "computed_value"]

_DIFFERENCE = re.compile(
    r"\bby how (?:many|much)\b|\bdifference\b|\bgap\b|\bmargin\b|\bhow many points\b"
    r"|\bhow (?:much|many points) (?:higher|lower|better|worse|more|less)\b"
    # A quantity compared: "how many more entries does A contain than B", "how many seconds
    # longer does A take than B".
    r"|\bhow (?:many|much)(?: [\w-]+){0,3}? (?:more|fewer|less|longer|shorter|larger|smaller"
    r"|higher|lower|faster|slower|bigger)\b[^?]*\bthan\b"
    # Or one whose comparison the question set up before: "how many US dollars more did
    # each participant receive?"
    r"|\bhow (?:many|much)(?: [\w$-]+){0,3}? (?:more|fewer|less|longer|shorter|larger|smaller"
    r"|higher|lower|faster|slower|bigger) (?:did|does|do|is|was|were|are|has|have)\b",
    re.I,
)
# A ratio asked for: "how many times larger", "by what factor" (not "how many times did a
# participant open ...", a count).
_RATIO = re.compile(
    r"\bhow many times (?:as )?(?:more|larger|bigger|greater|higher|longer|faster|smaller"
    r"|fewer|many|much|large|big|long)\b|\bby (?:what|which|how large a) factor\b",
    re.I,
)
# Scale suffixes of counts ("1.1B" parameters, "25M" pairs), and a question asking for one.
_MAGNITUDES = {"K", "M", "B", "T", "G"}
_MAGNITUDE_ASKED = re.compile(
    r"\b(?:thousands?|millions?|billions?|trillions?)\b|\d\s?[KMBTG]\b", re.IGNORECASE
)
# Pairs are sought among this many best-aligned cells.
_TOP_CELLS = 40
# Each operand must be named this well by the question (alignment score), or the numbers
# the question compares are not in a table (they may be in its prose).
_MIN_OPERAND = 0.2
# Or, when the difference is one of the options, named this well against its paper's best.
_MIN_RELATIVE = 0.4
# A stated quantity with none of the question's terms within this many words of it counts
# this much of its sentence's score.
_BESIDE_WORDS = 4
_NOT_BESIDE = 0.5
_PER_WORD = 0.1
# Each further term of the question within reach of a stated quantity adds this much: of
# "6.03 billion image-text pairs, and 4.98 billion remains after cleaning", the quantity
# asked "after cleaning" is the one beside "cleaning" too.
_FURTHER_TERM = 0.05
# The scale or unit printed onto a number in prose ("3.1B", "8192K").
_SUFFIX = re.compile(r"[A-Za-z%]+")
# Money, by its sign before the number or its name after ("US$15", "$35 USD", "20 euros"):
# an amount is compared with amounts only, not with the count of participants beside it.
_CURRENCY_BEFORE = re.compile(r"(?:[$€£¥]|\b(?:USD|EUR|GBP))\s*$")
_CURRENCY_AFTER = re.compile(r"\s*(?:USD|EUR|GBP|(?:US\s)?dollars?|euros?|pounds?)\b", re.I)
# A question asking for an amount of money: its operands are amounts printed as money.
_MONEY_ASKED = re.compile(r"[$€£¥]|\b(?:USD|EUR|GBP|dollars?|euros?|pounds?)\b", re.I)
# A quantity asked as a whole of its parts: "the 2020 paper's total per query paper".
_TOTAL = re.compile(r"\b(?:total|in all|altogether|combined)\b", re.I)
_BRACKETED = re.compile(r"\[[^\[\]]{0,200}\]")
# A gloss restating the short form before it: "AES (the metric balancing accuracy and
# response length)" names AES, not the accuracy column beside it.
_GLOSS = re.compile(r"(?<=[A-Z0-9])\s*\((?:the|a|an|i\.e\.)\s[^()]*\)")
# A stated quantity scoring this much of its paper's best is the best.
_PAPER_BEST = 0.999
# An operand named as the best of a group: "the best of those fine-tuned variants", "the
# strongest baseline", "the top-performing competitor".
_BEST_OF = re.compile(
    r"\b(?:best|strongest|top|top-performing|best-performing|highest-scoring|leading)\s+"
    r"(?:(?:of|among)\s+(?:those|these|the|its|all(?:\s+the)?)\s+)?"
    r"(?P<group>(?:[\w-]+\s+){0,3}?(?:baselines?|variants?|methods?|models?|systems?"
    r"|competitors?|alternatives?|configurations?))\b",
    re.I,
)
_DIFFERENCE_OPERATION = "difference"
_RATIO_OPERATION = "ratio"


@dataclass(frozen=True)
class Computed:
    """A computed value as printed, its number, and the cells it came from."""

    text: str
    number: float
    how: str
    facts: list[Fact] = field(default_factory=list)


def _unit(printed: str) -> str:
    """The unit or scale printed after a number ("B" of "1.1B", "%" of "84.3%"), if any."""
    found = numbers(printed)
    return "".join(re.findall(r"[A-Za-z]+", printed[found[0].end :])) if found else ""


def asks_difference(question: str) -> bool:
    return bool(_DIFFERENCE.search(question))


def _compared(
    cell: TableCell, other: TableCell, named: frozenset[str], subject: frozenset[str]
) -> bool:
    """Whether the question names what sets ``cell`` apart from ``other``: one of its labels
    the other lacks (the two methods of one column, the two settings of one row), not a
    header level only one of them has ("top-1 | avg." beside "top-1")."""
    labels = {*cell.row_path, *cell.column_path} - {*other.row_path, *other.column_path}
    keys = set(cell.row_keys) - set(other.row_keys)
    return any(named_share(label, named, subject) > 0 for label in labels) or any(
        key_share(key, named) > 0 for key in keys
    )


@dataclass(frozen=True)
class Aligned:
    """A cell the question names: how well, in which table, whether the question asks for a
    count, and how well against the best-named cell of its paper."""

    score: float
    table: TableUnits
    cell: TableCell
    counts: bool
    relative: float


def _aligned_cells(data: SynthesisInput) -> list[Aligned]:
    """The cells the question names best, per paper (each read with its own view of the
    question, :mod:`littrace.read.views`)."""
    text = data.question.question
    tables = table_units(data.question, data)
    views = paper_views(text, [table.context.paper for table in tables])
    scored: dict[str, list[tuple[float, TableUnits, TableCell, bool]]] = {}
    for table in tables:
        view = _GLOSS.sub("", views.get(table.context.paper_id, text))
        # What only the sentences before the asking one name (the paper described) counts half.
        wanted, focus = asked_terms(view), asked_terms(asking_sentence(view))
        subject = subject_terms(subject_name(table.context), view)
        named, asked = own_named(wanted, subject, view), own_named(focus, subject, view)
        counts = _MAGNITUDE_ASKED.search(asking_clause(view)) is not None
        for cell in table.cells:
            if cell.value is not None:
                score = align(named, cell, subject, asked, table.glossary).score * table.weight
                if score > 0:
                    scored.setdefault(table.context.paper_id, []).append(
                        (score, table, cell, counts)
                    )
    top = []
    for found in scored.values():
        found.sort(key=lambda item: -item[0])
        # Papers describe themselves in their own words: an operand of another paper is
        # named as well as that paper's cells are named at best.
        top += [Aligned(*item, item[0] / found[0][0]) for item in found[:_TOP_CELLS]]
    return sorted(top, key=lambda item: -item.score)


@dataclass(frozen=True)
class Operand:
    """A number the question names: a table cell (``aligned``) or a quantity a prose
    sentence states, how well it is named, and how well against its paper's best."""

    score: float
    relative: float
    value: float
    text: str
    unit: str
    work: str
    where: str
    fact: Fact
    counts: bool
    aligned: Aligned | None = None
    # A stated quantity beside a term of the sentence that asks ("batch size of 256").
    asked_beside: bool = True


def _cell_operand(item: Aligned) -> Operand:
    cell = item.cell
    assert cell.value is not None
    where = f"{item.table.obj.scorer_id} {cell.row_path}/{cell.column_path}"
    return Operand(
        item.score,
        item.relative,
        cell.value,
        cell.text,
        _unit(cell.text),
        _work(item.table),
        where,
        item.table.fact(cell),
        item.counts,
        item,
    )


def _stated_operands(data: SynthesisInput) -> list[Operand]:
    """The quantities the selected papers' prose sentences state, each scored by how much of
    the question its sentence window names (rarer terms weigh more,
    :func:`~littrace.read.choice.sentences.window_score`), at half when no term of the
    sentence that asks stands beside the number ("batch size of 256", "16.4B tokens"); the
    terms that describe or name the papers find the sentence, not the number. A question
    asking for an amount of money ("how many US dollars more") reads amounts of money only
    ("$35 USD", "US$15")."""
    text = data.question.question
    windows = sentence_windows(data)
    weights = window_weights(data.question, data, windows)
    if weights is None:
        return []
    naming = {
        t
        for paper_id in data.papers
        if paper_id in data.contexts
        for t in terms(data.contexts[paper_id].paper.title)
    }
    focus = {
        t for t in terms(asking_sentence(text)) if t in weights.terms and t not in naming | GENERIC
    }
    counts = _MAGNITUDE_ASKED.search(asking_clause(text)) is not None
    money = _MONEY_ASKED.search(asking_sentence(text)) is not None
    found: dict[str, list[Operand]] = {}
    for window in windows:
        context = data.contexts[window.paper_id]
        base = weights.share(window)
        # Positions in the sentence as it states quantities: citation markers and bracketed
        # notes ("[PVLDB 2023]") dropped.
        plain = stated(_BRACKETED.sub(" ", window.text))
        stated_here: list[tuple[str, Operand]] = []
        for number in numbers(plain):
            if money and not _money(plain, number):
                continue
            unit = _SUFFIX.match(plain, number.end)
            nearness = _nearness(plain, number, unit.end() if unit else number.end, focus)
            score = base * nearness
            if score <= 0:
                continue
            fact = Fact(window.paper_id, window.chunk_id, window.text, number.value, "", "", "")
            stated_here.append(
                (
                    _counted_noun(plain, number, focus),
                    Operand(
                        score,
                        0.0,
                        number.value,
                        number.text,
                        _money(plain, number) or (unit.group(0) if unit else number.unit),
                        work_of(context.paper),
                        f"{window.paper_id} sentence {window.text[:60]!r}",
                        fact,
                        counts,
                        asked_beside=nearness > _NOT_BESIDE,
                    ),
                )
            )
        if _TOTAL.search(text):
            stated_here = _totals(stated_here)
        if stated_here:
            found.setdefault(window.paper_id, []).extend(operand for _, operand in stated_here)
    operands = []
    for held in found.values():
        held.sort(key=lambda operand: -operand.score)
        best = held[0].score
        operands += [replace(o, relative=o.score / best) for o in held[:_TOP_CELLS]]
    return operands


def _money(text: str, number: Number) -> str:
    """The unit of ``number`` in ``text`` when it is an amount of money ("$"), else ""."""
    before = text[max(0, number.start - 5) : number.start]
    if _CURRENCY_BEFORE.search(before) or _CURRENCY_AFTER.match(text, number.end):
        return "$"
    return ""


def _counted_noun(text: str, number: Number, focus: set[str]) -> str:
    """The term of ``focus`` that ``number`` counts: the first within a few words after it
    ("2 hard negatives"), or ""."""
    for word in text[number.end :].split()[:_BESIDE_WORDS]:
        found = focus.intersection(terms(word))
        if found:
            return min(found)
    return ""


def _totals(stated: list[tuple[str, Operand]]) -> list[tuple[str, Operand]]:
    """A sentence's quantities with the counts of one noun summed where the question asks
    for a total: "2 hard negatives ... and 3 easy negatives" is 5 negatives."""
    by_noun: dict[str, list[Operand]] = {}
    for noun, operand in stated:
        if noun:
            by_noun.setdefault(noun, []).append(operand)
    kept = [(noun, operand) for noun, operand in stated if len(by_noun.get(noun, [])) < 2]
    for noun, parts in by_noun.items():
        if len(parts) < 2 or len({part.unit for part in parts}) > 1:
            kept += [(noun, part) for part in parts]
            continue
        best = max(parts, key=lambda part: part.score)
        total = sum(part.value for part in parts)
        printed = " + ".join(part.text for part in parts)
        kept.append(
            (
                noun,
                replace(
                    best,
                    value=total,
                    text=_with_decimals(total, parts),
                    where=f"{best.where} ({printed})",
                    fact=replace(best.fact, value=total),
                ),
            )
        )
    return kept


def _with_decimals(value: float, operands: Sequence[Operand]) -> str:
    """``value`` printed with as many decimals as the most precise of its ``operands``
    ("83.64" - "79.14" = "4.50"), its thousands grouped when theirs all are ("1,089,536" -
    "1,056,768" = "32,768")."""
    places = max(decimals(operand.text) for operand in operands)
    grouped = all(_GROUPED.search(operand.text) for operand in operands)
    return f"{value:{',' if grouped else ''}.{places}f}"


# A number printed with its thousands grouped by commas.
_GROUPED = re.compile(r"\d,\d{3}(?!\d)")


def _nearness(text: str, number: Number, end: int, focus: set[str]) -> float:
    """How close a term of ``focus`` stands to ``number`` in ``text`` (``end``: past the
    scale printed onto it, "3.1B", which is no word between it and its noun): 1 right
    beside it, a tenth less per word between, a twentieth more per further term within
    reach, ``_NOT_BESIDE`` when none is within a few words ("for 20 epochs, where batch
    size of 256": "batch size" is nearer 256 than 20)."""
    before = text[: number.start].split()[-_BESIDE_WORDS:][::-1]
    after = text[end:].split()[:_BESIDE_WORDS]
    near: dict[str, int] = {}
    for side in (before, after):
        for k, word in enumerate(side, 1):
            for term in focus.intersection(terms(word)):
                near[term] = min(near.get(term, k), k)
    if not near:
        return _NOT_BESIDE
    return 1.0 - _PER_WORD * (min(near.values()) - 1) + _FURTHER_TERM * (len(near) - 1)


def _pairable(a: Operand, b: Operand) -> bool:
    """Whether two operands are those of a computation the question asks for: like
    quantities (not a parameter count "1.1B" beside a score, nor two counts unless the
    question asks for a count); in one table, two cells of one column, or of one row under
    headers that differ at one level; a sentence's
    quantity only beside another work's number."""
    if a.value == b.value or a.unit != b.unit:
        return False
    if a.unit.upper() in _MAGNITUDES and not a.counts:
        return False
    if a.work != b.work:
        return True
    if a.aligned is None or b.aligned is None:
        return False
    table_a, cell_a, table_b, cell_b = (
        a.aligned.table,
        a.aligned.cell,
        b.aligned.table,
        b.aligned.cell,
    )
    if not _same_table(table_a, table_b):
        return False
    # Two cells of one row measure one thing in two settings ("Pass" under "I1-Cat." and
    # under "Average"), not two things in two ("I1-Cat. Pass" beside "Average Win").
    return cell_a.column_path == cell_b.column_path or (
        cell_a.row_path == cell_b.row_path
        and len(cell_a.column_path) == len(cell_b.column_path)
        and sum(x != y for x, y in zip(cell_a.column_path, cell_b.column_path, strict=True)) <= 1
    )


def _best_of_group(first: Aligned, second: Aligned, question: str) -> bool:
    """Whether, of two cells of one column, one is the best of the group the question names
    it by ("lead the best of those fine-tuned variants": the column's rows whose labels the
    group's words name, two or more), the best read as the lowest where lower is better.
    True when the question names no such group."""
    said = _BEST_OF.search(question)
    if said is None or first.cell.column_path != second.cell.column_path:
        return True
    group_terms = question_terms(said["group"])
    column = [
        cell
        for cell in first.table.cells
        if cell.column_path == first.cell.column_path and cell.value is not None
    ]
    group = [c for c in column if named_share(c.row_path[-1], group_terms, frozenset()) > 0]
    if len(group) < 2:
        return True
    caption = first.table.obj.caption
    lower = lower_is_better(question, caption, " ".join(first.cell.column_path))
    values = [c.value for c in group if c.value is not None]
    best = min(values) if lower else max(values)
    return any(cell in group and cell.value == best for cell in (first.cell, second.cell))


def _work(table: TableUnits) -> str:
    return work_of(table.context.paper)


def _same_table(a: TableUnits, b: TableUnits) -> bool:
    """Whether two tables are one: the same table, or one table of two versions of a paper."""
    return a is b or (_work(a) == _work(b) and a.obj.scorer_id == b.obj.scorer_id)


def _operate(operation: str, a: float, b: float) -> float | None:
    """``a`` and ``b`` combined as the question asks: their absolute difference, or the
    larger over the smaller."""
    if operation == _RATIO_OPERATION:
        low, high = sorted((abs(a), abs(b)))
        return high / low if low > 0 else None
    return abs(a - b)


def _strength(operand: Operand, options: Sequence[str]) -> float:
    """How well an operand is named, as pairs are ranked and floored: against its paper's
    best when checked by options or stated in prose (whose scores are a sentence's share of
    the question), else by its cell's alignment."""
    return operand.relative if options or operand.aligned is None else operand.score


def asked_operation(question: str) -> str | None:
    """The computation a question asks for: a ratio ("how many times larger"), a difference
    ("by how many points"), or None."""
    if _RATIO.search(question):
        return _RATIO_OPERATION
    return _DIFFERENCE_OPERATION if _DIFFERENCE.search(question) else None


def computed_value(data: SynthesisInput, options: Sequence[str] = ()) -> Computed | None:
    """The computation the question asks for (:func:`asked_operation`) of the two numbers it
    names best that it compares (one row or column of a table, or one number of each of
    two works it describes, from a table or a prose sentence); with ``options``, of the best
    pair whose result is one of them, printed as the option is."""
    text = data.question.question
    operation = asked_operation(text)
    if operation is None:
        return None
    wanted = asked_terms(_GLOSS.sub("", text))
    top = _aligned_cells(data)
    # What the question names of each paper, for telling two cells of one table apart.
    told: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    for item in top:
        paper_id = item.table.context.paper_id
        if paper_id not in told:
            subject = subject_terms(subject_name(item.table.context), text)
            told[paper_id] = (own_named(wanted, subject, text), subject)
    # A question describing two selected works compares one number of each, which either
    # may state in prose rather than in a table.
    papers = [data.contexts[p].paper for p in data.papers if p in data.contexts]
    described = {work for part in question_parts(text, papers) for work in part.works}
    operands = [_cell_operand(item) for item in top]
    if len(described) > 1:
        operands += _stated_operands(data)
    across = len(described) > 1 and len({o.work for o in operands}) > 1
    if not options:
        # Unchecked by options, a stated quantity must be its paper's best-named one, beside
        # a term of the sentence that asks.
        operands = [
            o
            for o in operands
            if o.aligned is not None or (o.relative >= _PAPER_BEST and o.asked_beside)
        ]
    operands.sort(key=lambda operand: -operand.score)
    best = None
    for i, first in enumerate(operands):
        for second in operands[i + 1 :]:
            if not _pairable(first, second):
                continue
            if across and first.work == second.work:
                continue
            if first.aligned is not None and second.aligned is not None:
                a, b = first.aligned, second.aligned
                if _same_table(a.table, b.table):
                    named, subject = told[a.table.context.paper_id]
                    if not _compared(a.cell, b.cell, named, subject) or not _compared(
                        b.cell, a.cell, named, subject
                    ):
                        continue
                    if not _best_of_group(a, b, text):
                        continue
            result = _operate(operation, first.value, second.value)
            if result is None:
                continue
            printed = next((o for o in options if same_number(result, o)), None)
            if options and printed is None:
                continue
            # Checked against the options, each operand need only be among the numbers its
            # paper's words name best; else a cell must be named outright.
            scores = (_strength(first, options), _strength(second, options))
            pair = (sum(scores), min(scores))
            if best is None or pair > best[0]:
                best = (pair, first, second, result, printed)
    if best is None or best[0][1] < (_MIN_RELATIVE if options else _MIN_OPERAND):
        return None
    _, first, second, result, printed = best
    if operation == _RATIO_OPERATION:
        shown = f"{result:.2f}".rstrip("0").rstrip(".")
        how = (
            f"{first.text} / {second.text}"
            if first.value >= second.value
            else f"{second.text} / {first.text}"
        )
    else:
        shown = _with_decimals(result, (first, second))
        how = f"|{first.text} - {second.text}|"
    how += f": {first.where} and {second.where}"
    return Computed(printed or shown, parse_value(shown) or result, how, [first.fact, second.fact])
