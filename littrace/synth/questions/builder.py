"""The question kinds: each picks a target paper or line of work and builds one question with
its gold from the plan and the layout."""

from __future__ import annotations

import random
from collections.abc import Callable

from littrace.synth.plan import PaperPlan, TableSpec, format_value, title_case
from littrace.synth.questions.question import Question
from littrace.synth.render import PlacedSentence, RenderedPaper
from littrace.synth.vocabulary import (
    HARDWARE,
    LEARNING_RATES,
    LOSS_WEIGHTS,
    MOMENTUMS,
    OPTIMIZERS,
)

FACT_KINDS = ("hardware", "optimizer", "learning_rate", "batch_size", "epochs")


def _listing(names: list[str]) -> str:
    return ", ".join(names[:-1]) + f" and {names[-1]}"


class Builder:
    def __init__(self, rng: random.Random, papers: list[RenderedPaper]) -> None:
        self.rng = rng
        self.papers = papers
        lines: dict[int, list[RenderedPaper]] = {}
        for paper in papers:
            lines.setdefault(paper.plan.line, []).append(paper)
        self.lines = [line for line in lines.values() if len(line) >= 3]
        self.uses: dict[str, int] = {}
        self.rank = {p.plan.paper_id: rng.random() for p in papers}
        self.done: set[tuple[str, ...]] = set()

    # -- choosing targets
    def _fresh(self, *key: str) -> bool:
        """Whether this (kind, target) was not asked yet; marks it as asked."""
        if key in self.done:
            return False
        self.done.add(key)
        return True

    def _by_use(self, papers: list[RenderedPaper]) -> list[RenderedPaper]:
        return sorted(
            papers, key=lambda p: (self.uses.get(p.plan.paper_id, 0), self.rank[p.plan.paper_id])
        )

    def build(self, kind: str) -> Question | None:
        if kind.startswith("multi_"):
            lines = sorted(
                self.lines,
                key=lambda line: (
                    sum(self.uses.get(p.plan.paper_id, 0) for p in line) / len(line),
                    self.rank[line[0].plan.paper_id],
                ),
            )
            make_multi: Callable[[list[RenderedPaper]], Question | None] = getattr(self, kind)
            for line in lines:
                question = make_multi(line)
                if question:
                    return self._used(question)
            return None
        make: Callable[[RenderedPaper], Question | None] = getattr(self, kind)
        for paper in self._by_use(self.papers):
            question = make(paper)
            if question:
                return self._used(question)
        return None

    def _used(self, question: Question) -> Question:
        for paper in question.papers:
            self.uses[paper.plan.paper_id] = self.uses.get(paper.plan.paper_id, 0) + 1
        return question

    def describe(self, plan: PaperPlan) -> str:
        """The paper named by its method and task, as the real hidden-source questions do."""
        return self.rng.choice(
            (
                f"the paper that introduces {plan.method} for {plan.topic.task}",
                f"the {plan.method} paper",
                f"the {plan.method} paper on {plan.topic.task}",
            )
        )

    def _table_evidence(
        self, q: Question, paper: RenderedPaper, table: TableSpec, row: str, column: str
    ) -> None:
        placed = paper.placed(table.object_id)
        q.add_evidence(
            paper,
            "table",
            table.cell(row, column),
            page=placed.page,
            table_id=table.object_id,
            row=row,
            column=column,
        )

    # -- single paper: tables
    def table_value(self, paper: RenderedPaper) -> Question | None:
        plan, rng = paper.plan, self.rng
        table = plan.tables[0]
        dataset = rng.choice(plan.datasets)
        row = plan.method if rng.random() < 0.5 else rng.choice([r[0] for r in table.rows[:-1]])
        if not self._fresh("table_value", plan.paper_id, row, dataset):
            return None
        value = table.cell(row, dataset)
        if row == plan.method:
            text = f"What {plan.topic.metric} does {plan.method} achieve on {dataset}, according to the paper that introduces it?"
        else:
            text = f"In {self.describe(plan)}, what {plan.topic.metric} does the {row} baseline reach on {dataset}?"
        q = Question("hidden_source_single_paper", "table", text, [paper])
        self._table_evidence(q, paper, table, row, dataset)
        q.freeform(value)
        q.choice(rng, value, [cell for r in table.rows for cell in r[1:]])
        return q

    def table_gain(self, paper: RenderedPaper) -> Question | None:
        plan = paper.plan
        table = plan.tables[0]
        dataset = self.rng.choice(plan.datasets)
        if not self._fresh("table_gain", plan.paper_id):
            return None
        column = table.header.index(dataset)
        own = float(table.rows[-1][column])
        baselines = table.rows[:-1]
        best = (max if plan.topic.higher_is_better else min)(
            baselines, key=lambda r: float(r[column])
        )
        gap = format_value(abs(own - float(best[column])), plan.decimals)
        verb = "improve" if plan.topic.higher_is_better else "reduce"
        text = (
            f"In {self.describe(plan)}, by how many points does {plan.method} {verb} "
            f"{plan.topic.metric} on {dataset} compared with the strongest baseline in its main results table?"
        )
        q = Question("hidden_source_single_paper", "table", text, [paper])
        self._table_evidence(q, paper, table, plan.method, dataset)
        self._table_evidence(q, paper, table, best[0], dataset)
        q.freeform(gap)
        others = [format_value(abs(own - float(r[column])), plan.decimals) for r in baselines]
        others += [
            format_value(abs(own - float(best[column])) + k, plan.decimals) for k in (0.5, 1.0, 1.5)
        ]
        q.choice(self.rng, gap, others)
        return q

    def table_ablation(self, paper: RenderedPaper) -> Question | None:
        plan = paper.plan
        table = plan.table("ablation")
        if table is None or not self._fresh("table_ablation", plan.paper_id):
            return None
        row = self.rng.choice(table.rows[1:])
        dataset = self.rng.choice(table.header[1:])
        value = table.cell(row[0], dataset)
        text = (
            f"In the ablation study of {self.describe(plan)}, what {plan.topic.metric} on {dataset} "
            f"does the variant without the {row[0][4:]} obtain?"
        )
        q = Question("hidden_source_single_paper", "table", text, [paper])
        self._table_evidence(q, paper, table, row[0], dataset)
        q.freeform(value)
        q.choice(self.rng, value, [cell for r in table.rows for cell in r[1:]])
        return q

    def table_answer(self, paper: RenderedPaper) -> Question | None:
        plan = paper.plan
        table = plan.tables[0]
        dataset = self.rng.choice(plan.datasets)
        if not self._fresh("table_answer", plan.paper_id):
            return None
        column = f"{title_case(plan.topic.metric)} on {dataset}"
        text = f"In {self.describe(plan)}, what {plan.topic.metric} does each method of the main results table obtain on {dataset}?"
        q = Question("hidden_source_single_paper", "table", text, [paper])
        placed = paper.placed(table.object_id)
        q.add_evidence(
            paper, "table", dataset, page=placed.page, table_id=table.object_id, column=dataset
        )
        q.table(
            [
                {"name": "Method", "type": "string", "is_row_key": True},
                {"name": column, "type": "number", "is_row_key": False},
            ],
            [{"Method": row[0], column: float(table.cell(row[0], dataset))} for row in table.rows],
        )
        return q

    # -- single paper: text, figures, equations, citations
    def _fact(self, plan: PaperPlan, kind: str) -> tuple[str, str, tuple[str, ...]]:
        """(question, answer, distractors) for one training fact."""
        f, method, desc = plan.facts, plan.method, self.describe(plan)
        if kind == "hardware":
            return f"What hardware are the models trained on in {desc}?", f.hardware, HARDWARE
        if kind == "optimizer":
            return (
                f"Which optimizer is used to train {method}, according to {desc}?",
                f.optimizer,
                OPTIMIZERS,
            )
        if kind == "learning_rate":
            return (
                f"What learning rate is used to train {method} in {desc}?",
                f.learning_rate,
                LEARNING_RATES,
            )
        if kind == "batch_size":
            return (
                f"What batch size is used to train {method} in {desc}?",
                str(f.batch_size),
                ("16", "32", "64", "128", "256", "512", "1024"),
            )
        return (
            f"For how many epochs is {method} trained in {desc}?",
            str(f.epochs),
            ("3", "5", "10", "20", "30", "50", "100"),
        )

    def text_fact(self, paper: RenderedPaper) -> Question | None:
        plan = paper.plan
        kinds = [k for k in FACT_KINDS if paper.sentence(f"fact:{k}").one_block]
        self.rng.shuffle(kinds)
        kind = next((k for k in kinds if self._fresh("text_fact", plan.paper_id, k)), None)
        if kind is None:
            return None
        text, answer, distractors = self._fact(plan, kind)
        sentence = paper.sentence(f"fact:{kind}")
        q = Question("hidden_source_single_paper", "text_span", text, [paper])
        q.add_evidence(
            paper, "text_span", sentence.text, page=sentence.page, section=sentence.section
        )
        q.freeform(answer)
        if self.rng.random() < 0.7:
            q.choice(self.rng, answer, list(distractors))
        return q

    def figure(self, paper: RenderedPaper) -> Question | None:
        plan, rng = paper.plan, self.rng
        figures = [f for f in plan.figures if self._fresh("figure", plan.paper_id, f.object_id)]
        if not figures:
            return None
        figure = rng.choice(figures)
        desc, metric = self.describe(plan), plan.topic.metric
        best = max if plan.topic.higher_is_better else min
        if figure.role == "diagram":
            i = rng.randrange(1, len(figure.modules) - 1)
            text = f"In the overview figure of {desc}, which module directly follows the {figure.modules[i]}?"
            answer, distractors = figure.modules[i + 1], list(figure.modules)
            value = " -> ".join(figure.modules)
        elif figure.role == "bar":
            text = (
                f"In Figure {figure.number} of {desc}, which method obtains the best {metric} when only a "
                "fraction of the training data is used?"
            )
            answer = best(figure.series, key=lambda s: s.values[0]).name
            distractors = [s.name for s in figure.series]
            value = answer
        elif figure.role == "line":
            series = rng.choice(figure.series)
            peak = series.values.index(best(series.values))
            text = (
                f"According to Figure {figure.number} of {desc}, which value of the "
                f"{figure.x_label.lower()} gives the best {metric} on {series.name}?"
            )
            answer, distractors = figure.x_ticks[peak], list(figure.x_ticks)
            value = format_value(series.values[peak], figure.decimals)
        else:
            count = len(figure.panel_titles)
            text = f"How many subfigures does Figure {figure.number} of {desc} contain?"
            answer, distractors = str(count), ["1", "2", "3", "4", "5", "6"]
            value = "; ".join(figure.panel_titles)
        q = Question("hidden_source_single_paper", "figure", text, [paper])
        placed = paper.placed(figure.object_id)
        q.add_evidence(paper, "figure", value, page=placed.page, figure_id=figure.object_id)
        q.freeform(answer)
        q.choice(rng, answer, distractors, ordered=figure.role == "panels")
        return q

    def equation(self, paper: RenderedPaper) -> Question | None:
        plan = paper.plan
        total = plan.equation("total")
        if total is None or not self._fresh("equation", plan.paper_id):
            return None
        desc = self.describe(plan)
        placed = paper.placed(total.object_id)
        if self.rng.random() < 0.5:
            text = f"In {desc}, what coefficient multiplies the alignment loss L_align in the overall training objective?"
            answer, distractors = plan.facts.align_weight, list(LOSS_WEIGHTS)
        else:
            text = f"In {desc}, which numbered equation defines the overall training objective?"
            answer = f"Equation {total.number}"
            distractors = [f"Equation {n}" for n in range(1, 6)]
        q = Question("hidden_source_single_paper", "equation_algorithm", text, [paper])
        section = next(
            s for s in paper.sentences if s.text.startswith("The overall training objective")
        ).section
        q.add_evidence(
            paper,
            "equation_algorithm",
            total.text,
            page=placed.page,
            section=section,
            equation_id=f"Equation {total.number}",
        )
        q.freeform(answer)
        q.choice(self.rng, answer, distractors)
        return q

    def algorithm(self, paper: RenderedPaper) -> Question | None:
        plan = paper.plan
        if plan.algorithm is None or not self._fresh("algorithm", plan.paper_id):
            return None
        c1 = plan.components[1]
        text = f"In the training algorithm of {self.describe(plan)}, with what momentum is the {c1} updated?"
        placed = paper.placed(plan.algorithm.object_id)
        q = Question("hidden_source_single_paper", "equation_algorithm", text, [paper])
        q.add_evidence(
            paper,
            "equation_algorithm",
            plan.algorithm.steps[1][1],
            page=placed.page,
            algorithm_id=plan.algorithm.object_id,
        )
        q.freeform(plan.facts.momentum)
        q.choice(self.rng, plan.facts.momentum, list(MOMENTUMS))
        return q

    def cite_for(self, paper: RenderedPaper) -> Question | None:
        plan = paper.plan
        candidates = [
            (ref, paper.sentence(f"cite:{ref.key}"))
            for ref in plan.references
            if ref.concept and paper.sentence(f"cite:{ref.key}").one_block
        ]
        self.rng.shuffle(candidates)
        chosen = next(
            ((r, s) for r, s in candidates if self._fresh("cite_for", plan.paper_id, r.key)), None
        )
        if chosen is None:
            return None
        ref, sentence = chosen
        label = plan.label_of(ref.key)
        text = f"Which work does {self.describe(plan)} cite for {ref.concept}?"
        q = Question("hidden_source_single_paper", "citation_context", text, [paper])
        q.add_evidence(
            paper,
            "citation_context",
            sentence.text,
            page=sentence.page,
            section=sentence.section,
            citation_id=str(label),
            cited_paper=ref.title,
        )
        q.freeform(ref.title)
        q.choice(self.rng, ref.title, [r.title for r in plan.references if r.concept])
        return q

    def ref_author(self, paper: RenderedPaper) -> Question | None:
        plan = paper.plan
        ref = self.rng.choice(paper.references)
        if not self._fresh("ref_author", plan.paper_id):
            return None
        work = plan.references[ref.label - 1]
        first = (
            work.authors[0]
            if plan.full_name_references
            else f"{work.authors[0][0]}. {ref.first_author}"
        )
        text = f"Who is the first author of reference [{ref.label}] in {self.describe(plan)}?"
        q = Question("hidden_source_single_paper", "citation_context", text, [paper])
        q.add_evidence(
            paper,
            "citation_context",
            ref.raw,
            page=ref.page,
            section="References",
            citation_id=str(ref.label),
            cited_paper=ref.title,
        )
        q.freeform(first)
        return q

    # -- multi paper
    def _members(self, line: list[RenderedPaper]) -> list[RenderedPaper]:
        k = self.rng.randint(3, min(5, len(line)))
        return sorted(self.rng.sample(line, k), key=lambda p: p.plan.index)

    def multi_table(self, line: list[RenderedPaper]) -> Question | None:
        members = self._members(line)
        plan0 = members[0].plan
        dataset = self.rng.choice(plan0.datasets)
        if not self._fresh("multi_table", *(p.plan.paper_id for p in members), dataset):
            return None
        methods = [p.plan.method for p in members]
        metric = plan0.topic.metric
        column = f"{title_case(metric)} on {dataset}"
        text = f"What {metric} on {dataset} do {_listing(methods)} each reach, as reported in the paper that introduces each method?"
        q = Question("multi_paper", "table", text, members)
        for paper in members:
            self._table_evidence(q, paper, paper.plan.tables[0], paper.plan.method, dataset)
        q.table(
            [
                {"name": "Method", "type": "string", "is_row_key": True},
                {"name": column, "type": "number", "is_row_key": False},
            ],
            [{"Method": p.plan.method, column: p.plan.own_scores[dataset]} for p in members],
        )
        return q

    def multi_table_mc(self, line: list[RenderedPaper]) -> Question | None:
        members = self._members(line)
        plan0 = members[0].plan
        dataset = self.rng.choice(plan0.datasets)
        if not self._fresh("multi_table_mc", *(p.plan.paper_id for p in members), dataset):
            return None
        best = (max if plan0.topic.higher_is_better else min)(
            members, key=lambda p: p.plan.own_scores[dataset]
        )
        methods = [p.plan.method for p in members]
        text = (
            f"Among {_listing(methods)}, which method reports the best {plan0.topic.metric} on {dataset} "
            "in the paper that introduces it?"
        )
        q = Question("multi_paper", "table", text, members)
        for paper in members:
            self._table_evidence(q, paper, paper.plan.tables[0], paper.plan.method, dataset)
        # Every listed method is an option.
        q.choice(self.rng, best.plan.method, methods, size=len(methods))
        return q

    def multi_equation(self, line: list[RenderedPaper]) -> Question | None:
        members = self._members(line)
        if not self._fresh("multi_equation", *(p.plan.paper_id for p in members)):
            return None
        methods = [p.plan.method for p in members]
        text = (
            f"For each of {_listing(methods)}, which numbered equation of the paper that introduces it "
            "defines the overall training objective?"
        )
        q = Question("multi_paper", "equation_algorithm", text, members)
        rows = []
        for paper in members:
            total = paper.plan.equation("total")
            assert total is not None
            placed = paper.placed(total.object_id)
            q.add_evidence(
                paper,
                "equation_algorithm",
                total.text,
                page=placed.page,
                equation_id=f"Equation {total.number}",
            )
            rows.append(
                {"Method": paper.plan.method, "Objective Equation": f"Equation {total.number}"}
            )
        q.table(
            [
                {"name": "Method", "type": "string", "is_row_key": True},
                {"name": "Objective Equation", "type": "string", "is_row_key": False},
            ],
            rows,
        )
        return q

    def multi_text_mc(self, line: list[RenderedPaper]) -> Question | None:
        members = self._members(line)
        for kind, noun in (("batch_size", "the largest batch size"), ("epochs", "the most epochs")):
            values = [getattr(p.plan.facts, kind) for p in members]
            if values.count(max(values)) != 1:
                continue
            if not all(p.sentence(f"fact:{kind}").one_block for p in members):
                continue
            if not self._fresh("multi_text_mc", *(p.plan.paper_id for p in members), kind):
                continue
            methods = [p.plan.method for p in members]
            text = f"Which of {_listing(methods)} is trained with {noun}, according to the papers that introduce them?"
            q = Question("multi_paper", "text_span", text, members)
            for paper in members:
                sentence: PlacedSentence = paper.sentence(f"fact:{kind}")
                q.add_evidence(
                    paper, "text_span", sentence.text, page=sentence.page, section=sentence.section
                )
            winner = members[values.index(max(values))].plan.method
            q.choice(self.rng, winner, methods, size=len(methods))
            return q
        return None

    def multi_followup(self, line: list[RenderedPaper]) -> Question | None:
        """One named paper and every paper of the corpus citing it, none of those named."""
        for seed in self._by_use(line):
            key = f"paper:{seed.plan.paper_id}"
            citing = [p for p in self.papers if any(r.key == key for r in p.plan.references)]
            members = sorted([seed, *citing], key=lambda p: p.plan.index)
            if not 3 <= len(members) <= 5:
                continue
            plan = seed.plan
            dataset = self.rng.choice(plan.datasets)
            if not self._fresh("multi_followup", plan.paper_id):
                continue
            metric = plan.topic.metric
            column = f"{title_case(metric)} on {dataset}"
            text = (
                f"What {metric} on {dataset} does {plan.method} reach, and what do the methods "
                f"proposed by the papers that cite {self.describe(plan)} reach, as reported in "
                "the paper that introduces each method?"
            )
            q = Question("multi_paper", "table", text, members)
            for paper in members:
                self._table_evidence(q, paper, paper.plan.tables[0], paper.plan.method, dataset)
            q.table(
                [
                    {"name": "Method", "type": "string", "is_row_key": True},
                    {"name": column, "type": "number", "is_row_key": False},
                ],
                [{"Method": p.plan.method, column: p.plan.own_scores[dataset]} for p in members],
            )
            return q
        return None

    def multi_citation(self, line: list[RenderedPaper]) -> Question | None:
        keys = sorted(
            {
                ref.key
                for p in line
                for ref in p.plan.references
                if ref.key.startswith(f"line{p.plan.line}:")
            }
        )
        self.rng.shuffle(keys)
        for key in keys:
            citing = [p for p in line if any(ref.key == key for ref in p.plan.references)]
            if not 3 <= len(citing) <= 5 or not self._fresh("multi_citation", key):
                continue
            work = next(ref for ref in citing[0].plan.references if ref.key == key)
            who = (
                f"{work.first_author_surname} et al."
                if len(work.authors) > 1
                else work.first_author_surname
            )
            text = (
                f'Which papers cite "{work.title}" ({who}, {work.year}), and under which reference '
                "number does each of them list it?"
            )
            q = Question("multi_paper", "citation_context", text, citing)
            rows = []
            for paper in citing:
                placed = paper.reference(key)
                q.add_evidence(
                    paper,
                    "citation_context",
                    placed.raw,
                    page=placed.page,
                    section="References",
                    citation_id=str(placed.label),
                    cited_paper=work.title,
                )
                rows.append(
                    {"Paper Title": paper.plan.pool_title, "Reference Number": placed.label}
                )
            q.table(
                [
                    {"name": "Paper Title", "type": "string", "is_row_key": True},
                    {"name": "Reference Number", "type": "number", "is_row_key": False},
                ],
                rows,
            )
            return q
        return None
