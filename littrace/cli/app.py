"""The ``littrace`` Typer application: the global options, ``config show`` and
``config defaults``, and every
command registered in the order ``littrace --help`` lists them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from littrace.cli.corpus import index, ingest, synth
from littrace.cli.evaluation import evaluate, report, validate
from littrace.cli.options import GlobalOptions, user_errors
from littrace.cli.orchestration import demo, run, serve
from littrace.cli.questions import answer, prompt, retrieve, trace
from littrace.config import defaults_yaml

app = typer.Typer(
    name="littrace",
    help="Evidence-grounded question answering over scientific literature (LitTraceQA).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
config_app = typer.Typer(help="Inspect the effective configuration.", no_args_is_help=True)
app.add_typer(config_app, name="config")


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


@config_app.command("show")
def config_show(ctx: typer.Context) -> None:
    """Print the effective configuration (defaults, profile, file, environment) as YAML."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        typer.echo(options.settings().to_yaml(), nl=False)


@config_app.command("defaults")
def config_defaults() -> None:
    """Print the code's defaults, each under its description: the text of conf/default.yaml."""
    typer.echo(defaults_yaml(), nl=False)


# Registered here, not where they are defined, to keep the order of `littrace --help`.
app.command()(synth)
app.command()(ingest)
app.command()(index)
app.command()(answer)
app.command()(serve)
app.command()(evaluate)
app.command()(retrieve)
app.command()(trace)
app.command()(validate)
app.command()(prompt)
app.command()(report)
app.command()(demo)
app.command()(run)
