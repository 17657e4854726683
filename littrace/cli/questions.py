"""The commands over a question file or one question: ``answer``, ``retrieve``, ``trace``
and ``prompt``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from littrace.cli.display import item_progress, print_json, print_summary, progress
from littrace.cli.options import GlobalOptions, UserError, user_errors
from littrace.config import Settings


def answer(
    ctx: typer.Context,
    questions: Annotated[Path, typer.Option("--questions", help="Input questions JSONL.")],
    reader: Annotated[
        str | None,
        typer.Option("--reader", help="lit3r | intragent | modelfree (default from config)."),
    ] = None,
    llm: Annotated[
        str | None, typer.Option("--llm", help="litellm model string; implies the LLM backend.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Also copy submission.jsonl to this path.")
    ] = None,
) -> None:
    """Answer every question against the latest indexes into an answers artifact (on a Dask
    cluster of worker processes when runtime.task_runner is dask)."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        if not questions.is_file():
            raise UserError(f"questions file not found: {questions}")
        settings = _answer_settings(options.settings(), reader, llm)
        from littrace.answer import answer_questions, fallback_counts
        from littrace.artifacts import SUBMISSION_FILE
        from littrace.index.stage import MissingCorpusError
        from littrace.littraceqa import JsonlError

        with progress() as bar:
            advance = item_progress(bar, "answering", "answered")
            try:
                artifact = answer_questions(questions, settings, progress=advance)
            except (JsonlError, MissingCorpusError, ValueError) as error:
                raise UserError(str(error)) from error
        submission = artifact.path / SUBMISSION_FILE
        if out is not None:
            copy_submission(submission, out)
        print_json(
            {
                "artifact": str(artifact.path),
                "submission": str(submission),
                "copied_to": str(out) if out else None,
                **artifact.manifest.tables,
                "fallbacks": fallback_counts(artifact),
            }
        )


def copy_submission(submission: Path, out: Path) -> None:
    """Write the (already validated) submission to ``out`` atomically: a reader of ``out``
    sees the old file or the whole new one, never a part."""
    from littrace.read.writer import write_submission

    lines = submission.read_text(encoding="utf-8").splitlines()
    write_submission(out, (json.loads(line) for line in lines if line.strip()))


def _answer_settings(settings: Settings, reader: str | None, llm: str | None) -> Settings:
    """``settings`` with the CLI's reader and model choices applied."""
    read: dict[str, Any] = {}
    if reader == "modelfree":
        read["backend"] = "heuristic"
    elif reader in ("lit3r", "intragent"):
        read["reader"] = reader
    elif reader is not None:
        raise UserError(f"unknown reader {reader!r}: use lit3r, intragent or modelfree")
    updates: dict[str, Any] = {}
    if llm is not None:
        updates["llm"] = settings.llm.model_copy(update={"backend": "litellm", "model": llm})
        if reader != "modelfree":
            read.setdefault("backend", "llm")
    if read:
        updates["read"] = settings.read.model_copy(update=read)
    return settings.model_copy(update=updates) if updates else settings


def retrieve(
    ctx: typer.Context,
    questions: Annotated[Path, typer.Option("--questions", help="Questions JSONL.")],
) -> None:
    """Retrieve 50 candidate papers per question (resumable) into a candidates artifact."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        if not questions.is_file():
            raise UserError(f"questions file not found: {questions}")
        settings = options.settings()
        from littrace.littraceqa import JsonlError
        from littrace.retrieve.run import retrieve_questions

        with progress() as bar:
            advance = item_progress(bar, "retrieving", "retrieved")
            try:
                run = retrieve_questions(questions, settings, progress=advance)
            except (JsonlError, LookupError, ValueError) as error:
                raise UserError(str(error)) from error
        print_summary("retrieve", run.summary())


def trace(
    ctx: typer.Context,
    query_id: Annotated[str, typer.Argument(help="The question's query_id.")],
    artifact: Annotated[
        Path | None,
        typer.Option("--artifact", help="Artifact folder (default: latest answers/candidates)."),
    ] = None,
    top: Annotated[int, typer.Option("--top", help="Papers shown per ranking.")] = 10,
) -> None:
    """Print one question's trace: plan, rounds, PRF, rerank, verifier, Rankings A/B, answer."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        from littrace.retrieve.run import find_trace
        from littrace.retrieve.show import render_record

        settings = options.settings()
        try:
            record = find_trace(Path(settings.runtime.artifact_root), query_id, artifact)
        except (LookupError, ValueError) as error:
            raise UserError(str(error)) from error
        render_record(record, Console(), top=top)


def prompt(
    ctx: typer.Context,
    query_id: Annotated[str, typer.Argument(help="The question's query_id.")],
    questions: Annotated[Path, typer.Option("--questions", help="Questions JSONL.")],
    step: Annotated[
        str,
        typer.Option(
            "--step",
            help="plan, decompose_first, decompose_next, verify, read_paper, rank_sections, "
            "extract_detail, localize or synthesize.",
        ),
    ],
    paper: Annotated[
        str | None,
        typer.Option("--paper", help="Paper of a paper-local step (default: top candidate)."),
    ] = None,
) -> None:
    """Print the exact prompts an LLM step would send for one question; calls no model."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        settings = options.settings()
        from littrace.littraceqa import JsonlError, Question, read_jsonl
        from littrace.preview import PreviewError, preview_prompts

        try:
            by_id = {q.query_id: q for q in read_jsonl(questions, Question)}
        except JsonlError as error:
            raise UserError(str(error)) from error
        if query_id not in by_id:
            raise UserError(f"{questions}: no question with query_id '{query_id}'")
        try:
            prompts = preview_prompts(by_id[query_id], step, settings, paper)
        except PreviewError as error:
            raise UserError(str(error)) from error
        if not prompts:
            raise UserError(f"{query_id}: the pipeline sends no '{step}' prompt for this question")
        for number, recorded in enumerate(prompts, start=1):
            typer.echo(f"===== {recorded.step} {number}/{len(prompts)} =====")
            typer.echo(recorded.text())
