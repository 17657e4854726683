"""Which option a chart answers a "which is best" question with: the extreme bar, series or
x tick of the located figure."""

from __future__ import annotations

import re

from littrace.corpus.document import PaperObject
from littrace.littraceqa import Question
from littrace.numbers import parse_value, same_number
from littrace.read.charts.scaled import Chart, Point, Series, read_charts
from littrace.read.extremes import asks_settled, extreme_word, wants_lower
from littrace.read.records import Fact, PaperContext, SynthesisInput
from littrace.read.tables import subject_name
from littrace.read.text import contains_phrase, norm, terms
from littrace.read.units import marks_own, question_terms, refers_to_own

_FIGURE_ID = re.compile(r"\b(?:Figure|Fig\.?)\s*(\d+)", re.I)


def _figure(context: PaperContext, figure_id: str) -> PaperObject | None:
    return next(
        (o for o in context.objects if o.kind == "figure" and norm(o.scorer_id) == norm(figure_id)),
        None,
    )


def located_figures(
    question: Question, data: SynthesisInput
) -> list[tuple[PaperContext, PaperObject]]:
    """Figure evidence first, then the selected papers' figure the question names."""
    found: list[tuple[PaperContext, PaperObject]] = []
    for item in data.evidence:
        context = data.contexts.get(item.paper_id)
        figure_id = item.locator.get("figure_id")
        if item.source_type == "figure" and context is not None and figure_id:
            obj = _figure(context, str(figure_id))
            if obj is not None:
                found.append((context, obj))
    named = _FIGURE_ID.search(question.question)
    if named:
        for paper_id in data.papers:
            context = data.contexts.get(paper_id)
            obj = _figure(context, f"Figure {named.group(1)}") if context else None
            if context is not None and obj is not None:
                found.append((context, obj))
                break
    unique: dict[tuple[str, str], tuple[PaperContext, PaperObject]] = {}
    for context, obj in found:
        unique.setdefault((context.paper_id, obj.object_id), (context, obj))
    return list(unique.values())


def _extreme(
    candidates: list[tuple[str, Series, Point]], lower: bool
) -> tuple[str, Series, Point] | None:
    """The candidate with the extreme value; None on a tie (nothing to tell them apart)."""
    if len(candidates) < 2:
        return None
    ordered = sorted(candidates, key=lambda c: c[2].value, reverse=not lower)
    if abs(ordered[0][2].value - ordered[1][2].value) < 1e-9:
        return None
    return ordered[0]


def _option_of(text: str, options: dict[str, str]) -> str | None:
    return next((label for label, option in options.items() if norm(option) == norm(text)), None)


def _names_series(option: str, name: str, subject: str) -> bool:
    """Whether an option names a series: all of the series name's terms ("No router" in "the
    no-router variant"), or the paper's own method ("the full proposed method") for the
    series of the paper's subject or marked as its own."""
    if refers_to_own(option):
        return norm(name) == norm(subject) or marks_own(name)
    own = set(terms(name))
    return bool(own) and own <= question_terms(option)


def _series_option(name: str, options: dict[str, str], subject: str) -> str | None:
    exact = _option_of(name, options)
    if exact is not None:
        return exact
    named = [label for label, text in options.items() if _names_series(text, name, subject)]
    return named[0] if len(named) == 1 else None


def extreme_option(
    question: Question, chart: Chart, lower: bool, subject: str = ""
) -> tuple[str, Series, Point] | None:
    """The option of the extreme series (at the x label the question names, if it names one:
    "the tallest bar on FiNER"; its last point, if it asks where the series levels off;
    else each series' extreme point), when the options name the
    series and that series is one of them; else the option of the extreme x tick of the
    series the question names (or the only one)."""
    options = {o.label: o.text for o in question.multiple_choice_options or []}
    pick = min if lower else max
    asked = {
        p.x
        for s in chart.series
        for p in s.points
        if p.x and contains_phrase(question.question, p.x)
    }
    compared: list[tuple[str, Series, Point]] = []
    settled = asks_settled(question.question)
    for s in chart.series:
        points = [p for p in s.points if p.x in asked] if len(asked) == 1 else list(s.points)
        # Where a curve levels off is its last point.
        points = points[-1:] if settled and not asked else points
        if s.name and points:
            option = _series_option(s.name, options, subject) or ""
            compared.append((option, s, pick(points, key=lambda p: p.value)))
    if sum(bool(option) for option, _, _ in compared) >= 2:
        best = _extreme(compared, lower)
        return best if best is not None and best[0] else None
    named = [s for s in chart.series if s.name and contains_phrase(question.question, s.name)]
    series = chart.series[0] if len(chart.series) == 1 else (named[0] if len(named) == 1 else None)
    if series is None:
        return None
    by_x: list[tuple[str, Series, Point]] = []
    for point in series.points:
        value = parse_value(point.x)
        label = _option_of(point.x, options) or next(
            (
                lab
                for lab, text in options.items()
                if value is not None and same_number(value, text)
            ),
            None,
        )
        if label is not None:
            by_x.append((label, series, point))
    return _extreme(by_x, lower)


def chart_answer(question: Question, data: SynthesisInput) -> tuple[str, list[Fact], str] | None:
    """Option label of the extreme bar, series or x tick of the located figure's chart, the
    read value as a fact, and how; None when no chart is readable or the options do not map
    onto it unambiguously."""
    word = extreme_word(question.question)
    if not question.multiple_choice_options or word is None:
        return None
    for context, obj in located_figures(question, data):
        pdf_path = context.paper.pdf_path
        # A figure may plot lines in one panel and bars in another: the first chart whose
        # series or ticks the options name answers.
        for chart in read_charts(pdf_path, obj.page, obj.bbox) if pdf_path else ():
            lower = wants_lower(word, question.question, obj.caption, chart.y_label)
            chosen = extreme_option(question, chart, lower, subject_name(context))
            if chosen is not None:
                break
        else:
            continue
        label, series, point = chosen
        chunk_id = next((c.chunk_id for c in context.chunks if c.object_id == obj.object_id), "")
        where = f"{series.name} at {point.x}" if point.x else series.name
        fact = Fact(
            context.paper_id,
            chunk_id,
            f"{obj.scorer_id}: {where} = {point.value:.4g}",
            round(point.value, 6),
            entity=series.name,
            attribute=point.x,
        )
        how = f"{'min' if lower else 'max'} of {chart.kind} chart {obj.scorer_id} ({where})"
        return label, [fact], how
    return None
