"""Artifact identity: the content hash of a stage output and the key that carries it.

The hash covers the stage name, its code version, its input artifacts' hashes and its config digest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from littrace.digest import stable_digest

FORMAT = 1


def config_digest(config: str | Mapping[str, Any]) -> str:
    """Digest of the config values a stage reads; a string is taken as an existing digest."""
    if isinstance(config, str):
        return config
    return stable_digest(config)


def artifact_hash(
    stage: str, code_version: str, inputs: Mapping[str, str], config: str | Mapping[str, Any]
) -> str:
    """Content hash (sha256 hex) of a stage output: stage, code version, input hashes, config."""
    payload = {
        "format": FORMAT,
        "stage": stage,
        "code_version": code_version,
        "inputs": dict(inputs),
        "config": config_digest(config),
    }
    return stable_digest(payload)


@dataclass(frozen=True)
class ArtifactKey:
    """Identity of a stage output: everything its hash covers, and the hash."""

    stage: str
    code_version: str
    inputs: Mapping[str, str] = field(hash=False)
    config_digest: str
    # The config itself when given as a mapping, kept in the manifest to explain a rebuild.
    config: Mapping[str, Any] | None = field(hash=False)
    hash: str
