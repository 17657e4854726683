"""The ``littrace`` command line.

Global options choose the artifact root, the profile and an extra config file; each command
is a thin shell over a library function. A user error (bad file, bad line, unknown key)
exits with status 1 and one line naming the file, line or id, never a bare traceback.

Example:
    $ littrace evaluate --gold validation.jsonl --pred submission.jsonl
    $ littrace validate --input test.jsonl --pred submission.jsonl --pool paper_metadata.jsonl
    $ littrace --profile gpu config show
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from littrace.config import ConfigError, Settings, load_settings
from littrace.evaluate.official import EvaluationError, evaluate_files
from littrace.evaluate.validate import validate_submission

app = typer.Typer(
    name="littrace",
    help="Evidence-grounded question answering over scientific literature (LitTraceQA).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
config_app = typer.Typer(help="Inspect the effective configuration.", no_args_is_help=True)
app.add_typer(config_app, name="config")


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


@app.callback()
def main(
    ctx: typer.Context,
    artifacts: Annotated[
        Path | None, typer.Option("--artifacts", help="Artifact root (default from config).")
    ] = None,
    profile: Annotated[
        str | None, typer.Option("--profile", help="Config profile: cpu, gpu, api, test.")
    ] = None,
    config: Annotated[
        Path | None, typer.Option("--config", help="Extra YAML config file layered on top.")
    ] = None,
) -> None:
    """littrace: retrieve the papers, point at the evidence, answer."""
    ctx.obj = GlobalOptions(artifacts=artifacts, profile=profile, config=config)


def _print_json(payload: Any) -> None:
    # Unescaped UTF-8, like the official evaluator's output.
    typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))


@config_app.command("show")
def config_show(ctx: typer.Context) -> None:
    """Print the effective configuration (defaults, profile, file, environment) as YAML."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        typer.echo(options.settings().to_yaml(), nl=False)


@app.command()
def evaluate(
    gold: Annotated[Path, typer.Option("--gold", help="Gold JSONL (e.g. validation.jsonl).")],
    pred: Annotated[Path, typer.Option("--pred", help="Submission JSONL to score.")],
) -> None:
    """Score a submission with the official LitTraceQA metrics, plus composite_score."""
    with user_errors():
        _print_json(evaluate_files(gold, pred))


@app.command()
def validate(
    input_path: Annotated[Path, typer.Option("--input", help="Input questions JSONL.")],
    pred: Annotated[Path, typer.Option("--pred", help="Submission JSONL to check.")],
    pool: Annotated[
        Path | None, typer.Option("--pool", help="Paper metadata pool JSONL (checks paper ids).")
    ] = None,
    require_evidence: Annotated[
        bool | None,
        typer.Option(
            "--require-evidence/--no-require-evidence",
            help="Default: required unless the input file is test_extra.jsonl.",
        ),
    ] = None,
) -> None:
    """Check a submission exactly as the official LitTraceQA validator does."""
    result = validate_submission(input_path, pred, pool, require_evidence)
    typer.echo(result.render())
    if not result.ok:
        raise typer.Exit(1)


if __name__ == "__main__":
    app()
