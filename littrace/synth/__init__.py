"""Synthetic scientific papers with exactly known gold, for the demo and for tests.

Example:
    >>> from pathlib import Path
    >>> from littrace.synth import generate_corpus
    >>> corpus = generate_corpus(Path("/tmp/synth"), n_papers=50, seed=0)  # doctest: +SKIP
    >>> corpus.counts["papers"], corpus.counts["questions"]  # doctest: +SKIP
    (50, 30)
"""

from littrace.synth.generator import SynthCorpus, generate_corpus

__all__ = ["SynthCorpus", "generate_corpus"]
