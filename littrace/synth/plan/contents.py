"""A paper's contents once its line is planned: results, references, tables, figures,
equations and the algorithm."""

from __future__ import annotations

import random
from dataclasses import replace

from littrace.synth.plan.names import Names
from littrace.synth.plan.objects import (
    AlgorithmSpec,
    CitedWork,
    EquationRole,
    EquationSpec,
    FigureRole,
    FigureSpec,
    Series,
    TableRole,
    TableSpec,
)
from littrace.synth.plan.papers import PaperPlan
from littrace.synth.plan.text import format_value, title_case
from littrace.synth.vocabulary import (
    HYPERPARAMETERS,
    TRAINING_FRACTIONS,
)


def _main_rows(plan: PaperPlan) -> list[str]:
    table = plan.table("main")
    assert table is not None
    return [row[0] for row in table.rows]


def best_baseline(plan: PaperPlan, dataset: str) -> float:
    table = plan.table("main")
    assert table is not None
    column = table.header.index(dataset)
    values = [float(row[column]) for i, row in enumerate(table.rows) if i != table.bold_row]
    return max(values) if plan.topic.higher_is_better else min(values)


def plan_results(rng: random.Random, plan: PaperPlan, scores: dict[tuple[str, str], float]) -> None:
    """Own scores beat every row of the paper's main table; the scores join the line's facts."""
    topic = plan.topic
    lo, hi = topic.value_range
    baselines = rng.sample(topic.baselines, rng.randint(2, 3))
    rows = baselines + [prior.method for prior in plan.prior[-2:]]
    for dataset in plan.datasets:
        column = [scores[row, dataset] for row in rows]
        step = rng.uniform(0.01, 0.08) * (hi - lo)
        if topic.higher_is_better:
            own = max(column) + step
        else:
            own = max(min(column) - step, min(column) * 0.5)
        value = round(own, plan.decimals)
        # Distinct printed values keep multiple-choice options unambiguous.
        while value in column:
            value = round(
                value + (1 if topic.higher_is_better else -1) * 10**-plan.decimals, plan.decimals
            )
        scores[plan.method, dataset] = value
        plan.own_scores[dataset] = value
    header = ("Method", *plan.datasets)
    table_rows = tuple(
        (row, *(format_value(scores[row, d], plan.decimals) for d in plan.datasets))
        for row in [*rows, plan.method]
    )
    unit = f" ({topic.unit})" if topic.unit else ""
    direction = "higher" if topic.higher_is_better else "lower"
    caption = (
        f"{title_case(topic.metric)}{unit} of {plan.method} and baselines on "
        f"{plan.datasets[0]}, {plan.datasets[1]} and {plan.datasets[2]} ({direction} is better)."
    )
    plan.tables = (
        TableSpec(0, "main", caption, header, table_rows, len(rows), rng.random() < 0.3, False),
    )


def plan_references(
    rng: random.Random,
    names: Names,
    plan: PaperPlan,
    core: list[CitedWork],
    classics: list[CitedWork],
) -> None:
    chosen = core[:3] + [ref for ref in core[3:] if rng.random() < 0.5]
    chosen.append(rng.choice(classics))
    for prior in plan.prior:
        chosen.append(
            CitedWork(
                f"paper:{prior.paper_id}",
                prior.authors,
                prior.title,
                prior.venue,
                prior.year,
                method=prior.method,
            )
        )
    concepts = {ref.concept for ref in chosen if ref.concept}
    for i in range(rng.randint(4, 7)):
        ref = names.concept_reference(f"{plan.paper_id}:own{i}", (2018, 2024), concepts)
        concepts.add(ref.concept)
        chosen.append(ref)
    # Labels follow the alphabetical order of first-author surnames, as in many ML venues.
    chosen.sort(key=lambda ref: (ref.first_author_surname, ref.year, ref.title))
    plan.references = tuple(chosen)


def plan_objects(rng: random.Random, plan: PaperPlan) -> None:
    """2-4 tables, 1-3 figures, 1-3 equations and one algorithm, numbered in reading order."""
    topic, d0, d1 = plan.topic, plan.datasets[0], plan.datasets[1]
    sign = 1 if topic.higher_is_better else -1
    spread = topic.value_range[1] - topic.value_range[0]
    main = plan.tables[0]
    rows = _main_rows(plan)
    # Figure roles in reading order: the overview diagram sits in the introduction.
    roles: list[FigureRole] = ["diagram"] if rng.random() < 0.5 else []
    roles += rng.sample(["bar", "line", "panels"], rng.randint(1, 3 - len(roles)))
    roles.sort(key=["diagram", "bar", "panels", "line"].index)
    extra_tables: list[TableRole] = [
        role for role in ("efficiency", "difficulty") if rng.random() < 0.5
    ]

    tables: list[TableSpec] = [main]
    full = (plan.own_scores[d0], plan.own_scores[d1])
    ablation_rows: list[tuple[str, ...]] = [
        (f"{plan.method} (full)", *(format_value(v, plan.decimals) for v in full))
    ]
    for comp in plan.components:
        drops = [v - sign * rng.uniform(0.02, 0.12) * spread for v in full]
        ablation_rows.append((f"w/o {comp}", *(format_value(v, plan.decimals) for v in drops)))
    tables.append(
        TableSpec(
            0,
            "ablation",
            f"Ablation study of {plan.method} on {d0} and {d1} ({topic.metric}).",
            ("Variant", d0, d1),
            tuple(ablation_rows),
            0,
            rng.random() < 0.3,
            rng.random() < 0.5,
        )
    )
    for role in extra_tables:
        cells: tuple[tuple[str, ...], ...]
        if role == "efficiency":
            header: tuple[str, ...] = ("Method", "Params (M)", "Latency (ms)", "Memory (GB)")
            cells = tuple(
                (
                    row,
                    str(rng.randint(40, 1400)),
                    format_value(rng.uniform(4.0, 95.0), 1),
                    format_value(rng.uniform(1.0, 48.0), 1),
                )
                for row in rows
            )
            caption = f"Efficiency of {plan.method} and baselines at inference with batch size 1."
        else:
            header = ("Method", "Easy", "Medium", "Hard")
            picked = [*rows[:2], rows[-1]]
            cells = tuple(
                (
                    row,
                    *(
                        format_value(
                            float(main.cell(row, d0))
                            - sign * k * rng.uniform(0.5, 2.0) * spread / 20,
                            plan.decimals,
                        )
                        for k in (-1, 1, 3)
                    ),
                )
                for row in picked
            )
            caption = f"{title_case(topic.metric)} on {d0} split by difficulty."
        tables.append(
            TableSpec(
                0,
                role,
                caption,
                header,
                cells,
                len(cells) - 1,
                rng.random() < 0.3,
                rng.random() < 0.5,
            )
        )

    figures = [_plan_figure(rng, plan, role, rows) for role in roles]
    # Numbers follow reading order: diagram (intro), then results objects as the prose
    # mentions them (main table, bar/panels figures, ablation table, extras, line figure).
    order: list[TableSpec | FigureSpec] = [
        *(f for f in figures if f.role == "diagram"),
        tables[0],
        *(f for f in figures if f.role in ("bar", "panels")),
        tables[1],
        *tables[2:],
        *(f for f in figures if f.role == "line"),
    ]
    table_no = figure_no = 0
    numbered_tables: list[TableSpec] = []
    numbered_figures: list[FigureSpec] = []
    for obj in order:
        if isinstance(obj, TableSpec):
            table_no += 1
            caption = f"Table {table_no}: {obj.caption}"
            numbered_tables.append(replace(obj, number=table_no, caption=caption))
        else:
            figure_no += 1
            caption = f"Figure {figure_no}: {obj.caption}"
            numbered_figures.append(replace(obj, number=figure_no, caption=caption))
    plan.tables = tuple(numbered_tables)
    plan.figures = tuple(numbered_figures)

    n_equations = rng.randint(1, 3)
    f = plan.facts
    all_roles: tuple[EquationRole, ...] = ("score", "align", "total")
    texts = {
        "score": "s(q, d) = cos( f(q), g(d) ) / tau",
        "align": "L_align = - log [ exp( s(q, d+) ) / sum_j exp( s(q, d_j) ) ]",
        "total": f"L = L_task + {f.align_weight} L_align + {f.reg_weight} L_reg",
    }
    plan.equations = tuple(
        EquationSpec(number, role, texts[role])
        for number, role in enumerate(all_roles[3 - n_equations :], start=1)
    )
    total = plan.equations[-1].number
    c0, c1, _ = plan.components
    plan.algorithm = AlgorithmSpec(
        1,
        f"{plan.method} Training",
        (
            (0, f"Input: training set D, encoder f, {c0} h, number of epochs E"),
            (0, f"Initialize the {c1} with momentum m = {f.momentum}"),
            (0, "for epoch = 1 to E do"),
            (1, "for each minibatch B drawn from D do"),
            (2, "compute the scores s(q, d) for all pairs in B"),
            (2, f"compute the loss L with Eq. ({total})"),
            (2, "update f and h with one gradient step on L"),
            (2, f"update the {c1} with momentum m"),
            (1, "end for"),
            (0, "end for"),
            (0, "return f, h"),
        ),
    )


def _plan_figure(
    rng: random.Random, plan: PaperPlan, role: FigureRole, rows: list[str]
) -> FigureSpec:
    topic, decimals = plan.topic, plan.decimals
    lo, hi = topic.value_range
    metric = title_case(topic.metric)
    if role == "diagram":
        modules = (f"Input {topic.objects}", *plan.components, "Prediction head")
        return FigureSpec(
            0,
            role,
            f"Overview of {plan.method}. Inputs pass through three modules before the prediction head.",
            decimals,
            modules=modules,
        )
    if role == "bar":
        methods = [*rows[-4:-1], plan.method] if len(rows) >= 4 else rows
        fraction = rng.choice(TRAINING_FRACTIONS)
        values = [round(rng.uniform(lo, lo + 0.6 * (hi - lo)), decimals) for _ in methods]
        # In low-data regimes the proposed method wins most of the time, not always.
        if rng.random() < 0.7:
            best = max(values) if topic.higher_is_better else min(values)
            values[-1] = round(
                best
                + (1 if topic.higher_is_better else -1) * rng.uniform(0.5, 3.0) * (hi - lo) / 40,
                decimals,
            )
        return FigureSpec(
            0,
            role,
            f"{metric} on {plan.datasets[2]} when only {fraction} of the training data is used.",
            decimals,
            series=tuple(
                Series(m, (v,)) for m, v in zip(methods, _distinct(values, decimals), strict=True)
            ),
            y_label=metric,
        )
    if role == "panels":
        count = rng.randint(2, 4)
        fractions = sorted(rng.sample(TRAINING_FRACTIONS, count), key=lambda s: float(s[:-1]))
        methods = [rows[0], rows[-2], plan.method]
        series = tuple(
            Series(m, tuple(round(rng.uniform(lo, hi), decimals) for _ in fractions))
            for m in methods
        )
        panels = tuple(f"({chr(97 + i)}) {frac} data" for i, frac in enumerate(fractions))
        return FigureSpec(
            0,
            role,
            f"{metric} on {plan.datasets[1]} with different amounts of training data: "
            + ", ".join(panels)
            + ".",
            decimals,
            series=series,
            y_label=metric,
            panel_titles=panels,
        )
    name, ticks = rng.choice(HYPERPARAMETERS)
    peaks = [rng.randrange(len(ticks)) for _ in range(2)]
    curves = []
    for dataset, peak in zip(plan.datasets[:2], peaks, strict=True):
        top = plan.own_scores[dataset]
        sign = -1 if topic.higher_is_better else 1
        raw = [
            round(top + sign * abs(i - peak) * rng.uniform(0.4, 1.6) * (hi - lo) / 15, decimals)
            for i in range(len(ticks))
        ]
        curves.append(Series(dataset, tuple(raw)))
    return FigureSpec(
        0,
        "line",
        f"Sensitivity of {plan.method} to the {name} on {plan.datasets[0]} and {plan.datasets[1]}.",
        decimals,
        series=tuple(curves),
        x_ticks=ticks,
        x_label=title_case(name),
        y_label=metric,
    )


def _distinct(values: list[float], decimals: int) -> list[float]:
    """Nudge repeated values so every printed value differs (the figure question needs a winner)."""
    out: list[float] = []
    for value in values:
        while value in out:
            value = round(value + 10**-decimals, decimals)
        out.append(value)
    return out
