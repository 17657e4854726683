"""The commands that run the Prefect flows: ``serve`` the deployments, and the whole pipeline
with ``demo`` (synthetic corpus) and ``run`` (real data)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from littrace.cli.options import GlobalOptions, UserError, user_errors
from littrace.cli.pipeline import run_pipeline
from littrace.runtime import exit_on_sigterm


def serve(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option("--host", help="Address the Prefect server listens on.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port of the Prefect UI and API.")] = 4200,
    prefect_yaml: Annotated[
        bool,
        typer.Option(
            "--prefect-yaml",
            help="Print these deployments as prefect.yaml (for `prefect deploy --all`) and exit.",
        ),
    ] = False,
) -> None:
    """Serve the Prefect deployments; starts a Prefect server on HOST:PORT unless
    PREFECT_API_URL names one. Stop with Ctrl-C or SIGTERM."""
    # Before the slow imports: a SIGTERM while serve is starting must also end it cleanly.
    exit_on_sigterm()
    options: GlobalOptions = ctx.obj
    with user_errors():
        settings = options.settings()
        # Imported here: the library stays free of Prefect (flows -> tasks -> littrace).
        from flows import serve as served

        if prefect_yaml:
            typer.echo(served.prefect_yaml(settings), nl=False)
            return
        served.serve_deployments(
            settings, profile=options.profile, config_file=options.config, host=host, port=port
        )


# The real fixture PDFs beside the checkout (see ../shared/fixtures/pdfs/NOTICE.md).
_FIXTURE_PDFS = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "pdfs"


def demo(
    ctx: typer.Context,
    papers: Annotated[int, typer.Option("--papers", help="Synthetic papers to generate.")] = 50,
    real_pdfs: Annotated[
        Path | None,
        typer.Option(
            "--real-pdfs",
            help="Real PDFs added as question-less papers (default: the checkout's "
            "../shared/fixtures/pdfs when present).",
        ),
    ] = None,
    synthetic_only: Annotated[
        bool, typer.Option("--synthetic-only", help="Add no real PDFs.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Also write the submission to this path.")
    ] = None,
) -> None:
    """Run the whole pipeline through Prefect on a generated synthetic corpus plus real PDFs
    (ingest, index, answer, evaluate), then write the HTML report; a second run finishes
    from cache."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        from flows.pipeline import DEMO_DIR

        if real_pdfs is not None and not real_pdfs.is_dir():
            raise UserError(f"PDF folder not found: {real_pdfs}")
        real = None if synthetic_only else real_pdfs or _FIXTURE_PDFS
        synth = Path(options.settings().runtime.artifact_root) / DEMO_DIR
        run_pipeline(
            options,
            {
                "demo": True,
                "demo_papers": papers,
                "demo_real_pdfs": real if real is not None and real.is_dir() else None,
            },
            gold=synth / "gold.jsonl",
            pdfs=synth / "pdfs",
            pool=synth / "paper_metadata.jsonl",
            out=out,
        )


def run(
    ctx: typer.Context,
    pool: Annotated[Path, typer.Option("--pool", help="Paper metadata JSONL (the pool).")],
    pdfs: Annotated[Path, typer.Option("--pdfs", help="Folder of <paper_id>.pdf files.")],
    questions: Annotated[Path, typer.Option("--questions", help="LitTraceQA input JSONL.")],
    gold: Annotated[
        Path | None, typer.Option("--gold", help="Gold JSONL: score the run and report it.")
    ] = None,
    split: Annotated[str, typer.Option("--split", help="Name of the answered split.")] = "test",
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also write the validated submission to this path."),
    ] = None,
) -> None:
    """Run the whole pipeline through Prefect on real data: ingest the pool and PDFs, index,
    answer the questions, and (with --gold) evaluate; then write the HTML report."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        for path in (pool, questions, *((gold,) if gold else ())):
            if not path.is_file():
                raise UserError(f"file not found: {path}")
        if not pdfs.is_dir():
            raise UserError(f"PDF folder not found: {pdfs}")
        parameters = {"pool": pool, "pdfs": pdfs, "questions": questions, "gold": gold}
        run_pipeline(
            options, {**parameters, "split": split}, gold=gold, pdfs=pdfs, pool=pool, out=out
        )
