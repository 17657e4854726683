"""A scripted litellm provider for the LLM backends of the retrieval steps (no network)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import litellm
import pytest
from litellm import CustomLLM

from littrace.config import LlmSettings
from littrace.llm.client import LlmClient


class Scripted(CustomLLM):
    """A litellm provider ``scripted/...`` that replies from a list, in order (the last repeats)."""

    def __init__(self) -> None:
        super().__init__()
        self.replies: list[str] = []
        self.prompts: list[str] = []

    def completion(self, *args: Any, **kwargs: Any) -> Any:
        self.prompts.append(kwargs["messages"][-1]["content"])
        response = kwargs["model_response"]
        response.choices[0].message.content = self.replies[
            min(len(self.prompts), len(self.replies)) - 1
        ]
        return response


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Scripted]:
    provider = Scripted()
    monkeypatch.setattr(
        litellm, "custom_provider_map", [{"provider": "scripted", "custom_handler": provider}]
    )
    yield provider


def scripted_client(tmp_path: Path) -> LlmClient:
    """An LLM client whose model is the scripted provider, without retries."""
    settings = LlmSettings(backend="litellm", model="scripted/test", max_retries=0)
    return LlmClient(settings, tmp_path / "cache")
