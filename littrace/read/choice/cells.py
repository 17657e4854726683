"""Choices by table cells: the option whose numbers sit in the cells that say what the
question asks, the extreme of the line it names or of the gap between two lines it names,
or the row that prints what it says."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from littrace.littraceqa import Question
from littrace.numbers import numbers, printed_numbers, without_numbers
from littrace.read.choice.references import (
    citing_sentence_choice,
    entry_year_choice,
    list_length_choice,
    reference_choice,
    reference_number_choice,
    shared_reference_choice,
)
from littrace.read.choice.sentences import rarity
from littrace.read.choice.tally import tally_choice
from littrace.read.choice.units import (
    Choice,
    TableUnits,
    column_marks,
    contenders,
    prints_option,
    table_units,
    winner,
)
from littrace.read.extremes import asked_gap, extreme_word, wants_lower
from littrace.read.projection import caption_excluded, printed_label
from littrace.read.records import SynthesisInput
from littrace.read.tables import subject_name
from littrace.read.text import asking_clause, asking_sentence, contains_phrase, norm, terms
from littrace.read.units import (
    Alignment,
    TableCell,
    align,
    asked_terms,
    contrasted_terms,
    label_share,
    named_terms,
    own_named,
    path_score,
    printed_as,
    prints_own,
    question_terms,
    row_score,
    subject_terms,
    without_own_note,
)
from littrace.read.units.terms import said_after

# The least support an option is chosen on by its cells' alignment: a cell the question
# names a tenth of is no reading of it, just a table printing the number.
_FLOOR = 0.1
# An option names a row when it names at least this share of the row's innermost label.
_ROW_NAMED = 0.5


def _grounds(table: TableUnits, cell: TableCell) -> str:
    return f"{table.obj.scorer_id} row {cell.row_path} column {cell.column_path} = {cell.text}"


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
    # What the asking clause sets aside ("kept frozen rather than finetuned") is not asked,
    # though the paper's description names it ("evaluates frozen and finetuned variants").
    clause = asking_clause(question.question)
    aside = question_terms(clause) - asked_terms(clause)
    focus = frozenset(t for t in asked_terms(asking) if not any(word in t for word in aside))
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
                    if not prints_option(cell, number):
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
    label = winner(support) or _more_specific_row(question, support, best_cells)
    if label is None or support[label] < _FLOOR:
        return None
    grounds = best_cells[label]
    return Choice(
        label,
        support,
        "; ".join(_grounds(table, a.cell) for a, table in grounds),
        [table.fact(a.cell) for a, table in grounds],
    )


def _more_specific_row(
    question: Question,
    support: dict[str, float],
    best_cells: dict[str, list[tuple[Alignment, TableUnits]]],
) -> str | None:
    """Of the options aligned about alike, each by one cell in one column of one table, the
    one whose row label names more of the question than every other's does ("NC-RAPT"
    over "RAPT" for "its novelty-conditioned retrieval-augmented prompt tuning method")."""
    left = contenders(support)
    rows: dict[str, str] = {}
    lines = set()
    for label in left:
        grounds = best_cells[label]
        if len(grounds) != 1 or not grounds[0][0].cell.row_path:
            return None
        alignment, table = grounds[0]
        rows[label] = alignment.cell.row_path[-1]
        lines.add((table.obj.object_id, alignment.cell.column_path))
    if len(rows) < 2 or len(lines) != 1:
        return None
    wanted = asked_terms(question.question)
    named = {label: named_terms(row, wanted) for label, row in rows.items()}
    first, second = sorted(named.values(), reverse=True)[:2]
    return max(named, key=named.__getitem__) if first > second else None


def _extreme_value(question: Question, tables: list[TableUnits]) -> Choice | None:
    """For "what is the highest ... score" with options that are numbers: of the options
    printed in the line (column, or row of a table printed across) the question names about
    as well as the best, in one table or in several papers' tables, the extreme one; the
    rows are what the options differ in, so only the line aligns."""
    word = extreme_word(question.question)
    options = question.multiple_choice_options or []
    printed = {o.label: numbers(o.text) for o in options}
    if word is None or not options:
        return None
    if any(
        len(found) != 1 or terms(without_numbers(o.text))
        for o, found in zip(options, printed.values(), strict=True)
    ):
        return None
    wanted = asked_terms(question.question)
    focus = asked_terms(asking_sentence(question.question))
    found: dict[str, tuple[float, TableCell, TableUnits]] = {}
    for label, (number,) in printed.items():
        for table in tables:
            for cell in table.cells:
                if not prints_option(cell, number.text):
                    continue
                line = max(
                    _line_score(table, cell.column_path, wanted, focus, across=False),
                    _line_score(table, cell.row_path, wanted, focus, across=True),
                )
                score = line * table.weight
                if label not in found or score > found[label][0]:
                    found[label] = (score, cell, table)
    left = contenders({label: found[label][0] if label in found else 0.0 for label in printed})
    if len(left) < 2 or any(label not in found or found[label][0] < _FLOOR for label in left):
        return None
    lower = any(
        wants_lower(word, question.question, table.obj.caption, " ".join(cell.column_path))
        for _, cell, table in (found[label] for label in left)
    )
    pick = min if lower else max
    label = pick(left, key=lambda lab: found[lab][1].value or 0.0)
    return Choice(
        label,
        {lab: round(found[lab][0], 4) for lab in found},
        f"{'min' if lower else 'max'} of the options in the line the question names: "
        + "; ".join(_grounds(found[lab][2], found[lab][1]) for lab in left),
        [found[lab][2].fact(found[lab][1]) for lab in left],
    )


def extreme_choice(question: Question, tables: list[TableUnits]) -> Choice | None:
    """For "which ... is best/lowest ...": the option whose row holds the extreme value of the
    column the question names best, or, for options naming columns (methods printed across,
    "MLP | LSTM | CNN"), whose column holds the extreme of the row it names best."""
    text = question.question
    word = extreme_word(text)
    options = question.multiple_choice_options or []
    if not options or word is None:
        return None
    # An option may print its value beside the row it names: "SciBERT fine-tune on co-read
    # (77.1)". Options that are only numbers name no row, and so pick none.
    named = {o.label: question_terms(without_numbers(o.text)) for o in options}
    printed = {o.label: o.text.strip() for o in options}
    told = frozenset().union(*named.values())
    wanted = asked_terms(text) - told
    # The clause that asks names the line ("..., which method attains the highest
    # text-to-image recall@10?"); the rest of its sentence may describe the table.
    asking = asking_clause(text)
    focus = asked_terms(asking) - told
    best: tuple[float, Choice] | None = None
    for table in tables:
        # An option or the question pointing at the paper's own method ("the paper's own
        # models", "the proposed framework itself") names it.
        subject = subject_name(table.context)
        naming = {
            o.label: own_named(named[o.label], subject_terms(subject, o.text), o.text)
            for o in options
        }
        asked = own_named(wanted, subject_terms(subject, text), text)
        asked_focus = own_named(focus, subject_terms(subject, asking), asking)
        # Rows the caption leaves out of its comparison ("excluding Copy and Ground Truth")
        # are no best.
        excluded = caption_excluded(table.obj.caption)
        for across in (False, True):
            found = _extreme_line(table, asked, asked_focus, naming, printed, across, word)
            if found is None:
                continue
            line_score, line, values = found
            values = {
                lab: cell
                for lab, cell in values.items()
                if across or norm(printed_label(cell.row_path[-1])) not in excluded
            }
            if not values:
                continue
            lower = wants_lower(word, text, table.obj.caption, " ".join(line))
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


def gap_choice(question: Question, tables: list[TableUnits]) -> Choice | None:
    """For "on which dataset does the new model fall furthest below SciBERT" (options naming
    rows): the option whose row holds the extreme gap between the two columns the question
    names best. With one of them the paper's own, the gap is its value less the other's:
    lowest for how far below, highest for how far above; else the widest (or narrowest)."""
    text = question.question
    asked = asked_gap(text)
    options = question.multiple_choice_options or []
    if asked is None or not options or any(printed_numbers(o.text) for o in options):
        return None
    direction, smallest = asked
    named = {o.label: question_terms(o.text) for o in options}
    printed = {o.label: o.text.strip() for o in options}
    told = frozenset().union(*named.values())
    asking = asking_clause(text)
    best: tuple[float, Choice] | None = None
    for table in tables:
        subject = subject_name(table.context)
        wanted = own_named(asked_terms(text) - told, subject_terms(subject, text), text)
        focus = own_named(asked_terms(asking) - told, subject_terms(subject, asking), asking)
        lines: dict[tuple[str, ...], float] = {}
        for cell in table.cells:
            if cell.column_path not in lines:
                lines[cell.column_path] = _line_score(table, cell.column_path, wanted, focus, False)
        ranked = sorted(((score, path) for path, score in lines.items()), reverse=True)
        if len(ranked) < 2 or ranked[1][0] < _FLOOR:
            continue
        (first_score, first), (second_score, second) = ranked[:2]
        own_first, own_second = prints_own(first, subject), prints_own(second, subject)
        # With one column the paper's own, the gap is its value less the other's.
        signed = own_first != own_second
        if own_second and signed:
            first, second = second, first
        minuend = _option_cells(table, first, named, printed, across=False)
        subtrahend = _option_cells(table, second, named, printed, across=False)
        gaps = {
            label: float(cell.value or 0.0) - float(subtrahend[label].value or 0.0)
            for label, cell in minuend.items()
            if label in subtrahend and subtrahend[label].row == cell.row
        }
        if len(gaps) < 2:
            continue
        if not signed or direction == "apart":
            gaps = {label: abs(gap) for label, gap in gaps.items()}
        lowest = (direction == "below" and signed) != smallest
        label = (min if lowest else max)(gaps, key=lambda lab: gaps[lab])
        confidence = (first_score + second_score) / 2 * table.weight * len(gaps) / len(options)
        choice = Choice(
            label,
            {lab: round(gap, 4) for lab, gap in gaps.items()},
            f"{'min' if lowest else 'max'} of {first} less {second} in {table.obj.scorer_id}: "
            + "; ".join(f"{lab} {minuend[lab].text} - {subtrahend[lab].text}" for lab in gaps),
            [table.fact(c) for lab in gaps for c in (minuend[lab], subtrahend[lab])],
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
    extreme: str = "",
) -> tuple[float, tuple[str, ...], dict[str, TableCell]] | None:
    """The column (``across``: the row) the question names best (what only the sentences
    before the asking one name counts half; of lines named alike, the one the ``extreme``
    word stands before: "the highest Flickr30K score" among "COCO, Flickr30K and NoCaps"),
    its score and path, and by option the cell of it in the row (column) the option names;
    None unless two options name one."""
    before = said_after(extreme.split()[-1], wanted) if extreme else set()
    lines: dict[int | tuple[str, ...], tuple[float, bool, tuple[str, ...]]] = {}
    for cell in table.cells:
        key: int | tuple[str, ...] = cell.row if across else cell.column_path
        if key not in lines:
            path = cell.row_path if across else cell.column_path
            modified = bool(before & set(terms(" ".join(path))))
            lines[key] = (_line_score(table, path, wanted, focus, across), modified, path)
    if not lines:
        return None
    top = max(line[:2] for line in lines.values())
    tied = [(key, line) for key, line in lines.items() if line[:2] == top]
    if len(tied) > 1:
        # Of lines named alike, the one printing the question's rarer words ("Card Opens"
        # over "Paper Opens" for "opened the most Paper Cards").
        weight = _label_rarity(table, wanted)
        tied.sort(
            key=lambda item: -sum(weight.get(t, 0.0) for t in set(terms(" ".join(item[1][2]))))
        )
    asked, (score, _, path) = tied[0]
    if score <= 0:
        return None
    values = _option_cells(table, asked, named, options, across)
    return (score, path, values) if len(values) >= 2 else None


def _option_cells(
    table: TableUnits,
    line: int | tuple[str, ...],
    named: dict[str, frozenset[str]],
    options: dict[str, str],
    across: bool,
) -> dict[str, TableCell]:
    """By option, the cell of the column ``line`` (``across``: the row) in the row (column)
    the option names."""
    values: dict[str, TableCell] = {}
    for label, option_terms in named.items():
        shares = [
            (
                label_share(without_own_note(name[-1]), option_terms),
                printed_as(name[-1], options[label]),
                label_share(options[label], question_terms(name[-1])),
                cell,
            )
            for cell in table.cells
            if (cell.row if across else cell.column_path) == line
            and cell.value is not None
            and (name := cell.column_path if across else cell.row_path)
        ]
        # Labels alike in their words are told apart by the option printing one exactly,
        # then by how much of the option each says ("ResNet-Overlap (ours)" over the
        # baseline "ResNet" for "ResNet-Overlap").
        shares = [item for item in shares if item[0] >= _ROW_NAMED]
        if shares:
            values[label] = max(shares, key=lambda item: item[:3])[3]
        elif isinstance(line, tuple) and (
            outer := _outer_named(table, line, option_terms, options[label])
        ):
            values[label] = outer
    # A cell that several options name ("Overlap" for "ResNet-Overlap" and "MLP-Overlap")
    # is none of them: the table does not tell those options apart.
    named_by = Counter(id(cell) for cell in values.values())
    return {label: cell for label, cell in values.items() if named_by[id(cell)] == 1}


def _line_score(
    table: TableUnits,
    path: tuple[str, ...],
    wanted: frozenset[str],
    focus: frozenset[str],
    across: bool,
) -> float:
    """How well the question names a column path (``across``: a row path), what only the
    sentences before the asking one name counting half."""
    score_path = row_score if across else path_score
    named = score_path(path, wanted, glossary=table.glossary)
    return (named + score_path(path, focus, glossary=table.glossary)) / 2


def _outer_named(
    table: TableUnits, column: tuple[str, ...], option_terms: frozenset[str], option: str
) -> TableCell | None:
    """The cell of ``column`` in the one row an option names by a label other than its
    innermost: the method of "method | glue layer | LLM decoder" rows ("ASM [149] | QFormer |
    Husky-7B"); None when it names none, or several rows alike."""
    scored = [
        (max((label_share(level, option_terms), printed_as(level, option)) for level in path), cell)
        for cell in table.cells
        if cell.column_path == column and cell.value is not None and (path := cell.row_path[:-1])
    ]
    named = [(score, cell) for score, cell in scored if score[0] >= _ROW_NAMED]
    if not named:
        return None
    best = max(score for score, _ in named)
    rows = {cell.row for score, cell in named if score == best}
    return next(cell for score, cell in named if score == best) if len(rows) == 1 else None


@dataclass(frozen=True)
class Contenders:
    """The option labels table cells leave in contention, and whether their cells align
    exactly alike (``tied``): then nothing the question names tells them apart ("AVG" of
    rows it does not name), and the table does not show the answer is one of them."""

    labels: list[str]
    tied: bool = False


def _rarest_named(
    labels: list[str], cells: dict[str, list[tuple[Alignment, TableUnits]]], wanted: frozenset[str]
) -> list[str]:
    """Of ``labels`` whose cells align alike, those whose cells' labels print the rarest of
    the question's terms, each weighted by its rarity (IDF) among its table's labels: of
    "Paper Opens" and "Card Opens", both all named by "open a Paper Card", the second names
    the rarer word, what tells it from the table's other rows."""
    weights: dict[int, dict[str, float]] = {}
    scores = {}
    for label in labels:
        score = 0.0
        for alignment, table in cells[label]:
            if id(table) not in weights:
                weights[id(table)] = _label_rarity(table, wanted)
            cell = alignment.cell
            named = set(terms(" ".join((*cell.row_path, *cell.column_path))))
            score += sum(w for t, w in weights[id(table)].items() if t in named)
        scores[label] = round(score, 6)
    best = max(scores.values(), default=0.0)
    return [label for label in labels if scores[label] == best]


def _label_rarity(table: TableUnits, wanted: frozenset[str]) -> dict[str, float]:
    """The ``wanted`` terms the table's labels print, each weighted by its rarity (IDF) among
    them."""
    printed = {text for c in table.cells for text in (*c.row_path, *c.column_path)}
    units = [frozenset(terms(text)) for text in printed]
    return rarity({t for u in units for t in u} & wanted, units)


def table_contenders(question: Question, data: SynthesisInput) -> Contenders:
    """The option labels the selected papers' table cells leave in contention: those whose
    cells align nearly as well as the best one's (every label when no cell prints them,
    or when the one left is named too little to be chosen); of those aligned exactly
    alike, the ones whose labels print the question's rarer terms (:func:`_rarest_named`)."""
    every = [o.label for o in question.multiple_choice_options or []]
    found = value_support(question, table_units(question, data))
    if found is None:
        return Contenders(every)
    support, cells = found
    left = contenders(support)
    # One contender is a choice, and needs the support a choice needs.
    if len(left) == 1 and support[left[0]] < _FLOOR:
        return Contenders(every)
    tied = len(left) > 1 and len({support[label] for label in left}) == 1
    if tied and support[left[0]] >= _FLOOR:
        left = _rarest_named(left, cells, asked_terms(question.question))
    return Contenders(left, tied)


def aligned_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """The option chosen by aligning the question with the selected papers' bibliography
    entries or table cells."""
    found = (
        shared_reference_choice(question, data)
        or citing_sentence_choice(question, data)
        or reference_choice(question, data)
        or reference_number_choice(question, data)
        or entry_year_choice(question, data)
        or list_length_choice(question, data)
        or tally_choice(data)
    )
    if found is not None:
        return found
    tables = table_units(question, data)
    if not tables:
        return None
    return (
        gap_choice(question, tables)
        or extreme_choice(question, tables)
        or _extreme_value(question, tables)
        or value_choice(question, tables)
        or described_row_choice(question, tables)
    )


def _saying_column(cells: list[TableCell]) -> list[bool]:
    """Whether each cell says its column's name of its row: all but the unmarked cells of a
    column of marks (:func:`~littrace.read.choice.units.column_marks`), since a cross under
    "No Prior" says the row lacks it."""
    columns: dict[tuple[str, ...], list[int]] = {}
    for n, cell in enumerate(cells):
        columns.setdefault(cell.column_path, []).append(n)
    saying = [True] * len(cells)
    for members in columns.values():
        marked = column_marks([cells[n].text for n in members])
        for n, mark in zip(members, marked or [], strict=False):
            saying[n] = mark
    return saying


def described_row_choice(question: Question, tables: list[TableUnits]) -> Choice | None:
    """For options naming rows of a table ("Memorization | Privacy Protection | ..."), by a
    label or by a text cell the row prints, the option whose row prints what the question
    says of it ("scored with a non-matching rate", "marked as needing no prior": a check
    under "No Prior"): the question's terms each weighted by their rarity among the table's
    rows (IDF), so that what every row prints decides nothing. A group label the question
    prints in full ("the rubric's 'Always Include' category") decides first, when it labels
    some rows but not all and only one option's row is among them. A row printing what the
    question names only as the contrast of its answer ("rather than BLEU") loses the weight
    of those terms."""
    options = question.multiple_choice_options or []
    if not options or any(printed_numbers(o.text) for o in options):
        return None
    named = {o.label: question_terms(o.text) for o in options}
    told = frozenset().union(*named.values())
    asked = asked_terms(question.question) - told
    contrasted = contrasted_terms(question.question) - told
    best: tuple[float, Choice] | None = None
    for table in tables:
        content: dict[int, set[str]] = {}
        paths: dict[int, tuple[str, ...]] = {}
        for cell, says_column in zip(table.cells, _saying_column(table.cells), strict=True):
            printed = (*cell.row_path, *(cell.column_path if says_column else ()), cell.text)
            content.setdefault(cell.row, set()).update(terms(" ".join(printed)))
            paths[cell.row] = cell.row_path
        # A row is named by its labels and by its text cells (an item listed under "Always
        # Include" names its row as a label would).
        words = [(c.row, c.text) for c in table.cells if c.value is None and terms(c.text)]
        labels = [
            (row, label, question_terms(label))
            for row, label in [*((r, x) for r, p in paths.items() for x in p), *words]
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
        # A group label the question prints in full ("the rubric's 'Always Include'
        # category") holds the answer when it labels some rows, not all, and one option's.
        named_options = {label for _, label in rows.values()}
        grouped = {
            row
            for row, path in paths.items()
            if any(
                contains_phrase(question.question, label)
                for label in path
                if label and label not in named_options
            )
        }
        under = [option for option, (row, _) in rows.items() if row in grouped]
        if len(under) == 1 and len(grouped) < len(paths):
            row, label = rows[under[0]]
            support = {option: float(option == under[0]) for option in rows}
            how = f"{table.obj.scorer_id} row {label!r} is under the group the question names"
            cells = [c for c in table.cells if c.row == row]
            return Choice(under[0], support, how, [table.fact(c) for c in cells])
        held = list(content.values())
        # Terms no row prints say nothing of this table.
        weight = {t: w for t, w in rarity(asked, held).items() if any(t in row for row in held)}
        total = sum(weight.values())
        if total <= 0:
            continue
        # A row printing what the question contrasts with the answer ("rather than BLEU")
        # loses what that says of it.
        against = rarity(contrasted, held)
        support = {
            option: round(
                max(
                    0.0,
                    sum(w for t, w in weight.items() if t in content[row])
                    - sum(w for t, w in against.items() if t in content[row]),
                )
                / total,
                4,
            )
            for option, (row, _) in rows.items()
        }
        chosen = winner(support)
        if chosen is None or (best is not None and support[chosen] <= best[0]):
            continue
        row, label = rows[chosen]
        cells = [c for c in table.cells if c.row == row]
        how = f"{table.obj.scorer_id} row {label!r} prints what the question says of it"
        best = (support[chosen], Choice(chosen, support, how, [table.fact(c) for c in cells]))
    return best[1] if best else None
