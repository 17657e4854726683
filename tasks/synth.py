"""Prefect task that writes the synthetic demo corpus (PDFs, pool, questions, gold).

Generation is deterministic (same arguments, same bytes), so regenerating the demo leaves
every PDF hash, and so every downstream artifact, unchanged.

Example:
    >>> corpus = generate_demo_corpus(Path("artifacts/demo"), 20, 0, 12)  # doctest: +SKIP
    >>> corpus.pool.name
    'paper_metadata.jsonl'
"""

from __future__ import annotations

from pathlib import Path

from prefect import task
from prefect.cache_policies import NO_CACHE

from littrace.synth import SynthCorpus, generate_corpus

__all__ = ["generate_demo_corpus"]


@task(name="generate-demo-corpus", cache_policy=NO_CACHE, persist_result=False)
def generate_demo_corpus(out_dir: Path, n_papers: int, seed: int, n_questions: int) -> SynthCorpus:
    """Generate the synthetic corpus into ``out_dir`` (earlier PDFs there are replaced)."""
    return generate_corpus(out_dir, n_papers=n_papers, seed=seed, n_questions=n_questions)
