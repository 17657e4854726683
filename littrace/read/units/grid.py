"""A table's grid as the converter prints it: its cells, which leading columns hold labels
and which leading rows are headers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from littrace.numbers import parse_value

Grid = Sequence[Sequence[str]]

# What a table prints where it has no value ("/", "-", "–", "n/a"): neither a number nor a
# label when columns and rows are told apart.
PLACEHOLDER = re.compile(r"[-–—/\\.*×]+|n/?a|N/?A|none|None", re.IGNORECASE)
# A cell printed as a number, not a header that holds a digit ("R@3", "top-1").
_PRINTED_NUMBER = re.compile(r"[-+−]?\.?\d")
# A sub-table's title printed over its part of a stacked table: "(a) AUC-ROC results".
PANEL_TITLE = re.compile(r"\([a-h]\)\s+\S")
# A whole number as a setting is printed: "20%", "7B", "512", "1,024" (a lone digit is too
# common in a question, "Table 1", to say which row it means).
WHOLE = re.compile(r"\d{1,3}(?:,\d{3})*\s?[%A-Za-z]{1,2}|\d{1,3}(?:,\d{3})+|\d{2,3}")


def is_number(text: str) -> bool:
    # A header naming a cut-off or variant ("R@1", "F1", "B-4") prints a number after
    # letters; a value starts with its number (or a sign, or a mark like "×").
    return (
        parse_value(text) is not None
        and any(ch.isdigit() for ch in text)
        and not text.lstrip()[:1].isalpha()
    )


def grid_width(grid: Grid) -> int:
    return max((len(row) for row in grid), default=0)


def grid_cell(grid: Grid, i: int, j: int) -> str:
    row = grid[i]
    return row[j].strip() if j < len(row) and row[j] else ""


def label_column_count(grid: Grid) -> int:
    """How many leading columns hold labels: columns whose body cells are mostly not numbers
    (at least one, never all)."""
    width = grid_width(grid)
    count = 0
    for j in range(width):
        body = [grid_cell(grid, i, j) for i in range(1, len(grid))]
        if mostly_numbers(body) or _numbers_and_marks(body):
            break
        count += 1
    # Columns headed alike but for a number ("stage 1 | stage 2") are values side by side,
    # whatever they print (a settings table's "1e-3 | frozen").
    siblings = _sibling_columns(grid)
    if siblings is not None:
        count = min(count, siblings)
    return max(1, min(count, width - 1))


def _numbers_and_marks(texts: Sequence[str]) -> bool:
    """Whether a column prints numbers and checks or crosses, mostly: the values of a
    comparison ("✓ | ✗ ... 3451 | 3"), where a column of marks alone is a row's settings."""
    filled = _filled(texts)
    numeric = sum(is_number(t) for t in filled)
    marked = sum(is_mark(t) for t in filled)
    return numeric > 0 and marked > 0 and numeric + marked >= 0.5 * len(filled)


def _sibling_columns(grid: Grid) -> int | None:
    """The first of the columns (two or more, to the last) whose first-row headers differ
    only in their numbers ("stage 1", "stage 2"), or None."""
    if not grid:
        return None
    heads = [grid_cell(grid, 0, j) for j in range(grid_width(grid))]
    shape = [re.sub(r"\d+", "#", head) if re.search(r"\d", head) else "" for head in heads]
    last = shape[-1]
    if not last:
        return None
    first = len(shape) - 1
    while first > 1 and shape[first - 1] == last:
        first -= 1
    distinct = {heads[j] for j in range(first, len(heads))}
    return first if len(heads) - first >= 2 and len(distinct) == len(heads) - first else None


def header_row_count(grid: Grid, labels: int) -> int:
    """How many leading rows are headers: rows before the first one whose value cells are
    mostly numbers (never all rows; none when the first row prints numbers only, as a table
    of statistics does: "Total papers | 81.1M").

    Where some columns hold numbers and others text ("8.1M | full text | yes"), only the
    columns of numbers say where the body starts.
    """
    width = grid_width(grid)
    first = [grid_cell(grid, 0, j) for j in range(labels, width) if grid_cell(grid, 0, j)]
    if len(grid) > 1 and first and all(_PRINTED_NUMBER.match(t) and is_number(t) for t in first):
        return 0
    value_columns = [
        j
        for j in range(labels, width)
        if mostly_numbers([grid_cell(grid, i, j) for i in range(1, len(grid))])
    ]
    # In a table of text a first row whose label the next row repeats is the first of a
    # group ("Always Include | The first complaint" over "Always Include | Opinions").
    said = [grid_cell(grid, 0, j) for j in range(labels)] if grid else []
    if (
        len(grid) > 1
        and not value_columns
        and any(said)
        and said == [grid_cell(grid, 1, j) for j in range(labels)]
    ):
        return 0
    if not value_columns and any(said):
        # A table of settings ("config | stage 1 | stage 2"): rows naming a setting in their
        # label cells are its body, numbers or not; unlabelled rows continue the header.
        rows = 1
        while rows < len(grid) - 1 and not any(grid_cell(grid, rows, j) for j in range(labels)):
            rows += 1
        return rows
    value_columns = value_columns or list(range(labels, width))
    for i in range(1, len(grid)):
        if mostly_numbers([grid_cell(grid, i, j) for j in value_columns]):
            # A section title right under a full row of column headers ("7B Models (Based on
            # Qwen2.5-7B)" under "Acc | Tokens | ...") opens the body: it is too long for the
            # column it starts in, unlike a header's wrapped last words ("(# Sensors)"), or
            # spans the whole row, label columns too ("L → S Fine-tuning" in every cell).
            title = title_text(grid, i - 1, labels) if i > 1 else ""
            if title and _full(grid, i - 2, labels, width):
                j = next(j for j in range(width) if grid_cell(grid, i - 1, j))
                spans_row = all(grid_cell(grid, i - 1, k) == title for k in range(width))
                if spans_row or len(title) > 2 * max(
                    len(grid_cell(grid, k, j)) for k in range(i - 1)
                ):
                    return i - 1
            # So does a group label alone in the first column under a full header row that
            # already heads that column ("Baselines (Prior Work)" under "Model | Avg | ar").
            if (
                i > 1
                and _group_label(grid, i - 1, width)
                and _full(grid, i - 2, labels, width)
                and grid_cell(grid, i - 2, 0)
            ):
                return i - 1
            return i + 1 if i + 1 < len(grid) and _numbers_under_span(grid, i, labels) else i
    return 1 if len(grid) > 1 else 0


def _numbers_under_span(grid: Grid, i: int, labels: int) -> bool:
    """Whether row ``i``, unlabelled, prints the distinct settings under one header spanning
    its columns ("1024 | 4096 | 8192" under "Max Length"): a header row of numbers."""
    filled = [j for j in range(labels, grid_width(grid)) if grid_cell(grid, i, j)]
    settings = [grid_cell(grid, i, j) for j in filled]
    if any(grid_cell(grid, i, j) for j in range(labels)) or len(filled) < 2:
        return False
    if len(set(settings)) < len(settings) or not all(
        WHOLE.fullmatch(t) or t.isdigit() for t in settings
    ):
        return False
    return any(
        len({grid_cell(grid, k, j) for j in filled}) == 1 and grid_cell(grid, k, filled[0])
        for k in range(i)
    )


def _group_label(grid: Grid, i: int, width: int) -> bool:
    """Whether row ``i`` prints words in its first column and nothing else."""
    first = grid_cell(grid, i, 0)
    return (
        bool(first)
        and not is_number(first)
        and not any(grid_cell(grid, i, j) for j in range(1, width))
    )


def _full(grid: Grid, i: int, labels: int, width: int) -> bool:
    """Whether row ``i`` has a cell over most of the value columns."""
    return sum(1 for j in range(labels, width) if grid_cell(grid, i, j)) > (width - labels) / 2


def title_text(grid: Grid, i: int, labels: int) -> str:
    """The text of row ``i`` if it is one cell of words at or right of column ``labels``
    (a section title printed over the value columns, or over the table), else "". Numbers
    run together ("68.20 68.85") and a label's wrapped parenthesis ("(Radford et al., 2019)")
    are no titles, nor a check or cross. A title the converter cut into cells ("Regression (Tan et al., | 2021)",
    its parenthesis closed only when the pieces are joined) is one title."""
    filled = [(j, grid_cell(grid, i, j)) for j in range(grid_width(grid)) if grid_cell(grid, i, j)]
    pieces = [text for _, text in filled]
    if len(filled) > 1 and balanced(" ".join(pieces)) and not all(map(balanced, pieces)):
        filled = [(filled[0][0], " ".join(pieces))]
    # A title spanning the whole row, printed by the converter in each cell it spans, stands
    # over the value columns.
    if len(filled) > 1 and len(set(pieces)) == 1 and len(filled) == grid_width(grid):
        filled = [filled[labels]] if labels < len(filled) else filled[:1]
    if len(filled) != 1:
        return ""
    j, text = filled[0]
    words = text.split()
    if (
        j < labels
        or PLACEHOLDER.fullmatch(text)
        or is_mark(text)
        or (text[0] == "(" and text[-1] == ")")
    ):
        return ""
    if 2 * sum(map(is_number, words)) >= len(words):
        return ""
    return text


def balanced(text: str) -> bool:
    """Whether every bracket ``text`` opens it also closes."""
    return all(text.count(a) == text.count(b) for a, b in ("()", "[]", "{}"))


def header_labels(grid: Grid) -> list[str]:
    """The distinct texts a table prints in its header rows (over its label columns too:
    "Language | Source | #train | Avg. Length of Docs"), the words a question names a table by."""
    if len(grid) < 2:
        return []
    headers = header_row_count(grid, label_column_count(grid))
    found = dict.fromkeys(
        grid_cell(grid, i, j)
        for i in range(headers)
        for j in range(grid_width(grid))
        if grid_cell(grid, i, j)
    )
    return list(found)


def mostly_numbers(texts: Iterable[str]) -> bool:
    filled = _filled(texts)
    return bool(filled) and sum(is_number(t) for t in filled) / len(filled) >= 0.5


def _filled(texts: Iterable[str]) -> list[str]:
    """The cells of ``texts`` that print something other than a placeholder ("–", "n/a")."""
    return [text for text in texts if text and not PLACEHOLDER.fullmatch(text)]


# A check or cross printed as a row's setting ("✓ | · | ✓": which inputs an agent uses).
CHECK = re.compile(r"[✓✔√]")
CROSS = re.compile(r"[✗✘×]")


def is_mark(text: str) -> bool:
    return bool(CHECK.fullmatch(text) or CROSS.fullmatch(text))
