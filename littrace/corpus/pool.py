"""Loading a LitTraceQA paper pool and finding each paper's PDF.

A pool is ``paper_metadata.jsonl``: one paper per line with ``paper_id``, ``title``,
``authors``, ``abstract``, ``venue``, ``year``, ``pdf_url`` and other ids (kept as extra
fields). A paper's PDF is ``<pdf_dir>/<paper_id>.pdf``, or the path its ``pdf`` field gives
relative to ``pdf_dir``, or the path a manifest maps its id to. Papers without a PDF stay in
the pool as metadata-only papers. Bad lines, repeated ids and missing titles are reported
in :attr:`Pool.problems`; they never stop loading.

Example:
    >>> pool = load_pool(Path("paper_metadata.jsonl"), pdf_dir=Path("pdfs"))  # doctest: +SKIP
    >>> pool.papers[0].paper_id, pool.pdf_path(pool.papers[0].paper_id)  # doctest: +SKIP
    ('acl2025_00005', PosixPath('pdfs/acl2025_00005.pdf'))
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

from littrace.littraceqa import BadLine, PoolPaper, iter_jsonl


@dataclass(frozen=True)
class Pool:
    """Pool papers in file order, their PDF paths, and what was wrong with the file."""

    papers: tuple[PoolPaper, ...]
    pdfs: dict[str, Path] = field(default_factory=dict)
    problems: tuple[str, ...] = ()

    def pdf_path(self, paper_id: str) -> Path | None:
        """The paper's PDF, or None for a metadata-only paper."""
        return self.pdfs.get(paper_id)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(paper.paper_id for paper in self.papers)


def read_manifest(path: Path) -> dict[str, Path]:
    """A ``paper_id → PDF path`` manifest: a JSON object, or CSV/TSV rows ``paper_id,path``.

    Relative paths are taken relative to the manifest's folder.
    """
    if path.suffix == ".json":
        mapping = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(mapping, dict):
            raise ValueError(f"{path}: a manifest must be a JSON object of paper_id -> path")
        pairs = [(str(key), str(value)) for key, value in mapping.items()]
    else:
        delimiter = "\t" if path.suffix in {".tsv", ".tab"} else ","
        with path.open(encoding="utf-8", newline="") as handle:
            pairs = [
                (row[0].strip(), row[1].strip())
                for row in csv.reader(handle, delimiter=delimiter)
                if len(row) >= 2 and row[0].strip() and row[0].strip() != "paper_id"
            ]
    return {paper_id: (path.parent / pdf).resolve() for paper_id, pdf in pairs}


def load_pool(pool_path: Path, pdf_dir: Path | None = None, manifest: Path | None = None) -> Pool:
    """Read the pool, keep the first record of each id, and locate PDFs that exist.

    A PDF named by the manifest wins over the record's ``pdf`` field, which wins over
    ``<pdf_dir>/<paper_id>.pdf``.
    """
    mapped = read_manifest(manifest) if manifest else {}
    papers: list[PoolPaper] = []
    problems: list[str] = []
    seen: set[str] = set()
    pdfs: dict[str, Path] = {}
    for item in iter_jsonl(pool_path, PoolPaper):
        if isinstance(item, BadLine):
            problems.append(str(item))
            continue
        paper_id = item.paper_id.strip()
        if paper_id in seen:
            problems.append(f"{pool_path}: duplicate paper_id {paper_id!r} (first record kept)")
            continue
        seen.add(paper_id)
        if paper_id != item.paper_id:
            item = item.model_copy(update={"paper_id": paper_id})
        if not item.title.strip():
            problems.append(f"{pool_path}: paper {paper_id!r} has no title")
        papers.append(item)
        candidates = [mapped.get(paper_id)]
        if pdf_dir is not None:
            if item.pdf:
                candidates.append(pdf_dir / item.pdf)
            candidates.append(pdf_dir / f"{paper_id}.pdf")
        found = next((path for path in candidates if path is not None and path.is_file()), None)
        if found is not None:
            pdfs[paper_id] = found
    return Pool(papers=tuple(papers), pdfs=pdfs, problems=tuple(problems))
