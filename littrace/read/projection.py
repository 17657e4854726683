"""A table answer read off one detected table (TRACE §3.3): the question's schema projected
onto the table's observation units (:mod:`littrace.read.units`).

Each value column of the schema is mapped once, for the whole table, to the header path
that names it best (the share of the column name's terms the path holds, weighted by how
much of the path the column name and the question name), so that every row reads the same
table column. A schema column no header names takes the one column the question names
outright (the "km" of "the Recall@100 of each setting for km queries"). The table is read
both as printed and transposed (its stacked sub-tables apart,
:func:`~littrace.read.units.stacked`); the orientation whose headers carry the schema (a
table without header rows: its caption), with a quarter more where the question names its
rows, wins. A column naming a spread or a share reads the "± s" or "(s%)" printed after
the values of the column before it. The one
row a question names is also read across the column groups its value columns repeat under
("ToolLLaMA-DFSDT's pass and win rates in each setting", :func:`_across_row`), a row per group.

Rows are the table's rows, narrowed by what the question names: rows whose own label it
names (any of the entities it enumerates, else at least two labels it names in full; a
phrase naming one row in full, "retrieval-augmented prompt tuning", names no other row whose
words it holds, "Prompt Tuning"), rows holding a text
value it names (a condition such as "whose application domain is Human Activity
Recognition"), and rows whose value meets a bound it puts on a column ("more than 100
samples", "an anomaly ratio above 30%": the column the words around the bound name, or the
one column in percent), which selects first, the words naming some rows then describing the
paper, and which no row summing up the others ("AVG", "Total") meets. Names do not narrow
the rows of a question asking for every row, or for every one of what the key column or the
caption says the rows are ("every adaptation method"). A row's key is its
innermost label as printed (NFKC-normalised, so "β₊" reads "β+"), or, when the rows kept share it ("SFT | QFFT | ∆" under each training set), the
innermost label that tells them apart. Rows printing one label are kept apart by the
settings they print ("InternVL-G" at image sizes 224, 336 and 448), and keyed by the value
column whose header names the key column where their labels do not tell them apart. A row
printing no value ("–") in a column the answer reads answers none of it, when others do.

Example:
    >>> from littrace.littraceqa import TableColumn
    >>> grid = (("Dataset", "Length", "# Train", "Domain"),
    ...         ("Cricket", "1197", "108", "Human Activity Recognition"),
    ...         ("P12", "233", "9590", "Health Monitoring"),
    ...         ("PAMAP2", "4048", "4266", "Human Activity Recognition"))
    >>> schema = [TableColumn(name="Dataset", type="string", is_row_key=True),
    ...           TableColumn(name="# Train", type="number", is_row_key=False)]
    >>> found = project(grid, schema, "Datasets of the Human Activity Recognition domain?")
    >>> [(row.key, row.values["# Train"].text) for row in found.rows]
    [('Cricket', '108'), ('PAMAP2', '4266')]
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Container, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import TypeVar

from littrace.littraceqa import TableColumn
from littrace.numbers import numbers, parse_value, share, spelled_as_digits, spread
from littrace.read.abbreviations import Glossary, shortened_in, unclipped
from littrace.read.bounds import bound_of, comparison_of
from littrace.read.extremes import lower_is_better
from littrace.read.text import asking_sentence, contains_phrase, norm, sentences, terms
from littrace.read.units import (
    CITATION,
    TableCell,
    asked_terms,
    header_row_count,
    label_column_count,
    label_share,
    marks_own,
    named_terms,
    path_score,
    printed_as,
    printed_scale,
    prints_own,
    question_terms,
    refers_to_own,
    run_in_bases,
    run_in_subscripts,
    stacked,
    stated_counts,
    table_cells,
    terms_match,
    transposed,
    without_marks,
    without_own_note,
    without_paper_places,
)
from littrace.read.units.grid import PANEL_TITLE, PLACEHOLDER, grid_cell

Grid = Sequence[Sequence[str]]
# A header that holds under this share of a column name's terms does not name that column.
MIN_COLUMN_MATCH = 0.34
# How a projection narrowed to the rows the question names says so.
NAMED_ROWS = "named rows"
OWN_ROWS = "the paper's own rows"
_Row = TypeVar("_Row")
_Key = TypeVar("_Key", bound=Hashable)
# What naming the rows read adds to a reading's fit (of a table, of an orientation).
ROWS_NAMED = 0.25
# A count of things the question states: "the five retrieval settings", "4 models".
# A universal quantifier and the (up to two) words of what it ranges over.
_EVERY = re.compile(r"\b(?:every|all(?: of)? (?:the|its|their))\s+([\w-]+(?:\s+[\w-]+)?)", re.I)
# A column named in percent matches a table column printing no percentages this much.
_NOT_PERCENT = 0.5
_SPACE = re.compile(r"\s+")
# A label that is a Greek symbol and its subscript, printed lower and read as a word apart.
_SUBSCRIPTED_SYMBOL = re.compile(r"^([\u0391-\u03a9\u03b1-\u03c9]) (\w{1,3})$")
_PARENTHESES = re.compile(r"\([^()]*\)")
# A column that names the spread of a value printed "mean ± spread".
_SPREAD_NAME = re.compile(r"\b(?:std|stdev|sd|standard deviation|deviation|spread)\b|±", re.I)
# A column that names the share of a count printed "28.9M (35.6%)".
_SHARE_NAME = re.compile(r"%|\b(?:percent|percentage|share|proportion)\b", re.I)


# A table column as one header block prints it: sub-tables stacked in one table share
# column positions under different headers ("(a) AUC-ROC" above, "(b) AUC-PR" below).
Slot = tuple[int, tuple[str, ...]]


def _slot(cell: TableCell) -> Slot:
    return cell.column, cell.column_path


@dataclass(frozen=True)
class ProjectedRow:
    """One answer row: its key label, and the table cell read for each schema column."""

    key: str
    path: tuple[str, ...]
    values: dict[str, TableCell]
    # Further key columns of the schema, each read from the label column its header names
    # ("Dataset | Task": "SciERC" and "REL"), or the value column ("#F": "8").
    keys: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Projection:
    """A schema read off one table: the rows, how well the headers carried the schema
    (``fit``, mean over value columns in [0, 1]), whether the table was read transposed, and
    the one row read across its column groups (``across``, see :func:`_across_row`)."""

    rows: list[ProjectedRow]
    columns: dict[str, tuple[str, ...]]
    fit: float
    transposed: bool
    narrowed_by: str
    across: str = ""

    @property
    def names_rows(self) -> bool:
        """Whether the question names the rows read (or the one row read across)."""
        return self.narrowed_by == NAMED_ROWS or bool(self.across)

    @property
    def chooses_rows(self) -> bool:
        """Whether the question chose the rows read: by name, by a bound, a comparison or a
        condition, or as the one row read across."""
        return bool(self.narrowed_by or self.across)

    @property
    def rank(self) -> float:
        """How well the reading answers: its ``fit``, and the question naming its rows."""
        return self.fit + ROWS_NAMED * self.names_rows


_PANEL_LETTER = re.compile(r"^\([a-h]\)\s+")
_LEADING_ARROW = re.compile(r"^\s*[→⇒↦➔]+\s*")
# An arrow or an equals sign between two labels with a space on one side only: the
# extractor lost the other ("D →T", "γl= 5%").
_HALF_SPACED_ARROW = re.compile(r"(?<=\S) ([→⇒=])(?=\S)|(?<=\S)([→⇒=]) (?=\S)")


# A label that is a work's first author and its reference: "Wacker et al. [34]".
_AUTHORS_CITED = re.compile(
    r"\s*[A-Z][\w'’-]+(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w'’-]+)\s*\[\d+\]\s*"
)
_JOINING_MINUS = re.compile(r"(?<=\w)\u2212(?=\w)")


def printed_label(text: str) -> str:
    """A label as an answer key: NFKC-normalised, citation markers (not the reference of a
    row named by its authors, "Wacker et al. [34]"), an own-work mark ("(ours)") and
    footnote or significance marks after it ("RoBERTa**") dropped, as is an arrow before it
    (an ablation's "→LoRA" is the LoRA variant), whitespace collapsed, a symbol's subscript
    set apart by the extractor joined to it again ("β R" reads "βR"), an arrow spaced on one
    side only spaced on both ("D →L" reads "D → L"), a minus sign between two names a hyphen
    (a pair typeset in math, "𝑃𝑃−𝑆𝐷", reads "PP-SD"; a sign before or after a name stays:
    "β−", "− abstract")."""
    text = unicodedata.normalize("NFKC", text)
    # A row named by its authors ("Wacker et al. [34]") keeps the reference it points at.
    bare = without_own_note(text if _AUTHORS_CITED.fullmatch(text) else CITATION.sub("", text))
    bare = _LEADING_ARROW.sub("", without_marks(bare))
    bare = _HALF_SPACED_ARROW.sub(lambda m: f" {m[1] or m[2]} ", bare)
    bare = _JOINING_MINUS.sub("-", bare)
    return _SUBSCRIPTED_SYMBOL.sub(r"\1\2", _SPACE.sub(" ", bare).strip())


def column_match(
    name: str,
    path: Sequence[str],
    question: frozenset[str],
    subscripts: frozenset[str] = frozenset(),
    focus: frozenset[str] | None = None,
    captioned: frozenset[str] = frozenset(),
) -> float:
    """How well a header ``path`` names the schema column ``name`` (see the module doc); a
    unit in parentheses ("πt (TPa^-1)") may be left out of the header; ``subscripts``: those
    the table runs into its headers (:func:`_subscripts`); with ``focus`` (the terms of the
    sentence that asks), a header named only in the sentences before it counts half ("in
    computer science and in biomedicine. In the biomedical area, what precision ...");
    ``captioned``: the names the table's caption prints ("ScienceParse" of "Results of the
    ScienceParse system."), which complete a name the header prints part of ("ScienceParse
    F1" over "F1"), at a little less than a header printing it all."""
    held = _held(name, path, subscripts)
    if held <= 0:
        return 0.0
    if held < 1.0 and captioned:
        printed = run_in_bases(question_terms(" ".join(path)), subscripts)
        held = max(held, _CAPTIONED * label_share(name, printed | captioned))
    named = question_terms(name)
    score = path_score(path, named | question)
    if focus is not None:
        score = (score + path_score(path, named | focus)) / 2
    return held * (0.5 + 0.5 * score)


def _subscripts(paths: dict[Slot, tuple[str, ...]]) -> frozenset[str]:
    """The subscripts the table's headers run into a compound ("f1" of "R-2f1"), which a
    header runs into another name too ("BSf1")."""
    return run_in_subscripts(
        question_terms(" ".join(label for path in paths.values() for label in path))
    )


# A name the header completes with its caption's names is held this much.
_CAPTIONED = 0.9


def _held(name: str, path: Sequence[str], subscripts: frozenset[str] = frozenset()) -> float:
    """The share of the column ``name``'s terms that the header ``path`` prints; a name of
    stop words alone ("All") by a header printing it exactly."""
    if not terms(name):
        said = name.strip().casefold()
        return float(bool(said) and any(label.strip().casefold() == said for label in path))
    printed = run_in_bases(question_terms(" ".join(path)), subscripts)
    bare = _PARENTHESES.sub("", name)
    # A note naming the column as the table prints it ("Corpus-pretrained model
    # (S2ORC-SciBERT) mean") is its name, when the header prints all of it.
    noted = [note for note in _PARENTHESES.findall(name) if terms(note)]
    return max(
        label_share(name, printed),
        label_share(bare, printed) if terms(bare) else 0.0,
        *(float(label_share(note, printed) >= 1.0) for note in noted),
    )


def _map_columns(
    paths: dict[Slot, tuple[str, ...]],
    values: list[TableColumn],
    question: frozenset[str],
    percent: frozenset[Slot] = frozenset(),
    own: frozenset[Slot] | None = None,
    spreads: frozenset[Slot] = frozenset(),
    shares: frozenset[Slot] = frozenset(),
    focus: frozenset[str] | None = None,
    captioned: frozenset[str] = frozenset(),
) -> tuple[dict[str, Slot], float]:
    """Each value column's table column (distinct, by its slot in ``paths``), and the mean
    match over value columns; a column named in percent ("Kept after stage 1 (%)") is read
    from the table columns printing percentages (``percent``), where there are any, rather
    than from their neighbours that count ("1.94B"); ``own``: the columns of the paper's
    own method, read by a column no header names (when given, instead of the column the
    question names outright); a column naming a spread ("Std") that no header names reads
    the column of the value before it, when that column prints "mean ± spread"
    (``spreads``), as a column naming a share ("Percent of all papers") does, when that
    column prints "count (share%)" (``shares``); ``focus`` and ``captioned``: as in
    :func:`column_match`."""
    subscripts = _subscripts(paths)
    scored = sorted(
        (
            (
                column_match(column.name, path, question, subscripts, focus, captioned)
                * (_NOT_PERCENT if "%" in column.name and percent and j not in percent else 1.0),
                index,
                j,
            )
            for index, column in enumerate(values)
            for j, path in paths.items()
        ),
        reverse=True,
    )
    mapped: dict[str, Slot] = {}
    total = 0.0
    for score, index, j in scored:
        name = values[index].name
        if score < MIN_COLUMN_MATCH or name in mapped or j in mapped.values():
            continue
        mapped[name] = j
        total += score
    for before, column in pairwise(values):
        slot = mapped.get(before.name)
        if column.name not in mapped and (
            (slot in spreads and _SPREAD_NAME.search(column.name))
            or (slot in shares and _SHARE_NAME.search(column.name))
        ):
            mapped[column.name] = slot
            total += MIN_COLUMN_MATCH
    unmapped = [column.name for column in values if column.name not in mapped]
    if len(unmapped) == 1:
        # A column that names its paper rather than a header ("the corpus-pretrained
        # BERT's mean (2020 paper)") reads the one column of the paper's own method; the
        # question names the other papers' columns too, so naming one proves nothing.
        named = (
            [j for j in own if j not in mapped.values()]
            if own is not None
            else [
                j
                for j, path in paths.items()
                if j not in mapped.values() and path and path_score(path[-1:], question) >= 1.0
            ]
        )
        # Of several, the one whose header names the column's note ("Finetune" of the
        # 2019 model's "(finetuned)" score, beside its "Frozen" one).
        note = " ".join(_PARENTHESES.findall(unmapped[0]))
        if len(named) > 1 and terms(note):
            noted = [j for j in named if label_share(note, question_terms(" ".join(paths[j]))) >= 1]
            named = noted or named
        if len(named) == 1:
            mapped[unmapped[0]] = named[0]
            total += MIN_COLUMN_MATCH
    # A key-only schema ("which datasets ...") is carried by any table with row labels.
    return mapped, total / len(values) if values else MIN_COLUMN_MATCH


def _mostly_printing(cells: list[TableCell], prints: Callable[[str], bool]) -> frozenset[Slot]:
    """The table columns (slots) more than half of whose cells ``prints`` holds of: those
    printing percentages, "mean ± spread", "count (share%)"."""
    held: dict[Slot, list[bool]] = {}
    for cell in cells:
        held.setdefault(_slot(cell), []).append(prints(cell.text))
    return frozenset(j for j, found in held.items() if sum(found) > len(found) / 2)


def _companion_cell(cell: TableCell) -> TableCell:
    """The cell read as the value printed after its own: its spread ("0.288" of
    "0.696±0.288") or its share ("35.6" of "28.9M (35.6%)")."""
    printed = spread(cell.text) or share(cell.text) or ""
    return replace(cell, text=printed, value=parse_value(printed))


def _named_rows(
    rows: dict[tuple[str, ...], dict[Slot, TableCell]],
    question: frozenset[str],
    entities: Sequence[str],
    question_text: str = "",
    subject: str = "",
    glossary: Glossary | None = None,
) -> list[tuple[str, ...]]:
    """Rows whose innermost label the question names in full (two or more), or that match
    one of the question's enumerated entities; with them, the rows of the paper's own method
    (marked "(ours)" or printing its ``subject``, "QFFT") when the question points at it
    without naming it ("ViT-22B and the paper's own encoder" reads "InternViT-6B (ours)",
    "BM25 and each mode of its own model" the rows under "M3-Embedding (Our Work)"); those
    rows alone when it names no other ("for its own method, give ...")."""
    # A venue describing a paper ("the arXiv 2022 paper") names no row ("arXiv").
    question_text = without_paper_places(question_text)
    question = question & asked_terms(question_text)
    # A label holding a short form the paper defines is named in either form.
    forms = {path: _label_forms(path[-1], question_text, glossary) for path in rows}
    listed: list[tuple[str, ...]] = []
    for entity in entities:
        wanted = question_terms(entity)
        naming = {
            path: (
                any(label_share(form, wanted) >= 1.0 for form in forms[path]),
                any(label_share(entity, question_terms(form)) >= 1.0 for form in forms[path]),
            )
            for path in rows
        }
        # A listed name that is a row's whole label ("RAPT") names that row, not the rows
        # whose labels hold it ("NC-RAPT (High)").
        exact = [path for path, (held, holding) in naming.items() if held and holding]
        listed += exact or [path for path, (held, holding) in naming.items() if held or holding]
    owned = _own_rows(rows, subject)
    counted = _counted_rows(rows, question_text)
    if listed:
        if refers_to_own(question_text):
            listed += [p for p in owned if p not in listed]
        return [path for path in rows if path in listed or path in counted]
    # A row is named by the words that tell it from the others: "tuning", printed in most
    # labels of "Prompt Tuning | P-Tuning | Prefix Tuning", names none of them. A one-letter
    # label ("β" of "β+") is named by too many words to narrow anything.
    # A citation printed after a label ("LAION-en [120]") is no word of it.
    labels = {path: CITATION.sub("", path[-1]) for path in rows}
    counts = Counter(
        term for label in labels.values() for term in set(terms(label.replace("-", " ")))
    )
    common = {term for term, n in counts.items() if n > len(rows) / 2}
    spellings = Counter(form for path in rows for form in forms[path][1:])
    said_words = _words(question_text)
    occurrences = _occurrences(said_words, forms)
    named = []
    # The words left of a label once those most labels share are dropped, where any are.
    told: dict[tuple[str, ...], str] = {}
    for path in rows:
        own = []
        for term in terms(labels[path]):
            parts = terms(term.replace("-", " "))
            own += [p for p in parts if p not in common] if common & set(parts) else [term]
        # A spelled-out label several rows share ("Weak": "weakly-supervised") tells none
        # of them apart.
        spelled = [form for form in forms[path][1:] if spellings[form] == 1]
        said = _outside_phrases(question, said_words, path, forms, occurrences)
        if (any(len(term) > 1 for term in own) and label_share(" ".join(own), said) >= 1.0) or (
            any(label_share(form, said) >= 1.0 for form in spelled)
        ):
            named.append(path)
            dropped = set(terms(labels[path])) - set(own)
            if dropped and not any(terms_match(term, said) for term in dropped):
                told[path] = " ".join(own)
    # A row named by those words alone ("bibliography titles" by "title", the question
    # saying no "bibliography") is not, where another named row's label is just those words
    # ("title").
    whole = [labels[path] for path in named if path not in told]
    superseded = {
        path
        for path, words in told.items()
        if any(
            label_share(label, question_terms(words)) >= 1.0
            and label_share(words, question_terms(label)) >= 1.0
            for label in whole
        )
    }
    named = [path for path in rows if (path in named and path not in superseded) or path in counted]
    # Beside the paper's own rows one named row counts; alone, one is no filter.
    if refers_to_own(question_text) and owned and len(owned) < len(rows):
        return [path for path in rows if path in owned or path in named]
    return named if len(named) >= 2 else _family_rows(labels, question)


# A count and, within a few words, a name: "the two zero-shot GPT-4o baselines".
_COUNTED_NAME = re.compile(r"\b(?P<count>[2-9])\s+(?P<words>(?:[\w.+-]+\s+){0,2}[\w.+-]+)")
_PRINTED_NAME = re.compile(r"[A-Za-z][\w.+]*(?:[A-Z]|\d)[\w.+]*(?:-[\w.+]+)*")
_CAPTION_NAME = re.compile(rf"\b{_PRINTED_NAME.pattern}")


def _counted_rows(rows: Iterable[tuple[str, ...]], question_text: str) -> list[tuple[str, ...]]:
    """The rows a name the question counts begins, when there are as many: "the two
    zero-shot GPT-4o baselines" are "GPT-4o-mini" and "GPT-4o"."""
    labels = {path: printed_label(path[-1]) for path in rows}
    found: list[tuple[str, ...]] = []
    for match in _COUNTED_NAME.finditer(spelled_as_digits(question_text)):
        for word in match["words"].split():
            if not _PRINTED_NAME.fullmatch(word):
                continue
            begun = [
                path
                for path, label in labels.items()
                if label == word or label.startswith((f"{word}-", f"{word} "))
            ]
            if len(begun) == int(match["count"]):
                found += [path for path in begun if path not in found]
    return found


def _own_rows(paths: Iterable[tuple[str, ...]], subject: str) -> list[tuple[str, ...]]:
    """The rows of the paper's own method: marked "(ours)", or printing its ``subject``."""
    return [
        path
        for path in paths
        if any(marks_own(label) for label in path)
        or (subject and printed_as(printed_label(path[-1]), subject))
    ]


def _every_row(question_text: str, keys: Sequence[TableColumn], caption: str = "") -> bool:
    """Whether the question asks for every row: "every row", or "every"/"all the" before
    words that the ``keys`` columns' names or the ``caption`` hold ("every adaptation
    method" under the caption "... for different adaptation methods")."""
    row_terms = frozenset(terms(" ".join(key.name for key in keys)) + terms(caption))
    for match in _EVERY.finditer(question_text):
        said = terms(match[1])
        if "row" in said or any(terms_match(term, row_terms) for term in said):
            return True
    return False


def _words(text: str) -> list[str]:
    """``text``'s words as phrases are matched: hyphens apart ("retrieval augmented")."""
    return norm(text).replace("-", " ").split()


def _occurrences(
    said: list[str], forms: dict[tuple[str, ...], list[str]]
) -> list[tuple[int, int, tuple[str, ...]]]:
    """Where the question (its words ``said``, :func:`_words`) names rows by a label of two
    words or more (any of its ``forms``): (start, end) word positions and the row, the
    longest match first and no two overlapping."""
    found = []
    for path, row_forms in forms.items():
        for form in row_forms:
            words = _words(form)
            if len(words) < 2:
                continue
            found += [
                (i, i + len(words), path)
                for i in range(len(said) - len(words) + 1)
                if said[i : i + len(words)] == words
            ]
    taken: list[tuple[int, int, tuple[str, ...]]] = []
    for start, end, path in sorted(found, key=lambda o: o[0] - o[1]):
        overlapping = [o for o in taken if o[0] < end and start < o[1]]
        if all((o[0], o[1]) == (start, end) for o in overlapping):
            taken.append((start, end, path))
    return taken


def _outside_phrases(
    question: frozenset[str],
    said: list[str],
    path: tuple[str, ...],
    forms: dict[tuple[str, ...], list[str]],
    occurrences: list[tuple[int, int, tuple[str, ...]]],
) -> frozenset[str]:
    """The question's terms (its words ``said``) outside the phrases in which it names other
    rows: a phrase naming one row in full ("retrieval-augmented prompt tuning", RAPT spelled
    out) names no other row whose words it holds ("Prompt Tuning", the "tuning" of "Adapter
    Tuning"), unless that row's label holds the other's ("RAPT" in "NC-RAPT (High)")."""
    own = [f" {' '.join(_words(form))} " for form in forms[path]]

    def holds(other: tuple[str, ...]) -> bool:
        return any(f" {' '.join(_words(form))} " in label for form in forms[other] for label in own)

    masked = {
        i
        for start, end, other in occurrences
        if other != path and not holds(other)
        for i in range(start, end)
    }
    if not masked:
        return question
    return question & question_terms(" ".join(w for i, w in enumerate(said) if i not in masked))


def _label_forms(label: str, question_text: str, glossary: Glossary | None) -> list[str]:
    """A row label and the other forms it is named in: with the short forms the paper
    defines spelled out, and its clipped words written as the question's words they clip
    ("NC-RAPT (Med)" as "Novelty-Conditioned RAPT (medium)")."""
    spelled = glossary.spell(label) if glossary else None
    full = unclipped(spelled or label, question_text)
    return [label, *dict.fromkeys(form for form in (spelled, full) if form and form != label)]


def _family_rows(
    labels: dict[tuple[str, ...], str], question: frozenset[str]
) -> list[tuple[str, ...]]:
    """The rows whose labels share a part that the question names and that at most half of
    the rows hold: a family of variants ("MLP-Overlap | AE-Overlap | ResNet-Overlap" for
    "the Overlap-loss-based models"), when the question names one such part, and not as
    the modifier of a word most rows print ("prompt-tuning variants" names every "...
    Tuning" row)."""
    parts = {
        path: {part for term in terms(label) for part in terms(term.replace("-", " "))}
        for path, label in labels.items()
    }
    held = Counter(part for found in parts.values() for part in found)
    common = {part for part, n in held.items() if n > len(labels) / 2}
    modifiers = {
        part
        for term in question
        if "-" in term and common.intersection(split := terms(term.replace("-", " ")))
        for part in split
    }
    families = [
        part
        for part, n in held.items()
        if 2 <= n <= len(labels) / 2
        and len(part) > 2
        and not part.isdigit()
        and part in question
        and part not in modifiers
    ]
    if len(families) != 1:
        return []
    return [path for path in labels if families[0] in parts[path]]


def _condition_rows(
    rows: dict[tuple[str, ...], dict[Slot, TableCell]], question_text: str, used: set[Slot]
) -> tuple[list[tuple[str, ...]], list[str]]:
    """Rows holding a text value (outside the answer's columns) that the question names as a
    phrase, or a group label it names without its note ("32B Models (Based on ...)") or
    shortened ("Multi" rows for "the multidomain datasets"), when that value is held by some
    rows but not all."""
    # Each text by where the rows print it (a level of their paths, a column).
    by_text: dict[tuple[object, str], set[tuple[str, ...]]] = {}
    groups = {label for path in rows for label in path[:-1]}
    for path, cells in rows.items():
        texts = [(("level", i), label) for i, label in enumerate(path[:-1])] + [
            (j, cell.text) for j, cell in cells.items() if j not in used and cell.value is None
        ]
        for where, text in texts:
            # A citation ("Beltagy et al. (2019)") the question prints names a work, not
            # the rows citing it.
            if terms(text) and not _AUTHOR_YEAR.match(text):
                by_text.setdefault((where, text), set()).add(path)
    by_parts = _groups_named_by_parts(list(rows), question_text)
    said = _SINGLE.sub("1", spelled_as_digits(question_text))
    named = [
        (where, text, holders)
        for (where, text), holders in by_text.items()
        if len(holders) < len(rows)
        and (
            contains_phrase(said, text)
            # A group label's note aside: "32B Models (Based on Qwen2.5-32B-Instruct)".
            or (text in groups and contains_phrase(said, _PARENTHESES.sub("", text)))
            or (text in groups and shortened_in(text, question_text))
            or text in by_parts
        )
    ]
    if not named:
        return [], []
    # Values printed in one place are alternatives ("with a single frame and with 8
    # frames": rows holding either); values printed in different places all hold.
    held: dict[object, set[tuple[str, ...]]] = {}
    for place, _, holders in named:
        held[place] = held.get(place, set()) | holders
    kept = set.intersection(*held.values())
    if len(kept) == len(rows):
        return [], []
    return [path for path in rows if path in kept], [text for _, text, _ in named]


# A work cited by its authors and year: "Li et al. (2016)", "Collier and Kim (2004)".
_AUTHOR_YEAR = re.compile(
    r"^[A-Z][\w˘'’.-]*(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w˘'’-]+)\s*\((?:19|20)\d\d[a-z]?\)$"
)
# What a caption leaves out of its comparison: "excluding Copy and Ground Truth".
_EXCLUDING = re.compile(r"\bexcluding\s+([^.;:()]+)", re.IGNORECASE)


def caption_excluded(caption: str) -> frozenset[str]:
    """The row names (normalized) a caption leaves out of the comparison it reports.

    Example:
        >>> sorted(caption_excluded("We bold the best results excluding Copy and Ground Truth."))
        ['copy', 'ground truth']
    """
    return frozenset(
        norm(name)
        for found in _EXCLUDING.findall(caption)
        for name in re.split(r",\s*(?:and\s+)?|\s+and\s+", found)
        if norm(name)
    )


# What a question leaves out: "(leave out the average)", "excluding the total".
_LEAVING = r"leav(?:e|ing) out|exclud(?:e|ing)|except(?: for)?|other than|not counting|apart from"
_LEFT_OUT = re.compile(
    rf"\b(?:{_LEAVING}|without)\s+(?:the\s+|its\s+|their\s+)?[\w.-]+", re.IGNORECASE
)
# The rows a question leaves out, said up to the clause's end: "(leaving out the proposed
# model)", "excluding BM25 and DPR". "Without" says how a row was run, not which rows.
_ROWS_LEFT_OUT = re.compile(rf"\b(?:{_LEAVING})\s+([^.,;:()?]+)", re.IGNORECASE)


# Left out, "the full model" (of an ablation) is the paper's own; asked for, it is one row
# among the variants.
_FULL_MODEL = re.compile(r"\bfull\s+(?:model|method|system|approach)\b", re.IGNORECASE)


def _left_out_rows(
    paths: Iterable[tuple[str, ...]], question_text: str, subject: str
) -> set[tuple[str, ...]]:
    """The rows the question leaves out of those it asks for: rows it names there in full,
    and the paper's own rows where it points at them ("leaving out the proposed model")."""
    paths = list(paths)
    out: set[tuple[str, ...]] = set()
    for match in _ROWS_LEFT_OUT.finditer(question_text):
        if refers_to_own(match[1]) or _FULL_MODEL.search(match[1]):
            out.update(_own_rows(paths, subject))
        out.update(_rows_named_in(paths, match[1]))
    return out


def _rows_named_in(paths: Iterable[tuple[str, ...]], text: str) -> list[tuple[str, ...]]:
    """The rows whose printed label ``text`` names in full."""
    said = question_terms(text)
    return [path for path in paths if label_share(printed_label(path[-1]), said) >= 1.0]


# "A single frame" is one frame.
_SINGLE = re.compile(r"\ba single\b", re.IGNORECASE)


def _groups_named_by_parts(paths: list[tuple[str, ...]], question_text: str) -> set[str]:
    """The group label named by its parts among all the rows' groups, else at each level of
    their paths the one named among that level's (the "20%" of "𝛾𝑙= 20%" among "𝛾𝑙= 5%"
    and "𝛾𝑙= 10%", under one panel's title)."""
    named = _group_named_by_parts({label for path in paths for label in path[:-1]}, question_text)
    if named is not None:
        return {named}
    depth = min((len(path) for path in paths), default=0)
    levels = ({path[i] for path in paths} for i in range(depth - 1))
    return {found for level in levels if (found := _group_named_by_parts(level, question_text))}


def _group_named_by_parts(groups: set[str], question_text: str) -> str | None:
    """The one group label whose own terms (those not every group label prints) the question
    all names: "the Long-to-Short baselines in the 32B block" names "Long-to-Short Methods
    (32B)" among the 7B and 32B blocks of Long-to-Short and Distilled methods."""
    if len(groups) < 2:
        return None
    held = {group: set(terms(group)) for group in groups}
    common = set.intersection(*held.values())
    said = set(terms(question_text))
    named = [g for g in groups if (own := held[g] - common) and own <= said]
    return named[0] if len(named) == 1 else None


# A question asking for the table's rows as such: "every row of that table".
_EVERY_TABLE_ROW = re.compile(r"\b(?:every|each|all(?: the)?) rows?\b", re.IGNORECASE)
# Row labels of rows that sum up the rows above them.
_SUMMARY_ROWS = frozenset(
    {"avg", "average", "mean", "median", "sd", "std", "total", "sum", "overall", "all"}
)
_STATISTICS = _SUMMARY_ROWS - {"all", "overall"}


def _bounded_rows(
    rows: dict[tuple[str, ...], dict[Slot, TableCell]],
    question_text: str,
    mapped: dict[str, Slot],
) -> tuple[list[tuple[str, ...]], str] | None:
    """Rows whose value in the answer's column the question bounds meets the bound, when
    some rows do and some do not: the column whose name the words around the bound name
    best ("which categories have more than 100 samples" for "Number of samples", "an
    anomaly ratio above 30%" for "Anomaly ratio (%)"); rows that sum up the others ("AVG",
    "Total") are no answer to which ones meet it. None when no row meets a bound on a column
    its words name in full: the table holds no answer."""
    bound = bound_of(question_text)
    if bound is None:
        return [], ""
    said = question_terms(f"{bound.before} {bound.bounded}")
    names = list(mapped)
    # A bound in percent ("above 30%") is on a column in percent, when one is.
    in_percent = [name for name in names if "%" in name]
    if bound.bounded.startswith("%") and in_percent:
        names = in_percent
    around = f"{bound.before} {bound.bounded}"
    share = {
        name: label_share(name, said) if terms(name) else _held(name, around.split())
        for name in names
    }
    best = max(share.values(), default=0.0)
    named = [name for name in names if share[name] == best]
    if len(named) != 1 or (best <= 0 and names != in_percent):
        return [], ""
    j = mapped[named[0]]
    meeting = [
        path
        for path, cells in rows.items()
        if j in cells
        and (value := cells[j].value) is not None
        and bound.holds(value, printed_scale(cells[j], named[0]))
        and norm(path[-1]) not in _SUMMARY_ROWS
    ]
    # The words before the bound may say which rows it is put on: "which SciBERT fine-tuning
    # variants score above 85" leaves the SPECTER row out.
    subject = question_terms(bound.before)
    family = [path for path in rows if label_share(printed_label(path[-1]), subject) > 0]
    if 2 <= len(family) < len(rows):
        meeting = [path for path in meeting if path in family]
    # A bound whose words name the column in full that no row meets: the table holds no
    # answer ("an iBLEU above 6" in the medium model's table).
    if (
        not meeting
        # A bound said in a scale ("one million") may be on values printed in an unsaid one.
        and bound.scale == 1.0
        and label_share(
            named[0], question_terms(" ".join([bound.before, *bound.bounded.split()[:1]]))
        )
        >= 1.0
        and any(j in cells for cells in rows.values())
    ):
        return None
    if not meeting or len(meeting) == len(rows):
        return [], ""
    return meeting, f"rows whose {named[0]} is {bound.operator} {bound.value:g}"


def _asking_sentence(question_text: str) -> str:
    """The question's last sentence that asks ("... higher than the proposed model?"
    before "List them with both scores."), else its last sentence."""
    asking = [text for text in sentences(question_text) if text.rstrip().endswith("?")]
    return asking[-1] if asking else asking_sentence(question_text)


def _best_named(text: str, among: list[str]) -> str | None:
    """The one name of ``among`` that ``text`` names most, then the one it names more of
    ("SciBERT's" names "SciBERT" in full, "S2ORC-SciBERT" in part), if any names it and none
    ties."""
    said = question_terms(text)
    share = {name: (named_terms(name, said), label_share(name, said)) for name in among}
    top = max(share.values(), default=(0.0, 0.0))
    named = [name for name in among if share[name] == top]
    return named[0] if top[0] > 0 and len(named) == 1 else None


def _unnamed(names: list[str], question_text: str) -> str | None:
    """The one of ``names`` none of whose terms the question prints."""
    said = question_terms(question_text)
    unnamed = [name for name in names if label_share(name, said) <= 0]
    return unnamed[0] if len(unnamed) == 1 else None


# Where a sentence's clauses part: "... retrains a BERT-Base model on that corpus and sets
# its results beside the scores reported by ...".
_CLAUSE = re.compile(r"[,;:]\s+|\s+(?:and|but|while|whereas)\s+")


def _described(side: str, names: list[str], question_text: str) -> str | None:
    """The one of ``names`` named best in the clauses of the question's other sentences that
    say most of ``side`` (a comparison's side that names no column), where they agree."""
    asking = _asking_sentence(question_text)
    held = {
        clause: label_share(side, question_terms(clause))
        for text in sentences(question_text)
        if text.strip() != asking.strip()
        for clause in _CLAUSE.split(text)
    }
    best = max(held.values(), default=0.0)
    named = {_best_named(clause, names) for clause, share in held.items() if share == best}
    return named.pop() if best > 0 and len(named) == 1 else None


def compared_rows(
    rows: Mapping[_Key, Mapping[str, float | None]],
    question_text: str,
    headers: Mapping[str, str],
    caption: str = "",
    summaries: Container[_Key] = (),
) -> tuple[list[_Key], str]:
    """The keys of the ``rows`` (key -> answer column name -> value) where one answer column
    stands in the relation the question's (last) question sentence states to another ("in
    which languages does the '-C' variant strictly beat OpenCLIP-XLM-R-H", "where Grobid
    gets a higher F1 than RoBERTa"), when some rows do and some do not: the right-hand column
    is the one the words after the comparison name best, the left-hand one the one the words
    before it name best, else, of two, the other one; merit is the lower value where the
    columns' ``headers``, the caption or the question name an error-like measure. Rows
    summing up the others (``summaries``: "Avg.") are no answer.

    Example:
        >>> rows = {"JNLPBA": {"SOTA": 78.58, "Ours": 77.7}, "BC5CDR": {"SOTA": 88.85, "Ours": 90.41}}
        >>> compared_rows(rows, "Where does SOTA beat ours?", {"SOTA": "SOTA", "Ours": "Ours"})
        (['JNLPBA'], 'rows whose SOTA is better than Ours')
    """
    comparison = comparison_of(_asking_sentence(question_text))
    names = list(headers)
    if comparison is None or len(names) < 2:
        return [], ""

    right = _best_named(comparison.right, names)
    left = _best_named(comparison.left, names)
    if (
        right is not None
        and left == right
        and named_terms(right, question_terms(comparison.left))
        > named_terms(right, question_terms(comparison.right))
    ):
        # Both sides name one column: the side naming more of it names it ("the retrained
        # model's mean" against "the earlier model's reported score").
        right = _best_named(comparison.right, [name for name in names if name != left])
    else:
        left = _best_named(comparison.left, [name for name in names if name != right])
    if (left is None) != (right is None):
        named = left or right
        others = [name for name in names if name != named]
        side = comparison.right if left else comparison.left
        # Of two columns, the side named says which is the other ("the proposed model"); of
        # more, the side the question only describes is the one column it names nowhere,
        # or the one named where it says more of that side ("the earlier model's reported
        # score" of "the scores reported by the EMNLP 2019 BERT model").
        other = (
            others[0]
            if len(others) == 1
            else _unnamed(others, question_text) or _described(side, others, question_text)
        )
        if other is None and left is not None:
            # "Than the question-free one": the column named most like the left one.
            other = _best_named(left, others)
        if other is not None:
            left, right = (named, other) if left else (other, named)
    if left is None or right is None or left == right:
        return [], ""
    lower_better = lower_is_better(question_text, caption, f"{headers[left]} {headers[right]}")
    meeting = [
        key
        for key, values in rows.items()
        if (x := values.get(left)) is not None
        and (y := values.get(right)) is not None
        and comparison.holds(x, y, lower_better, f"{headers[left]} {headers[right]} {caption}")
        and key not in summaries
    ]
    if not meeting or len(meeting) == len(rows):
        return [], ""
    return meeting, f"rows whose {left} is {comparison.relation} than {right}"


def _compared_rows(
    rows: dict[tuple[str, ...], dict[Slot, TableCell]],
    question_text: str,
    mapped: dict[str, Slot],
    paths: dict[Slot, tuple[str, ...]],
    caption: str = "",
) -> tuple[list[tuple[str, ...]], str]:
    """:func:`compared_rows` over a table's rows, its answer columns ``mapped`` to slots."""
    values = {
        path: {name: cells[j].value if j in cells else None for name, j in mapped.items()}
        for path, cells in rows.items()
    }
    headers = {name: " ".join(paths[j]) for name, j in mapped.items()}
    summaries = {path for path in rows if norm(path[-1]) in _SUMMARY_ROWS}
    found = compared_rows(values, question_text, headers, caption, summaries)
    return found if found[0] else _rows_against_row(values, question_text, headers, caption)


def _rows_against_row(
    values: Mapping[tuple[str, ...], Mapping[str, float | None]],
    question_text: str,
    headers: Mapping[str, str],
    caption: str = "",
) -> tuple[list[tuple[str, ...]], str]:
    """The rows whose value stands in the relation the question states to one row it names
    ("which methods score below the Baseline", "above Random"): in the one answer column, or
    the one the question names best; the named row and rows summing up the others are no
    answer."""
    comparison = comparison_of(_asking_sentence(question_text))
    if comparison is None or not headers:
        return [], ""
    named = _rows_named_in(values, comparison.right)
    if len(named) != 1:
        return [], ""
    column = (
        next(iter(headers))
        if len(headers) == 1
        else _best_named(_asking_sentence(question_text), list(headers))
    )
    reference = values[named[0]].get(column) if column is not None else None
    if column is None or reference is None:
        return [], ""
    lower_better = lower_is_better(question_text, caption, headers[column])
    meeting = [
        path
        for path, row in values.items()
        if path != named[0]
        and norm(path[-1]) not in _SUMMARY_ROWS
        and (value := row.get(column)) is not None
        and comparison.holds(value, reference, lower_better, f"{headers[column]} {caption}")
    ]
    if not meeting or len(meeting) == len(values) - 1:
        return [], ""
    said_row = printed_label(named[0][-1])
    return meeting, f"rows whose {column} is {comparison.relation} than {said_row}'s"


# A label that adds or removes a part, its sign set apart ("+ venue") or not ("−abstract").
_SIGNED = re.compile(r"^([+\-−–])\s*(?=[^\W\d_])")


def _spaced_signs(labels: Sequence[str]) -> Callable[[str], str]:
    """What a key reads as under the table's own spacing of signs: where some labels set
    their sign apart ("+ venue", "+ author"), the extractor lost the space of those it runs
    in ("−abstract" reads "− abstract")."""
    signed = [label.strip() for label in labels if _SIGNED.match(label.strip())]
    if any(label[1:2].isspace() for label in signed):
        return lambda key: _SIGNED.sub(r"\1 ", key)
    return lambda key: key


def key_header_level(grid: Grid, key: str) -> int | None:
    """The row-path level of the one label column whose header names the key column
    ("Dataset" among "Domain | Dataset | Reference | Task"), counted from the innermost."""
    labels = label_column_count(grid)
    heads = header_row_count(grid, labels)
    named = [
        j
        for j in range(labels)
        if (header := " ".join(filter(None, (grid_cell(grid, i, j) for i in range(heads)))))
        and label_share(key, question_terms(header)) >= 1.0
    ]
    return named[0] - labels if len(named) == 1 else None


def _row_ids(cells: Sequence[TableCell]) -> dict[int, tuple[str, ...]]:
    """Each grid row's path as an answer row: its row path, with the settings that tell it
    from the other rows printing that path ("InternVL-G | 224" and "InternVL-G | 336", one
    per image size) set before its innermost label, so that no row is read over another."""
    paths: dict[int, tuple[str, ...]] = {}
    settings: dict[int, list[str]] = {}
    for cell in sorted(cells, key=lambda cell: (cell.row, cell.column)):
        paths[cell.row] = cell.row_path
        held = settings.setdefault(cell.row, [])
        held += [key for key in cell.row_keys if key not in held]
    sharing: dict[tuple[str, ...], list[int]] = {}
    for row, path in paths.items():
        sharing.setdefault(path, []).append(row)
    ids = dict(paths)
    for path, rows in sharing.items():
        if len(rows) < 2 or not path:
            continue
        common = set.intersection(*(set(settings[row]) for row in rows))
        for row in rows:
            told = [key for key in settings[row] if key not in common]
            ids[row] = (*path[:-1], *told, path[-1])
    return ids


def _rows_of(cells: Sequence[TableCell]) -> dict[tuple[str, ...], dict[Slot, TableCell]]:
    """The answer rows of a table's cells (:func:`_row_ids`), each its cells by slot."""
    row_ids = _row_ids(cells)
    rows: dict[tuple[str, ...], dict[Slot, TableCell]] = {}
    for cell in cells:
        if cell.row_path:
            rows.setdefault(row_ids[cell.row], {})[_slot(cell)] = cell
    return rows


def _keys_under_header(
    key: str,
    kept: list[tuple[str, ...]],
    rows: dict[tuple[str, ...], dict[Slot, TableCell]],
    paths: dict[Slot, tuple[str, ...]],
    mapped: dict[str, Slot],
) -> dict[tuple[str, ...], str]:
    """The rows' keys read from the one value column whose header names the key column
    ("Image size" under "image | size"), when every kept row prints it: for rows their labels
    do not tell apart, or a key the labels do not print (a number)."""
    named = [
        j
        for j, path in paths.items()
        if j not in mapped.values() and label_share(key, question_terms(" ".join(path))) >= 1.0
    ]
    if len(named) != 1 or not all(named[0] in rows[path] for path in kept):
        return {}
    return {path: printed_label(rows[path][named[0]].text) for path in kept}


def _answering(
    kept: list[tuple[str, ...]],
    rows: dict[tuple[str, ...], dict[Slot, TableCell]],
    used: set[Slot],
) -> list[tuple[str, ...]]:
    """The rows that print a value in every column the answer reads, when some do: a row
    printing "–" there ("InternVL-C" under the QLLaMA time it does not spend) answers none
    of it."""
    printing = [
        path
        for path in kept
        if all(j in rows[path] and not PLACEHOLDER.fullmatch(rows[path][j].text) for j in used)
    ]
    return printing or kept


def _added_to_base(
    path: tuple[str, ...],
    level: int,
    rows: Collection[tuple[str, ...]],
    spaced: Callable[[str], str],
) -> str:
    """The key of the row at ``path``: its label at ``level``, a row adding a part to the
    row above ("+ LIMO-QFFT" under "Qwen-2.5-Instruct-7B") keyed with that row where the
    table adds the part to several ("Qwen-2.5-Instruct-7B + LIMO-QFFT", the 32B model's
    being another row)."""
    label = spaced(printed_label(path[level]))
    if level != -1 or len(path) < 2 or not label.startswith("+"):
        return label
    bases = {other[-2] for other in rows if len(other) >= 2 and other[-1] == path[-1]}
    return f"{printed_label(path[-2])} {label}" if len(bases) > 1 else label


def _key_level(paths: Sequence[tuple[str, ...]]) -> int:
    """The path level that keys the rows: the innermost label, unless the rows share it
    ("SFT | QFFT | ∆" repeated under "S1.1", "LIMO", ...), then the innermost level whose
    labels tell every row apart."""
    if len({path[-1] for path in paths}) == len(paths):
        return -1
    depth = min((len(path) for path in paths), default=0)
    for level in range(-2, -depth - 1, -1):
        if len({path[level] for path in paths}) == len(paths):
            return level
    return -1


def _project_cells(
    cells: list[TableCell],
    schema: list[TableColumn],
    question_text: str,
    entities: Sequence[str],
    subject: str = "",
    glossary: Glossary | None = None,
    own_column: bool = False,
    named_levels: Sequence[int | None] = (),
    caption: str = "",
    labelled: Mapping[str, int] | None = None,
) -> tuple[list[ProjectedRow], dict[str, tuple[str, ...]], float, str]:
    question = asked_terms(question_text)
    keys = [column for column in schema if column.is_row_key] or schema[:1]
    values = [column for column in schema if column not in keys]
    # A header printed short ("F-κ") is named by the long form the paper defines for it.
    paths = {
        _slot(cell): glossary.spelled_out(cell.column_path) if glossary else cell.column_path
        for cell in cells
    }
    percent = _mostly_printing(cells, lambda text: text.rstrip().endswith("%"))
    spreads = _mostly_printing(cells, lambda text: spread(text) is not None)
    shares = _mostly_printing(cells, lambda text: share(text) is not None)
    own = (
        frozenset(j for j, path in paths.items() if prints_own(path, subject))
        if own_column
        else None
    )
    focus = asked_terms(_asking_sentence(question_text))
    # The names a caption prints: "ScienceParse", "SciBERT", "S2-VL".
    captioned = question_terms(" ".join(_CAPTION_NAME.findall(caption)))
    mapped, fit = _map_columns(
        paths, values, question, percent, own, spreads, shares, focus, captioned
    )
    # A column mapped to the slot of a column before it reads the spread or share printed
    # there.
    first_of: dict[Slot, str] = {}
    for name, j in mapped.items():
        first_of.setdefault(j, name)
    companion_names = {name for name, j in mapped.items() if first_of[j] != name}
    rows = _rows_of(cells)
    kept = [path for path in rows if not values or any(j in rows[path] for j in mapped.values())]
    kept = _answering(kept, rows, set(mapped.values()))
    narrowed_by = ""
    # A bound on an answer column ("a macro-average above 48") is what selects the rows: the
    # words of the question naming some rows ("its router and prompt slots") describe the
    # paper.
    # Rows the caption leaves out of its comparison ("We bold the best results excluding Copy
    # and Ground Truth") meet no bound and win no comparison.
    excluded = caption_excluded(caption)
    left_out = _left_out_rows(kept, question_text, subject)
    kept = [path for path in kept if path not in left_out]
    candidates = {
        path: rows[path] for path in kept if norm(printed_label(path[-1])) not in excluded
    }
    found_bounded = _bounded_rows(candidates, question_text, mapped)
    if found_bounded is None:
        return [], {}, 0.0, ""
    bounded, bound_said = found_bounded
    if not bounded:
        bounded, bound_said = _compared_rows(candidates, question_text, mapped, paths, caption)
    if bounded:
        kept, narrowed_by = bounded, bound_said
    named = (
        []
        if bounded
        else _named_rows(
            {path: rows[path] for path in kept},
            question,
            entities,
            question_text,
            subject,
            glossary,
        )
    )
    # A row named as a value column of the schema ("InternVL-C" among the columns of a
    # table keyed by language) is a column of the answer, not one of its rows.
    column_names = {norm(column.name) for column in values}
    named = [path for path in named if norm(printed_label(path[-1])) not in column_names]
    counted = stated_counts(question_text, [key.name for key in keys])
    # Names that reach fewer rows than the question counts yield to the rows a condition
    # holds when there are exactly that many ("each source (familiar citations, reencountered
    # citations, ...)" of the saves: the four rows under "Paper Saves", "RencontrdCite" among
    # them).
    if named and counted and len({path[-1] for path in named}) < min(counted):
        held, _ = _condition_rows(
            {path: rows[path] for path in kept}, question_text, set(mapped.values())
        )
        if len(held) in counted:
            named = []
    # Names that reach fewer rows than the question counts of what its key column holds
    # ("each of the five retrieval settings" for "Setting", two of them named) leave the
    # table's rows when it holds exactly that many.
    # So do names beside a question that asks for every row, or for every one of what the
    # key column or the caption says the rows are ("every adaptation method" of "...
    # for different adaptation methods").
    if (
        named
        and not (len(named) < len(kept) and len(kept) in counted)
        and not _every_row(question_text, keys, caption)
    ):
        kept, narrowed_by = named, NAMED_ROWS
    # With no row named or bounded, as many rows as the question counts of its key column
    # ("each of its three granularities") are the paper's own when exactly that many print
    # its name ("Multi-LexSum D → T", "... D → S", "... D → L" among other datasets).
    if not narrowed_by and counted:
        own_rows = [path for path in kept if prints_own(path, subject)]
        if len(own_rows) < len(kept) and len(own_rows) in counted:
            kept, narrowed_by = own_rows, OWN_ROWS
    conditioned, condition = _condition_rows(
        {path: rows[path] for path in kept}, question_text, set(mapped.values())
    )
    # A condition chooses among the rows of each name ("the 32B models' SFT and QFFT rows"),
    # never drops a row the question names ("BillSum and Multi-News" where only Multi-News
    # is under "Long", a word of "long summaries"), but the group it names itself ("the
    # paper saves" above its breakdown).
    dropped = {norm(path[-1]) for path in kept} - {norm(path[-1]) for path in conditioned}
    if narrowed_by == NAMED_ROWS and dropped - {norm(text) for text in condition}:
        conditioned = []
    if conditioned:
        kept, narrowed_by = conditioned, f"rows holding {', '.join(condition)!r}"
    # Each key column reads the label column its header names, when together they tell
    # the rows apart ("SciERC | NER" and "SciERC | REL").
    levels = [level for level in named_levels if level is not None]
    innermost = _key_level(kept)
    # The label columns whose headers name the key columns key the rows when they tell the
    # rows apart, or when no level does ("GENIA" twice under "Dataset", once per task).
    by_header = (
        len(levels) == len(keys)
        and all(len(path) >= -level for path in kept for level in levels)
        and (
            len({tuple(path[level] for level in levels) for path in kept}) == len(kept)
            or len({path[innermost] for path in kept}) < len(kept)
        )
    )
    level = levels[0] if by_header else innermost
    spaced = _spaced_signs([path[-1] for path in rows])
    printed_keys = {path: _added_to_base(path, level, rows, spaced) for path in kept}
    if len(set(printed_keys.values())) < len(kept) or keys[0].type == "number":
        printed_keys.update(_keys_under_header(keys[0].name, kept, rows, paths, mapped))
    # A further key column no label column gives is read from the value column its header
    # names ("#F": the frames each row was run with).
    further = (
        {}
        if by_header
        else {
            key.name: found
            for key in keys[1:]
            if (found := _keys_under_header(key.name, kept, rows, paths, mapped))
        }
    )
    projected = [
        ProjectedRow(
            printed_keys[path],
            path,
            {
                name: _companion_cell(rows[path][j]) if name in companion_names else rows[path][j]
                for name, j in mapped.items()
                if j in rows[path]
            },
            (
                {
                    key.name: printed_label(path[other])
                    for key, other in zip(keys[1:], levels[1:], strict=True)
                }
                if by_header
                else {name: read[path] for name, read in further.items()}
            )
            # A text column no header over the values names is read off the label column
            # whose header names it ("Task": "CLS").
            | {
                name: printed_label(path[level])
                for name, level in (labelled or {}).items()
                if name not in mapped and len(path) >= -level
            },
        )
        for path in kept
    ]
    return projected, {name: paths[j] for name, j in mapped.items()}, fit, narrowed_by


def _repeating_level(paths: dict[Slot, tuple[str, ...]], values: list[TableColumn]) -> int | None:
    """The column-path level along which the schema's value columns repeat: each that a
    header names is printed in full by several columns whose paths differ at that level
    alone ("Pass" under "I1-Inst.", "I1-Tool", ...; "Chamfer Distance" over "2D CSG",
    "3D CSG", ...)."""
    found: set[int] = set()
    subscripts = _subscripts(paths)
    for column in values:
        held = {j: _held(column.name, path, subscripts) for j, path in paths.items()}
        best = max(held.values(), default=0.0)
        if best < MIN_COLUMN_MATCH:
            continue
        tied = [paths[j] for j, share in held.items() if share >= best]
        # A header printing the name as it is ("BLEU") beats those printing it in a longer
        # one ("Self-BLEU").
        tied = [path for path in tied if norm(column.name) in map(norm, path)] or tied
        depth = len(tied[0])
        if len(tied) < 2 or depth < 2 or any(len(path) != depth for path in tied):
            return None
        found |= {i for i in range(depth) if len({path[i] for path in tied}) > 1}
    return found.pop() if len(found) == 1 else None


# A header saying what it is: "Dataset: QQP 50K".
_NAMED_HEADER = re.compile(r"^([A-Za-z][\w -]*):\s*\S")


def _key_text(label: str, key: str) -> str:
    """A header label as a key: "QQP 140K" of "Dataset: QQP 140K" under the key "Dataset"."""
    name, colon, rest = label.partition(":")
    if colon and rest.strip() and label_share(key, question_terms(name)) >= 1.0:
        return rest.strip()
    return label


def _across_row(
    cells: list[TableCell],
    schema: list[TableColumn],
    question_text: str,
    entities: Sequence[str],
    subject: str,
    glossary: Glossary | None,
    caption: str = "",
) -> tuple[str, list[TableCell]] | None:
    """The one row the question names, its cells read as a table of their own: keyed by the
    column-path level along which the schema's value columns repeat (:func:`_repeating_level`),
    with the rest of each path as its column ("the ToolLLaMA-DFSDT row's pass and win rates
    in each of the six settings": a row per setting, "Pass | Win" its columns). A
    ``caption`` saying what every column holds heads each path when no header says a word
    of the value columns ("We report the top-1 accuracy on ImageNet-1K and its variants" over
    "IN-1K", "IN-V2", ...). A column summing up the others ("Average") is no key unless the
    question asks for it. The row's label and the cells, or None."""
    keys = [column for column in schema if column.is_row_key] or schema[:1]
    values = [column for column in schema if column not in keys]
    question = asked_terms(question_text)
    paths = {_slot(cell): cell.column_path for cell in cells}
    level = _repeating_level(paths, values) if values else None
    value_terms = set(terms(" ".join(column.name for column in values)))
    if (
        level is None
        and value_terms
        and caption
        and not any(value_terms & set(terms(" ".join(path))) for path in paths.values())
    ):
        cells = [replace(cell, column_path=(caption, *cell.column_path)) for cell in cells]
        paths = {_slot(cell): cell.column_path for cell in cells}
        level = _repeating_level(paths, values)
    if level is None:
        return None
    rows = _rows_of(cells)
    # The row read across prints a value in every column ("-" for a win rate against itself).
    full = _answering(list(rows), rows, set(paths))
    named = _named_rows(
        {path: rows[path] for path in full}, question, entities, question_text, subject, glossary
    )

    def printed_in(text: str, paths: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
        said = f" {' '.join(_words(text))} "
        return [
            path
            for path in paths
            if any(
                f" {' '.join(_words(printed_label(form)))} " in said
                for form in _label_forms(path[-1], question_text, glossary)
            )
        ]

    if len(named) != 1:
        # A row the question prints in full is named, alone or beside others it names.
        printed = printed_in(question_text, named or full)
        if printed or len(named) < 2:
            named = printed
        else:
            # Of rows named alike, none printed in full, the one naming more of the
            # question, then printing more of its numbers ("LED-16384" over "LED-4096" for
            # "the LED variant with a 16384-token input window").
            given = {number.value for number in numbers(question_text)}
            naming = {
                path: (
                    named_terms(path[-1], question),
                    sum(number.value in given for number in numbers(path[-1])),
                )
                for path in named
            }
            most = max(naming.values())
            named = [path for path in named if naming[path] == most]
    if len(named) > 1:
        # Of rows named to describe the asked one ("integrates the rewriters into PLAD
        # (NRI)"), the row read across is the one the asking sentence names.
        named = printed_in(asking_sentence(question_text), named) or named
    if not named:
        # A question naming no row reads the paper's own ("that encoder" of "a paper
        # scales a vision encoder" reads "InternViT-6B (ours)").
        named = _own_rows(full, subject)
    if len(named) != 1:
        return None
    depth = len(next(iter(paths.values())))
    order: dict[str, int] = {}
    columns: dict[tuple[str, ...], int] = {}
    read: list[TableCell] = []
    across = [
        cell
        for cell in sorted(rows[named[0]].values(), key=lambda cell: cell.column)
        if len(cell.column_path) == depth
    ]
    labels = [_key_text(cell.column_path[level], keys[0].name) for cell in across]
    # Headers saying what they are ("Dataset: QQP 50K") are not what a key column naming
    # something else holds ("Model"): read across, the row would answer another question.
    said = [found[1] for label in labels if (found := _NAMED_HEADER.match(label))]
    if len(said) == len(labels) and not any(
        label_share(key.name, question_terms(name)) >= 1.0 for name in said for key in keys
    ):
        return None
    unasked = _unasked_summaries(labels, question_text, keys)
    for cell, label in zip(across, labels, strict=True):
        path = cell.column_path
        if label in unasked:
            continue
        rest = path[:level] + path[level + 1 :]
        row = order.setdefault(label, len(order))
        column = columns.setdefault(rest, len(columns))
        read.append(replace(cell, row=row, column=column, row_path=(label,), column_path=rest))
    odd = _odd_forms([(cell.row, cell.text) for cell in read])
    read = [cell for cell in read if cell.row not in odd]
    return (named[0][-1], read) if len({cell.row for cell in read}) >= 2 else None


def _unasked_summaries(
    labels: Sequence[str],
    question_text: str,
    keys: Sequence[TableColumn],
    summaries: frozenset[str] = _SUMMARY_ROWS,
) -> set[str]:
    """The ``labels`` summing up the others (of ``summaries``: "Average", "SD", "All") that
    the question neither names nor counts among the rows it asks for ("each of the five
    retrieval settings" over four settings and "All")."""
    if len(set(labels)) in stated_counts(question_text, [key.name for key in keys]):
        return set()
    # "Leave out the average" asks for no average.
    question = asked_terms(_LEFT_OUT.sub(" ", question_text))
    return {
        label
        for label in labels
        if norm(label) in summaries and not (terms(label) and set(terms(label)) <= question)
    }


def _number_form(text: str) -> str:
    """What a cell prints beside its number: "B" of "5.9B", "²" of "504²", "" of "88.2"."""
    found = numbers(text)
    return text.replace(found[0].text, "", 1).strip() if found else text.strip()


def _odd_forms(printed: Sequence[tuple[_Row, str]]) -> set[_Row]:
    """Of ``(row, cell text)`` pairs, the rows printing another kind of number than most
    cells do: a table column of "5.9B" parameters or "504²" crop sizes beside scores holds
    no reading of the asked value."""
    forms = Counter(_number_form(text) for _, text in printed)
    usual, count = forms.most_common(1)[0] if forms else ("", 0)
    if count <= len(printed) / 2:
        return set()
    return {row for row, text in printed if _number_form(text) != usual}


def _panel_title(panel: Grid) -> str:
    """The title a sub-table prints over its headers, its letter aside ("AUC-PR results of
    ..." of "(b) AUC-PR results of ..."), if any."""
    title = next((text for row in panel[:2] for text in row if PANEL_TITLE.match(text.strip())), "")
    return _PANEL_LETTER.sub("", title.strip())


def project(
    grid: Grid,
    schema: list[TableColumn],
    question_text: str,
    entities: Sequence[str] = (),
    subject: str = "",
    glossary: Glossary | None = None,
    own_column: bool = False,
    caption: str = "",
) -> Projection | None:
    """The schema read off ``grid`` in the orientation whose headers carry it best, or None
    when no header names any value column (``subject``: the name of what the paper
    introduces, whose rows are its own method's; ``glossary``: the short forms the paper
    defines; ``own_column``: a value column no header names reads the one column of the
    paper's own method, for a column that names the paper rather than a header;
    ``caption``: the table's, which may say what its rows are)."""
    best: Projection | None = None
    keys = [column for column in schema if column.is_row_key] or schema[:1]
    # Read transposed, sub-tables stacked in one grid are read apart; of those read alike,
    # the one whose title the question names by its own parts ("the AUC-PR ablation" for
    # "(b) AUC-PR results of ablation studies." under "(a) AUC-ROC results ...").
    readings = [(False, grid, "")] + [
        (True, transposed(panel), _panel_title(panel)) for panel in stacked(grid)
    ]
    titled = _group_named_by_parts({title for *_, title in readings if title}, question_text)
    for flipped, read, title in readings:
        # A table without header rows has its caption say what every column holds.
        cells = table_cells(read, "" if flipped else caption, flipped=flipped)
        if not cells:
            continue
        rows, columns, fit, narrowed_by = _project_cells(
            cells,
            schema,
            question_text,
            entities,
            subject,
            glossary,
            own_column,
            [key_header_level(read, key.name) for key in keys],
            caption,
            {
                column.name: level
                for column in schema
                if not column.is_row_key
                and column.type == "string"
                and (level := key_header_level(read, column.name)) is not None
            },
        )
        if not rows or fit <= 0:
            continue
        if not narrowed_by:
            # A row of statistics over the others ("Average", "SD") is none of the entities
            # the rows are ("every regression dataset") unless asked for, by name or as one of
            # the table's rows ("every row of that table"); an "All" row is as often a
            # setting (M3's dense, sparse and multi-vector scores combined) as a sum. Read
            # transposed, a row is a column of the table, whose cells print one kind.
            odd = (
                set()
                if _EVERY_TABLE_ROW.search(question_text)
                else _unasked_summaries([row.key for row in rows], question_text, keys, _STATISTICS)
            )
            if flipped:
                odd |= _odd_forms(
                    [(row.key, cell.text) for row in rows for cell in row.values.values()]
                )
            rows = [row for row in rows if row.key not in odd]
        found = Projection(rows, columns, fit, flipped, narrowed_by)
        if (
            best is None
            or found.rank > best.rank
            or (found.rank == best.rank and titled is not None and title == titled)
        ):
            best = found
    # Where the row labels' header names the key column ("Method"), the rows are the keys.
    named_key = any(key_header_level(grid, key.name) is not None for key in keys)
    across = (
        None
        if named_key
        else _across_row(
            table_cells(grid), schema, question_text, entities, subject, glossary, caption
        )
    )
    if across is not None:
        label, cells = across
        rows, columns, fit, narrowed_by = _project_cells(
            cells, schema, question_text, entities, subject, glossary
        )
        # The named row alone would answer one row; across its columns it answers the rest.
        if len(rows) >= 2 and fit > 0 and (best is None or fit >= best.fit):
            best = Projection(rows, columns, fit, False, narrowed_by, across=label)
    return best
