"""Writing the report file: :func:`build_report`, the inputs key that lets an unchanged report
stand, the scores' lineage, and :func:`report_for_run` with what the settings say.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from littrace.artifacts import Artifact, ArtifactKey, ArtifactStore, Catalog, LineageRecord
from littrace.codeversion import code_version
from littrace.config import Settings
from littrace.digest import sha256_file
from littrace.evaluate.official import id_norm, read_records
from littrace.files import atomic_write
from littrace.report.build.questions import Crops, question
from littrace.report.build.summary import (
    costs_view,
    failure_notes,
    group_tables,
    metrics_view,
    recall_view,
    stages_table,
)
from littrace.report.crops import PageRenderer, RegionFinder, recorded_pdfs
from littrace.report.html import render_page
from littrace.report.scores import AnswersRun, run_metrics_artifact, run_metrics_key, score_run

DEFAULT_RECALL_K = (1, 5, 10, 20, 50, 100)
REPORTS_DIR = "reports"
REPORT_STAGE: Final = "report"
# Where report.html.j2 puts the inputs hash: in the first bytes of the file.
_INPUTS_META = re.compile(rb'<meta name="littrace-report-inputs" content="([0-9a-f]{64})">')
_HEAD_BYTES = 1024
# The ids of the report's top-level sections, in order (the browser test looks for them).
SECTION_IDS = ("metrics", "recall", "groups", "stages", "costs", "questions")


def pdf_paths(pdf_dir: Path | None = None, pool: Path | None = None) -> dict[str, Path]:
    """``paper_id → PDF`` from a pool file (its ``pdf`` fields, else ``<pdf_dir>/<id>.pdf``)
    or, without a pool, from the ``<paper_id>.pdf`` files in ``pdf_dir``: PDFs to use in
    place of the paths the corpus recorded (for PDFs that moved)."""
    if pool is not None:
        from littrace.corpus.pool import load_pool

        return dict(load_pool(pool, pdf_dir).pdfs)
    if pdf_dir is None:
        return {}
    return {path.stem: path for path in sorted(pdf_dir.glob("*.pdf"))}


def build_report(
    answers: Artifact,
    gold: Path | None,
    corpus: Artifact,
    out: Path,
    *,
    pdfs: Mapping[str, Path] | None = None,
    recall_k: Sequence[int] = DEFAULT_RECALL_K,
    run_id: str | None = None,
) -> Path:
    """Write the report of ``answers`` (scored against ``gold`` when given) to ``out``.

    The page crops come from the PDFs the corpus recorded; ``pdfs`` maps paper ids to PDFs
    to use instead (see :func:`pdf_paths`), e.g. after the files moved. A PDF that is gone
    or differs from the one converted (SHA-256) gives a note in place of each crop, and the
    header lists those papers. With gold, the scores are also stored as a ``run-metrics``
    artifact, and with ``run_id`` recorded in the catalog's lineage.

    An ``out`` written for the same inputs (:func:`report_key`) is left as it is: only the
    lineage is recorded (its header still names the run that wrote it).
    """
    started = datetime.now(UTC)
    recorded, sha256 = recorded_pdfs(corpus)
    pdf_files = {**recorded, **(pdfs or {})}
    key = report_key(answers, gold, corpus, pdf_files, recall_k)
    if written_for(out) == key.hash:
        metrics = _stored_metrics(answers, gold, recall_k)
        if gold is None or metrics is not None:
            _record_metrics(metrics, run_id, started)
            return out
    run = AnswersRun.load(answers)
    scores = score_run(run, gold, recall_k)
    _record_metrics(
        run_metrics_artifact(answers, gold, scores) if gold is not None else None, run_id, started
    )
    gold_by_id = (
        {id_norm(r.get("query_id")): r for _, r in read_records(gold, "gold")} if gold else {}
    )
    titles = {
        str(r["paper_id"]): str(r["title"])
        for r in corpus.table("papers", columns=["paper_id", "title"]).to_pylist()
    }
    order = list(gold_by_id) + [qid for qid in run.submission if qid not in gold_by_id]
    by_id = {q.query_id: q for q in scores.questions}
    with PageRenderer(pdf_files, sha256) as renderer:
        crops = Crops(RegionFinder(corpus), renderer)
        questions = [
            question(qid, gold_by_id.get(qid), by_id.get(qid), run, crops, titles) for qid in order
        ]
        unusable = renderer.unusable
    header = {
        "answers": answers.hash[:16],
        "created": answers.manifest.created,
        "corpus": corpus.hash[:16],
        "questions": len(order),
        "written": datetime.now(UTC).isoformat(timespec="seconds"),
        "run_id": run_id,
        "failures": (failures := failure_notes(corpus)),
        "failures_kept": sum(1 for f in failures if not f.fatal),
        "unusable": sorted(unusable.items()),
    }
    html = render_page(
        title=f"littrace report {answers.hash[:12]}",
        inputs=key.hash,
        header=header,
        metrics=metrics_view(scores, gold),
        recall=recall_view(scores),
        groups=group_tables(scores),
        stages=stages_table(scores),
        costs=costs_view(scores, run),
        questions=questions,
    )
    with atomic_write(out) as handle:
        handle.write(html)
    return out


def report_key(
    answers: Artifact,
    gold: Path | None,
    corpus: Artifact,
    pdfs: Mapping[str, Path],
    recall_k: Sequence[int],
) -> ArtifactKey:
    """What a report shows follows from: the answers, the corpus, the gold file, the PDFs its
    crops may come from (path, size and modification time: whether each is there and
    unchanged, without reading it), ``recall_k`` and this code. Its hash is stored in the
    report, so an unchanged report is not written again."""
    stats: dict[str, list[str | int | None]] = {}
    for paper_id, path in sorted(pdfs.items()):
        try:
            stat = path.stat()
            stats[paper_id] = [str(path), stat.st_size, stat.st_mtime_ns]
        except OSError:
            stats[paper_id] = [str(path), None, None]
    inputs = {"answers": answers.hash, "corpus": corpus.hash}
    if gold is not None:
        inputs["gold"] = sha256_file(gold)
    return ArtifactStore(answers.path.parents[1], catalog=False).key(
        REPORT_STAGE,
        code_version=code_version(REPORT_STAGE),
        inputs=inputs,
        config={"recall_k": sorted(set(recall_k)), "pdfs": stats},
    )


def written_for(report: Path) -> str | None:
    """The inputs hash (:func:`report_key`) a report file was written for, if it is one."""
    try:
        with report.open("rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return None
    found = _INPUTS_META.search(head)
    return found.group(1).decode("ascii") if found else None


def _stored_metrics(
    answers: Artifact, gold: Path | None, recall_k: Sequence[int]
) -> Artifact | None:
    if gold is None:
        return None
    return ArtifactStore(answers.path.parents[1], catalog=False).get(
        run_metrics_key(answers, gold, recall_k)
    )


def _record_metrics(metrics: Artifact | None, run_id: str | None, started: datetime) -> None:
    """Record the scores of this run in the catalog's lineage, under ``run_id``."""
    if metrics is not None and run_id is not None:
        Catalog(metrics.path.parents[1]).record_lineage(
            LineageRecord.for_artifact(run_id, metrics, started, datetime.now(UTC))
        )


def report_for_run(
    answers: Artifact,
    gold: Path | None,
    settings: Settings,
    *,
    out: Path | None = None,
    pdf_dir: Path | None = None,
    pool: Path | None = None,
    run_id: str | None = None,
) -> Path:
    """:func:`build_report` with what the settings say: the answers' corpus (whose recorded
    PDFs give the crops), the PDFs of ``pool``/``pdf_dir`` or else of
    ``runtime.pool``/``runtime.pdfs`` in their place when set, ``evaluate.recall_k``, and by
    default ``<artifact_root>/reports/<answers hash>.html``. What ``littrace report``,
    ``evaluate --report``, ``demo`` and ``run`` call."""
    from littrace.report.locate import corpus_of

    root = answers.path.parents[1]
    corpus = corpus_of(answers, root)
    pdfs = pdf_paths(pdf_dir or settings.runtime.pdfs, pool or settings.runtime.pool)
    target = out or root / REPORTS_DIR / f"{answers.hash[:16]}.html"
    return build_report(
        answers,
        gold,
        corpus,
        target,
        pdfs=pdfs,
        recall_k=settings.evaluate.recall_k,
        run_id=run_id,
    )
