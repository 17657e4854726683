"""Chart reading from real PDFs: synthetic papers drawn with known values, and a real paper."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from pathlib import Path

import pymupdf
import pytest

from littrace.corpus.document import Chunk, PaperObject, PaperRecord
from littrace.littraceqa import Question
from littrace.llm.replies import Plan
from littrace.read.charts import (
    Chart,
    Point,
    attached_label,
    chart_answer,
    coloured_values,
    extreme_option,
    inside_values,
    labelled_values,
    printed_values,
    read_chart,
    read_charts,
)
from littrace.read.charts import Series as ChartSeries
from littrace.read.records import EvidenceItem, PaperContext, SynthesisInput
from littrace.read.synthesize import synthesize
from littrace.synth.generator import render_within_pages
from littrace.synth.plan import FigureSpec, Series, plan_corpus

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "pdfs"
BARS = (("IPO-S", 34.6), ("KTO-Lite", 28.1), ("ScaleRouter", 15.2), ("FlowMixer", 41.3))
TICKS = ("0.01", "0.05", "0.1", "0.5", "1.0")
LINES = (
    ("HelpSteer-S", (39.0, 42.4, 46.1, 44.4, 37.1)),
    ("AlpacaSynth", (32.7, 37.9, 39.8, 44.6, 45.9)),
)


@dataclass(frozen=True)
class Drawn:
    """A rendered synthetic paper as the reader sees it, and its figures' printed ids."""

    context: PaperContext
    diagram: PaperObject
    bar: PaperObject
    line: PaperObject


def _with_known_values(spec: FigureSpec) -> FigureSpec:
    if spec.role == "bar":
        # An error metric on the y axis: "best" means the lowest bar.
        return replace(
            spec,
            series=tuple(Series(name, (value,)) for name, value in BARS),
            y_label="Error Rate",
            caption=f"Figure {spec.number}: Results with a fraction of the training data.",
        )
    if spec.role == "line":
        return replace(
            spec,
            series=tuple(Series(name, values) for name, values in LINES),
            x_ticks=TICKS,
            x_label="Temperature",
            y_label="Win Rate",
        )
    return spec


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Drawn:
    """A synthetic paper with a diagram, a bar chart and a line chart of known values."""
    plan = next(
        p
        for p in plan_corpus(random.Random(0), 8).papers
        if {f.role for f in p.figures} >= {"diagram", "bar", "line"}
    )
    plan = replace(plan, figures=tuple(_with_known_values(f) for f in plan.figures))
    paper = render_within_pages(plan, 0)
    pdf = tmp_path_factory.mktemp("charts") / f"{plan.paper_id}.pdf"
    pdf.write_bytes(paper.pdf)
    objects = tuple(
        PaperObject(
            plan.paper_id,
            "figure",
            o.object_id,
            o.number,
            o.page,
            o.caption_page,
            o.caption,
            o.bbox,
        )
        for o in paper.objects
        if o.kind == "figure"
    )
    chunks = tuple(
        Chunk(
            f"{plan.paper_id}#f{o.number}",
            plan.paper_id,
            "figure",
            o.page,
            o.caption,
            object_id=o.object_id,
        )
        for o in objects
    )
    record = PaperRecord(
        plan.paper_id,
        plan.title,
        plan.authors,
        "",
        plan.venue,
        plan.year,
        True,
        pdf_path=str(pdf),
    )
    context = PaperContext(record, chunks, objects, {}, 1)
    role = {f"Figure {f.number}": f.role for f in plan.figures}
    by_role = {role[o.object_id]: o for o in objects}
    return Drawn(context, by_role["diagram"], by_role["bar"], by_role["line"])


def ask(text: str, options: list[str]) -> Question:
    return Question.model_validate(
        {
            "query_id": "q",
            "benchmark": "LitTraceQA",
            "question": text,
            "answer_types": ["freeform", "multiple_choice"],
            "multiple_choice_options": [
                {"label": chr(65 + i), "text": o} for i, o in enumerate(options)
            ],
        }
    )


def data(question: Question, drawn: Drawn, located: PaperObject | None) -> SynthesisInput:
    """What synthesis sees: the paper, and the figure localization found (if any)."""
    evidence = (
        [
            EvidenceItem(
                drawn.context.paper_id,
                "figure",
                {"figure_id": located.object_id, "page": located.page},
                1.0,
            )
        ]
        if located
        else []
    )
    paper_id = drawn.context.paper_id
    return SynthesisInput(question, Plan(), [paper_id], {paper_id: drawn.context}, {}, evidence)


def values_of(chart: Chart) -> dict[str, list[tuple[str, float]]]:
    return {s.name: [(p.x, p.value) for p in s.points] for s in chart.series}


def test_every_bar_is_read_back_with_its_value_and_the_label_under_it(drawn: Drawn) -> None:
    chart = read_chart(str(drawn.context.paper.pdf_path), drawn.bar.page, drawn.bar.bbox)
    assert chart is not None and chart.kind == "bar"
    assert chart.y_label == "Error Rate"
    read = values_of(chart)
    assert list(read) == [name for name, _ in BARS]
    for name, value in BARS:
        [(x, got)] = read[name]
        assert x == "" and got == pytest.approx(value, abs=0.05)


def test_every_line_point_is_read_back_under_its_x_tick_and_legend_name(drawn: Drawn) -> None:
    chart = read_chart(str(drawn.context.paper.pdf_path), drawn.line.page, drawn.line.bbox)
    assert chart is not None and chart.kind == "line"
    read = values_of(chart)
    assert sorted(read) == sorted(name for name, _ in LINES)
    for name, expected in LINES:
        assert [x for x, _ in read[name]] == list(TICKS)
        assert [v for _, v in read[name]] == pytest.approx(expected, abs=0.05)


def test_a_diagram_is_no_chart(drawn: Drawn) -> None:
    assert (
        read_chart(str(drawn.context.paper.pdf_path), drawn.diagram.page, drawn.diagram.bbox)
        is None
    )


@pytest.mark.parametrize(
    ("wording", "expected"),
    [
        ("the highest error rate", "FlowMixer"),
        ("the lowest error rate", "ScaleRouter"),
        ("the best score", "ScaleRouter"),  # the y axis names an error: lower is better
    ],
)
def test_the_extreme_bar_is_the_chosen_option(drawn: Drawn, wording: str, expected: str) -> None:
    options = ["KTO-Lite", "ScaleRouter", "FlowMixer", "IPO-S"]
    question = ask(
        f"In {drawn.bar.object_id} of the paper, which method obtains {wording}?", options
    )
    answer = chart_answer(question, data(question, drawn, drawn.bar))
    assert answer is not None
    label, facts, how = answer
    assert options[ord(label) - 65] == expected
    assert facts[0].entity == expected and facts[0].chunk_id.endswith(f"f{drawn.bar.number}")
    assert facts[0].value == pytest.approx(dict(BARS)[expected], abs=0.05)
    assert drawn.bar.object_id in how


@pytest.mark.parametrize(
    ("series", "wording", "expected"),
    [
        ("HelpSteer-S", "best", "0.1"),
        ("AlpacaSynth", "best", "1.0"),
        ("AlpacaSynth", "lowest", "0.01"),
    ],
)
def test_the_x_tick_of_the_named_series_extreme_is_chosen_from_the_named_figure(
    drawn: Drawn, series: str, wording: str, expected: str
) -> None:
    question = ask(
        f"According to {drawn.line.object_id} of the paper, which value of the temperature "
        f"gives the {wording} Win Rate on {series}?",
        ["0.5", "0.01", "1", "0.1", "0.05"],
    )
    # No figure evidence: the figure is the one the question names.
    answer = chart_answer(question, data(question, drawn, None))
    assert answer is not None
    chosen = question.multiple_choice_options[ord(answer[0]) - 65].text  # type: ignore[index]
    assert float(chosen) == float(expected)


def test_no_answer_without_an_extreme_a_chart_or_a_named_series(drawn: Drawn) -> None:
    methods = [name for name, _ in BARS]
    no_extreme = ask(f"Which method does {drawn.bar.object_id} of the paper show first?", methods)
    assert chart_answer(no_extreme, data(no_extreme, drawn, drawn.bar)) is None
    diagram = ask(f"In {drawn.diagram.object_id}, which module has the highest cost?", methods)
    assert chart_answer(diagram, data(diagram, drawn, drawn.diagram)) is None
    # Two series and the question names neither: which series' peak is meant?
    unnamed = ask(
        f"In {drawn.line.object_id}, which temperature gives the best Win Rate?", list(TICKS)
    )
    assert chart_answer(unnamed, data(unnamed, drawn, drawn.line)) is None


def test_synthesis_answers_a_chart_question_from_the_figure(drawn: Drawn) -> None:
    options = ["IPO-S", "KTO-Lite", "ScaleRouter", "FlowMixer"]
    question = ask(
        f"In {drawn.bar.object_id} of the paper, which method obtains the highest error rate?",
        options,
    )
    synthesis = synthesize(data(question, drawn, drawn.bar))
    assert synthesis.answer["multiple_choice"] == {"gold": "D"}
    assert synthesis.answer["freeform"] == {"text": "FlowMixer"}
    assert f"{drawn.context.paper_id}#f{drawn.bar.number}" in synthesis.chunk_ids


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="no shared fixture PDFs")
def test_a_real_matplotlib_line_chart_is_read() -> None:
    """EACL 2023 (2023.eacl-main.121), Figure 4 left: Kendall's tau against the full
    annotation over the fraction of units annotated, for PubMed and SQuALITY; both reach 1.0
    with all units, SQuALITY is above PubMed before that, PubMed starts near 0.6."""
    chart = read_chart(str(FIXTURES / "2023.eacl-main.121.pdf"), 6, (60.0, 60.0, 300.0, 250.0))
    assert chart is not None and chart.kind == "line"
    assert chart.y_label == "KT correlation to full annotation"
    read = values_of(chart)
    assert sorted(read) == ["PubMed", "SQuALITY"]
    ticks = [f"{k / 10:.1f}" for k in range(1, 11)]
    assert [x for x, _ in read["PubMed"]] == ticks == [x for x, _ in read["SQuALITY"]]
    pubmed, squality = ([v for _, v in read[name]] for name in ("PubMed", "SQuALITY"))
    assert pubmed[-1] == pytest.approx(1.0, abs=0.01) and squality[-1] == pytest.approx(
        1.0, abs=0.01
    )
    assert all(s > p for s, p in zip(squality[:-1], pubmed[:-1], strict=True))
    assert 0.55 < pubmed[0] < 0.65


def test_real_training_curves_in_two_panels_are_read_as_continuous_lines() -> None:
    """ICCV 2023 (coref_visual_programs.pdf), Figure 5: the objective of PLAD, NRI and SIRI
    against iterations (left panel, y ticks 55-65) and days (right panel, no y ticks), each
    curve hundreds of segments long; NRI levels off lowest (near 61.8), SIRI highest."""
    chart = read_chart(
        str(FIXTURES.parent / "recent" / "coref_visual_programs.pdf"),
        7,
        (48.0, 198.2, 286.0, 292.0),
    )
    assert chart is not None and chart.kind == "line"
    ends = {s.name: s.points[-1].value for s in chart.series}
    assert sorted(ends) == ["NRI", "PLAD", "SIRI"]
    assert all(len(s.points) > 100 and {p.x for p in s.points} == {""} for s in chart.series)
    assert ends["NRI"] == pytest.approx(61.8, abs=0.5) and ends["SIRI"] == pytest.approx(
        66.3, abs=0.5
    )
    options = ["NRI (naive rewrite integration)", "PLAD", "SIRI", "All about the same"]
    settled = ask("Which scheme levels off at the lowest objective?", options)
    chosen = extreme_option(settled, chart, lower=True)
    assert chosen is not None and chosen[0] == "A"
    # Over the whole run every curve starts at the axis: no lowest point tells them apart.
    assert (
        extreme_option(ask("Which scheme reaches the lowest objective?", options), chart, True)
        is None
    )


def test_a_figure_with_a_bar_panel_and_a_line_panel_is_read_as_both() -> None:
    """2025 arXiv QFFT (qfft.pdf), Figure 2: (a) bars of six models' RAK, S1.1-QFFT-7B the
    tallest at 47.7; (b) lines over shares of the data (0.1% to 100%)."""
    figure = (111.6, 73.1, 504.7, 211.0)
    charts = read_charts(str(FIXTURES.parent / "recent" / "qfft.pdf"), 4, figure)
    assert [chart.kind for chart in charts] == ["line", "bar"]
    assert {"1%", "10%", "100%"} <= {p.x for s in charts[0].series for p in s.points}
    tallest = max(charts[1].series, key=lambda s: max(p.value for p in s.points))
    assert tallest.name == "S1.1-QFFT-7B"
    question = ask(
        "Figure 2(a): which model has the highest RAK?",
        ["S1.1-QFFT-32B", "S1.1-QFFT-7B", "R1-Distill-Qwen-32B", "S1.1-SFT-32B"],
    )
    assert extreme_option(question, charts[0], lower=False) is None
    chosen = extreme_option(question, charts[1], lower=False)
    assert chosen is not None and chosen[0] == "B"


def test_grouped_bars_are_named_by_legend_colour_and_grouped_by_the_text_under_them(
    tmp_path: Path,
) -> None:
    """A hand-drawn grouped bar chart: two methods (legend swatches) on two benchmarks."""
    values = {
        ("BM25", "SciDocs"): 20.0,
        ("Ours", "SciDocs"): 35.0,
        ("BM25", "TREC"): 40.0,
        ("Ours", "TREC"): 45.0,
    }
    colors = {"BM25": (0.27, 0.45, 0.71), "Ours": (0.87, 0.52, 0.22)}
    doc = pymupdf.open()  # type: ignore[no-untyped-call]
    page = doc.new_page(width=300, height=200)
    shape = page.new_shape()
    base, top = 150.0, 50.0  # y of 0 and of 50

    def y_of(value: float) -> float:
        return base - (base - top) * value / 50

    for tick in (0, 25, 50):
        # Right-aligned 3 points left of the tick mark, as plotting libraries print them.
        width = pymupdf.get_text_length(str(tick), fontname="helv", fontsize=6)
        shape.insert_text((55 - width, y_of(tick) + 2), str(tick), fontname="helv", fontsize=6)
        shape.draw_line((58, y_of(tick)), (60, y_of(tick)))
        shape.finish(color=(0, 0, 0), width=0.5)
    for g, group in enumerate(("SciDocs", "TREC")):
        x = 80 + g * 90
        for m, method in enumerate(colors):
            shape.draw_rect((x + m * 25, y_of(values[method, group]), x + m * 25 + 20, base))
            shape.finish(color=None, fill=colors[method], width=0)
        shape.insert_text((x + 12, base + 10), group, fontname="helv", fontsize=6)
    for m, (method, color) in enumerate(colors.items()):
        shape.draw_rect((80 + m * 50, 35, 86 + m * 50, 41))
        shape.finish(color=None, fill=color, width=0)
        shape.insert_text((88 + m * 50, 41), method, fontname="helv", fontsize=6)
    shape.commit()
    pdf = tmp_path / "grouped.pdf"
    doc.save(pdf)
    chart = read_chart(str(pdf), 1, (30.0, 30.0, 280.0, 170.0))
    assert chart is not None and chart.kind == "bar"
    read = values_of(chart)
    assert sorted(read) == ["BM25", "Ours"]
    for method in colors:
        assert [x for x, _ in read[method]] == ["SciDocs", "TREC"]
        expected = [values[method, group] for group in ("SciDocs", "TREC")]
        assert [v for _, v in read[method]] == pytest.approx(expected, abs=0.05)


def test_the_extreme_series_at_the_named_group_is_the_option_that_names_it() -> None:
    by_group = {
        "GEPA": (12.0, 30.0),
        "ACE": (18.0, 10.0),
        "No router": (11.0, 25.0),
        "EEVEE": (13.0, 40.0),
    }
    chart = Chart(
        "bar",
        "Final score",
        tuple(
            ChartSeries(name, (Point("FiNER", finer), Point("Formula", formula)))
            for name, (finer, formula) in by_group.items()
        ),
    )
    options = ["GEPA", "The no-router variant", "The full proposed method", "ACE"]

    def chosen(text: str, lower: bool = False) -> str | None:
        found = extreme_option(ask(text, options), chart, lower=lower, subject="EEVEE")
        return options[ord(found[0]) - 65] if found else None

    assert chosen("Which method has the tallest bar on FiNER?") == "ACE"
    # The paper's own method is the series of its subject; "no-router" names "No router".
    assert chosen("Which method scores highest on Formula?") == "The full proposed method"
    assert chosen("Which method scores lowest on FiNER?", lower=True) == "The no-router variant"
    # The extreme series is none of the options: no answer rather than the best named one.
    assert (
        extreme_option(ask("Which is highest on Formula?", ["GEPA", "ACE"]), chart, False) is None
    )


def _printed_panels(pdf: Path) -> PaperContext:
    """Two panels of bars with their values printed at their ends: "Two Tasks" and "Three
    Tasks", each with EEVEE and GEPA, GEPA hanging below the axis; one legend entry."""
    values = {("Two Tasks", "EEVEE"): 10.0, ("Two Tasks", "GEPA"): -31.6}
    values |= {("Three Tasks", "EEVEE"): 8.2, ("Three Tasks", "GEPA"): -23.2}
    doc = pymupdf.open()  # type: ignore[no-untyped-call]
    page = doc.new_page(width=400, height=260)
    shape = page.new_shape()
    axis = 130.0  # y of 0; 2 points per unit
    shape.draw_rect((150, 30, 156, 36))
    shape.finish(color=None, fill=(0.3, 0.5, 0.8), width=0)
    shape.insert_text((158, 36), "Formula", fontname="helv", fontsize=6)
    for p, panel in enumerate(("Two Tasks", "Three Tasks")):
        x = 60 + p * 170
        shape.insert_text((x + 20, 50), panel, fontname="helv", fontsize=7)
        for b, name in enumerate(("EEVEE", "GEPA")):
            value = values[panel, name]
            x0, x1 = x + b * 50, x + b * 50 + 20
            y0, y1 = sorted((axis, axis - 2 * value))
            shape.draw_rect((x0, y0, x1, y1))
            shape.finish(color=None, fill=(0.3, 0.5, 0.8), width=0)
            text = f"{value:.1f}"
            width = pymupdf.get_text_length(text, fontname="helv", fontsize=6)
            printed_y = y0 - 2 if value > 0 else y1 + 7
            shape.insert_text(((x0 + x1 - width) / 2, printed_y), text, fontname="helv", fontsize=6)
            label = pymupdf.get_text_length(name, fontname="helv", fontsize=6)
            shape.insert_text(((x0 + x1 - label) / 2, 215), name, fontname="helv", fontsize=6)
    shape.commit()
    doc.save(pdf)
    figure = PaperObject(
        "p1", "figure", "Figure 1", "1", 1, 1, "Figure 1: Gains.", (40, 25, 390, 220)
    )
    chunk = Chunk("p1#f1", "p1", "figure", 1, figure.caption, object_id="Figure 1")
    record = PaperRecord("p1", "Panels", ["A. Author"], "", "arXiv", 2026, True, pdf_path=str(pdf))
    return PaperContext(record, (chunk,), (figure,), {}, 1)


def test_values_printed_at_bar_ends_are_named_by_label_legend_and_panel(tmp_path: Path) -> None:
    context = _printed_panels(tmp_path / "panels.pdf")
    read = printed_values(context.paper.pdf_path or "", 1, context.objects[0].bbox)
    named = {reading.names: reading.text for reading in read}
    assert named == {
        ("EEVEE", "Formula", "Two Tasks"): "10.0",
        ("GEPA", "Formula", "Two Tasks"): "-31.6",
        ("EEVEE", "Formula", "Three Tasks"): "8.2",
        ("GEPA", "Formula", "Three Tasks"): "-23.2",
    }


def test_synthesis_takes_the_printed_value_of_the_bar_the_question_names(tmp_path: Path) -> None:
    context = _printed_panels(tmp_path / "panels.pdf")
    question = ask(
        "In the Three Tasks panel of Figure 1, what improvement is printed for GEPA?",
        ["-31.6", "8.2", "-23.2", "10.0"],
    )
    evidence = [EvidenceItem("p1", "figure", {"figure_id": "Figure 1", "page": 1}, 1.0)]
    synthesis = synthesize(SynthesisInput(question, Plan(), ["p1"], {"p1": context}, {}, evidence))
    assert synthesis.answer["multiple_choice"] == {"gold": "C"}
    assert synthesis.answer["freeform"] == {"text": "-23.2"}
    assert "p1#f1" in synthesis.chunk_ids


@pytest.mark.skipif(not (FIXTURES.parent / "recent").is_dir(), reason="no shared fixture PDFs")
def test_real_charts_that_print_their_values() -> None:
    """MultiTurnInstruct's Figure 4 (a histogram of turn counts, values over the bars),
    InternVL's Figure 2 (slanted benchmark names, two series told apart by their legend) and
    Eevee's Figure 1 (four panels of stacked bars that cross the axis, negative parts hatched,
    values printed at whichever end is free)."""
    recent = FIXTURES.parent / "recent"
    histogram = printed_values(str(recent / "multiturn_instruct.pdf"), 4, (73, 453, 297, 544))
    by_turns = {reading.names: reading.text for reading in histogram}
    assert by_turns[("12",)] == "58" and by_turns[("2",)] == "48" and by_turns[("8",)] == "421"
    overview = printed_values(str(recent / "internvl.pdf"), 2, (49, 72, 545, 183))
    by_name = {reading.names: reading.text for reading in overview}
    assert by_name[("LVLM", "Our Performance")] == "327.6"
    assert by_name[("LVLM", "Pervious SOTA")] == "322.5"
    assert by_name[("MME", "Our Performance")] == "1586.4"
    panels = printed_values(str(recent / "eevee.pdf"), 1, (71.8, 441.5, 544.3, 591.9))
    by_bar = {reading.names[0 :: len(reading.names) - 1]: reading.text for reading in panels}
    assert by_bar[("GEPA", "Three Tasks")] == "-23.2"
    assert by_bar[("EEVEE", "Three Tasks")] == "8.2"
    assert by_bar[("ACE", "Three Tasks")] == "-2.0"
    assert by_bar[("EEVEE", "Four Tasks")] == "41.5"
    assert len(panels) == 12


def _stacked_rows(pdf: Path) -> PaperContext:
    """Two groups of bars lying down ("Training", "Inference", each label set on end), each
    group two bars ("Time (s)", "Memory (GB)") of three coloured segments with its value
    printed at its centre; a legend of the three stages above; percent ticks under the
    bars."""
    stages = (("Load", (0.6, 0.7, 0.9)), ("Encode", (0.4, 0.8, 0.5)), ("Decode", (1.0, 0.5, 0.1)))
    values = {
        ("Training", "Time (s)"): (3.5, 12.25, 8.0),
        ("Training", "Memory (GB)"): (1.5, 4.0, 2.5),
        ("Inference", "Time (s)"): (0.75, 2.5, 6.0),
        ("Inference", "Memory (GB)"): (1.25, 3.0, 2.0),
    }
    doc = pymupdf.open()  # type: ignore[no-untyped-call]
    page = doc.new_page(width=400, height=260)
    shape = page.new_shape()
    for s, (stage, color) in enumerate(stages):
        shape.draw_rect((110 + 80 * s, 32, 114 + 80 * s, 36))
        shape.finish(color=None, fill=color, width=0)
        shape.insert_text((117 + 80 * s, 36), stage, fontname="helv", fontsize=6)
    page.insert_text((70, 78), "Training", fontname="helv", fontsize=6, rotate=90)
    page.insert_text((70, 160), "Inference", fontname="helv", fontsize=6, rotate=90)
    for (group, bar), parts in values.items():
        y = 50 + (80 if group == "Inference" else 0) + (20 if bar.startswith("Memory") else 0)
        shape.insert_text((80, y + 8), bar, fontname="helv", fontsize=6)
        x, total = 120.0, sum(parts)
        for (_, color), part in zip(stages, parts, strict=True):
            width = 240 * part / total
            shape.draw_rect((x, y, x + width, y + 12))
            shape.finish(color=None, fill=color, width=0)
            text = f"{part:g}"
            half = pymupdf.get_text_length(text, fontname="helv", fontsize=6) / 2
            shape.insert_text((x + width / 2 - half, y + 8), text, fontname="helv", fontsize=6)
            x += width
        for tick in range(0, 101, 25) if bar.startswith("Memory") else ():
            shape.insert_text((117 + 2.4 * tick, y + 20), f"{tick}%", fontname="helv", fontsize=5)
    shape.commit()
    doc.save(pdf)
    figure = PaperObject(
        "p1", "figure", "Figure 2", "2", 1, 1, "Figure 2: Cost.", (60, 25, 380, 240)
    )
    chunk = Chunk("p1#f2", "p1", "figure", 1, figure.caption, object_id="Figure 2")
    record = PaperRecord("p1", "Costs", ["A. Author"], "", "arXiv", 2025, True, pdf_path=str(pdf))
    return PaperContext(record, (chunk,), (figure,), {}, 1)


def test_values_printed_inside_bars_lying_down_are_named_by_legend_row_and_group(
    tmp_path: Path,
) -> None:
    context = _stacked_rows(tmp_path / "stacked.pdf")
    read = inside_values(context.paper.pdf_path or "", 1, context.objects[0].bbox)
    named = {reading.names: reading.text for reading in read}
    assert len(read) == 12
    assert named[("Encode", "Time (s)", "Training")] == "12.25"
    assert named[("Decode", "Memory (GB)", "Inference")] == "2"
    assert named[("Load", "Time (s)", "Inference")] == "0.75"
    # The percent ticks under the bars name nothing: bars lying down are named by row.
    assert all(not name.endswith("%") for reading in read for name in reading.names)


def test_synthesis_takes_the_value_printed_inside_the_segment_the_question_names(
    tmp_path: Path,
) -> None:
    context = _stacked_rows(tmp_path / "stacked.pdf")
    question = ask(
        "In Figure 2's cost breakdown, how many seconds does the Encode stage take at "
        "inference time?",
        ["12.25", "2.5", "3", "6"],
    )
    evidence = [EvidenceItem("p1", "figure", {"figure_id": "Figure 2", "page": 1}, 1.0)]
    synthesis = synthesize(SynthesisInput(question, Plan(), ["p1"], {"p1": context}, {}, evidence))
    assert synthesis.answer["multiple_choice"] == {"gold": "B"}


@pytest.mark.skipif(not (FIXTURES.parent / "recent").is_dir(), reason="no shared fixture PDFs")
def test_real_values_printed_inside_stacked_bars() -> None:
    """MONAQ's Figure 8 (EMNLP 2025, page 9): time and money per stage, bars lying down in
    two groups set on end; QFFT's Figure 4 (page 9): behaviour counts stacked in standing
    bars over difficulty levels 1 to 5. Diagrams printing step numbers in boxes of text
    (InternVL's Figure 3) hold no values."""
    recent = FIXTURES.parent / "recent"
    costs = inside_values(str(recent / "monaq.pdf"), 9, (70.1, 69.7, 288.5, 157.2))
    by_name = {reading.names: reading.text for reading in costs}
    assert len(costs) == 20
    assert by_name[("Model Evaluation", "Time (s)", "Regression")] == "28.08"
    assert by_name[("Code Generation", "Money ($)", "Classification")] == "0.03"
    counts = inside_values(str(recent / "qfft.pdf"), 9, (307.6, 417.2, 500.5, 527.2))
    by_level = {reading.names: reading.text for reading in counts}
    assert by_level[("Backtracking", "3")] == "196"
    assert by_level[("Verification", "4")] == "749"
    assert by_level[("Subgoal Setting", "5")] == "368"
    assert inside_values(str(recent / "internvl.pdf"), 4, (74.9, 72.0, 520.4, 275.3)) == ()


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="no shared fixture PDFs")
def test_real_values_printed_in_the_colour_of_their_curves_legend_entry() -> None:
    """The strain-sensor paper's Figure 5 (arXiv 2022, page 5): two panels of mobility
    against strain; each curve's fitted coefficient is printed beside it, in the curve's
    colour, its unit's power "TPa^-1" as a superscript."""
    pdf = FIXTURES / "key-error-585bcfc650f744efa7942900b742c1b64863350e.pdf"
    read = {v.names: v.value for v in coloured_values(str(pdf), 5, (46, 472, 280, 623))}
    assert read == {
        ("NMOS (long.)",): -283.31,
        ("NMOS (trans.)",): -255.81,
        ("PMOS (long.)",): 486.09,
        ("PMOS (trans.)",): -437.96,
    }
    figure = PaperObject(
        "p1", "figure", "Figure 5", "5", 5, 5, "Figure 5: Mobility.", (46, 472, 280, 623)
    )
    chunk = Chunk("p1#f5", "p1", "figure", 5, figure.caption, object_id="Figure 5")
    record = PaperRecord("p1", "Strain", ["A. Author"], "", "arXiv", 2022, True, pdf_path=str(pdf))
    paper = PaperContext(record, (chunk,), (figure,), {}, 1)
    question = ask(
        "The figure of mobility versus applied strain for NMOS and PMOS transistors writes the "
        "extracted piezoresistive coefficient next to each curve. Which value is written next "
        "to the PMOS transverse-orientation curve?",
        ["-255.81 TPa^-1", "486.09 TPa^-1", "-283.31 TPa^-1", "-437.96 TPa^-1"],
    )
    evidence = [EvidenceItem("p1", "figure", {"figure_id": "Figure 5", "page": 5}, 1.0)]
    synthesis = synthesize(SynthesisInput(question, Plan(), ["p1"], {"p1": paper}, {}, evidence))
    # "trans." is "transverse" shortened; the asking sentence names PMOS, not NMOS.
    assert synthesis.answer["multiple_choice"] == {"gold": "D"}


@pytest.mark.skipif(not (FIXTURES.parent / "recent").is_dir(), reason="no shared fixture PDFs")
def test_a_real_grouped_bar_chart_with_slanted_labels_and_its_legend_over_the_box() -> None:
    """MultiTurnInstruct's Figure 5: twelve models in nine task groups named on a slant; the
    legend's first row sits above the figure's box, its swatches left of the y ticks."""
    chart = read_chart(
        str(FIXTURES.parent / "recent" / "multiturn_instruct.pdf"), 5, (72, 72, 522, 345)
    )
    assert chart is not None and chart.kind == "bar"
    read = values_of(chart)
    assert len(read) == 12 and "Mistral-8x7B-Instruct-v0.1" in read
    groups = [x for x, _ in read["GPT-o1"]]
    assert groups[:2] == ["Memorization", "Dynamic Instruction"]
    assert "Privacy Protection" in groups
    privacy = {name: dict(points)["Privacy Protection"] for name, points in read.items()}
    assert max(privacy, key=privacy.__getitem__) == "Claude-3-haiku"
    assert privacy["Claude-3-haiku"] == pytest.approx(0.52, abs=0.02)


@pytest.mark.skipif(not (FIXTURES.parent / "recent").is_dir(), reason="no shared fixture PDFs")
def test_a_real_figure_printing_each_value_under_its_label_answers_a_table_question() -> None:
    """MultiTurnInstruct's Figure 2: a ring chart of nine capabilities, each printed with its
    number of samples right under it; the three level names in the middle print none."""
    pdf = FIXTURES.parent / "recent" / "multiturn_instruct.pdf"
    bbox = (306.1, 70.9, 531.1, 189.2)
    pairs = dict(labelled_values(str(pdf), 2, bbox))
    assert len(pairs) == 9 and "Context Tracking" not in pairs
    assert pairs["Multitasking"] == "160" and pairs["Privacy Protection"] == "111"
    assert pairs["Recursive Reasoning"] == "110" and pairs["Triggering"] == "100"
    caption = (
        "Figure 2: MULTITURNINSTRUCT consists of ~1.1K spanning across three levels of "
        "difficulty and 9 capabilities, with balanced numbers of samples in each capability "
        "(numbers shown in the figure)."
    )
    figure = PaperObject("p1", "figure", "Figure 2", "2", 2, 2, caption, bbox)
    chunk = Chunk("p1#f2", "p1", "figure", 2, caption, object_id="Figure 2")
    record = PaperRecord(
        "p1", "MultiTurnInstruct", ("A",), "", "arXiv", 2025, True, pdf_path=str(pdf)
    )
    paper = PaperContext(record, (chunk,), (figure,), {}, 1)
    question = Question.model_validate(
        {
            "query_id": "q",
            "benchmark": "LitTraceQA",
            "question": "In the overview figure, which capability categories have more than "
            "100 samples, and how many samples does each have?",
            "answer_types": ["table"],
            "table_schema": [
                {"name": "Capability", "type": "string", "is_row_key": True},
                {"name": "Number of samples", "type": "number", "is_row_key": False},
            ],
        }
    )
    evidence = [EvidenceItem("p1", "figure", {"figure_id": "Figure 2", "page": 2}, 1.0)]
    synthesis = synthesize(SynthesisInput(question, Plan(), ["p1"], {"p1": paper}, {}, evidence))
    rows = {
        row["Capability"]: row["Number of samples"] for row in synthesis.answer["table"]["rows"]
    }
    assert rows == {"Recursive Reasoning": 110, "Privacy Protection": 111, "Multitasking": 160}
    assert "p1#f2" in synthesis.chunk_ids


def _span_label_question(text: str) -> tuple[Question, SynthesisInput]:
    """A question on the expository-writing paper's Figure 1, a paragraph whose spans are
    tagged "Summarizing", "Grouping", "Reconciling" and "Contrasting" at their left."""
    pdf = FIXTURES / "2304.02623v1.pdf"
    bbox = (119.8, 91.6, 491.9, 226.8)
    figure = PaperObject("p1", "figure", "Figure 1", "1", 2, 2, "Figure 1: Dissecting", bbox)
    chunk = Chunk("p1#f1", "p1", "figure", 2, "Figure 1: Dissecting", object_id="Figure 1")
    record = PaperRecord("p1", "Writing", ("A",), "", "arXiv", 2023, True, pdf_path=str(pdf))
    paper = PaperContext(record, (chunk,), (figure,), {}, 1)
    question = Question.model_validate(
        {
            "query_id": "q",
            "benchmark": "LitTraceQA",
            "question": text,
            "answer_types": ["multiple_choice"],
            "multiple_choice_options": [
                {"label": "A", "text": "Summarizing"},
                {"label": "B", "text": "Reconciling"},
                {"label": "C", "text": "Contrasting"},
                {"label": "D", "text": "Grouping"},
            ],
        }
    )
    evidence = [EvidenceItem("p1", "figure", {"figure_id": "Figure 1", "page": 2}, 1.0)]
    return question, SynthesisInput(question, Plan(), ["p1"], {"p1": paper}, {}, evidence)


def test_the_label_printed_next_to_the_quoted_words_of_a_real_figure_is_chosen() -> None:
    question, data = _span_label_question(
        "In Figure 1, which label is attached to the span containing the citation list "
        "[Brown et al., 2020, Smith et al., 2022, Rae et al., 2021]?"
    )
    assert attached_label(question, data) is not None
    synthesis = synthesize(data)
    assert synthesis.answer["multiple_choice"]["gold"] == "D"
    assert "p1#f1" in synthesis.chunk_ids
    question, data = _span_label_question(
        "Which label does Figure 1 give the sentence 'Unlike most prior work, we focus on "
        "zero-shot prompting'?"
    )
    chosen = attached_label(question, data)
    assert chosen is not None and chosen[0] == "C"


def test_a_few_words_shared_with_a_figure_are_no_quotation() -> None:
    question, data = _span_label_question(
        "Which label in Figure 1 marks where pre-trained models reason?"
    )
    assert attached_label(question, data) is None
