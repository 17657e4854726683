"""The synthetic world: lines of work, their papers, references, results and objects.

:func:`plan_corpus` decides everything that is true about the corpus before any prose is
written or any page is laid out: which papers form a line of work (they share core
references and cite each other's methods), every paper's method, results, training facts,
tables, figures, equations and algorithm. Results are consistent across a line: a method
has one score per dataset, and every table that lists it prints that score.

Example:
    >>> import random
    >>> corpus = plan_corpus(random.Random(0), n_papers=8)
    >>> len(corpus.papers), sorted({len(line) for line in corpus.lines})
    (8, [3, 5])
    >>> corpus.papers[0].tables[0].object_id
    'Table 1'
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from littrace.synth.vocabulary import (
    AFFILIATIONS,
    BATCH_SIZES,
    COMPONENTS,
    CONCEPT_ADJECTIVES,
    CONCEPT_NOUNS,
    EPOCH_COUNTS,
    FIRST_NAMES,
    HARDWARE,
    HYPERPARAMETERS,
    LEARNING_RATES,
    LOSS_WEIGHTS,
    METHOD_PHRASES,
    METHOD_PREFIXES,
    METHOD_SUFFIXES,
    MOMENTUMS,
    OPTIMIZERS,
    REFERENCE_VENUES,
    SURNAMES,
    TITLE_TAILS,
    TOPICS,
    TRAINING_FRACTIONS,
    VENUES,
    Topic,
)

# Method names and reference titles are drawn without repetition from finite vocabularies;
# this many papers (plus distractors) leaves them at most about 85% used.
MAX_PAPERS = 300
LayoutKind = Literal["one_column", "two_column"]
TableRole = Literal["main", "ablation", "efficiency", "difficulty"]
FigureRole = Literal["diagram", "bar", "line", "panels"]
EquationRole = Literal["score", "align", "total"]

# Present-tense forms of METHOD_PHRASES, for sentences ("GraphMixer mixes structured tokens").
_PRESENT = {
    "Mixing": "mixes",
    "Routing": "routes",
    "Distilling": "distills",
    "Anchoring": "anchors",
    "Weaving": "weaves",
    "Scaling": "scales",
    "Calibrating": "calibrates",
    "Pruning": "prunes",
    "Aligning": "aligns",
    "Learning": "learns",
    "Refining": "refines",
    "Compressing": "compresses",
    "Regularizing": "regularizes",
    "Adapting": "adapts",
    "Sampling": "samples",
    "Stitching": "stitches",
}
_SMALL_WORDS = frozenset({"a", "an", "and", "for", "of", "on", "the", "to", "under", "with", "in"})


def title_case(text: str) -> str:
    """Headline capitalisation that keeps small words and existing capitals ("3D", "QA")."""

    def cap(word: str, first: bool) -> str:
        if (not first and word in _SMALL_WORDS) or any(ch.isupper() for ch in word[1:]):
            return word
        parts = word.split("-")
        return "-".join(
            part if i and part in _SMALL_WORDS else part[:1].upper() + part[1:]
            for i, part in enumerate(parts)
        )

    return " ".join(cap(word, i == 0) for i, word in enumerate(text.split()))


def surname(full_name: str) -> str:
    return full_name.split()[-1]


def format_value(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"


# --- references -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CitedWork:
    """One bibliography entry; ``concept`` is what the citing paper cites it for.

    ``key`` identifies the work across papers: two papers citing the same key print the
    same authors, title, venue and year, which is what bibliographic coupling looks for.
    """

    key: str
    authors: tuple[str, ...]
    title: str
    venue: str
    year: int
    concept: str = ""
    method: str = ""

    @property
    def first_author_surname(self) -> str:
        return surname(self.authors[0])

    def entry(self, label: int, full_names: bool) -> str:
        """The printed entry: ``[3] J. Smith, K. Lee, and M. Chen. Title. In ICML, 2021.``"""
        names = [name if full_names else f"{name[0]}. {surname(name)}" for name in self.authors]
        if len(names) == 1:
            people = names[0]
        elif len(names) == 2:
            people = f"{names[0]} and {names[1]}"
        else:
            people = ", ".join(names[:-1]) + f", and {names[-1]}"
        where = self.venue if self.venue.startswith("arXiv") else f"In {self.venue}"
        return f"[{label}] {people}. {self.title}. {where}, {self.year}."


# --- objects --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A results table: ``header[0]`` names the row-label column, ``rows`` hold printed cells."""

    number: int
    role: TableRole
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    bold_row: int
    grid_lines: bool
    may_split: bool

    @property
    def object_id(self) -> str:
        return f"Table {self.number}"

    def cell(self, row_label: str, column: str) -> str:
        row = next(row for row in self.rows if row[0] == row_label)
        return row[self.header.index(column)]


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class FigureSpec:
    """A drawn figure. Which fields matter depends on ``role``.

    diagram: ``modules`` top to bottom. bar: one bar per ``series`` entry (its single value).
    line: ``series`` over ``x_ticks``. panels: one bar chart per ``panel_titles`` entry,
    ``series`` giving each method's value in every panel.
    """

    number: int
    role: FigureRole
    caption: str
    decimals: int
    modules: tuple[str, ...] = ()
    series: tuple[Series, ...] = ()
    x_ticks: tuple[str, ...] = ()
    x_label: str = ""
    y_label: str = ""
    panel_titles: tuple[str, ...] = ()

    @property
    def object_id(self) -> str:
        return f"Figure {self.number}"


@dataclass(frozen=True, slots=True)
class EquationSpec:
    number: int
    role: EquationRole
    text: str

    @property
    def object_id(self) -> str:
        return f"({self.number})"


@dataclass(frozen=True, slots=True)
class AlgorithmSpec:
    number: int
    title: str
    steps: tuple[tuple[int, str], ...]  # (indent level, statement)

    @property
    def object_id(self) -> str:
        return f"Algorithm {self.number}"

    @property
    def caption(self) -> str:
        return f"{self.object_id}: {self.title}"


# --- papers ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Facts:
    """Training details stated once in the paper's setup section."""

    hardware: str
    optimizer: str
    learning_rate: str
    batch_size: int
    epochs: int
    momentum: str
    align_weight: str
    reg_weight: str


@dataclass(slots=True)
class PaperPlan:
    """Everything a paper states, before prose and layout."""

    index: int
    paper_id: str
    line: int
    topic: Topic
    method: str
    phrase: str
    title: str
    authors: tuple[str, ...]
    affiliation: str
    venue: str
    year: int
    layout: LayoutKind
    datasets: tuple[str, ...]
    components: tuple[str, str, str]
    facts: Facts
    decimals: int
    abstract: str = ""
    pool_title: str = ""
    prior: tuple[PaperPlan, ...] = ()
    references: tuple[CitedWork, ...] = ()
    tables: tuple[TableSpec, ...] = ()
    figures: tuple[FigureSpec, ...] = ()
    equations: tuple[EquationSpec, ...] = ()
    algorithm: AlgorithmSpec | None = None
    full_name_references: bool = False
    own_scores: dict[str, float] = field(default_factory=dict)

    @property
    def present_phrase(self) -> str:
        verb, rest = self.phrase.split(" ", 1)
        return f"{_PRESENT[verb]} {rest.lower()}"

    def label_of(self, key: str) -> int:
        """The printed label of the reference with ``key`` (labels follow list order)."""
        return next(i for i, ref in enumerate(self.references, start=1) if ref.key == key)

    def table(self, role: TableRole) -> TableSpec | None:
        return next((table for table in self.tables if table.role == role), None)

    def equation(self, role: EquationRole) -> EquationSpec | None:
        return next((eq for eq in self.equations if eq.role == role), None)


@dataclass(frozen=True, slots=True)
class MetadataOnlyPaper:
    """A pool distractor: metadata but no PDF."""

    paper_id: str
    title: str
    authors: tuple[str, ...]
    abstract: str
    venue: str
    year: int


@dataclass(frozen=True, slots=True)
class CorpusPlan:
    papers: tuple[PaperPlan, ...]
    lines: tuple[tuple[PaperPlan, ...], ...]
    distractors: tuple[MetadataOnlyPaper, ...]


# --- planning -------------------------------------------------------------------------------


class _Names:
    """Draws names that must stay unique across the corpus (methods, titles, concepts)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.methods: set[str] = {b for topic in TOPICS for b in topic.baselines}
        self.titles: set[str] = set()

    def method(self) -> str:
        while True:
            name = self.rng.choice(METHOD_PREFIXES) + self.rng.choice(METHOD_SUFFIXES)
            if name not in self.methods:
                self.methods.add(name)
                return name

    def people(self, low: int, high: int) -> tuple[str, ...]:
        chosen: list[str] = []
        count = self.rng.randint(low, high)
        while len(chosen) < count:
            name = f"{self.rng.choice(FIRST_NAMES)} {self.rng.choice(SURNAMES)}"
            if surname(name) not in {surname(other) for other in chosen}:
                chosen.append(name)
        return tuple(chosen)

    def concept_reference(self, key: str, years: tuple[int, int], avoid: set[str]) -> CitedWork:
        """A prior work named after a concept not in ``avoid``, with a corpus-unique title."""
        while True:
            concept = f"{self.rng.choice(CONCEPT_ADJECTIVES)} {self.rng.choice(CONCEPT_NOUNS)}"
            title = f"{title_case(concept)} {self.rng.choice(TITLE_TAILS)}"
            if concept in avoid or title in self.titles:
                continue
            self.titles.add(title)
            year = self.rng.randint(*years)
            venue = (
                f"arXiv preprint arXiv:{year % 100:02d}{self.rng.randint(1, 12):02d}."
                f"{self.rng.randint(1000, 19999):05d}"
                if self.rng.random() < 0.2
                else self.rng.choice(REFERENCE_VENUES)
            )
            return CitedWork(key, self.people(1, 4), title, venue, year, concept=concept)


def _line_sizes(rng: random.Random, n_papers: int) -> list[int]:
    """Split ``n_papers`` into lines of 3 to 6 papers (fewer only if the corpus is tiny)."""
    sizes: list[int] = []
    remaining = n_papers
    while remaining > 0:
        size = rng.randint(3, 6)
        if remaining <= 6:
            size = remaining
        elif remaining - size < 3:
            size = remaining - 3
        sizes.append(size)
        remaining -= size
    return sizes


def _mangle(rng: random.Random, title: str) -> str:
    """A space wrongly inserted into a word, as the real pool's PDF-extracted titles have."""
    words = title.split(" ")
    long_words = [i for i, word in enumerate(words) if len(word) > 5 and word.isalpha()]
    if not long_words:
        return title
    i = rng.choice(long_words)
    words[i] = f"{words[i][0]} {words[i][1:]}"
    return " ".join(words)


def _abstract(
    rng: random.Random, method: str, present: str, topic: Topic, comps: tuple[str, ...]
) -> list[str]:
    challenges = (
        "the relevant evidence is scattered across many inputs",
        "labelled data is scarce and noisy",
        "models must generalize beyond their training distribution",
        "inference budgets are tight",
        "spurious shortcuts dominate the training signal",
    )
    return [
        f"{topic.task[0].upper()}{topic.task[1:]} remains difficult when {rng.choice(challenges)}.",
        f"We introduce {method}, a method for {topic.task} that {present}.",
        f"{method} combines a {comps[0]} with a {comps[1]} and a {comps[2]}.",
    ]


def plan_corpus(rng: random.Random, n_papers: int, distractor_share: float = 0.2) -> CorpusPlan:
    """Plan ``n_papers`` papers in lines of work plus ``distractor_share`` metadata-only ones."""
    if not 1 <= n_papers <= MAX_PAPERS:
        raise ValueError(f"n_papers must be between 1 and {MAX_PAPERS}, not {n_papers}")
    names = _Names(rng)
    sizes = _line_sizes(rng, n_papers)
    n_distractors = round(n_papers * distractor_share)
    # Paper ids number the whole pool in a shuffled order, so a line is not a run of ids.
    numbers = list(range(1, n_papers + n_distractors + 1))
    rng.shuffle(numbers)
    classics = [names.concept_reference(f"classic:{i}", (2014, 2020), set()) for i in range(8)]
    topic_order = list(TOPICS)
    rng.shuffle(topic_order)

    papers: list[PaperPlan] = []
    lines: list[tuple[PaperPlan, ...]] = []
    for line_no, size in enumerate(sizes):
        topic = topic_order[line_no % len(topic_order)]
        line = _plan_line(rng, names, line_no, size, topic, classics, numbers, len(papers))
        papers.extend(line)
        lines.append(tuple(line))

    distractors = plan_metadata_only(rng, TOPICS, numbers[n_papers:], names)
    return CorpusPlan(tuple(papers), tuple(lines), tuple(distractors))


# A name a paper uses for a model, dataset or metric: a word with an inner capital or a digit
# ("SciBERT", "ChemProt", "GPT-4", "F1"), not a sentence-initial capital.
_NAMED = re.compile(r"\b[A-Za-z][a-z]*(?:[A-Z0-9][A-Za-z0-9]*)+(?:-[A-Za-z0-9]+)*\b")
_LEADING_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)


def topic_like(title: str, abstract: str, base: Topic, max_names: int = 8) -> Topic:
    """``base`` re-aimed at a real paper, for distractors that share its subject and words.

    The task is the paper's title after a ``Name:`` prefix, lower-cased except for names
    ("A Pretrained Language Model for Scientific Text" -> "pretrained language model for
    scientific text"); the datasets are the first ``max_names`` names its title and abstract
    use, ``base``'s datasets filling in when it uses fewer than two.

    Example:
        >>> topic = topic_like("SciBERT: A Model for Scientific Text",
        ...     "We evaluate SciBERT on ChemProt and SciERC.", TOPICS[0])
        >>> topic.task, topic.datasets
        ('model for scientific text', ('SciBERT', 'ChemProt', 'SciERC'))
    """
    subject = title.split(":", 1)[-1].strip() or title.strip()
    words = _LEADING_ARTICLE.sub("", subject).split()
    task = " ".join(word if _NAMED.fullmatch(word) else word.lower() for word in words)
    names = list(dict.fromkeys(_NAMED.findall(f"{title} {abstract}")))[:max_names]
    if len(names) < 2:
        names += [dataset for dataset in base.datasets if dataset not in names][: 2 - len(names)]
    return replace(base, task=task or base.task, datasets=tuple(names))


def plan_metadata_only(
    rng: random.Random,
    topics: Sequence[Topic],
    numbers: Sequence[int],
    names: _Names | None = None,
) -> list[MetadataOnlyPaper]:
    """One metadata-only paper (title + abstract) per id number, on a topic drawn from
    ``topics``; its abstract names two of the topic's datasets, so a topic needs two or more.

    Method names are unique within ``names`` (a fresh set when none is given).
    """
    names = names or _Names(rng)
    papers = []
    for number in numbers:
        topic = rng.choice(topics)
        method = names.method()
        phrase = rng.choice(METHOD_PHRASES)
        year = rng.choice((2024, 2025))
        comps = tuple(rng.sample(COMPONENTS, 3))
        verb, rest = phrase.split(" ", 1)
        sentences = _abstract(rng, method, f"{_PRESENT[verb]} {rest.lower()}", topic, comps)
        sentences.append(
            f"Experiments on {' and '.join(rng.sample(topic.datasets, 2))} show consistent gains."
        )
        papers.append(
            MetadataOnlyPaper(
                paper_id=f"synth{year}_{number:05d}",
                title=f"{method}: {phrase} for {title_case(topic.task)}",
                authors=names.people(2, 5),
                abstract=" ".join(sentences),
                venue=rng.choice(VENUES),
                year=year,
            )
        )
    return papers


def _plan_line(
    rng: random.Random,
    names: _Names,
    line_no: int,
    size: int,
    topic: Topic,
    classics: list[CitedWork],
    numbers: list[int],
    first_index: int,
) -> list[PaperPlan]:
    datasets = tuple(rng.sample(topic.datasets, 3))
    decimals = 2 if topic.value_range[1] < 1 else 1
    lo, hi = topic.value_range
    # Baseline scores are facts of the line: every paper that lists a baseline prints them.
    scores: dict[tuple[str, str], float] = {}
    for baseline in topic.baselines:
        for dataset in datasets:
            start = rng.uniform(0.0, 0.55) * (hi - lo)
            scores[baseline, dataset] = round(
                lo + start if topic.higher_is_better else hi - start, decimals
            )
    # Core references: three cited by every paper of the line, three by some.
    core = [
        names.concept_reference(f"line{line_no}:core{i}", (2019, 2023), set()) for i in range(6)
    ]
    years = sorted(rng.choice((2024, 2025)) for _ in range(size))
    # Distinct title phrases within a line, so its titles differ in more than the method name.
    phrases = rng.sample(METHOD_PHRASES, size)
    plans: list[PaperPlan] = []
    for member in range(size):
        index = first_index + member
        method = names.method()
        phrase = phrases[member]
        comps = tuple(rng.sample(COMPONENTS, 3))
        facts = Facts(
            hardware=rng.choice(HARDWARE),
            optimizer=rng.choice(OPTIMIZERS),
            learning_rate=rng.choice(LEARNING_RATES),
            batch_size=rng.choice(BATCH_SIZES),
            epochs=rng.choice(EPOCH_COUNTS),
            momentum=rng.choice(MOMENTUMS),
            align_weight=rng.choice(LOSS_WEIGHTS),
            reg_weight=rng.choice(LOSS_WEIGHTS),
        )
        year = years[member]
        plan = PaperPlan(
            index=index,
            paper_id=f"synth{year}_{numbers[index]:05d}",
            line=line_no,
            topic=topic,
            method=method,
            phrase=phrase,
            title=f"{method}: {phrase} for {title_case(topic.task)}",
            authors=names.people(2, 5),
            affiliation=rng.choice(AFFILIATIONS),
            venue=rng.choice(VENUES),
            year=year,
            layout="two_column" if rng.random() < 0.6 else "one_column",
            datasets=datasets,
            components=(comps[0], comps[1], comps[2]),
            facts=facts,
            decimals=decimals,
            prior=tuple(plans[-5:]),
        )
        plan.pool_title = _mangle(rng, plan.title) if rng.random() < 0.1 else plan.title
        plan.full_name_references = plan.venue in ("ACL", "EMNLP")
        _plan_results(rng, plan, scores)
        _plan_references(rng, names, plan, core, classics)
        _plan_objects(rng, plan)
        sentences = _abstract(rng, method, plan.present_phrase, topic, plan.components)
        verb = "improves" if topic.higher_is_better else "reduces"
        gain = abs(plan.own_scores[datasets[0]] - _best_baseline(plan, datasets[0]))
        sentences += [
            f"On {datasets[0]}, {datasets[1]} and {datasets[2]}, {method} {verb} {topic.metric} "
            f"over strong baselines, by {format_value(gain, decimals)} points on {datasets[0]}.",
            "Ablations confirm that each component contributes to the final performance.",
        ]
        plan.abstract = " ".join(sentences)
        plans.append(plan)
    return plans


def _main_rows(plan: PaperPlan) -> list[str]:
    table = plan.table("main")
    assert table is not None
    return [row[0] for row in table.rows]


def _best_baseline(plan: PaperPlan, dataset: str) -> float:
    table = plan.table("main")
    assert table is not None
    column = table.header.index(dataset)
    values = [float(row[column]) for i, row in enumerate(table.rows) if i != table.bold_row]
    return max(values) if plan.topic.higher_is_better else min(values)


def _plan_results(
    rng: random.Random, plan: PaperPlan, scores: dict[tuple[str, str], float]
) -> None:
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


def _plan_references(
    rng: random.Random,
    names: _Names,
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


def _plan_objects(rng: random.Random, plan: PaperPlan) -> None:
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
