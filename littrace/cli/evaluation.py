"""The commands that score and check runs: ``evaluate``, ``validate`` and ``report``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import TaskID
from rich.table import Table

from littrace.cli.display import print_json, progress
from littrace.cli.options import GlobalOptions, UserError, user_errors
from littrace.config import Settings
from littrace.evaluate.official import evaluate_files
from littrace.evaluate.validate import validate_submission


def evaluate(
    ctx: typer.Context,
    gold: Annotated[Path, typer.Option("--gold", help="Gold JSONL (e.g. validation.jsonl).")],
    pred: Annotated[Path | None, typer.Option("--pred", help="Submission JSONL to score.")] = None,
    candidates: Annotated[
        bool,
        typer.Option(
            "--candidates",
            help="Candidate recall@k by task family, of --artifact or else of the newest "
            "artifact with candidates: the latest `littrace answer` or `littrace retrieve` "
            "run's, whichever finished last.",
        ),
    ] = False,
    artifact: Annotated[
        Path | None,
        typer.Option("--artifact", help="Candidates or answers artifact folder (--candidates)."),
    ] = None,
    questions: Annotated[
        Path | None, typer.Option("--questions", help="Questions JSONL (--ablations).")
    ] = None,
    ablations: Annotated[
        bool,
        typer.Option(
            "--ablations",
            help="Retrieve --questions once per retriever variant and compare recall@k.",
        ),
    ] = False,
    by_family: Annotated[
        bool,
        typer.Option(
            "--by-family",
            help="Also score each task family, answer type and evidence type apart (--pred).",
        ),
    ] = False,
    report_out: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="Also write the HTML report of the answers artifact --pred belongs to.",
        ),
    ] = None,
) -> None:
    """Score a submission with the official LitTraceQA metrics, plus composite_score; or, with
    --candidates / --ablations, the candidate recall of the retriever."""
    options: GlobalOptions = ctx.obj
    with user_errors():
        if sum((pred is not None, candidates, ablations)) != 1:
            raise UserError("give exactly one of --pred, --candidates, --ablations")
        if pred is not None:
            scores = evaluate_files(gold, pred)
            if by_family:
                scores["families"] = _family_scores(gold, pred)
            print_json(scores)
            if report_out is not None:
                # --pred is <artifacts>/answers/<hash>/submission.jsonl: report that artifact.
                written = write_report(options.settings(), str(pred.parent), gold, report_out)
                typer.echo(f"report: {written}", err=True)
            return
        _evaluate_recall(options.settings(), gold, artifact, questions if ablations else None)


def _family_scores(gold: Path, pred: Path) -> dict[str, Any]:
    from littrace.evaluate.families import evaluate_by_family, families_json
    from littrace.evaluate.official import read_records

    return families_json(
        evaluate_by_family(read_records(gold, "gold"), read_records(pred, "prediction"))
    )


def _evaluate_recall(
    settings: Settings, gold: Path, artifact: Path | None, questions: Path | None
) -> None:
    """Candidate recall of one artifact, or of every ablation variant over ``questions``."""
    from littrace.evaluate.recall import candidate_recall, read_gold_papers
    from littrace.littraceqa import JsonlError
    from littrace.retrieve.ablations import run_ablations
    from littrace.retrieve.run import artifact_at, latest_candidates, read_candidates

    try:
        gold_papers = read_gold_papers(gold)
        if questions is None:
            chosen = (
                artifact_at(artifact)
                if artifact
                else latest_candidates(Path(settings.runtime.artifact_root))
            )
            report = candidate_recall(
                read_candidates(chosen), gold_papers, settings.evaluate.recall_k
            )
            reports = {chosen.path.name[:16]: report}
        else:
            with progress() as bar:
                tasks: dict[str, TaskID] = {}

                def advance(variant: str, query_id: str, done: int, total: int) -> None:
                    if variant not in tasks:
                        tasks[variant] = bar.add_task(f"retrieving ({variant})", total=total)
                    bar.update(tasks[variant], completed=done, total=total)

                reports = run_ablations(questions, gold_papers, settings, progress=advance)
    except (JsonlError, LookupError, ValueError) as error:
        raise UserError(str(error)) from error
    table = Table(title="candidate recall@k")
    first = next(iter(reports.values()))
    for column in ["variant", "family", "n", *(f"@{k}" for k in first.ks)]:
        table.add_column(column)
    for variant, report in reports.items():
        for family, count, values in report.rows():
            table.add_row(variant, family, str(count), *(f"{values[k]:.3f}" for k in report.ks))
    Console(stderr=True).print(table)
    print_json({variant: report.to_json() for variant, report in reports.items()})


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


def report(
    ctx: typer.Context,
    answers: Annotated[
        str | None,
        typer.Argument(help="Answers artifact: its folder, hash or hash prefix (default: latest)."),
    ] = None,
    gold: Annotated[
        Path | None, typer.Option("--gold", help="Gold JSONL; without it nothing is scored.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="HTML file (default <artifacts>/reports/<hash>.html)."),
    ] = None,
    pdfs: Annotated[
        Path | None,
        typer.Option(
            "--pdfs",
            help="Folder of <paper_id>.pdf used instead of the PDF paths the corpus recorded "
            "(when the files moved; default runtime.pdfs).",
        ),
    ] = None,
    pool: Annotated[
        Path | None,
        typer.Option(
            "--pool",
            help="Pool JSONL whose pdf fields, under --pdfs, locate the PDFs to use instead "
            "(default runtime.pool).",
        ),
    ] = None,
    run_id: Annotated[
        str | None, typer.Option("--run-id", help="Record the scores under this run id.")
    ] = None,
) -> None:
    """Write the HTML report of an answers run: metrics, recall@k, per-question evidence crops.

    The crops come from the PDFs the corpus recorded at ingest; one that is gone or changed
    (its SHA-256 differs) gets a note instead of a crop.
    """
    options: GlobalOptions = ctx.obj
    with user_errors():
        started = time.perf_counter()
        path = write_report(options.settings(), answers, gold, out, pdfs, pool, run_id)
        print_json({"report": str(path), "seconds": round(time.perf_counter() - started, 2)})


def write_report(
    settings: Settings,
    answers: str | None,
    gold: Path | None,
    out: Path | None,
    pdfs: Path | None = None,
    pool: Path | None = None,
    run_id: str | None = None,
) -> Path:
    from littrace.report import report_for_run
    from littrace.report.locate import MissingArtifactError, find_answers

    if gold is not None and not gold.is_file():
        raise UserError(f"gold file not found: {gold}")
    try:
        artifact = find_answers(Path(settings.runtime.artifact_root), answers)
        return report_for_run(
            artifact, gold, settings, out=out, pdf_dir=pdfs, pool=pool, run_id=run_id
        )
    except MissingArtifactError as error:
        raise UserError(str(error)) from error
