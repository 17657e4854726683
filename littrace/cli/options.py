"""What every command shares: the global options, and the one-line reporting of the user's
input errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import typer

from littrace.config import ConfigError, Settings, load_settings
from littrace.evaluate.official import EvaluationError


@dataclass(frozen=True)
class GlobalOptions:
    """What the global options asked for; settings are loaded only by commands that need them."""

    artifacts: Path | None
    profile: str | None
    config: Path | None

    def settings(self) -> Settings:
        overrides = {"runtime.artifact_root": str(self.artifacts)} if self.artifacts else None
        return load_settings(profile=self.profile, config_file=self.config, overrides=overrides)


class UserError(Exception):
    """A problem with the user's input, reported as one line and exit status 1."""


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the library's input errors into one-line messages with exit status 1."""
    try:
        yield
    except (UserError, ConfigError, EvaluationError, FileNotFoundError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(1) from error
