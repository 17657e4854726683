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
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from littrace.config import ConfigError, Settings, load_settings
from littrace.evaluate.official import EvaluationError, evaluate_files
from littrace.evaluate.validate import validate_submission
from littrace.runtime import exit_on_sigterm

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
        _print_json({"root": str(corpus.root), **corpus.counts})


@app.command()
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

        with _progress() as bar:
            advance = _item_progress(bar, "converting PDFs", "converted")
            result = run_ingest(pool, pdfs, settings, manifest=manifest, progress=advance)
        _print_summary("ingest", result.summary())


@app.command()
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
        with _progress() as bar:
            tasks: dict[str, TaskID] = {}

            def advance(step: str, done: int, total: int) -> None:
                if step not in tasks:
                    tasks[step] = bar.add_task(step, total=total)
                bar.update(tasks[step], completed=done, total=total)

            result = build_indexes(corpus, settings, progress=advance)
        _print_summary("index", result.summary())


@app.command()
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
        from littrace.schema import JsonlError

        with _progress() as bar:
            advance = _item_progress(bar, "answering", "answered")
            try:
                artifact = answer_questions(questions, settings, progress=advance)
            except (JsonlError, MissingCorpusError, ValueError) as error:
                raise UserError(str(error)) from error
        submission = artifact.path / SUBMISSION_FILE
        if out is not None:
            _copy_submission(submission, out)
        _print_json(
            {
                "artifact": str(artifact.path),
                "submission": str(submission),
                "copied_to": str(out) if out else None,
                **artifact.manifest.tables,
                "fallbacks": fallback_counts(artifact),
            }
        )


def _copy_submission(submission: Path, out: Path) -> None:
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


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option("--host", help="Address the Prefect server listens on.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port of the Prefect UI and API.")] = 4200,
) -> None:
    """Serve the Prefect deployments; starts a Prefect server on HOST:PORT unless
    PREFECT_API_URL names one. Stop with Ctrl-C or SIGTERM."""
    # Before the slow imports: a SIGTERM while serve is starting must also end it cleanly.
    exit_on_sigterm()
    options: GlobalOptions = ctx.obj
    with user_errors():
        settings = options.settings()
        # Imported here: the library stays free of Prefect (flows -> tasks -> littrace).
        from flows.serve import serve_deployments

        serve_deployments(
            settings, profile=options.profile, config_file=options.config, host=host, port=port
        )


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=False,
    )


def _item_progress(bar: Progress, starting: str, verb: str) -> Callable[[str, int, int], None]:
    """One bar of ``bar`` for a run over papers or questions, as a ``(item, done, total)``
    progress callback: ``starting`` until the first item, then "<verb> <item>"."""
    task = bar.add_task(starting, total=None)

    def advance(item: str, done: int, total: int) -> None:
        bar.update(task, completed=done, total=total, description=f"{verb} {item}")

    return advance


def _print_summary(stage: str, summary: dict[str, Any]) -> None:
    table = Table(title=f"{stage} summary", show_header=False)
    for name, value in summary.items():
        shown = (
            ", ".join(f"{k}: {v}" for k, v in value.items()) if isinstance(value, dict) else value
        )
        table.add_row(name, str(shown) if shown != "" else "-")
    Console(stderr=True).print(table)
    _print_json(summary)


@app.command()
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
            _print_json(scores)
            if report_out is not None:
                # --pred is <artifacts>/answers/<hash>/submission.jsonl: report that artifact.
                written = _write_report(options.settings(), str(pred.parent), gold, report_out)
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
    from littrace.evaluate.recall import candidate_recall, read_gold_papers, run_ablations
    from littrace.retrieve.run import artifact_at, latest_candidates, read_candidates
    from littrace.schema import JsonlError

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
            with _progress() as bar:
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
    _print_json({variant: report.to_json() for variant, report in reports.items()})


@app.command()
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
        from littrace.retrieve.run import retrieve_questions
        from littrace.schema import JsonlError

        with _progress() as bar:
            advance = _item_progress(bar, "retrieving", "retrieved")
            try:
                run = retrieve_questions(questions, settings, progress=advance)
            except (JsonlError, LookupError, ValueError) as error:
                raise UserError(str(error)) from error
        _print_summary("retrieve", run.summary())


@app.command()
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


@app.command()
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
        from littrace.preview import PreviewError, preview_prompts
        from littrace.schema import JsonlError, Question, read_jsonl

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


@app.command()
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
        path = _write_report(options.settings(), answers, gold, out, pdfs, pool, run_id)
        _print_json({"report": str(path), "seconds": round(time.perf_counter() - started, 2)})


def _write_report(
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


# The real fixture PDFs beside the checkout (see ../shared/fixtures/pdfs/NOTICE.md).
_FIXTURE_PDFS = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "pdfs"


@app.command()
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
        _run_pipeline(
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


@app.command()
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
        _run_pipeline(
            options, {**parameters, "split": split}, gold=gold, pdfs=pdfs, pool=pool, out=out
        )


def _run_pipeline(
    options: GlobalOptions,
    parameters: dict[str, Any],
    *,
    gold: Path | None,
    pdfs: Path,
    pool: Path,
    out: Path | None = None,
) -> None:
    """The ``pipeline`` flow with the global options, then the report and a JSON summary."""
    settings = options.settings()
    started = time.perf_counter()
    # Imported here: the library stays free of Prefect (flows -> tasks -> littrace).
    from flows.server import temporary_api

    with temporary_api() as wait_until_up:
        # Imported while the temporary server, if any, starts.
        from flows.pipeline import pipeline_flow

        overrides = {"runtime.artifact_root": str(options.artifacts)} if options.artifacts else None
        wait_until_up()
        summary = pipeline_flow(
            **parameters, config=options.config, profile=options.profile, overrides=overrides
        )
    answered = summary["answer"]
    if out is not None:
        _copy_submission(Path(answered["submission"]), out)
    report_path = _write_report(
        settings, answered["artifact"], gold, None, pdfs, pool, summary["run_id"]
    )
    evaluated = summary["evaluate"] or {}
    _print_json(
        {
            "stages": summary["stages"],
            "composite_score": evaluated.get("composite_score"),
            "metrics": evaluated.get("metrics"),
            "fallbacks": answered["fallbacks"],
            "corpus_failures": summary["ingest"]["failures"],
            "submission": answered["submission"],
            "copied_to": str(out) if out else None,
            "report": str(report_path),
            "seconds": round(time.perf_counter() - started, 2),
        }
    )


if __name__ == "__main__":
    app()
