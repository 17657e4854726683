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

from littrace.synth.plan.corpus import MAX_PAPERS, plan_corpus, plan_metadata_only, topic_like
from littrace.synth.plan.objects import AlgorithmSpec, EquationSpec, FigureSpec, Series, TableSpec
from littrace.synth.plan.papers import CorpusPlan, PaperPlan
from littrace.synth.plan.text import format_value, title_case

__all__ = [
    "MAX_PAPERS",
    "AlgorithmSpec",
    "CorpusPlan",
    "EquationSpec",
    "FigureSpec",
    "PaperPlan",
    "Series",
    "TableSpec",
    "format_value",
    "plan_corpus",
    "plan_metadata_only",
    "title_case",
    "topic_like",
]
