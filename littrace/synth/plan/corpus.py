"""Planning the corpus: lines of work and their papers, and metadata-only distractors."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import replace

from littrace.synth.plan.contents import (
    best_baseline,
    plan_objects,
    plan_references,
    plan_results,
)
from littrace.synth.plan.names import Names
from littrace.synth.plan.objects import CitedWork
from littrace.synth.plan.papers import CorpusPlan, Facts, MetadataOnlyPaper, PaperPlan
from littrace.synth.plan.text import PRESENT, format_value, title_case
from littrace.synth.vocabulary import (
    AFFILIATIONS,
    BATCH_SIZES,
    COMPONENTS,
    EPOCH_COUNTS,
    HARDWARE,
    LEARNING_RATES,
    LOSS_WEIGHTS,
    METHOD_PHRASES,
    MOMENTUMS,
    OPTIMIZERS,
    TOPICS,
    VENUES,
    Topic,
)

# Method names and reference titles are drawn without repetition from finite vocabularies;
# this many papers (plus distractors) leaves them at most about 85% used.
MAX_PAPERS = 300


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
    names = Names(rng)
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
    names: Names | None = None,
) -> list[MetadataOnlyPaper]:
    """One metadata-only paper (title + abstract) per id number, on a topic drawn from
    ``topics``; its abstract names two of the topic's datasets, so a topic needs two or more.

    Method names are unique within ``names`` (a fresh set when none is given).
    """
    names = names or Names(rng)
    papers = []
    for number in numbers:
        topic = rng.choice(topics)
        method = names.method()
        phrase = rng.choice(METHOD_PHRASES)
        year = rng.choice((2024, 2025))
        comps = tuple(rng.sample(COMPONENTS, 3))
        verb, rest = phrase.split(" ", 1)
        sentences = _abstract(rng, method, f"{PRESENT[verb]} {rest.lower()}", topic, comps)
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
    names: Names,
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
        plan_results(rng, plan, scores)
        plan_references(rng, names, plan, core, classics)
        plan_objects(rng, plan)
        sentences = _abstract(rng, method, plan.present_phrase, topic, plan.components)
        verb = "improves" if topic.higher_is_better else "reduces"
        gain = abs(plan.own_scores[datasets[0]] - best_baseline(plan, datasets[0]))
        sentences += [
            f"On {datasets[0]}, {datasets[1]} and {datasets[2]}, {method} {verb} {topic.metric} "
            f"over strong baselines, by {format_value(gain, decimals)} points on {datasets[0]}.",
            "Ablations confirm that each component contributes to the final performance.",
        ]
        plan.abstract = " ".join(sentences)
        plans.append(plan)
    return plans
