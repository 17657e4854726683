"""Settings for every littrace stage: ``conf/*.yaml`` plus environment and call overrides.

One pydantic-settings tree (:class:`Settings`) with a model per pipeline stage (``corpus``,
``index``, ``retrieve``, ``relate``, ``read``, ``llm``, ``evaluate``, ``runtime``), one module
per stage. Every number of the method papers (Lit3R, IntrAgent, TRACE in ``../shared/seeds``)
is a named default whose description cites the paper and section, so the defaults reproduce
the published method; engineering knobs say so.

Layers, later wins: ``conf/default.yaml`` → ``conf/profiles/<profile>.yaml`` → ``config_file``
→ environment variables ``LITTRACE_<SECTION>__<FIELD>[__<SUBFIELD>]`` (case-insensitive,
values parsed as YAML) → ``overrides`` with dotted keys. An unknown key or a bad value raises
:class:`ConfigError` naming the dotted key and the layer (file, variable) it came from.

Example:
    >>> from littrace.config import load_settings
    >>> settings = load_settings("test", overrides={"retrieve.rrf_k": 30}, environ={})
    >>> settings.retrieve.rrf_k, settings.index.bm25.k1
    (30, 1.5)
    >>> len(settings.digest("index.bm25"))  # a stage hashes only the settings it reads
    64
"""

from littrace.config.base import ConfigError, PositiveInt, StepBackend
from littrace.config.corpus import ChunkSettings, CorpusSettings
from littrace.config.execution import (
    CodeVersionSettings,
    EvaluateSettings,
    LlmSettings,
    RuntimeSettings,
    SplitSettings,
    SplitsSettings,
)
from littrace.config.index import (
    Bm25Settings,
    EncoderSettings,
    HnswSettings,
    IndexSettings,
    ReferenceSettings,
)
from littrace.config.loading import available_profiles, conf_dir, defaults_yaml, load_settings
from littrace.config.read import (
    EvidenceSettings,
    IntrAgentSettings,
    LocalReadSettings,
    ReadSettings,
    SelectSettings,
    TableSettings,
    TableViewSettings,
)
from littrace.config.relate import (
    AbFusionSettings,
    Bm25SignalSettings,
    CouplingSettings,
    RelateSettings,
    SignalSettings,
)
from littrace.config.retrieve import (
    DecomposeSettings,
    IndexWeights,
    PlannerSettings,
    PrfSettings,
    RerankSettings,
    RetrieveSettings,
    VerifySettings,
)
from littrace.config.settings import Settings

__all__ = [
    "AbFusionSettings",
    "Bm25Settings",
    "Bm25SignalSettings",
    "ChunkSettings",
    "CodeVersionSettings",
    "ConfigError",
    "CorpusSettings",
    "CouplingSettings",
    "DecomposeSettings",
    "EncoderSettings",
    "EvaluateSettings",
    "EvidenceSettings",
    "HnswSettings",
    "IndexSettings",
    "IndexWeights",
    "IntrAgentSettings",
    "LlmSettings",
    "LocalReadSettings",
    "PlannerSettings",
    "PositiveInt",
    "PrfSettings",
    "ReadSettings",
    "ReferenceSettings",
    "RelateSettings",
    "RerankSettings",
    "RetrieveSettings",
    "RuntimeSettings",
    "SelectSettings",
    "Settings",
    "SignalSettings",
    "SplitSettings",
    "SplitsSettings",
    "StepBackend",
    "TableSettings",
    "TableViewSettings",
    "VerifySettings",
    "available_profiles",
    "conf_dir",
    "defaults_yaml",
    "load_settings",
]
