"""The commands that build the corpus and its indexes: ``synth``, ``ingest`` and ``index``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import TaskID

from littrace.cli.display import item_progress, print_json, print_summary, progress
from littrace.cli.options import GlobalOptions, UserError, user_errors


def synth(
    out: Annotated[
        Path, typer.Option("--out", help="Folder for pdfs/, the pool, questions, gold.")
    ],
    papers: Annotated[int, typer.Option("--papers", help="Papers with PDFs (1-300).")] = 50,
    questions: Annotated[int, typer.Option("--questions", help="Questions with gold.")] = 30,
    seed: Annotated[int, typer.Option("--seed", help="Random seed (same seed, same files).")] = 0,
) -> None:
    """Generate the synthetic corpus: PDFs, pool, LitTraceQA questions and their gold."""
    from littrace.synth import generate_corpus

    with user_errors():
        try:
            corpus = generate_corpus(out, n_papers=papers, seed=seed, n_questions=questions)
        except ValueError as error:
            raise UserError(str(error)) from error
        print_json({"root": str(corpus.root), **corpus.counts})


def ingest(
    ctx: typer.Context,
    pool: Annotated[Path, typer.Option("--pool", help="Paper metadata pool JSONL.")],
    pdfs: Annotated[
        Path | None, typer.Option("--pdfs", help="Folder of <paper_id>.pdf files.")
    ] = None,
    manifest: Annotated[
        Path | None,
        typer.Option("--manifest", help="paper_id -> PDF path file (JSON object, CSV or TSV)."),
    ] = None,
) -> None:
    """Convert the pool's PDFs and chunk every paper (cached per PDF)."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        if not pool.is_file():
            raise UserError(f"pool file not found: {pool}")
        if pdfs is not None and not pdfs.is_dir():
            raise UserError(f"PDF folder not found: {pdfs}")
        settings = options.settings()
        from littrace.corpus.ingest import ingest as run_ingest

        with progress() as bar:
            advance = item_progress(bar, "converting PDFs", "converted")
            result = run_ingest(pool, pdfs, settings, manifest=manifest, progress=advance)
        print_summary("ingest", result.summary())


def index(ctx: typer.Context) -> None:
    """Build BM25 (chunks, papers), dense vectors + HNSW, paper vectors and the citation graph."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        settings = options.settings()
        from littrace.index.stage import MissingCorpusError, build_indexes, latest_artifact

        try:
            corpus = latest_artifact(Path(settings.runtime.artifact_root), "corpus")
        except MissingCorpusError as error:
            raise UserError(str(error)) from error
        with progress() as bar:
            tasks: dict[str, TaskID] = {}

            def advance(step: str, done: int, total: int) -> None:
                if step not in tasks:
                    tasks[step] = bar.add_task(step, total=total)
                bar.update(tasks[step], completed=done, total=total)

            result = build_indexes(corpus, settings, progress=advance)
        print_summary("index", result.summary())
