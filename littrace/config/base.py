"""What every settings section shares: the error type, the section base, two field types."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

# Which implementation runs an LLM-shaped step: a model-free rule set, or the configured LLM.
StepBackend = Literal["heuristic", "llm"]
PositiveInt = Annotated[int, Field(ge=1)]


class ConfigError(ValueError):
    """A configuration problem, as one line naming the source and the dotted key."""


class Section(BaseModel):
    # Unknown keys are errors: a misspelt setting must never fall back silently to a default.
    model_config = ConfigDict(extra="forbid")
