"""Table answers (TRACE §3.3) and the table-cell lookups the synthesizer shares.

The row entity is the schema's key column(s). One selected work (two pool records of a
paper are one work), the one work whose tables print every listed entity, or the one whose
table prints every number column by name and names another of the works (another paper's
scores reprinted beside its own), gives the rows of its best-fitting table, projected onto
the schema (a located figure that prints each value with its label,
:func:`~littrace.read.charts.labelled_values`, is one of its tables); a question pointing at
several tables of one paper ("across both filter tables") gets the rows of as many of its
best-fitting ones. With several works, value columns that name their papers ("Finetune (2019
paper)"), that one paper's headers alone carry, or that echo what the question says of one
paper ("the retrained model's mean") are read off each paper's own table and the rows
joined (:mod:`littrace.read.cross_paper`); else each paper's table gives the rows the question
chooses there, read with the whole question or with the clauses describing that paper
("every method in the 2026 paper's study, plus the two base models in the 2025 paper's
table"), and the rows are put together. Rows read off one paper's table gain a row for each
other paper the question describes in a clause of its own, under a key of models or
methods: what it introduces, with the values its text states. When no header of the one
work's tables names a value column, the rows are still that table's (the one that fits the
key column, the question's words and named rows best), each value read where its row label
and column name meet, else null. Otherwise, when the question lists its entities
(``plan.rows``) the row ledger is fixed to them; when the key column names papers, each
selected paper is a row. Every other column is filled per row from its source paper: detected
table cells first (row label against the entity, header against the column name), then a
sentence stating the value (for what the paper itself introduces, in any of its paragraphs),
then the localizer's best item for that column (a printed object id such as ``"Equation
3"``, a reference number, or a number in the passage, not a citation's). Rows are keyed by
the normalised row key, complementary cells of one key are merged, all-null rows dropped and
every value typed (numbers as JSON numbers without units or ``%``, null only when missing).

Example:
    >>> cells = (("Method", "SciDocs-S"), ("BM25", "31.2"), ("SparseSieve", "41.2%"))
    >>> lookup_cell(cells, "SparseSieve", "nDCG@10 on SciDocs-S")
    CellMatch(value='41.2%', row='SparseSieve', column='SciDocs-S', score=1.0)
    >>> typed_value("41.2%", "number"), typed_value("yes", "boolean")
    (41.2, True)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from littrace.corpus.document import PaperObject
from littrace.littraceqa import TableColumn
from littrace.numbers import numbers, parse_value
from littrace.read.abbreviations import table_glossary
from littrace.read.cells import CellMatch, label_terms, lookup_cell
from littrace.read.cross_paper import Cue, column_papers, join_rows, names_entity
from littrace.read.localize import caption_named, paper_candidates
from littrace.read.projection import (
    MIN_COLUMN_MATCH,
    ROWS_NAMED,
    Projection,
    compared_rows,
    key_header_level,
    project,
)
from littrace.read.records import Fact, PaperContext, SynthesisInput
from littrace.read.references import citation_ids
from littrace.read.select import paper_descriptions
from littrace.read.stated import names_column, stated_value
from littrace.read.text import (
    asking_clause,
    contains_phrase,
    coverage,
    norm,
    positive_forms,
    sentences,
    terms,
)
from littrace.read.units import (
    CITATION,
    label_share,
    question_terms,
    stated_counts,
    table_cells,
)

_TRUE = {"yes", "true", "y", "1", "✓", "x"}
_FALSE = {"no", "false", "n", "0", "✗", "-"}


def typed_value(raw: Any, column_type: str) -> Any:
    """``raw`` as the schema's type: a number without units (a whole one written as
    printed, "224" rather than "224.0": the scorer reads a number key as text), a bool, a
    string; else None."""
    if raw is None:
        return None
    if column_type == "number":
        if isinstance(raw, bool):
            return None
        if isinstance(raw, int | float):
            value = raw
        else:
            found = numbers(str(raw))
            if not found:
                return None
            value = found[0].value
        return int(value) if isinstance(value, float) and value.is_integer() else value
    if column_type == "boolean":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        return True if text in _TRUE else False if text in _FALSE else None
    text = str(raw).strip()
    return text or None


def best_table_cell(
    objects: tuple[PaperObject, ...], entity: str, column: str
) -> tuple[PaperObject, CellMatch] | None:
    """Over a paper's detected tables, the best :func:`lookup_cell` match."""
    found: tuple[PaperObject, CellMatch] | None = None
    for obj in objects:
        if obj.kind != "table" or not obj.cells:
            continue
        match = lookup_cell(obj.cells, entity, column, both_ways=True)
        if match and (found is None or match.score > found[1].score):
            found = (obj, match)
    return found


# A table a figure prints: the figure, and its grid of label and value rows under the caption.
FigureTable = tuple[PaperObject, tuple[tuple[str, ...], ...]]


class ReadRows(NamedTuple):
    """Rows read off tables: each entity's raw values, the cells read, how, and whether the
    question chose the rows read (:attr:`~littrace.read.projection.Projection.chooses_rows`)."""

    entities: list[tuple[str, dict[str, Any]]]
    facts: list[Fact]
    how: str
    chosen: bool = False


class TableAnswer(NamedTuple):
    """A table answer: its typed rows, the facts they rest on, how the rows were chosen, and
    its evidence: the cells of a table whose rows the question chose, or the sentences
    stating values no table holds (``stated``), which stand where the localizer sought a
    printed value."""

    rows: list[dict[str, Any]]
    facts: list[Fact]
    how: str
    grounds: list[Fact]
    stated: bool = False


def subject_terms(context: PaperContext) -> set[str]:
    return set(terms(context.paper.title))


def paper_tables(context: PaperContext) -> list[PaperObject]:
    return [obj for obj in context.objects if obj.kind == "table" and obj.cells]


def cell_fact(context: PaperContext, obj: PaperObject, match: CellMatch) -> Fact:
    chunk = next((c.chunk_id for c in context.chunks if c.object_id == obj.object_id), "")
    number = parse_value(match.value)
    return Fact(
        context.paper_id,
        chunk,
        match.value,
        number,
        "%" if "%" in match.value else "",
        match.row,
        f"{obj.scorer_id}: {match.column}",
    )


def find_cell(
    question_text: str, context: PaperContext, entity: str | None = None
) -> tuple[PaperObject, CellMatch] | None:
    """The table cell the question asks for in one paper (see the module doc)."""
    subject = subject_terms(context)
    words = terms(question_text)
    query = set(words)
    asking = asking_clause(question_text)
    # In the question's order: row labels are matched with the order of their words.
    unnamed = " ".join(t for t in dict.fromkeys(words) if t not in subject)
    entities = [entity] if entity else [unnamed, question_text]
    for wanted in entities:
        best: tuple[PaperObject, CellMatch] | None = None
        for obj in paper_tables(context):
            match = lookup_cell(obj.cells, wanted, question_text, ask=asking)
            caption = coverage(dict.fromkeys(query, 1.0), obj.caption)
            if match is None:
                continue
            ranked = (match.score, caption)
            if best is None or ranked > (
                best[1].score,
                coverage(dict.fromkeys(query, 1.0), best[0].caption),
            ):
                best = (obj, match)
        if best is not None:
            return best
    return None


def assemble_rows(
    schema: list[TableColumn],
    entities: list[tuple[str, dict[str, Any]]],
    keep_empty: bool = False,
) -> list[dict[str, Any]]:
    """Typed rows from ``(row key, raw values by column)`` pairs, merged per key (case and
    spacing aside).

    Complementary cells of one key are merged (the first non-null value wins), rows whose
    non-key cells are all null are dropped (kept with ``keep_empty``: rows whose keys are the
    answer), and every row has exactly the schema's columns.
    """
    keys = [column.name for column in schema if column.is_row_key] or [schema[0].name]
    merged: dict[str, dict[str, Any]] = {}
    for key_text, raw in entities:
        typed = {c.name: typed_value(raw.get(c.name), c.type) for c in schema}
        for name in keys:
            if typed[name] is None:
                typed[name] = typed_value(key_text, _type_of(schema, name))
        # Keys are told apart as the scorer does (case and spacing aside): "β+" is not "β−".
        row_key = " ".join(" ".join(str(typed[name]) for name in keys).lower().split())
        held = merged.setdefault(row_key, dict.fromkeys(typed))
        for name, value in typed.items():
            if held[name] is None:
                held[name] = value
    values = [c.name for c in schema if c.name not in keys]
    return [
        row
        for row in merged.values()
        if keep_empty or not values or any(row[name] is not None for name in values)
    ]


def _type_of(schema: list[TableColumn], name: str) -> str:
    return next(column.type for column in schema if column.name == name)


STRING_CHARS = 200  # a string cell taken from a passage is its first sentence, cut to this
# How well each paper's table must carry the question's columns for rows of several papers'
# tables to be put together.
_UNION_FIT = 0.5
# A hyphen the extractor left a space after ("S2ORC- SCIBERT").
_LINE_BREAK_HYPHEN = re.compile(r"(?<=\w)-\s+(?=\w)")
_PAPER_KEY = re.compile(r"\b(?:paper|title|article|work)\b", re.I)
_TITLE_KEY = re.compile(r"\btitle\b", re.I)
_METHOD_KEY = re.compile(
    r"\b(?:model|method|system|approach|algorithm|architecture|baseline|variant)s?\b", re.I
)
_OBJECT_WORDS = {
    "equation": "equation_id",
    "table": "table_id",
    "figure": "figure_id",
    "algorithm": "algorithm_id",
    "reference": "citation_id",
    "citation": "citation_id",
}


def subject_name(context: PaperContext) -> str:
    """What a paper introduces: its title's head before a colon (``"FuseSieve: ..."``) or
    its acronym before a comma (``"QFFT, Question-Free Fine-Tuning ..."``), else the row of
    its tables printing an acronym of its title's words ("RAPT" for "... Retrieval Augmented
    Conditional Prompt Tuning"), else the row named by its title's words, else the title."""
    title = context.paper.title.strip()
    head = title.split(":")[0].strip()
    if head != title and 0 < len(head.split()) <= 4:
        return head
    head = title.split(",")[0].strip()
    if head != title and _ACRONYM.fullmatch(head):
        return head
    rows = [row[0].strip() for obj in paper_tables(context) for row in obj.cells[1:] if row]
    initials = "".join(word[0] for word in re.findall(r"[A-Za-z]+", title)).upper()
    acronyms = [r for r in rows if _ACRONYM.fullmatch(r) and _in_order(r.upper(), initials)]
    if acronyms:
        return max(acronyms, key=len)
    words = set(terms(title))
    return next((r for r in rows if r and label_terms(r) <= words), title)


def paper_label(context: PaperContext) -> str:
    """A paper as a table answer's key names it: what it introduces, then where and when it
    appeared ("QFFT (arXiv 2025)"); a paper introducing nothing by name, where and when
    alone ("NAACL 2018"), as a question describes it."""
    where = " ".join(str(part) for part in (context.paper.venue, context.paper.year) if part)
    name = subject_name(context)
    if name == context.paper.title.strip() and where:
        return where
    return f"{name} ({where})" if where else name


# A method's acronym as printed: capitals (a digit or hyphen among them), "QFFT", "RAPT".
_ACRONYM = re.compile(r"[A-Z][A-Z0-9-]{2,7}")


def _in_order(letters: str, initials: str) -> bool:
    """Whether ``letters`` are the initials of consecutive title words, one word skipped at
    most ("RAPT" in "Retrieval Augmented Conditional Prompt Tuning")."""

    def walk(at: int, rest: str, skips: int) -> bool:
        if not rest:
            return True
        if at < len(initials) and initials[at] == rest[0]:
            return walk(at + 1, rest[1:], skips)
        return skips > 0 and at + 1 < len(initials) and walk(at + 1, rest, skips - 1)

    return any(walk(i + 1, letters[1:], 1) for i, c in enumerate(initials) if c == letters[0])


def _row_ledger(data: SynthesisInput, key: TableColumn) -> list[tuple[str, PaperContext | None]]:
    """(row entity, its source paper) for each row: the listed entities (plus the subjects of
    selected papers none of them names), one row per paper for a paper key, one per subject
    for several papers, else the rows of the one paper's best-fitting table."""
    contexts = [data.contexts[p] for p in data.papers if p in data.contexts]
    if _PAPER_KEY.search(key.name):
        return [(context.paper.title, context) for context in contexts]
    if data.plan.rows:
        ledger: list[tuple[str, PaperContext | None]] = []
        for entity in data.plan.rows:
            source = next((c for c in contexts if contains_phrase(c.paper.title, entity)), None)
            ledger.append((entity, source or _mentioning(contexts, entity)))
        named = {id(source) for _, source in ledger if source is not None}
        extra = [c for c in contexts if id(c) not in named and len(contexts) > 1]
        return ledger + [(subject_name(c), c) for c in extra]
    if len(contexts) > 1:
        return [(subject_name(context), context) for context in contexts]
    return []


def _mentioning(contexts: Sequence[PaperContext], entity: str) -> PaperContext | None:
    """The paper whose text names ``entity`` most often (the only paper, whatever it
    names), or None when none names it or two name it equally often."""
    if len(contexts) == 1:
        return contexts[0]
    counts = sorted(
        (
            (sum(contains_phrase(chunk.text, entity) for chunk in c.chunks), i)
            for i, c in enumerate(contexts)
        ),
        reverse=True,
    )
    if counts[0][0] == 0 or counts[0][0] == counts[1][0]:
        return None
    return contexts[counts[0][1]]


def best_projection(
    data: SynthesisInput,
    context: PaperContext,
    schema: list[TableColumn] | None = None,
    own_column: bool = False,
    figures: Sequence[FigureTable] = (),
) -> tuple[PaperObject, Projection] | None:
    """The paper's table that carries ``schema`` (the question's by default) best (header
    fit, then how much of the question its caption and headers hold), projected onto it;
    ``own_column`` as in :func:`~littrace.read.projection.project`; ``figures``: the tables
    figures print (:func:`figure_table`), read with the paper's tables."""
    ranked = ranked_projections(data, context, schema, own_column, figures)
    return ranked[0] if ranked else None


def ranked_projections(
    data: SynthesisInput,
    context: PaperContext,
    schema: list[TableColumn] | None = None,
    own_column: bool = False,
    figures: Sequence[FigureTable] = (),
) -> list[tuple[PaperObject, Projection]]:
    """The paper's tables that carry ``schema``, each projected onto it, best first (see
    :func:`best_projection`)."""
    if schema is None:
        schema = data.question.table_schema or []
    query = dict.fromkeys(terms(data.question.question), 1.0)
    located = {
        item.locator.get("table_id")
        for item in data.evidence
        if item.paper_id == context.paper_id and item.source_type == "table"
    }
    tables = [(obj, obj.cells) for obj in paper_tables(context)]
    tables += [(obj, grid) for obj, grid in figures if obj.paper_id == context.paper_id]
    captions = {obj.object_id: _names(obj.caption) for obj, _ in tables}
    # "The larger GPT2 model" is the one a caption calls "GPT2 Large".
    captioned = {term for obj, _ in tables for term in terms(obj.caption)}
    query |= dict.fromkeys(positive_forms(query, captioned), 1.0)
    identifying = set(terms(context.paper.title))
    printed_in = Counter(name for names in captions.values() for name in names)
    headed = {obj.object_id: _header_labels(grid) for obj, grid in tables}
    headed_in = Counter(label for labels in headed.values() for label in labels)
    named_columns = set(terms(" ".join(column.name for column in schema)))
    found_in: list[tuple[tuple[float, float], PaperObject, Projection]] = []
    for obj, grid in tables:
        found = project(
            grid,
            schema,
            data.question.question,
            data.plan.rows,
            subject_name(context),
            table_glossary(context, obj),
            own_column,
            obj.caption,
        )
        if found is None:
            continue
        headers = " ".join(" ".join(path) for path in found.columns.values())
        # Headers carrying the schema, and, each worth a quarter of that, rows the question
        # names, a name the question prints that only this table's caption holds ("MLDR"
        # among the paper's retrieval tables) and the localizer having found the table; at
        # an eighth, the question describing it by its caption's title ("the
        # hyperparameter-robustness study" for "Hyperparameter robustness on ...").
        only_here = {name for name in captions[obj.object_id] if printed_in[name] == 1}
        # A header over the read columns that only this table prints, the question printing
        # its words beyond the columns' names ("trigger identification + classification
        # precision" over "Trigger Identification | + Classification (%) | P").
        heading = {
            label
            for path in found.columns.values()
            for label in map(norm, path)
            if headed_in[label] == 1
            # Two words at least: one ("Source") may be said of anything.
            and len(said := set(terms(label)) - named_columns) >= 2
            and said <= set(query)
        }
        fit = (
            found.rank
            + ROWS_NAMED * bool(only_here.intersection(query) or heading)
            + ROWS_NAMED * (obj.scorer_id in located)
            + ROWS_NAMED / 2 * (caption_named(obj.caption, set(query), identifying) > 0)
        )
        rank = (round(fit, 6), coverage(query, f"{obj.caption} {headers}"))
        found_in.append((rank, obj, found))
    # Of tables ranked alike, the first printed.
    found_in.sort(key=lambda ranked: ranked[0], reverse=True)
    return [(obj, found) for _, obj, found in found_in]


# A name as printed: capitals or digits past its first letter ("MLDR", "ADE20K", "nDCG@10").
_NAME = re.compile(r"\b\w*(?:[A-Z]\w*[A-Z0-9]|[0-9])\S*")


def _header_labels(grid: Sequence[Sequence[str]]) -> set[str]:
    """The column-header labels of a table grid, normalized."""
    return {norm(label) for cell in table_cells(grid) for label in cell.column_path if norm(label)}


def _names(text: str) -> set[str]:
    """The terms of the names ``text`` prints."""
    return {term for name in _NAME.findall(text) for term in terms(name) if not term.isdigit()}


def _projected_rows(
    data: SynthesisInput,
    context: PaperContext,
    key: TableColumn,
    schema: list[TableColumn] | None = None,
    own_column: bool = False,
    figures: Sequence[FigureTable] = (),
) -> ReadRows | None:
    found = best_projection(data, context, schema, own_column, figures)
    return None if found is None else _read_projection(context, *found, key)


# Words before "table" pointing back at one already said ("that table"), not at another.
_BACK_REFERENCE = frozenset({"that", "the", "this", "same"})
# How far before "table(s)" a "both" or "two" counts the tables: "both filter tables", "both
# the ablation table and the comparison with ...".
_COUNT_WINDOW = 6


def tables_asked(question: str) -> int:
    """How many tables the question reads: each "table" it points at anew, two at least
    where "both" or "two" comes shortly before one.

    Example:
        >>> tables_asked("Combining its main table with its test-time-rewriting table, ...")
        2
        >>> tables_asked("Across both filter tables, which filters removed the most?")
        2
        >>> tables_asked("In its ablation table, which variant scores best in that table?")
        1
    """
    words = re.findall(r"[\w'’-]+", question.lower())
    anew = [
        i
        for i, word in enumerate(words)
        if word in ("table", "tables") and not (i and words[i - 1] in _BACK_REFERENCE)
    ]
    counted = any({"both", "two"} & set(words[max(0, i - _COUNT_WINDOW) : i]) for i in anew)
    return max(len(anew), 2 if counted else 0)


def _asked_tables_rows(
    data: SynthesisInput,
    context: PaperContext,
    key: TableColumn,
    figures: Sequence[FigureTable] = (),
) -> ReadRows | None:
    """The rows of the paper's table that carries the question best or, where the question
    reads several of its tables ("across both filter tables"), of as many of them as carry
    its columns well enough (as several papers' tables are put together), best first, each
    row once."""
    asked = tables_asked(data.question.question)
    if asked < 2:
        return _projected_rows(data, context, key, figures=figures)
    ranked = ranked_projections(data, context, figures=figures)
    read = [
        _read_projection(context, obj, projection, key)
        for rank, (obj, projection) in enumerate(ranked)
        if projection.rows and (rank == 0 or projection.fit >= _UNION_FIT)
    ][:asked]
    if not read:
        return None
    entities: dict[str, tuple[str, dict[str, Any]]] = {}
    for rows in read:
        for label, raw in rows.entities:
            entities.setdefault(norm(label), (label, raw))
    # Tables read because the question asks for several are chosen by it, as named rows are.
    return ReadRows(
        list(entities.values()),
        [fact for rows in read for fact in rows.facts],
        "; ".join(rows.how for rows in read),
        len(read) > 1 or read[0].chosen,
    )


def _read_projection(
    context: PaperContext, obj: PaperObject, projection: Projection, key: TableColumn
) -> ReadRows:
    """The rows a projection of the paper's table ``obj`` reads, with the cells read."""
    entities: list[tuple[str, dict[str, Any]]] = []
    facts: list[Fact] = []
    for row in projection.rows:
        raw: dict[str, Any] = {key.name: row.key, **row.keys}
        for name, cell in row.values.items():
            raw[name] = cell.text
            match = CellMatch(cell.text, row.key, " / ".join(cell.column_path), projection.fit)
            facts.append(cell_fact(context, obj, match))
        entities.append((row.key, raw))
    how = f"{obj.object_id} projected{' transposed' if projection.transposed else ''}"
    if projection.across:
        how += f", row {projection.across!r} across its columns"
    if projection.narrowed_by:
        how += f", {projection.narrowed_by}"
    return ReadRows(entities, facts, how, projection.chooses_rows)


def _located_value(
    data: SynthesisInput, context: PaperContext, column: TableColumn
) -> tuple[Any, Fact | None]:
    """A column value from the localizer's best item of the paper for this column."""
    question = data.question.model_copy(
        update={"question": f"{data.question.question} {column.name}"}
    )
    field_name = _object_field(column.name)
    for item in paper_candidates(question, data.plan, context):
        if field_name is not None and field_name not in item.locator:
            continue
        if field_name is not None:
            raw = str(item.locator[field_name])
        else:
            # A citation's year or reference number is no value of the column, and a
            # passage printing no other number states none.
            found = numbers(CITATION.sub("", item.text)) if column.type == "number" else []
            if column.type == "number" and not found:
                return None, None
            first = sentences(item.text)
            raw = found[-1].text if found else (first[0] if first else item.text)[:STRING_CHARS]
        fact = Fact(
            context.paper_id, item.chunk_id, item.text, parse_value(raw), "", "", column.name
        )
        return raw, fact
    return None, None


def _entry_years(
    schema: list[TableColumn], raw: dict[str, Any], context: PaperContext
) -> dict[str, int]:
    """The year columns of a row that located a bibliography entry (a "Reference number"
    column), read from that entry as parsed: the year printed in it, not the last number
    of whatever passage matched the column's name."""
    numbered = [
        f"{value:g}" if isinstance(value, float) else str(value)
        for c in schema
        if (value := raw.get(c.name)) is not None and _object_field(c.name) == "citation_id"
    ]
    if not numbered:
        return {}
    ids = citation_ids(context.references)
    entry = next((e for e in context.references if ids[e.label] == numbered[0]), None)
    if entry is None or entry.year is None:
        return {}
    return {c.name: entry.year for c in schema if _YEAR.search(c.name)}


def _object_field(name: str) -> str | None:
    """The locator field a column named after an object reads ("Reference number":
    ``citation_id``), or None."""
    return next((field for word, field in _OBJECT_WORDS.items() if word in name.lower()), None)


_YEAR = re.compile(r"\byear\b", re.IGNORECASE)


def _listing_paper(
    entities: Sequence[str], contexts: Sequence[PaperContext]
) -> PaperContext | None:
    """The one paper whose tables print every entity the question lists (two or more) as a
    row or column label: the rows of a table answer all come from it, unless an entity
    names another selected paper (then each row reads its own paper)."""
    if len(entities) < 2:
        return None
    labels = {id(c): _labels(c) for c in contexts}
    holding = [
        c
        for c in contexts
        if all(any(names_entity(label, e) for label in labels[id(c)]) for e in entities)
    ]
    if len(holding) != 1:
        return None
    others = [c for c in contexts if c is not holding[0]]
    if any(contains_phrase(c.paper.title, entity) for c in others for entity in entities):
        return None
    return holding[0]


def _carrying_paper(data: SynthesisInput, works: Sequence[PaperContext]) -> PaperContext | None:
    """The one paper of several with a table whose headers print every word of every number
    column of the answer and that names another of the works: the answer is read off that
    table (one reprinting another paper's scores beside its own, "SCIBERT | S2ORC-SCIBERT"),
    not column by column off each paper. A table naming no other work is its own paper's
    share of the answer (its hyperparameters beside each other paper's)."""
    schema = data.question.table_schema or []
    # Rows keyed further ("Dataset | Paper", "Dataset | Reported in") may be each paper's own.
    if sum(c.is_row_key for c in schema) > 1:
        return None
    numbers = [c.name for c in schema if not c.is_row_key and c.type == "number"]
    carrying = [
        (context, found[0])
        for context in works
        if numbers
        and (found := best_projection(data, context))
        and all(
            name in found[1].columns
            and names_column(_LINE_BREAK_HYPHEN.sub("-", " ".join(found[1].columns[name])), name)
            for name in numbers
        )
    ]
    if len(carrying) != 1:
        return None
    context, obj = carrying[0]
    others = [subject_name(work) for work in works if work is not context]
    labels = {
        label for cell in table_cells(obj.cells) for label in cell.column_path + cell.row_path
    }
    named = any(_names_label(label, other) for label in labels for other in others)
    return context if named else None


def _cues(contexts: Sequence[PaperContext]) -> dict[str, Cue]:
    """Each paper's id -> what a column name may point at it by (year, venue, title)."""
    return {c.paper_id: Cue(c.paper.year, c.paper.venue, c.paper.title) for c in contexts}


def _labels(context: PaperContext, columns: bool = True) -> set[str]:
    """The innermost row and (with ``columns``) column labels the paper's tables print."""
    return {
        label
        for obj in paper_tables(context)
        for cell in table_cells(obj.cells)
        for label in (cell.row_path[-1:] + (cell.column_path[-1:] if columns else ()))
    }


def _distinct_works(contexts: Sequence[PaperContext]) -> list[PaperContext]:
    """``contexts`` with one record per work (two pool records of one paper share a title)."""
    works: dict[str, PaperContext] = {}
    for context in contexts:
        works.setdefault(" ".join(terms(context.paper.title)), context)
    return list(works.values())


def _cross_paper_rows(
    data: SynthesisInput, works: Sequence[PaperContext], key: TableColumn
) -> ReadRows | None:
    """Rows whose value columns read different papers (see :mod:`littrace.read.cross_paper`),
    or None when no column is one paper's."""
    schema = data.question.table_schema or []
    values = [c for c in schema if not c.is_row_key and c is not key]
    # A column a table prints whole ("Learning rate" in "peak learning rate") names a
    # measure, not a paper, whatever title word it shares ("... Representation Learning"),
    # unless it names what a paper introduces ("SciBERT").
    printed = {question_terms(label) for context in works for label in _labels(context)}
    subjects = [question_terms(subject_name(context)) for context in works]
    owners = column_papers(
        [
            c.name
            for c in values
            if not any(label_share(c.name, p) >= 1.0 for p in printed)
            or any(label_share(c.name, subject) >= 1.0 for subject in subjects)
        ],
        _cues(works),
    )
    fits = {
        column.name: sorted(
            (
                (carried[1].fit, context.paper_id)
                for context in works
                if (carried := best_projection(data, context, [key, column]))
            ),
            reverse=True,
        )
        for column in values
        if column.name not in owners
    }
    # A column no paper's headers name that echoes what the question says of one paper
    # ("the retrained model's mean" of "an ACL 2020 paper that ... retrains a BERT-Base
    # model") is that paper's own method's.
    for name, found in fits.items():
        if not any(fit > MIN_COLUMN_MATCH for fit, _ in found):
            described = _described_paper(name, data.question.question, works)
            if described is not None:
                owners[name] = described
    # A column only one paper's headers name is that paper's; one several carry is the
    # best carrier's when the other columns name their papers (a table split by column),
    # else each row's own (a table split by row, read by the ledger).
    for name, found in fits.items():
        if name not in owners and len([fit for fit in found if fit[0] > MIN_COLUMN_MATCH]) == 1:
            owners[name] = found[0][1]
    for name, found in fits.items():
        if name not in owners and owners and len(found) > 1 and found[0][0] > found[1][0]:
            owners[name] = found[0][1]
    if not owners:
        return None
    # Further key columns ("Dataset | Task") are read from the label columns their headers
    # name, and tell the rows apart in the join.
    further = [c for c in schema if c.is_row_key and c is not key]
    parts: list[list[tuple[str, dict[str, Any]]]] = []
    facts: list[Fact] = []
    hows: list[str] = []
    chosen: list[bool] = []
    for context in works:
        columns = [c for c in values if owners.get(c.name) == context.paper_id]
        if not columns:
            continue
        projected = _projected_rows(data, context, key, [key, *further, *columns], own_column=True)
        if projected is None:
            continue
        parts.append([(label, _without(raw, key.name)) for label, raw in projected.entities])
        facts += projected.facts
        hows.append(f"{context.paper_id}: {projected.how}")
        chosen.append(projected.chosen)
    if not parts:
        return None
    rows = [
        (label, {key.name: label, **raw})
        for label, raw in join_rows(parts, data.plan.rows, [c.name for c in further])
    ]
    # A comparison of columns read in different papers ("where does the prior state of the
    # art beat the 2020 model's mean") selects among the joined rows.
    measured = [c for c in values if c.type == "number"]
    numeric = {
        i: {c.name: parse_value(str(raw.get(c.name) or "")) for c in measured}
        for i, (_, raw) in enumerate(rows)
    }
    compared, said = compared_rows(
        numeric, data.question.question, {c.name: c.name for c in measured}
    )
    if compared:
        rows = [rows[i] for i in compared]
        hows.append(said)
    return ReadRows(rows, facts, "; ".join(hows), bool(compared) or all(chosen))


def _described_paper(name: str, question: str, works: Sequence[PaperContext]) -> str | None:
    """The one work whose description in ``question`` (the words around its year and venue)
    holds more of the column ``name``'s terms than any other's does, half of them at least.

    Example: "Retrained model mean" is the ACL 2020 paper's in "An ACL 2020 paper that
    builds a corpus retrains a BERT-Base model ... beside the EMNLP 2019 BERT model".
    """
    venues = sorted({c.paper.venue for c in works if c.paper.venue})
    held: dict[str, float] = {}
    for description in paper_descriptions(question, venues):
        fitting = [c.paper_id for c in works if description.fits(c.paper)]
        if len(fitting) == 1:
            share = label_share(name, question_terms(description.words))
            held[fitting[0]] = max(held.get(fitting[0], 0.0), share)
    ranked = sorted(held.items(), key=lambda item: item[1], reverse=True)
    if not ranked or ranked[0][1] < 0.5 or (len(ranked) > 1 and ranked[1][1] >= ranked[0][1]):
        return None
    return ranked[0][0]


def _union_rows(
    data: SynthesisInput, works: Sequence[PaperContext], keys: Sequence[TableColumn]
) -> ReadRows | None:
    """Rows of several papers' tables put together (a table split by row: "the base
    models' GPQA scores in the 2025 paper and in the 2026 one"), when the headers of a table
    of each of two papers or more carry the question's columns; a key column no header
    carries ("Reported in") says where each row was read (venue and year, as the question
    describes a paper). Each paper's rows are those its reading chose, not its whole table.
    None otherwise."""
    read: list[tuple[PaperContext, ReadRows]] = []
    for context in works:
        rows = _paper_rows(data, context, keys)
        # Each paper's rows are chosen (named, bounded, held by a condition), not its table.
        if rows is not None and rows.chosen:
            read.append((context, rows))
    if len(read) < 2:
        return None
    # Rows the question lists are all keys of the answer: rows of several tables missing
    # one leave them to the ledger, which keeps every listed row.
    labels = [label for _, rows in read for label, _ in rows.entities]
    if not all(any(_names_label(label, entity) for label in labels) for entity in data.plan.rows):
        return None
    return _put_together(read, keys)


def _paper_rows(
    data: SynthesisInput, context: PaperContext, keys: Sequence[TableColumn]
) -> ReadRows | None:
    """The rows of the paper's table that carries the question's columns well enough for
    several papers' rows to be put together, or None."""
    schema = [*keys, *(c for c in data.question.table_schema or [] if c not in keys)]
    found = best_projection(data, context, schema)
    if found is None or not found[1].rows or found[1].fit < _UNION_FIT:
        return None
    return _read_projection(context, *found, keys[0])


def _put_together(
    read: Sequence[tuple[PaperContext, ReadRows]], keys: Sequence[TableColumn]
) -> ReadRows:
    """The rows read off each paper's table, one answer: a further key column no header
    carried ("Reported in") or naming papers is where each row was read (venue and year, as
    the question describes a paper)."""
    entities: list[tuple[str, dict[str, Any]]] = []
    for context, rows in read:
        where = " ".join(str(part) for part in (context.paper.venue, context.paper.year) if part)
        for label, raw in rows.entities:
            # The paper a row was read in is where it was read, whatever a column says.
            unread = {
                key.name: where
                for key in keys[1:]
                if raw.get(key.name) is None or _PAPER_KEY.search(key.name)
            }
            entities.append((label, {**raw, **unread}))
    facts = [fact for _, rows in read for fact in rows.facts]
    how = "; ".join(f"{context.paper_id}: {rows.how}" for context, rows in read)
    return ReadRows(entities, facts, how, all(rows.chosen for _, rows in read))


# Where a question passes from what it asks of one paper to what it asks of another: a
# sentence or semicolon, or a comma before "plus", "and", "while" ("every method in the 2026
# paper's study, plus the two base models in the 2025 paper's table").
_CLAUSE_SPLIT = re.compile(r"[.;?:]\s+|,\s+(?=(?:plus|and|while|whereas)\b)")
# A paper named by its place among those the question describes: "for the first, ...".
_ORDINAL = {"first": 0, "former": 0, "second": 1, "latter": 1}
_ORDINAL_PAPER = re.compile(r"\b(?:for|from|in)\s+the\s+(first|former|second|latter)\b", re.I)


def _paper_clauses(
    question: str, works: Sequence[PaperContext]
) -> tuple[dict[str, list[str]], list[str]]:
    """The clauses of ``question`` that describe one of the works alone (by year and venue,
    or by its place among those described: "for the second, ..."), by paper id, and those
    that describe none ("For BillSum and Multi-News, what source length ...?"), which are
    asked of each."""
    venues = sorted({c.paper.venue for c in works if c.paper.venue})
    order: list[str] = []
    for description in paper_descriptions(question, venues):
        fitting = [c.paper_id for c in works if description.fits(c.paper)]
        if len(fitting) == 1 and fitting[0] not in order:
            order.append(fitting[0])
    clauses: dict[str, list[str]] = {}
    shared: list[str] = []
    for clause in _CLAUSE_SPLIT.split(question):
        described = paper_descriptions(clause, venues)
        owners = {c.paper_id for d in described for c in works if d.fits(c.paper)}
        ordinal = _ORDINAL_PAPER.search(clause)
        if not owners and ordinal and _ORDINAL[ordinal[1].lower()] < len(order):
            owners = {order[_ORDINAL[ordinal[1].lower()]]}
        if len(owners) == 1:
            clauses.setdefault(owners.pop(), []).append(clause)
        elif not described and not owners:
            shared.append(clause)
    return clauses, shared


def _with_described_papers(
    data: SynthesisInput,
    works: Sequence[PaperContext],
    read: ReadRows,
    schema: list[TableColumn],
    key: TableColumn,
) -> ReadRows:
    """``read`` (rows read off one paper's table) with a row for each other work the
    question describes in a clause of its own, as it does the table's paper: what each
    introduces, with the values its body states ("We set the batch size to 32") where it
    states one at least, when the key column holds what papers introduce (a "Model",
    "Method", "System"). A work no clause describes alone (a citing paper pointing at the
    table's) adds none; nor does any under a key of datasets, fields or tasks."""
    read_in = {fact.paper_id for fact in read.facts}
    if len(works) < 2 or len(read_in) != 1 or not _METHOD_KEY.search(key.name):
        return read
    clauses, _ = _paper_clauses(data.question.question, works)
    if not read_in <= clauses.keys():
        return read
    values = [c for c in schema if not c.is_row_key]
    have = {norm(label) for label, _ in read.entities}
    rows: list[tuple[str, dict[str, Any]]] = []
    facts: list[Fact] = []
    for context in works:
        name = subject_name(context)
        if context.paper_id in read_in or context.paper_id not in clauses or norm(name) in have:
            continue
        raw: dict[str, Any] = {key.name: name}
        for column in values:
            stated = stated_value(context, name, column, own=True)
            if stated is not None:
                raw[column.name] = stated[0]
                facts.append(stated[1])
        if len(raw) > 1:
            rows.append((name, raw))
    if not rows:
        return read
    return read._replace(
        entities=[*read.entities, *rows],
        facts=[*read.facts, *facts],
        how=f"{read.how}; " + ", ".join(f"{label} as its paper states" for label, _ in rows),
    )


def _described_rows(
    data: SynthesisInput, works: Sequence[PaperContext], keys: Sequence[TableColumn]
) -> ReadRows | None:
    """Rows of several papers' tables put together, each paper's read with the clauses of
    the question that describe that paper alone (by year and venue, "the 2026 paper's
    held-out study", or by its place among those described, "for the second, ...") and
    those that describe none: each paper's clauses say which of its rows they want. None
    unless two papers are read so."""
    clauses, shared = _paper_clauses(data.question.question, works)
    if len(clauses) < 2:
        return None
    read: list[tuple[PaperContext, ReadRows]] = []
    for context in works:
        own = clauses.get(context.paper_id, [])
        if not own:
            continue
        said = ". ".join(own + shared)
        asked = replace(
            data,
            question=data.question.model_copy(update={"question": said}),
            plan=data.plan.model_copy(
                update={"rows": [row for row in data.plan.rows if contains_phrase(said, row)]}
            ),
        )
        rows = _paper_rows(asked, context, keys)
        if rows is not None:
            read.append((context, rows))
    return _put_together(read, keys) if len(read) >= 2 else None


def _name_word(word: str) -> bool:
    """Whether a caption's word may be part of a name: capitalised or holding digits ("GPT2
    Medium"), not "adapt" nor "the model"."""
    return word[:1].isupper() or any(char.isdigit() for char in word)


def _named_in(caption: str) -> set[str]:
    """The terms of the words of ``caption`` that may be part of a name."""
    return {term for word in caption.split() if _name_word(word) for term in terms(word)}


def _caption_name(caption: str, distinct: set[str], said: set[str]) -> str:
    """The name a caption prints around the first of its ``distinct`` terms, as long as the
    question (``said``) prints each of its words: "GPT2 Medium" of "... to adapt GPT2 Medium
    for paraphrase generation ..."."""
    words = caption.split()
    named = [bool(terms(word)) and set(terms(word)) <= said and _name_word(word) for word in words]
    first = next(
        i for i, word in enumerate(words) if _name_word(word) and distinct & set(terms(word))
    )
    start = end = first
    while start > 0 and named[start - 1]:
        start -= 1
    while end + 1 < len(words) and named[end + 1]:
        end += 1
    return " ".join(words[start : end + 1]).strip(".,;:()")


def _captioned_rows(
    data: SynthesisInput, context: PaperContext, keys: Sequence[TableColumn]
) -> ReadRows | None:
    """Rows of sibling tables that the question tells apart by their captions: the same
    rows read off each ("RAPT" across "QQP 50K" and "MSRPC" in one table for GPT2 Medium,
    another for GPT2 Large), each caption printing words the others' do not and the
    question does, which name the key column no header carries ("Backbone"); or None."""
    schema = data.question.table_schema or []
    said = set(terms(data.question.question))
    for key in keys:
        rest = [column for column in schema if column is not key]
        # The rows of each sibling are keyed by the other key columns, the first of them
        # their label.
        rest_key = next((column for column in rest if column.is_row_key), None)
        if rest_key is None:
            continue
        siblings: dict[frozenset[str], list[tuple[PaperObject, Projection]]] = {}
        for obj in paper_tables(context):
            # A key column a header names ("Method") is read off the table, not its caption.
            if key_header_level(obj.cells, key.name) is not None:
                continue
            found = project(
                obj.cells,
                rest,
                data.question.question,
                data.plan.rows,
                subject_name(context),
                table_glossary(context, obj),
                caption=obj.caption,
            )
            if found is not None and found.rows and found.chooses_rows:
                rows = frozenset(norm(row.key) for row in found.rows)
                siblings.setdefault(rows, []).append((obj, found))
        for group in siblings.values():
            captions = [_named_in(obj.caption) for obj, _ in group]
            distinct = [
                (own - set().union(*(c for c in captions if c is not own))) & said
                for own in captions
            ]
            # The siblings the question tells apart; another table reading the same rows
            # ("Comparison with prior work") is none of them.
            told = [(member, own) for member, own in zip(group, distinct, strict=True) if own]
            if len(told) < 2:
                continue
            entities: list[tuple[str, dict[str, Any]]] = []
            facts: list[Fact] = []
            hows: list[str] = []
            for (obj, found), own in told:
                read = _read_projection(context, obj, found, rest_key)
                name = _caption_name(obj.caption, own, said)
                entities += [(label, {**raw, key.name: name}) for label, raw in read.entities]
                facts += read.facts
                hows.append(f"{read.how} ({key.name} {name!r} by its caption)")
            return ReadRows(entities, facts, "; ".join(hows), True)
    return None


def _labelled_rows(
    data: SynthesisInput, context: PaperContext, schema: list[TableColumn], key: TableColumn
) -> tuple[list[dict[str, Any]], list[Fact], str] | None:
    """The rows of the paper's table that the question's rows are (the best-fitting table
    for the key column alone: the one the question's words, named rows and the localizer
    point at), when no table's headers name the value columns; each value read from the
    cell its row label and the column's name match best, null where none does. The row
    keys are the answer's most telling part; an empty answer scores nothing."""
    found = best_projection(data, context, [key])
    if found is None or not found[1].rows:
        return None
    obj, projection = found
    facts: list[Fact] = []
    entities: list[tuple[str, dict[str, Any]]] = []
    for row in projection.rows:
        raw: dict[str, Any] = {key.name: row.key}
        for column in schema:
            if column is key or column.is_row_key:
                continue
            match = lookup_cell(obj.cells, row.key, column.name)
            if match is not None:
                raw[column.name] = match.value
                facts.append(cell_fact(context, obj, match))
        entities.append((row.key, raw))
    how = f"{obj.object_id} rows by label, no header names the value columns"
    return assemble_rows(schema, entities, keep_empty=True), facts, how


def _names_label(label: str, entity: str) -> bool:
    """Whether a printed label and a listed name name each other, one in full."""
    return (
        label_share(label, question_terms(entity)) >= 1.0
        or label_share(entity, question_terms(label)) >= 1.0
    )


def _reads_listed(
    read: ReadRows, listed: Sequence[str], counted: set[int], row_labels: set[str]
) -> bool:
    """Whether rows read off a table read one of the rows the question lists (two or more),
    or the list may be of something else ("its Rouge-2 and BERTScore F1"): the question
    counts no such number of the key column's rows (``counted``), nor do the selected
    papers' tables print every listed name as a row label (``row_labels``)."""
    if len(listed) < 2:
        return True
    if len(listed) not in counted and not all(
        any(_names_label(label, entity) for label in row_labels) for entity in listed
    ):
        return True
    return any(_names_label(label, entity) for label, _ in read.entities for entity in listed)


def _without(raw: dict[str, Any], name: str) -> dict[str, Any]:
    return {column: value for column, value in raw.items() if column != name}


def figure_table(obj: PaperObject, labelled: Sequence[tuple[str, str]]) -> FigureTable:
    """The table a figure prints as values each with its label (``labelled``: the
    categories around a ring chart with their sizes), its caption heading the values.

    Example:
        >>> from littrace.corpus.document import PaperObject
        >>> fig = PaperObject("p", "figure", "Figure 2", "2", 2, 2, "Samples per category.", (0, 0, 1, 1))
        >>> figure_table(fig, [("Multitasking", "160"), ("Triggering", "100")])[1]
        (('', 'Samples per category.'), ('Multitasking', '160'), ('Triggering', '100'))
    """
    return obj, (("", obj.caption), *((label, value) for label, value in labelled))


def table_rows(data: SynthesisInput, figures: Sequence[FigureTable] = ()) -> TableAnswer:
    """The typed rows of a table answer, the facts they rest on, how the rows were chosen and
    its evidence (:class:`TableAnswer`); ``figures``: the tables located figures print
    (:func:`figure_table`). The cells read are the evidence when the rows are read off a
    paper's table whose rows the question chose (by name, bound, comparison or condition):
    a table chosen on its headers alone may be the wrong one, where the localizer's is no
    worse."""
    schema = data.question.table_schema or []
    keys = [c for c in schema if c.is_row_key] or schema[:1]
    contexts = [data.contexts[p] for p in data.papers if p in data.contexts]
    works = _distinct_works(contexts)
    source = (
        works[0]
        if len(works) == 1
        else _listing_paper(data.plan.rows, works) or _carrying_paper(data, works)
    )
    paper_key = bool(_PAPER_KEY.search(keys[0].name))
    # Rows keyed by paper and by what each paper's table lists ("Paper | Dataset"): each
    # paper's rows, its venue and year the paper key.
    listed_key = next((key for key in keys[1:] if not _PAPER_KEY.search(key.name)), None)
    if paper_key and listed_key is not None and len(works) > 1:
        unioned = _union_rows(data, works, [listed_key, *(k for k in keys if k is not listed_key)])
        if unioned is not None and (unioned_rows := assemble_rows(schema, unioned.entities)):
            return TableAnswer(unioned_rows, unioned.facts, unioned.how, unioned.facts)
    if not paper_key:
        projected = (
            (
                (_captioned_rows(data, source, keys) if len(keys) > 1 else None)
                or (
                    _asked_tables_rows(data, source, keys[0], figures)
                    if len(works) == 1
                    else _projected_rows(data, source, keys[0], figures=figures)
                )
            )
            if source is not None
            else _cross_paper_rows(data, works, keys[0])
        )
        if projected is None and source is None:
            projected = _union_rows(data, works, keys) or _described_rows(data, works, keys)
        # Rows read off a table that holds none of the rows the question lists, as many as
        # it counts, answer another question: the listed rows are read by the ledger below.
        if projected is not None and not _reads_listed(
            projected,
            data.plan.rows,
            stated_counts(data.question.question, [keys[0].name]),
            {label for context in works for label in _labels(context, columns=False)},
        ):
            projected = None
        if projected is not None:
            projected = _with_described_papers(data, works, projected, schema, keys[0])
            projected_rows = assemble_rows(schema, projected.entities)
            if projected_rows:
                grounds = projected.facts if projected.chosen else []
                return TableAnswer(projected_rows, projected.facts, projected.how, grounds)
        # Rows the question lists are read by the ledger below.
        labelled = (
            _labelled_rows(data, source, schema, keys[0])
            if source is not None and not data.plan.rows
            else None
        )
        if labelled is not None:
            return TableAnswer(*labelled, [])
    ledger = _row_ledger(data, keys[0])
    facts: list[Fact] = []
    stated_facts: list[Fact] = []
    entities: list[tuple[str, dict[str, Any]]] = []
    # A paper key asking for titles ("Paper Title") gets them; one asking for papers, what
    # each introduces, where and when.
    papers_named = paper_key and not _TITLE_KEY.search(keys[0].name)
    for entity, context in ledger:
        shown = paper_label(context) if papers_named and context is not None else entity
        raw: dict[str, Any] = {keys[0].name: shown}
        for column in schema:
            if column in keys or context is None:
                continue
            found = best_table_cell(context.objects, entity, column.name)
            # A cell under a header naming the column is read; one under another header
            # yields to a sentence stating the column ("a batch size of 32").
            headed = found is not None and names_column(found[1].column, column.name)
            stated = None if headed else stated_value(context, entity, column)
            if stated is not None:
                raw[column.name] = stated[0]
                stated_facts.append(stated[1])
                continue
            # A paper's own method ("SemEAGAT" of "SemEAGAT: A Novel Approach ...") has its
            # settings stated anywhere in the paper; a paragraph not naming it is where the
            # value was read, not the evidence the localizer looks for.
            if not headed and contains_phrase(context.paper.title, entity):
                stated = stated_value(context, entity, column, own=True)
                if stated is not None:
                    raw[column.name] = stated[0]
                    facts.append(stated[1])
                    continue
            if found is not None and column.type == "number":
                obj, match = found
                raw[column.name] = match.value
                facts.append(cell_fact(context, obj, match))
                continue
            raw[column.name], fact = _located_value(data, context, column)
            if fact is not None:
                facts.append(fact)
        if context is not None:
            raw.update(_entry_years(schema, raw, context))
        entities.append((shown, raw))
    how = "listed rows" if data.plan.rows else "paper rows" if paper_key else "table rows"
    # Rows the question lists are the answer's keys, whether or not a value was read.
    rows = assemble_rows(schema, entities, keep_empty=bool(data.plan.rows))
    if not rows:
        rows = [dict.fromkeys(c.name for c in schema)]
    return TableAnswer(rows, facts + stated_facts, how, stated_facts, bool(stated_facts))
