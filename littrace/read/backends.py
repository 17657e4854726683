"""One place that picks the reading and synthesis backends from ``read.reader``/``read.backend``.

The model-free backends are :class:`~littrace.read.heuristic.HeuristicReader` and
:func:`~littrace.read.synthesize.synthesize`; the LLM backends (Lit3R, IntrAgent) take them as
their recorded fallback.

Example:
    >>> from littrace.config import Settings
    >>> reader = paper_reader(Settings(), None)
    >>> type(reader).__name__
    'HeuristicReader'
"""

from __future__ import annotations

from littrace.config import Settings
from littrace.llm.client import LlmClient
from littrace.read.heuristic import HeuristicReader
from littrace.read.model import PaperReader, Synthesizer
from littrace.read.synthesize import synthesize


def paper_reader(settings: Settings, client: LlmClient | None) -> PaperReader:
    """The paper-local reader for ``settings.read`` (model-free without a client)."""
    return HeuristicReader(settings.read.local)


def synthesizer(settings: Settings, client: LlmClient | None) -> Synthesizer:
    """The cross-paper synthesis step for ``settings.read`` (model-free without a client)."""
    return synthesize
