"""Fixtures shared by every test folder: the scripted LLM provider and the tiny world."""

from __future__ import annotations

from collections.abc import Iterator

# isort: off
import littrace  # noqa: F401  (first: its bootstrap keeps litellm from fetching price maps)

# isort: on
import litellm
import pytest

from tests.scripted_llm import PROVIDERS, ScriptedLlm
from tests.tiny_world import TinyWorld, build_tiny_world


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedLlm]:
    """A fresh scripted provider behind the ``scripted/``, ``bystep/`` and ``slow/`` models."""
    provider = ScriptedLlm()
    monkeypatch.setattr(
        litellm,
        "custom_provider_map",
        [{"provider": name, "custom_handler": provider} for name in PROVIDERS],
    )
    yield provider


@pytest.fixture(scope="session")
def tiny_world(tmp_path_factory: pytest.TempPathFactory) -> TinyWorld:
    """Ten synthetic papers ingested and indexed once per session (read-only: copy it)."""
    return build_tiny_world(tmp_path_factory.mktemp("tiny-world"))
