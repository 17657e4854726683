"""Table observation units and question-to-cell alignment (TRACE §3.3 applied to reading).

A detected table's grid becomes cells, each with its **row path** (a section title above the
row, then the label columns, an empty label filled from its block or the nearest label above
or below in its column, e.g. ``("Bio", "NER", "JNLPBA")``) and its **column path** (every header row, a spanning header filled across the
empty cells to its right, e.g. ``("BERT-Base", "Frozen")``), its printed text and its parsed
value. A question aligns with a cell by how much of each path it names: the row score is the
best share of a row label's terms the question contains, the column score the mean share over
the header levels, so "what does BERT-Base obtain on ChemProt when frozen" aligns fully with
one cell and only partly with its neighbours. Terms match exactly, across hyphens
("BERT-Base" ~ "BERT base") and by a shared stem of five or more letters ("finetuned" ~
"Finetune").

Example:
    >>> grid = (("Dataset", "BERT-Base", "", "SciBERT", ""),
    ...         ("", "Frozen", "Finetune", "Frozen", "Finetune"),
    ...         ("ChemProt", "68.21", "79.14", "75.03", "83.64"))
    >>> cells = table_cells(grid)
    >>> [(c.row_path, c.column_path, c.text) for c in cells][:2]
    [(('ChemProt',), ('BERT-Base', 'Frozen'), '68.21'), (('ChemProt',), ('BERT-Base', 'Finetune'), '79.14')]
    >>> best = max(cells, key=lambda c: align(question_terms("BERT base on ChemProt, frozen"), c).score)
    >>> best.text
    '68.21'
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, replace

from littrace.numbers import parse_value
from littrace.read.abbreviations import Glossary
from littrace.read.text import STOPWORDS, norm, terms

__all__ = [
    "SYNONYMS",
    "Alignment",
    "TableCell",
    "align",
    "asked_terms",
    "header_labels",
    "header_row_count",
    "label_column_count",
    "marks_own",
    "path_score",
    "question_terms",
    "refers_to_own",
    "row_score",
    "subject_terms",
    "table_cells",
    "terms_match",
    "transposed",
    "without_own_note",
]

Grid = Sequence[Sequence[str]]
# Header shorthand read as the words a question uses: "w/o", and the metric letters of
# results tables ("P | R | F1", "Acc.").
SYNONYMS = {
    "w/o": "without",
    "w/": "with",
    "p": "precision",
    "r": "recall",
    "acc": "accuracy",
}
# Two different tokens meet when they share a prefix this long and the term is the shorter
# one (a stem or a cut: "finetun" ~ "finetune", "multivec" ~ "multivector") or adds only an
# inflection or derivation ("pretraining" ~ "pretrain"), not another word ("GROBIDCRF" is
# not "GROBID").
_STEM_PREFIX = 5
_SUFFIX = re.compile(
    r"|e|d|s|es|ed|er|ers|ing|ings|ion|ions|ation|ations|al|ally|ly|ment|ments|ity|ive|ness"
    r"|ize|ized|ise|ised|ization|isation"
)
# What a table prints where it has no value ("/", "-", "–", "n/a"): neither a number nor a
# label when columns and rows are told apart.
_PLACEHOLDER = re.compile(r"[-–—/\\.*×]+|n/?a|N/?A|none|None", re.IGNORECASE)
# A cell printed as a number, not a header that holds a digit ("R@3", "top-1").
_PRINTED_NUMBER = re.compile(r"[-+−]?\.?\d")
# A sub-table's title printed over its part of a stacked table: "(a) AUC-ROC results".
_PANEL_TITLE = re.compile(r"\([a-h]\)\s+\S")
# A whole number as a setting is printed: "20%", "7B", "512", "1,024" (a lone digit is too
# common in a question, "Table 1", to say which row it means).
_WHOLE = re.compile(r"\d{1,3}(?:,\d{3})*\s?[%A-Za-z]{1,2}|\d{1,3}(?:,\d{3})+|\d{2,3}")
# A question naming one of a row's settings prefers that row by this much of a label.
_KEY_WEIGHT = 0.25
# A citation printed inside a label: "ChemProt (Kringelum et al., 2016)".
_CITATION = re.compile(r"\s*\([^()]*\b(?:19|20)\d\d[a-z]?\)|\s*\[\d+(?:\s*[,–-]\s*\d+)*\]")
# The first author and year of the citation printed in a label: "(Li et al., 2016)",
# "(Jurgens et al. (2018))", "(Dogan and Lu, 2014)".
_CITED_WORK = re.compile(
    r"\(([A-Z][\w'’-]+)(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w'’-]+)?,?\s*\(?((?:19|20)\d\d)[a-z]?\)"
)
# Outer labels ("Bio", "NER") say less about a row than its innermost label ("JNLPBA").
_OUTER_WEIGHT = 0.25
# A label named only by the paper's context (its subject, e.g. "SciBERT" for "its own
# model") counts this much of a label the question names.
_CONTEXT_WEIGHT = 0.5
# A compound term named in some of its parts (of three letters or more) counts this much.
_PART_WEIGHT = 0.5
_PART_LETTERS = 3
# A row label naming one question term is read at 0.9 of its share, two at 0.95, ...
_UNSPECIFIC = 0.1


def _is_number(text: str) -> bool:
    # A header naming a cut-off or variant ("R@1", "F1", "B-4") prints a number after
    # letters; a value starts with its number (or a sign, or a mark like "×").
    return (
        parse_value(text) is not None
        and any(ch.isdigit() for ch in text)
        and not text.lstrip()[:1].isalpha()
    )


def _width(grid: Grid) -> int:
    return max((len(row) for row in grid), default=0)


def _cell(grid: Grid, i: int, j: int) -> str:
    row = grid[i]
    return row[j].strip() if j < len(row) and row[j] else ""


def label_column_count(grid: Grid) -> int:
    """How many leading columns hold labels: columns whose body cells are mostly not numbers
    (at least one, never all)."""
    width = _width(grid)
    count = 0
    for j in range(width):
        if _mostly_numbers(_cell(grid, i, j) for i in range(1, len(grid))):
            break
        count += 1
    return max(1, min(count, width - 1))


def header_row_count(grid: Grid, labels: int) -> int:
    """How many leading rows are headers: rows before the first one whose value cells are
    mostly numbers (never all rows; none when the first row prints numbers only, as a table
    of statistics does: "Total papers | 81.1M").

    Where some columns hold numbers and others text ("8.1M | full text | yes"), only the
    columns of numbers say where the body starts.
    """
    width = _width(grid)
    first = [_cell(grid, 0, j) for j in range(labels, width) if _cell(grid, 0, j)]
    if len(grid) > 1 and first and all(_PRINTED_NUMBER.match(t) and _is_number(t) for t in first):
        return 0
    value_columns = [
        j
        for j in range(labels, width)
        if _mostly_numbers([_cell(grid, i, j) for i in range(1, len(grid))])
    ] or list(range(labels, width))
    for i in range(1, len(grid)):
        if _mostly_numbers([_cell(grid, i, j) for j in value_columns]):
            # A section title right under a full row of column headers ("7B Models (Based on
            # Qwen2.5-7B)" under "Acc | Tokens | ...") opens the body: it is too long for the
            # column it starts in, unlike a header's wrapped last words ("(# Sensors)").
            title = _title_text(grid, i - 1, labels) if i > 1 else ""
            if title and _full(grid, i - 2, labels, width):
                j = next(j for j in range(width) if _cell(grid, i - 1, j))
                if len(title) > 2 * max(len(_cell(grid, k, j)) for k in range(i - 1)):
                    return i - 1
            # So does a group label alone in the first column under a full header row that
            # already heads that column ("Baselines (Prior Work)" under "Model | Avg | ar").
            if (
                i > 1
                and _group_label(grid, i - 1, width)
                and _full(grid, i - 2, labels, width)
                and _cell(grid, i - 2, 0)
            ):
                return i - 1
            return i + 1 if i + 1 < len(grid) and _numbers_under_span(grid, i, labels) else i
    return 1 if len(grid) > 1 else 0


def _numbers_under_span(grid: Grid, i: int, labels: int) -> bool:
    """Whether row ``i``, unlabelled, prints the distinct settings under one header spanning
    its columns ("1024 | 4096 | 8192" under "Max Length"): a header row of numbers."""
    filled = [j for j in range(labels, _width(grid)) if _cell(grid, i, j)]
    settings = [_cell(grid, i, j) for j in filled]
    if any(_cell(grid, i, j) for j in range(labels)) or len(filled) < 2:
        return False
    if len(set(settings)) < len(settings) or not all(
        _WHOLE.fullmatch(t) or t.isdigit() for t in settings
    ):
        return False
    return any(
        len({_cell(grid, k, j) for j in filled}) == 1 and _cell(grid, k, filled[0])
        for k in range(i)
    )


def _group_label(grid: Grid, i: int, width: int) -> bool:
    """Whether row ``i`` prints words in its first column and nothing else."""
    first = _cell(grid, i, 0)
    return (
        bool(first)
        and not _is_number(first)
        and not any(_cell(grid, i, j) for j in range(1, width))
    )


def _full(grid: Grid, i: int, labels: int, width: int) -> bool:
    """Whether row ``i`` has a cell over most of the value columns."""
    return sum(1 for j in range(labels, width) if _cell(grid, i, j)) > (width - labels) / 2


def _title_text(grid: Grid, i: int, labels: int) -> str:
    """The text of row ``i`` if it is one cell of words at or right of column ``labels``
    (a section title printed over the value columns, or over the table), else "". Numbers
    run together ("68.20 68.85") and a label's wrapped parenthesis ("(Radford et al., 2019)")
    are no titles, nor a check or cross. A title the converter cut into cells ("Regression (Tan et al., | 2021)",
    its parenthesis closed only when the pieces are joined) is one title."""
    filled = [(j, _cell(grid, i, j)) for j in range(_width(grid)) if _cell(grid, i, j)]
    pieces = [text for _, text in filled]
    if len(filled) > 1 and _balanced(" ".join(pieces)) and not all(map(_balanced, pieces)):
        filled = [(filled[0][0], " ".join(pieces))]
    if len(filled) != 1:
        return ""
    j, text = filled[0]
    words = text.split()
    if (
        j < labels
        or _PLACEHOLDER.fullmatch(text)
        or _is_mark(text)
        or (text[0] == "(" and text[-1] == ")")
    ):
        return ""
    if 2 * sum(map(_is_number, words)) >= len(words):
        return ""
    return text


def _balanced(text: str) -> bool:
    """Whether every bracket ``text`` opens it also closes."""
    return all(text.count(a) == text.count(b) for a, b in ("()", "[]", "{}"))


def header_labels(grid: Grid) -> list[str]:
    """The distinct texts a table prints in its header rows (over its label columns too:
    "Language | Source | #train | Avg. Length of Docs"), the words a question names a table by."""
    if len(grid) < 2:
        return []
    headers = header_row_count(grid, label_column_count(grid))
    found = dict.fromkeys(
        _cell(grid, i, j) for i in range(headers) for j in range(_width(grid)) if _cell(grid, i, j)
    )
    return list(found)


def _mostly_numbers(texts: Iterable[str]) -> bool:
    filled = [text for text in texts if text and not _PLACEHOLDER.fullmatch(text)]
    return bool(filled) and sum(_is_number(t) for t in filled) / len(filled) >= 0.5


@dataclass(frozen=True)
class TableCell:
    """One value cell of a table with the labels that say what it measures."""

    row: int
    column: int
    row_path: tuple[str, ...]
    column_path: tuple[str, ...]
    text: str
    value: float | None
    # The row's other whole-number cells ("20%", "7B", "512"): settings that tell rows with
    # the same label apart ("Hold-out | 20% | 23.00" under "Hold-out | 10% | 23.05").
    row_keys: tuple[str, ...] = ()


def _nearest_label(grid: Grid, i: int, j: int, first: int, titles: Container[int] = ()) -> str:
    """The label of column ``j`` for row ``i``: its own, else the nearest non-empty one in
    that column among the body rows (above on ties) that are not section ``titles``, since
    spanning labels are printed once, at the top or in the middle of their span."""
    own = _cell(grid, i, j)
    if own:
        return own
    for distance in range(1, len(grid)):
        for k in (i - distance, i + distance):
            if first <= k < len(grid) and k not in titles and _cell(grid, k, j):
                return _cell(grid, k, j)
    return ""


def _spanning_row(
    grid: Grid,
    i: int,
    labels: int,
    width: int,
    headed: Sequence[bool],
    below: int | None,
    above: int | None = None,
) -> list[str]:
    """Header row ``i`` with each spanning header filled across the columns it spans.

    ``below`` is the next header row with value headers (None for the last header row),
    ``above`` the previous one, ``headed`` by column whether another header row heads it. A spanning header is printed once over its span. Where the
    row's headers split the value columns into equal spans, each holding a header or the
    pieces of one ("3D" + "CSG" for "3D CSG" over two columns, joined), and the
    ``below`` row (for the last header row, the ``above`` one) repeats itself with that period
    ("Classification" and "Regression" each over "Latency | ... | FLASH", printed at or near
    the middle of their span; "Dataset: QQP 140K" and "Dataset: QQP 50K" under "BERT | ... |
    SARI" twice), each fills its span;
    a sub-table title ("(a) AUC-ROC results") fills the whole row; otherwise a header spans the
    columns to its right that have their own sub-header, as its first column does (a header
    wrapped onto a second line has nothing below its first line).
    """
    own = [_cell(grid, i, j) for j in range(width)]
    placed = [j for j in range(labels, width) if own[j]]
    values = width - labels
    titles = [text for text in own if text]
    if len(titles) == 1 and _PANEL_TITLE.match(titles[0]):
        return own[:labels] + titles * values
    reference = below if below is not None else above
    if reference is None or not placed:
        return own
    # A row with a header over every column spans nothing.
    if 2 <= len(placed) < values:
        under = [_cell(grid, reference, j) for j in range(labels, width)]
        for span in range(2, values // 2 + 1):
            if values % span or not _periodic(under, span):
                continue
            columns = [
                [j for j in placed if (j - labels) // span == n] for n in range(values // span)
            ]
            # One header the converter repeated over its whole span is printed once over it.
            pieces = [
                [own[spanned[0]]]
                if len(spanned) == span and len({own[j] for j in spanned}) == 1
                else [own[j] for j in spanned]
                for spanned in columns
            ]
            # Pieces of one header stand side by side over sub-headers (on any other header
            # row, ``headed``); a header repeated over neighbouring columns ("Self-" over
            # "TER" and over "BLEU") or over no sub-header ("BERT" above a wrapped "Self- |
            # TER") is a column's own, not one printed over the span.
            if all(
                p
                and len(set(p)) == len(p)
                and (len(p) == 1 or (c[-1] - c[0] < len(c) and all(headed[j] for j in c)))
                for p, c in zip(pieces, columns, strict=True)
            ):
                spans = [" ".join(p) for p in pieces]
                return own[:labels] + [spans[(j - labels) // span] for j in range(labels, width)]
    if below is None:
        return own
    filled = list(own)
    for j in range(labels, width):
        if own[j] or not _cell(grid, below, j):
            continue
        left = j - 1
        while left >= labels and not own[left] and _cell(grid, below, left):
            left -= 1
        if left >= labels and own[left] and _cell(grid, below, left):
            filled[j] = own[left]
    return filled


def _section_titles(grid: Grid, first: int, labels: int, width: int) -> dict[int, str]:
    """Body rows (from ``first``) that title the rows below them, by row: one cell of words
    over the value columns, or alone in the first column where that column labels no row of
    values itself ("Baselines (Prior Work)", "Long-to-Short Methods (7B)")."""
    with_values = [
        i for i in range(first, len(grid)) if any(_cell(grid, i, j) for j in range(labels, width))
    ]
    first_column_free = labels == 1 or not any(_cell(grid, i, 0) for i in with_values)
    titles = {}
    for i in range(first, len(grid)):
        text = _title_text(grid, i, labels) or (
            _title_text(grid, i, 0) if first_column_free else ""
        )
        if text:
            titles[i] = text
    return titles


def _blocks(grid: Grid, rows: Sequence[int], labels: int) -> list[range]:
    """Row blocks of a table whose innermost labels repeat ("Baseline | ACE | GEPA" under
    each target model): a block starts wherever the first row's innermost label comes
    again. Empty when it never does; ``rows`` are the rows with values."""
    inner = labels - 1
    if inner < 1 or not rows:
        return []
    first = norm(_cell(grid, rows[0], inner))
    starts = [i for i in rows if first and norm(_cell(grid, i, inner)) == first]
    if len(starts) < 2:
        return []
    ends = [*starts[1:], len(grid)]
    return [range(start, end) for start, end in zip(starts, ends, strict=True)]


def _block_label(grid: Grid, block: range, j: int, titles: Container[int]) -> str:
    """The label of column ``j`` for a whole block: its only label, or a label wrapped over
    consecutive rows ("Qwen3-4B" over "Instruct"), joined; "" when the block holds labels
    for different rows."""
    own = [i for i in block if i not in titles and _cell(grid, i, j)]
    if not own or own[-1] - own[0] != len(own) - 1 or len(own) > 3:
        return ""
    return " ".join(_cell(grid, i, j) for i in own)


def _periodic(row: Sequence[str], span: int) -> bool:
    """Whether ``row`` repeats itself every ``span`` cells, mostly and word for word ("P | R |
    F1" under each of four systems; "Acc ↑" ~ "Acc"), as the sub-headers under equal spans do."""
    pairs = [
        (norm(row[j]), norm(row[j % span]))
        for j in range(span, len(row))
        if row[j] or row[j % span]
    ]
    return bool(pairs) and sum(a == b for a, b in pairs) / len(pairs) >= 0.5


def _spanned_rows(grid: Grid, rows: Sequence[int], labels: int, width: int) -> list[list[str]]:
    """The header rows ``rows`` with their spanning headers filled across their spans."""
    filled = [i for i in rows if any(_cell(grid, i, j) for j in range(labels, width))]
    return [
        _spanning_row(
            grid,
            i,
            labels,
            width,
            [any(_cell(grid, k, j) for k in rows if k != i) for j in range(width)],
            next((k for k in filled if k > i), None),
            next((k for k in reversed(filled) if k < i), None),
        )
        for i in rows
    ]


def _column_paths(
    grid: Grid, rows: Sequence[int], labels: int, width: int
) -> list[tuple[str, ...]]:
    """Each column's header path over the header rows ``rows``."""
    spanned = _spanned_rows(grid, rows, labels, width)
    paths = []
    for j in range(width):
        path: list[str] = []
        for row in spanned:
            if path and _WRAPPED.search(path[-1]) and row[j][:1].isalpha():
                # A header word wrapped at its hyphen ("Self-" over "BLEU") is one word.
                path[-1] += row[j]
            elif row[j] and row[j] not in path:
                path.append(row[j])
        paths.append(tuple(path))
    return paths


# A header line that ends in the hyphen of a word wrapped onto the next line: "Self-".
_WRAPPED = re.compile(r"[^\W\d_]-$")


def _with_change_columns(
    grid: Grid, paths: list[tuple[str, ...]], body: range, labels: int
) -> list[tuple[str, ...]]:
    """``paths`` where a column without a header holding only signed numbers ("-7.07",
    "+1.05": the change beside each score, under the score's spanning header) takes the
    path of the column to its left, plus "Δ"."""
    adjusted = list(paths)
    for j in range(labels + 1, len(paths)):
        column = [_cell(grid, i, j) for i in body if _cell(grid, i, j)]
        signed = column and all(text[0] in "+-−" and _is_number(text) for text in column)
        if not paths[j] and signed and paths[j - 1]:
            adjusted[j] = (*paths[j - 1], "Δ")
    return adjusted


def _repeats_header(grid: Grid, i: int, header_rows: range, labels: int) -> bool:
    """Whether body row ``i`` starts another header block: it prints one of the top header
    rows again (a stacked sub-table), with no numbers among its values."""
    own = [_cell(grid, i, j) for j in range(_width(grid))]
    if _mostly_numbers(own[labels:]) or not any(own[labels:] + own[:labels]):
        return False
    for h in header_rows:
        top = [_cell(grid, h, j) for j in range(_width(grid))]
        shared = [j for j, text in enumerate(top) if text and not _PLACEHOLDER.fullmatch(text)]
        if shared and sum(own[j] == top[j] for j in shared) / len(shared) >= 0.5:
            return True
    return False


def _block_start(grid: Grid, i: int, width: int) -> int:
    """Where a repeated header block starting at row ``i`` begins: at the sub-table title
    printed on the row above it, if there is one."""
    above = [_cell(grid, i - 1, j) for j in range(width)]
    titles = [text for text in above if text]
    return i - 1 if len(titles) == 1 and _PANEL_TITLE.match(titles[0]) else i


def _distinct_columns(paths: list[tuple[str, ...]], labels: int) -> list[tuple[str, ...]]:
    """``paths`` where value columns sharing one path (the "p" printed after each of three
    comparisons) each take the path of the column to their left in front, when those paths
    tell them apart."""
    groups: dict[tuple[str, ...], list[int]] = {}
    for j in range(labels, len(paths)):
        if paths[j]:
            groups.setdefault(paths[j], []).append(j)
    adjusted = list(paths)
    for path, columns in groups.items():
        left = [paths[j - 1] for j in columns if j - 1 >= labels and paths[j - 1]]
        if len(columns) > 1 and len(left) == len(columns) == len(set(left)) and path not in left:
            for j in columns:
                adjusted[j] = (*paths[j - 1], *path)
    return adjusted


def _header_paths(
    grid: Grid, header_grid: Grid, body: range, labels: int, width: int
) -> list[tuple[str, ...]]:
    """Each column's path under the header rows ``header_grid`` (``body``: the rows of
    ``grid`` they head)."""
    paths = _column_paths(header_grid, range(len(header_grid)), labels, width)
    return _distinct_columns(_with_change_columns(grid, paths, body, labels), labels)


def _band(grid: Grid, i: int, labels: int, width: int, header_grid: Grid) -> list[tuple[int, str]]:
    """The headers of body row ``i`` by column if it relabels the columns of the rows below
    it (a band of words between rows of numbers, "L →T Fine-tuning | ... | {L, D} →T", its
    label cells empty or the header's own, "Method"), else []."""
    band = [(j, _cell(grid, i, j)) for j in range(labels, width) if _cell(grid, i, j)]
    if not band or any(
        _is_number(text) or _PLACEHOLDER.fullmatch(text) or not _balanced(text) for _, text in band
    ):
        return []
    own_labels = {_cell(header_grid, h, j) for h in range(len(header_grid)) for j in range(labels)}
    if any(_cell(grid, i, j) not in own_labels for j in range(labels) if _cell(grid, i, j)):
        return []

    def numeric(k: int) -> bool:
        return _mostly_numbers([_cell(grid, k, j) for j in range(labels, width)])

    def near(rows: range) -> int | None:
        return next((k for k in rows if any(_cell(grid, k, j) for j in range(labels, width))), None)

    above, below = near(range(i - 1, -1, -1)), near(range(i + 1, len(grid)))
    return (
        band
        if above is not None and below is not None and numeric(above) and numeric(below)
        else []
    )


def _relabelled(header_grid: Grid, band: list[tuple[int, str]], labels: int, width: int) -> Grid:
    """``header_grid`` with a band's headers in place of its innermost spanning level, each
    over the span its column falls in (texts in one span joined: "Dataset:" + "MSRPC"), or
    unchanged where no level spans columns."""
    spanned = _spanned_rows(header_grid, range(len(header_grid)), labels, width)
    runs_by_level = [_runs(row, labels) for row in spanned]
    level = next(
        (h for h in reversed(range(len(spanned))) if any(len(r) > 1 for r in runs_by_level[h])),
        None,
    )
    if level is None:
        return header_grid
    new = list(spanned[level])
    runs = runs_by_level[level]
    starts = [j for j, _ in band]
    for n, j in enumerate(starts):
        run = next((r for r in runs if j in r), None)
        if run is None:
            stop = min([*starts[n + 1 :], *(r.start for r in runs if r.start > j), width])
            run = range(j, stop)
        texts = [t for k, t in band if k in run]
        for k in run:
            new[k] = " ".join(texts)
    rows = [list(row) for row in header_grid]
    rows[level] = new
    return rows


def _runs(row: Sequence[str], labels: int) -> list[range]:
    """The runs of one repeated non-empty header over the value columns of a spanned row."""
    runs: list[range] = []
    for j in range(labels, len(row)):
        if row[j] and runs and runs[-1].stop == j and row[runs[-1].start] == row[j]:
            runs[-1] = range(runs[-1].start, j + 1)
        elif row[j]:
            runs.append(range(j, j + 1))
    return runs


# A check or cross printed as a row's setting ("✓ | · | ✓": which inputs an agent uses).
_CHECK = re.compile(r"[✓✔√]")
_CROSS = re.compile(r"[✗✘×]")


def _is_mark(text: str) -> bool:
    return bool(_CHECK.fullmatch(text) or _CROSS.fullmatch(text))


def _mark_columns(grid: Grid, rows: Sequence[int], labels: int) -> set[int]:
    """The label columns whose cells on rows with values are mostly checks and crosses."""
    found = set()
    for j in range(labels):
        texts = [_cell(grid, i, j) for i in rows if _cell(grid, i, j)]
        marks = sum(map(_is_mark, texts))
        if texts and 2 * marks > len(texts):
            found.add(j)
    return found


def _mark_label(mark: str, header: tuple[str, ...]) -> str:
    """A check or cross under ``header`` as the words it stands for: the header's name, or
    "without" it."""
    name = " ".join(header)
    if not name:
        return mark
    return name if _CHECK.fullmatch(mark) else f"without {name}" if _CROSS.fullmatch(mark) else mark


def _mark_groups(
    grid: Grid, body: range, rows: Sequence[int], columns: set[int]
) -> list[tuple[range, str]]:
    """Group labels printed in mark columns on ``body`` rows without values ("Single" over
    "(GPT-4o Backbone)", centred on their rows), lines within two rows joined."""
    groups: list[tuple[range, str]] = []
    for i in body:
        if i in rows:
            continue
        for j in sorted(columns):
            text = _cell(grid, i, j)
            if not text or _is_mark(text):
                continue
            if groups and i - groups[-1][0].stop <= 1:
                groups[-1] = (range(groups[-1][0].start, i + 1), f"{groups[-1][1]} {text}")
            else:
                groups.append((range(i, i + 1), text))
    return groups


def _nearest_group(groups: list[tuple[range, str]], i: int) -> str:
    if not groups:
        return ""
    return min(
        groups, key=lambda g: (min(abs(i - g[0].start), abs(i - (g[0].stop - 1))), g[0].start > i)
    )[1]


def _told_apart(cells: list[TableCell], grid: Grid) -> list[TableCell]:
    """``cells`` where rows with one label print different single digits in a column (a
    setting, "#F | 1" and "#F | 8" frames): those digits join their rows' keys."""
    rows_by_path: dict[tuple[str, ...], set[int]] = {}
    for cell in cells:
        rows_by_path.setdefault(cell.row_path, set()).add(cell.row)
    extra: dict[int, tuple[str, ...]] = {}
    for rows in rows_by_path.values():
        if len(rows) < 2:
            continue
        for j in range(_width(grid)):
            texts = [_cell(grid, i, j) for i in sorted(rows)]
            if all(t.isdigit() and len(t) == 1 for t in texts) and len(set(texts)) > 1:
                for i, text in zip(sorted(rows), texts, strict=True):
                    extra[i] = (*extra.get(i, ()), text)
    return [
        replace(cell, row_keys=(*cell.row_keys, *(k for k in extra[cell.row] if k != cell.text)))
        if cell.row in extra
        else cell
        for cell in cells
    ]


def table_cells(grid: Grid, caption: str = "") -> list[TableCell]:
    """The value cells of ``grid`` with their row and column paths (see :func:`_table_cells`),
    read once per table and caption: every reader of a question asks for the same tables."""
    return list(_table_cells(tuple(map(tuple, grid)), caption))


@functools.lru_cache(maxsize=4096)
def _table_cells(grid: tuple[tuple[str, ...], ...], caption: str) -> tuple[TableCell, ...]:
    """The value cells of ``grid`` (header rows first) with their row and column paths.

    A table that prints its header rows again further down (sub-tables stacked in one
    table) starts a new header block there: the rows below take their column paths from it;
    a band of words between rows of numbers ("Dataset: MSRPC" over one half) relabels the
    columns it spans from there on. A section title in the body ("7B Models") heads the row
    paths below it, up to the next one; where the innermost labels repeat block by block, an
    outer label printed anywhere in a block (centred, or wrapped over two rows) labels the
    whole block. A check or cross in a label column reads as its column's header (or
    "without" it), under the group label printed among those marks. A table without header
    rows (statistics, "Total papers | 81.1M") has its ``caption`` as every column's path.
    """
    if len(grid) < 2 or _width(grid) < 2:
        return ()
    labels = label_column_count(grid)
    headers = header_row_count(grid, labels)
    width = _width(grid)
    top = range(headers)
    body = range(headers, len(grid))
    header_grid: Grid = [list(grid[k]) for k in top]
    column_paths = _header_paths(grid, header_grid, body, labels, width)
    if not headers and caption:
        column_paths = [(caption,)] * width
    titles = _section_titles(grid, headers, labels, width)
    with_values = [
        i
        for i in range(headers, len(grid))
        if i not in titles and any(_cell(grid, i, j) for j in range(labels, width))
    ]
    blocks = _blocks(grid, with_values, labels)
    # A block's label printed amid its rows (centred over them) labels that block, through
    # the block's own label, not the rows below it as a section title would.
    for block in blocks:
        for k in [
            k for k in titles if k in block and any(v > k for v in with_values if v in block)
        ]:
            del titles[k]
    marks = _mark_columns(grid, with_values, labels)
    groups = _mark_groups(grid, body, with_values, marks) if marks else []
    naming = _naming_column(grid, with_values, labels)
    # Label columns outer to inner, the one naming the rows last (filled down and labelled by
    # blocks as printed: only where they stand changes).
    order = [j for j in range(labels) if j != naming] + [naming]
    cells = []
    section = ""
    i = headers
    while i < len(grid):
        if i in titles:
            section = titles[i]
            i += 1
            continue
        if _repeats_header(grid, i, top, labels):
            section = ""
            end = i
            while end + 1 < len(grid) and not _mostly_numbers(
                [_cell(grid, end + 1, j) for j in range(labels, width)]
            ):
                end += 1
            if end + 1 < len(grid):
                header_grid = [list(grid[k]) for k in range(_block_start(grid, i, width), end + 1)]
                column_paths = _header_paths(grid, header_grid, body, labels, width)
                i = end + 1
                continue
        band = _band(grid, i, labels, width, header_grid)
        if band:
            header_grid = _relabelled(header_grid, band, labels, width)
            column_paths = _header_paths(grid, header_grid, body, labels, width)
            i += 1
            continue
        values = [_cell(grid, i, j) for j in range(labels, width)]
        own = [_cell(grid, i, j) for j in range(labels)]
        i += 1
        if not any(values):
            continue  # a section row: its label reaches the rows around it as a nearest label
        # A row of numbers without a label of its own sits under a label spanning several
        # rows; one of words is a section title printed over the value columns.
        unlabelled = not any(own)
        if unlabelled and not _mostly_numbers(values):
            continue
        group = next((b for b in blocks if i - 1 in b), None)
        row_path = tuple(
            _mark_label(label, column_paths[j]) if j in marks else label
            for j in order
            if (
                label := (_block_label(grid, group, j, titles) if group and j < labels - 1 else "")
                or own[j]
                or (
                    _nearest_label(grid, i - 1, j, headers, titles)
                    if (j < labels - 1 and j not in marks) or unlabelled
                    else ""
                )
            )
        )
        if not row_path:
            continue
        if groups:
            row_path = (_nearest_group(groups, i - 1), *row_path)
        if section:
            row_path = (section, *row_path)
        keys = [text for text in values if _WHOLE.fullmatch(text) and parse_value(text) is not None]
        for j in range(labels, width):
            text = values[j - labels]
            if text:
                cells.append(
                    TableCell(
                        i - 1,
                        j,
                        row_path,
                        column_paths[j],
                        text,
                        parse_value(text),
                        tuple(key for key in keys if key != text),
                    )
                )
    return tuple(_keyed_where_needed(_told_apart(cells, grid)))


def _naming_column(grid: Grid, rows: Sequence[int], labels: int) -> int:
    """The label column that names the rows: the last one, unless it prints under half as many
    distinct labels as another (an attribute printed on some rows, "Dataset | Language" with
    "Chinese", "Multi"; a group label is filled down and comes first anyway)."""
    last = labels - 1
    if labels < 2:
        return last
    distinct = [len({_cell(grid, i, j) for i in rows} - {""}) for j in range(labels)]
    best = max(range(labels), key=lambda j: (distinct[j], j))
    return best if 2 * distinct[last] < distinct[best] else last


def _keyed_where_needed(cells: list[TableCell]) -> list[TableCell]:
    """``cells`` with row keys only where rows share a row path: a row its labels already
    name needs no setting to be told apart, and its other values are no settings."""
    rows_by_path: dict[tuple[str, ...], set[int]] = {}
    for cell in cells:
        rows_by_path.setdefault(cell.row_path, set()).add(cell.row)
    return [
        cell if len(rows_by_path[cell.row_path]) > 1 else replace(cell, row_keys=())
        for cell in cells
    ]


def transposed(grid: Grid) -> tuple[tuple[str, ...], ...]:
    """``grid`` with rows and columns swapped (short rows padded), for tables printed with
    their entities as columns ("n-Si | p-Si" over rows of coefficients)."""
    width = _width(grid)
    return tuple(tuple(row[j] if j < len(row) else "" for row in grid) for j in range(width))


def _tokens(text: str) -> set[str]:
    # Two words printed as one in a header ("GROBID_NN" read as "GROBIDNN"; "Multi Vec").
    words = norm(text).split()
    found: set[str] = {a + b for a, b in itertools.pairwise(words) if (a + b).isalnum()}
    # A label the question quotes is named whole, stop words and all ("the 'All' score").
    found.update(_QUOTED_MARK + norm(quoted) for quoted in _QUOTED.findall(text))
    # The initials of consecutive words, for a label printed as an initialism ("CS" for
    # "computer science", "MLP" for "multi-layer perceptron").
    content = [p for w in words for p in w.split("-") if p.isalpha() and p not in STOPWORDS]
    found.update(
        _INITIALS_MARK + "".join(w[0] for w in content[i : i + n])
        for n in (2, 3, 4)
        for i in range(len(content) - n + 1)
    )
    # An ordinal names the number a label prints ("the second dataset": "...Consumption2").
    found.update(str(_ORDINALS.index(w) + 1) for w in words if w in _ORDINALS)
    # A number standing alone, not the part of a name ("8 frames", not "top-1").
    found.update(_NUMBER_MARK + w for w in words if w.isdigit())
    for term in terms(text):
        term = SYNONYMS.get(term, term)
        found.add(term)
        if "-" in term or "/" in term:
            parts = [p for p in term.replace("/", "-").split("-") if p]
            found.update(parts)
            found.add("".join(parts))
    return found


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def question_terms(text: str) -> frozenset[str]:
    """The terms a question is aligned by (hyphenated terms also as their parts)."""
    return frozenset(_tokens(text))


# A contrast names what is not asked: "when frozen rather than finetuned", "its own method
# (not SFT)".
_CONTRAST = re.compile(
    r"(?:\b(?:rather than|instead of|as opposed to)|(?<=\()not)\s+((?:[\w@.+-]+\s*){1,4}?)"
    r"(?=[,;:?.)]|$|\s+(?:and|or|but|in|on|for|of)\b)",
    re.IGNORECASE,
)


def asked_terms(question: str) -> frozenset[str]:
    """The question's terms without those it names only as the contrast of what it asks."""
    contrasted = _tokens(" ".join(m.group(1) for m in _CONTRAST.finditer(question)))
    rest = _tokens(_CONTRAST.sub(" ", question))
    return frozenset(_tokens(question) - (contrasted - rest))


@functools.lru_cache(maxsize=65536)
def terms_match(term: str, wanted: frozenset[str]) -> bool:
    """Whether ``term`` is among ``wanted``, exactly, as a stem or cut of a wanted word, or
    as an inflection of one."""
    if term in wanted:
        return True
    # Stems are of words: "ReACT@N" is another method than "ReACT", not a form of it.
    if len(term) < _STEM_PREFIX or not term.isalpha():
        return False
    return any(
        len(other) >= _STEM_PREFIX
        # A marked term ("initials:cs", "quoted:all") is no word to stem into.
        and not other.startswith((_QUOTED_MARK, _INITIALS_MARK, _NUMBER_MARK))
        and (
            other.startswith(term)
            or (term.startswith(other) and _SUFFIX.fullmatch(term[len(other) :]) is not None)
        )
        for other in wanted
    )


_QUOTED = re.compile(r"""(?:(?<=\s)|^)['‘"“]([^'’"”]{1,40})['’"”](?!\w)""")
_QUOTED_MARK = "quoted:"
_NUMBER_MARK = "number:"
_INITIALS_MARK = "initials:"
# An initialism as a header or label prints it: two to five capitals ("CS", "MLP", "NER").
_INITIALISM = re.compile(r"\b[A-Z]{2,5}\b")


def label_share(label: str, wanted: frozenset[str]) -> float:
    """The share of ``label``'s own terms (not their hyphen parts, not a citation printed in
    it) that ``wanted`` names."""
    hits, total = label_hits(label, wanted)
    return hits / total if total else 0.0


@functools.lru_cache(maxsize=65536)
def label_hits(label: str, wanted: frozenset[str]) -> tuple[float, int]:
    """How many of ``label``'s own terms ``wanted`` names, and how many it has."""
    # A question pointing at the paper's own method names the row the paper marks as its own.
    if _QUOTED_MARK + norm(label) in wanted or (_OWN_TERM in wanted and marks_own(label)):
        return 1, 1
    own = {SYNONYMS.get(t, t) for t in terms(_CITATION.sub("", label))}
    if not own:
        return 0, 0
    # A question may name a dataset or method only by the work its label cites ("a
    # chemical/disease dataset by Li et al. (2016)" for "BC5CDR (Li et al., 2016)").
    cited = _CITED_WORK.search(label)
    if cited and {cited.group(1).casefold(), cited.group(2)} <= wanted:
        return len(own), len(own)
    shortened = {word.lower() for word in _SHORTENED.findall(label)}
    symbols = {f"{letter}{rest}".lower() for letter, rest in _SUBSCRIPTED.findall(label)}
    initialisms = {word.lower() for word in _INITIALISM.findall(label)}
    camel = {
        word.lower(): [part.lower() for part in _CAMEL_PART.findall(word)]
        for word in _CAMEL.findall(label)
    }
    hits = 0.0
    for term in own:
        parts = camel.get(term) or [p for p in term.replace("/", "-").split("-") if p]
        joined = "".join(parts) if len(parts) > 1 else term
        if (
            terms_match(term, wanted)
            or _abbreviates(term, wanted)
            or (term in shortened and _shortens(term, wanted))
            or (term in symbols and _names_symbol(term, wanted))
            or (term in initialisms and _INITIALS_MARK + term in wanted)
            or (
                len(parts) > 1
                and (
                    all(
                        terms_match(p, wanted)
                        or (p in initialisms and _INITIALS_MARK + p in wanted)
                        for p in parts
                    )
                    or terms_match(joined, wanted)
                )
            )
        ):
            hits += 1
        elif len(parts) > 1:
            # A compound naming the question's words in some of its parts ("ToolLLaMA-DFSDT"
            # for "... with DFSDT") is named in part, at half weight, unless the question
            # prints a sibling of it ("Overlap-Combined" is not "Overlap-Ranking") or a
            # number tells it from its siblings ("HouseholdPowerConsumption1").
            named = [p for p in parts if len(p) >= _PART_LETTERS and terms_match(p, wanted)]
            unnamed = [p for p in parts if p not in named]
            if not any(_sibling(p, term, wanted) for p in named) and all(
                p.isalpha() for p in unnamed
            ):
                hits += _PART_WEIGHT * len(named) / len(parts)
    return hits, len(own)


def _sibling(part: str, term: str, wanted: frozenset[str]) -> bool:
    """Whether ``wanted`` holds another compound with ``part`` among its parts."""
    return any(other != term and part in _COMPOUND.split(other) for other in wanted if "-" in other)


def _abbreviates(term: str, wanted: frozenset[str]) -> bool:
    """Whether a compound header term abbreviates a wanted one part by part, a letter for a
    word, the rest alike: "R-2" for "ROUGE-2", "B-4" for "BLEU-4", "R@5" for "recall@5"."""
    # A letter run into the number it abbreviates with: "K700" for "Kinetics-700".
    parts = _COMPOUND.split(term) if _COMPOUND.search(term) else _LETTER_NUMBER.split(term)
    if len(parts) < 2 or not any(len(part) == 1 and part.isalpha() for part in parts):
        return False
    for other in wanted:
        full = _COMPOUND.split(other)
        if (
            len(full) == len(parts)
            and all(
                part == word or (len(part) == 1 and part.isalpha() and word.startswith(part))
                for part, word in zip(parts, full, strict=True)
            )
            and any(part == word for part, word in zip(parts, full, strict=True))
        ):
            return True
    return False


_COMPOUND = re.compile(r"[-/@]")
_LETTER_NUMBER = re.compile(r"(?<=^[a-z])(?=\d+$)")
# Words run together in a name, each capitalised ("HouseholdPowerConsumption2",
# "AtrialFibrillation"): named by its words, as a hyphenated term is by its parts.
_CAMEL = re.compile(r"\b[A-Z]?[a-z]+(?:[A-Z][a-z]+)+[A-Z0-9]*\b")
_CAMEL_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# A word a header prints shortened, with a full stop: "Avg.", "Len.", "Max.", "Prec.".
_SHORTENED = re.compile(r"\b([A-Za-z]{2,5})\.(?!\w)")


# A symbol printed with its subscript run in ("A_eval" as "Aeval", "L_task" as "Ltask").
_SUBSCRIPTED = re.compile(r"\b([A-Z])([a-z]{3,})\b")


def _names_symbol(term: str, wanted: frozenset[str]) -> bool:
    """Whether a symbol with its subscript ("aeval") is what the question names in words:
    the subscript a wanted word or its start ("evaluation"), the letter the initial of
    another ("agent")."""
    letter, subscript = term[0], term[1:]
    said = any(
        word.startswith(subscript) and word.isalpha() and len(word) > len(subscript)
        for word in wanted
    ) or terms_match(subscript, wanted)
    return said and any(word[0] == letter and word.isalpha() for word in wanted)


def _shortens(term: str, wanted: frozenset[str]) -> bool:
    """Whether ``term`` (printed with a full stop) is a wanted word shortened: its first
    letter, then some of its letters in order ("avg" of "average", "len" of "length")."""
    return any(
        len(word) > len(term) and word[0] == term[0] and _in_order(term, word)
        for word in wanted
        if word.isalpha()
    )


def _in_order(letters: str, word: str) -> bool:
    rest = iter(word)
    return all(letter in rest for letter in letters)


@dataclass(frozen=True)
class Alignment:
    """How well a question names one cell's row and column."""

    cell: TableCell
    row_score: float
    column_score: float

    @property
    def score(self) -> float:
        return self.row_score * self.column_score


def named_share(
    label: str,
    wanted: frozenset[str],
    context: frozenset[str],
    glossary: Glossary | None = None,
) -> float:
    """How much of ``label`` ``wanted`` names, or, at half weight, names with the help of the
    paper's subject terms ``context``; a label holding a short form the paper defines
    (``glossary``) is named in either form ("QQP 50K", "Quora Question Pairs 50K split")."""
    spelled = glossary.spell(label) if glossary else None
    forms = (label, spelled) if spelled else (label,)
    named = max(label_share(form, wanted) for form in forms)
    # A label may join the subject with what the question names ("InternVL-C" for "its
    # contrastive model"): named with the subject's help, at the subject's weight.
    helped = max(label_share(form, wanted | context) for form in forms) if context else 0.0
    return max(named, _CONTEXT_WEIGHT * helped)


def path_score(
    path: Sequence[str],
    wanted: frozenset[str],
    context: frozenset[str] = frozenset(),
    glossary: Glossary | None = None,
) -> float:
    """The mean share of ``path``'s labels that ``wanted`` (or, at half weight, ``context``)
    names: every header level counts alike."""
    shares = [named_share(label, wanted, context, glossary) for label in path]
    return sum(shares) / len(shares) if shares else 0.0


def row_score(
    path: Sequence[str],
    wanted: frozenset[str],
    context: frozenset[str] = frozenset(),
    glossary: Glossary | None = None,
) -> float:
    """How well ``wanted`` names a row path: the innermost label counts fully, outer ones
    (sections, groups) a quarter, normalised to [0, 1]."""
    if not path:
        return 0.0
    weights = [_OUTER_WEIGHT] * (len(path) - 1) + [1.0]
    shares = [named_share(label, wanted, context, glossary) for label in path]
    return sum(w * s for w, s in zip(weights, shares, strict=True)) / sum(weights)


# A question pointing at the paper's own method without naming it: "its own model", "the
# proposed method", "the authors' method". Tables mark that method's rows "Ours", "X (ours)" or "X (Our Work)"; the
# word "ours" is what alignment matches such labels by.
_OWN_REFERENCE = re.compile(r"\b(?:own|proposed|ours)\b|\bauthors['’]", re.IGNORECASE)
_OWN_NOTE = re.compile(r"\s*\((?:ours|our\s+\w+|proposed)\)", re.IGNORECASE)
_OWN_LABEL = re.compile(rf"{_OWN_NOTE.pattern}|^\s*ours\b", re.IGNORECASE)
_OWN_TERM = "ours"


def refers_to_own(question: str) -> bool:
    """Whether ``question`` points at the paper's own method without naming it."""
    return _OWN_REFERENCE.search(question) is not None


def own_named(named: frozenset[str], subject: frozenset[str], text: str) -> frozenset[str]:
    """``named`` with the paper's ``subject`` terms when ``text`` points at the paper's own
    method ("the authors' method"): such a question names it, not merely implies it."""
    return named | subject if refers_to_own(text) else named


def marks_own(label: str) -> bool:
    """Whether a row label marks the paper's own method ("Ours", "InternViT-6B (ours)")."""
    return _OWN_LABEL.search(label) is not None


def printed_as(label: str, name: str) -> bool:
    """Whether ``label`` prints ``name`` exactly (a citation after it aside), marks and
    all: "EVA-02-CLIP-E+ [130]" prints "EVA-02-CLIP-E+", not "EVA-02-CLIP-E"."""
    return (
        " ".join(_CITATION.sub("", label).split()).casefold() == " ".join(name.split()).casefold()
    )


def without_own_note(label: str) -> str:
    """``label`` without an own-work note ("InternViT-6B (ours)" reads "InternViT-6B"), unless
    the note is all there is."""
    bare = _OWN_NOTE.sub("", label)
    return bare if bare.strip() else label


def subject_terms(subject: str, question: str) -> frozenset[str]:
    """The terms a question about the paper's own method leaves implicit (``context`` of
    :func:`align`): the name of what the paper introduces, and the mark tables print on its
    rows ("Ours") when the question points at its own method."""
    implied = question_terms(subject)
    return implied | {_OWN_TERM} if refers_to_own(question) else implied


def key_share(key: str, wanted: frozenset[str]) -> float:
    """How much of a row key ``wanted`` names; a bare number ("8") only by the number standing
    alone ("with 8 frames"), not as the part of a name ("top-1", "Kinetics-700")."""
    bare = key.strip()
    if bare.isdigit():
        return 1.0 if _NUMBER_MARK + bare in wanted else 0.0
    return label_share(key, wanted)


def align(
    wanted: frozenset[str],
    cell: TableCell,
    context: Iterable[str] = frozenset(),
    focus: frozenset[str] | None = None,
    glossary: Glossary | None = None,
) -> Alignment:
    """The alignment of a question's terms with ``cell`` (``context``: terms of the paper's
    subject, which a question about "its own model" does not repeat; ``glossary``: the
    paper's short forms). With ``focus`` (the terms of the sentence that asks), a label named
    only in the sentences before it (describing the paper, or what it is compared with)
    counts half."""
    if focus is not None:
        whole = align(wanted, cell, context, glossary=glossary)
        asking = align(focus, cell, context, glossary=glossary)
        return Alignment(
            cell,
            (whole.row_score + asking.row_score) / 2,
            (whole.column_score + asking.column_score) / 2,
        )
    extra = frozenset(context) - wanted
    keys = max((key_share(key, wanted) for key in cell.row_keys), default=0.0)
    # Of two rows named alike, the one whose label names more of the question is the more
    # specific reading ("Avg. of 15 models with LM" over "With LM" for "15 models with LM
    # averaged").
    named = label_hits(cell.row_path[-1], wanted)[0] if cell.row_path else 0
    specific = 1.0 - _UNSPECIFIC / max(1, named)
    return Alignment(
        cell,
        (row_score(cell.row_path, wanted, extra, glossary) + _KEY_WEIGHT * keys) * specific,
        path_score(cell.column_path, wanted, extra, glossary),
    )
