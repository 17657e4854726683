"""The body of a synthetic paper as a flow of headings, paragraphs and display equations.

:func:`paper_body` turns a :class:`~littrace.synth.plan.PaperPlan` into the blocks the
renderer lays out. Sentences that carry a fact a question asks about have a ``key``
(``"fact:batch_size"``, ``"cite:<reference key>"``), so the renderer can report the page
each one landed on. Paragraphs carry the floats (tables, figures, the algorithm) they
mention first; the renderer places a float after that paragraph or at the top of a later
column. ``verbosity`` is the number of filler sentences a paragraph may get, the knob that
keeps papers within 4-8 pages.

Example:
    >>> import random
    >>> from littrace.synth.plan import plan_corpus
    >>> paper = plan_corpus(random.Random(0), 3).papers[0]
    >>> blocks = paper_body(paper, random.Random(1), verbosity=2)
    >>> [b.label for b in blocks if isinstance(b, Heading)][:2]
    ['1 Introduction', '2 Related Work']
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from littrace.synth.plan import (
    AlgorithmSpec,
    EquationSpec,
    FigureSpec,
    PaperPlan,
    TableSpec,
    format_value,
    title_case,
)
from littrace.synth.vocabulary import (
    FILLER_OBJECTS,
    FILLER_OPENERS,
    FILLER_SUBJECTS,
    FILLER_TAILS,
    FILLER_VERBS,
)

FloatSpec = TableSpec | FigureSpec | AlgorithmSpec


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    key: str = ""
    labels: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Heading:
    number: str
    title: str
    level: int

    @property
    def label(self) -> str:
        return f"{self.number} {self.title}".strip()


@dataclass(frozen=True, slots=True)
class Paragraph:
    sentences: tuple[Sentence, ...]
    floats: tuple[FloatSpec, ...] = ()
    indent: bool = True


Block = Heading | Paragraph | EquationSpec

_FILLER = (
    "This design keeps the number of trainable parameters small while preserving accuracy.",
    "We find that the improvements are consistent across random seeds.",
    "Such settings are common when {task} systems are deployed in practice.",
    "The {comp} is lightweight and adds little overhead at inference time.",
    "In contrast to prior designs, no additional supervision is required.",
    "This observation motivates a closer look at how errors propagate through the model.",
    "The resulting representations transfer well to unseen domains.",
    "We keep all other hyperparameters identical across methods for a fair comparison.",
    "Qualitatively, {method} produces fewer inconsistent predictions on hard inputs.",
    "The gains are largest on inputs that require combining several pieces of evidence.",
    "Our implementation builds on widely used open-source libraries.",
    "These results suggest that the {comp} captures complementary information.",
    "Performance on {dataset} follows the same trend.",
    "We discuss the limitations of this approach in the conclusion.",
    "A careful error analysis reveals that most remaining failures stem from ambiguous inputs.",
    "Training remains stable without gradient clipping.",
    "The approach is agnostic to the choice of backbone.",
    "The {comp} can also be combined with existing methods for {task}.",
    "We release all configuration files to ease reproduction.",
    "Both components are trained jointly from scratch.",
    "Unlike earlier work, {method} does not depend on hand-crafted features.",
    "This property is particularly useful when {metric} is the target measure.",
    "Scaling the model further yields diminishing returns.",
    "The benefits persist when the training budget is reduced.",
)
_CONCEPT_TEMPLATES = (
    "{C} [{l}] has been widely used to improve {task}.",
    "Prior work applies {c} [{l}] to stabilize training.",
    "A complementary line of research studies {c} [{l}].",
    "The {c} proposed in [{l}] inspired several follow-up methods.",
    "Closest to our setting, [{l}] revisits {c} for {task}.",
)
_METHOD_CONCEPT_TEMPLATES = (
    "We adopt the {c} of [{l}] in all experiments.",
    "Following [{l}], we use {c} during training.",
)


def cite(labels: list[int]) -> str:
    return "[" + ", ".join(str(label) for label in sorted(labels)) + "]"


class _Writer:
    def __init__(self, plan: PaperPlan, rng: random.Random, verbosity: int) -> None:
        self.plan = plan
        self.rng = rng
        self.verbosity = verbosity
        self.unused_filler = list(_FILLER)
        rng.shuffle(self.unused_filler)
        self.used: set[str] = set()
        self.template_queues: dict[tuple[str, ...], list[str]] = {}

    def _sentence_template(self) -> str:
        """A filler template: hand-written ones first, then the grammar's, never repeated."""
        if self.unused_filler and self.rng.random() < 0.5:
            return self.unused_filler.pop()
        rng = self.rng
        while True:
            opener = rng.choice(FILLER_OPENERS)
            body = (
                f"{rng.choice(FILLER_SUBJECTS)} {rng.choice(FILLER_VERBS)} "
                f"{rng.choice(FILLER_OBJECTS)}{rng.choice(FILLER_TAILS)}."
            )
            template = opener + (body if opener else body[0].upper() + body[1:])
            if template not in self.used:
                self.used.add(template)
                return template

    def filler(self, count: int) -> list[Sentence]:
        plan = self.plan
        out = []
        for _ in range(count):
            text = self._sentence_template().format(
                task=plan.topic.task,
                comp=self.rng.choice(plan.components),
                method=plan.method,
                dataset=self.rng.choice(plan.datasets),
                metric=plan.topic.metric,
            )
            out.append(Sentence(text[0].upper() + text[1:]))
        return out

    def some_filler(self) -> list[Sentence]:
        """Up to ``verbosity`` filler sentences (at most six) for one paragraph."""
        most = min(self.verbosity, 6)
        return self.filler(self.rng.randint(max(0, most - 2), most))

    def extra_paragraphs(self) -> list[Paragraph]:
        """Between ``verbosity // 4`` and ``verbosity // 2`` paragraphs of filler."""
        count = self.rng.randint(self.verbosity // 4, self.verbosity // 2)
        return [Paragraph(tuple(self.filler(self.rng.randint(3, 5)))) for _ in range(count)]

    def concept(self, key: str, templates: tuple[str, ...]) -> Sentence:
        plan = self.plan
        ref = next(ref for ref in plan.references if ref.key == key)
        label = plan.label_of(key)
        # Cycle through a shuffled copy so neighbouring citations do not share a template.
        queue = self.template_queues.setdefault(templates, [])
        if not queue:
            queue.extend(self.rng.sample(templates, len(templates)))
        text = queue.pop().format(
            C=ref.concept[0].upper() + ref.concept[1:], c=ref.concept, l=label, task=plan.topic.task
        )
        return Sentence(text, f"cite:{key}", (label,))

    def mixed(self, sentences: list[Sentence]) -> list[Sentence]:
        """``sentences`` with filler spliced in at seeded positions (their order kept)."""
        out = list(sentences)
        for extra in self.some_filler():
            out.insert(self.rng.randint(1, len(out)) if out else 0, extra)
        return out


def paper_body(plan: PaperPlan, rng: random.Random, verbosity: int) -> list[Block]:
    """Sections 1-5 of ``plan`` (the title block, abstract and references are the renderer's)."""
    w = _Writer(plan, rng, verbosity)
    topic, method = plan.topic, plan.method
    c0, c1, c2 = plan.components
    d0, d1, d2 = plan.datasets
    figures: dict[str, FigureSpec] = {figure.role: figure for figure in plan.figures}
    concept_keys = [ref.key for ref in plan.references if ref.concept]
    rng.shuffle(concept_keys)
    intro_keys, method_keys, related_keys = concept_keys[:2], concept_keys[2:4], concept_keys[4:]
    blocks: list[Block] = []

    # 1 Introduction
    blocks.append(Heading("1", "Introduction", 1))
    group = [plan.label_of(key) for key in concept_keys[:3]]
    blocks.append(
        Paragraph(
            tuple(
                w.mixed(
                    [
                        Sentence(
                            f"{topic.task[0].upper()}{topic.task[1:]} has attracted growing "
                            "attention in recent "
                            f"years {cite(group)}.",
                            labels=tuple(sorted(group)),
                        ),
                        *(w.concept(key, _CONCEPT_TEMPLATES) for key in intro_keys),
                    ]
                )
            ),
            indent=False,
        )
    )
    prior_sentences = [
        Sentence(
            f"Building on {prior.method} {cite([plan.label_of(f'paper:{prior.paper_id}')])}, "
            f"recent methods for {topic.short} increasingly rely on learned components.",
            labels=(plan.label_of(f"paper:{prior.paper_id}"),),
        )
        for prior in plan.prior[-1:]
    ]
    diagram = figures.get("diagram")
    overview = (
        [Sentence(f"Figure {diagram.number} gives an overview of {method}.")] if diagram else []
    )
    blocks.append(
        Paragraph(
            tuple(
                w.mixed(
                    [
                        *prior_sentences,
                        Sentence(
                            f"However, current approaches still struggle on {d0} and {d1}, "
                            "where inputs are long and noisy."
                        ),
                        *overview,
                    ]
                )
            ),
            floats=(diagram,) if diagram else (),
        )
    )
    blocks.append(
        Paragraph(
            (
                Sentence(f"In this paper, we introduce {method}, which {plan.present_phrase}."),
                Sentence("Our contributions are threefold."),
                Sentence(f"First, we design a {c0} that exposes the structure of the input."),
                Sentence(f"Second, we couple it with a {c1} and a {c2} trained end to end."),
                Sentence(
                    f"Third, we show that {method} outperforms strong baselines on {d0}, {d1} "
                    f"and {d2}."
                ),
            )
        )
    )

    # 2 Related Work
    blocks += w.extra_paragraphs()
    blocks.append(Heading("2", "Related Work", 1))
    half = (len(related_keys) + 1) // 2
    blocks.append(
        Paragraph(
            tuple(w.mixed([w.concept(key, _CONCEPT_TEMPLATES) for key in related_keys[:half]])),
            indent=False,
        )
    )
    line_sentences = []
    for prior in plan.prior:
        label = plan.label_of(f"paper:{prior.paper_id}")
        line_sentences.append(
            Sentence(
                f"{prior.method} [{label}] {prior.present_phrase} for {topic.task}.",
                f"cite:paper:{prior.paper_id}",
                (label,),
            )
        )
    blocks.append(
        Paragraph(
            tuple(
                w.mixed(
                    [
                        *line_sentences,
                        *(w.concept(key, _CONCEPT_TEMPLATES) for key in related_keys[half:]),
                        Sentence(f"{method} differs from these works in how the {c0} is trained."),
                    ]
                )
            )
        )
    )

    # 3 Method
    blocks += w.extra_paragraphs()
    blocks.append(Heading("3", "Method", 1))
    blocks.append(
        Paragraph(
            tuple(
                w.mixed(
                    [
                        Sentence(
                            f"{method} consists of three components: the {c0}, the {c1} and "
                            f"the {c2}."
                        )
                    ]
                )
            ),
            indent=False,
        )
    )
    blocks += w.extra_paragraphs()
    blocks.append(Heading("3.1", title_case(c0), 2))
    score = plan.equation("score")
    align = plan.equation("align")
    total = plan.equation("total")
    assert total is not None and plan.algorithm is not None
    first = [Sentence(f"The {c0} maps every input to a shared embedding space.")]
    if score:
        first.append(
            Sentence(
                "Given a query q and a candidate d, it computes a relevance score as in "
                f"Eq. ({score.number}):"
            )
        )
        blocks += [Paragraph(tuple(first), indent=False), score]
        blocks.append(
            Paragraph(
                (Sentence("where f and g are the two encoders and tau is a learned temperature."),),
                indent=False,
            )
        )
    else:
        blocks.append(Paragraph(tuple(w.mixed(first)), indent=False))
    blocks += w.extra_paragraphs()
    blocks.append(Heading("3.2", title_case(c1), 2))
    second = [Sentence(f"The {c1} aligns the outputs of the {c0} with the target space.")]
    if align:
        second.append(Sentence("We train it with the contrastive alignment loss"))
        blocks += [Paragraph(tuple(second), indent=False), align]
        blocks.append(
            Paragraph(
                (
                    Sentence(
                        "where d+ is the positive candidate and d_j ranges over the minibatch."
                    ),
                    *w.filler(2 if verbosity else 0),
                ),
                indent=False,
            )
        )
    else:
        blocks.append(Paragraph(tuple(w.mixed(second)), indent=False))
    blocks.append(Heading("3.3", "Training Objective", 2))
    blocks.append(
        Paragraph(
            (
                Sentence(
                    "The overall training objective combines the task loss with the alignment "
                    "and regularization terms:"
                ),
            ),
            indent=False,
        )
    )
    blocks.append(total)
    blocks.append(
        Paragraph(
            tuple(
                w.mixed(
                    [
                        Sentence(
                            f"where L_task is the standard loss for {topic.task} and L_reg is a "
                            "weight-decay term."
                        ),
                        *(w.concept(key, _METHOD_CONCEPT_TEMPLATES) for key in method_keys),
                        Sentence(f"{plan.algorithm.object_id} summarizes the training procedure."),
                    ]
                )
            ),
            floats=(plan.algorithm,),
            indent=False,
        )
    )

    # 4 Experiments
    facts = plan.facts
    unit = " in percent" if topic.unit == "%" else ""
    blocks += w.extra_paragraphs()
    blocks.append(Heading("4", "Experiments", 1))
    blocks.append(Heading("4.1", "Experimental Setup", 2))
    baselines = [row[0] for row in plan.tables[0].rows[:-1]]
    blocks.append(
        Paragraph(
            (
                Sentence(f"We evaluate on {d0}, {d1} and {d2}, three benchmarks for {topic.task}."),
                Sentence(f"We report {topic.metric}{unit} on the official test splits."),
                Sentence(f"We compare against {', '.join(baselines[:-1])} and {baselines[-1]}."),
            ),
            indent=False,
        )
    )
    blocks.append(
        Paragraph(
            tuple(
                w.mixed(
                    [
                        Sentence(f"All models are trained on {facts.hardware}.", "fact:hardware"),
                        Sentence(
                            f"We optimize all parameters with {facts.optimizer}.", "fact:optimizer"
                        ),
                        Sentence(
                            f"The learning rate is {facts.learning_rate} with a linear warmup.",
                            "fact:learning_rate",
                        ),
                        Sentence(f"The batch size is {facts.batch_size}.", "fact:batch_size"),
                        Sentence(f"Training runs for {facts.epochs} epochs.", "fact:epochs"),
                    ]
                )
            )
        )
    )
    blocks.append(Heading("4.2", "Main Results", 2))
    main = plan.tables[0]
    results = [
        Sentence(f"{main.object_id} compares {method} with the baselines."),
        Sentence(
            f"{method} reaches {format_value(plan.own_scores[d0], plan.decimals)} on {d0} "
            f"and {format_value(plan.own_scores[d1], plan.decimals)} on {d1}."
        ),
    ]
    blocks.append(Paragraph(tuple(w.mixed(results)), floats=(main,), indent=False))
    for role, text in (
        ("bar", "shows the results when only a small fraction of the training data is used"),
        ("panels", "varies the amount of training data"),
    ):
        figure = figures.get(role)
        if figure:
            blocks.append(
                Paragraph(
                    tuple(w.mixed([Sentence(f"Figure {figure.number} {text}.")])),
                    floats=(figure,),
                )
            )
    blocks += w.extra_paragraphs()
    blocks.append(Heading("4.3", "Ablation Study", 2))
    ablation = plan.tables[1]
    drops = [
        (abs(float(row[1]) - float(ablation.rows[0][1])), row[0][4:]) for row in ablation.rows[1:]
    ]
    blocks.append(
        Paragraph(
            tuple(
                w.mixed(
                    [
                        Sentence(
                            f"{ablation.object_id} reports the ablation study on {d0} and {d1}."
                        ),
                        Sentence(
                            f"Removing the {max(drops)[1]} causes the largest change on {d0}."
                        ),
                    ]
                )
            ),
            floats=(ablation,),
            indent=False,
        )
    )
    extras: list[tuple[Sentence, FloatSpec]] = []
    for table in plan.tables[2:]:
        what = (
            "compares parameter counts, latency and memory"
            if table.role == "efficiency"
            else f"breaks down the results on {d0} by difficulty"
        )
        extras.append((Sentence(f"{table.object_id} {what}."), table))
    line = figures.get("line")
    if line:
        extras.append(
            (
                Sentence(
                    f"Figure {line.number} shows how {method} behaves as the "
                    f"{line.x_label.lower()} varies."
                ),
                line,
            )
        )
    if extras:
        blocks.append(Heading("4.4", "Analysis", 2))
        for i, (sentence, spec) in enumerate(extras):
            blocks.append(Paragraph(tuple(w.mixed([sentence])), floats=(spec,), indent=i > 0))

    # 5 Conclusion
    blocks += w.extra_paragraphs()
    blocks.append(Heading("5", "Conclusion", 1))
    blocks.append(
        Paragraph(
            tuple(
                w.mixed(
                    [
                        Sentence(f"We presented {method}, a method for {topic.task}."),
                        Sentence(
                            f"Future work will extend the {c2} to multilingual and multimodal inputs."
                        ),
                    ]
                )
            ),
            indent=False,
        )
    )
    blocks += w.extra_paragraphs()
    return blocks
