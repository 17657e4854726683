"""Settings of the LLM client, evaluation and the runtime (artifacts, runners, code-version pins)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from littrace.config.base import PositiveInt, Section


class LlmSettings(Section):
    backend: Literal["none", "litellm"] = Field(
        default="none",
        description="'none' is model-free (every step 'heuristic'); 'litellm' calls any "
        "provider or a local OpenAI-compatible server.",
    )
    model: str | None = Field(
        default=None,
        description="litellm model string, e.g. 'openai/gpt-4.1-mini' (Lit3R used GPT-5.4, "
        "TRACE Gemini 2.5 Flash).",
    )
    api_base: str | None = Field(
        default=None, description="Server URL, e.g. http://127.0.0.1:8000/v1 for a local server."
    )
    api_key_env: str | None = Field(
        default=None,
        description="Name of the environment variable holding the API key; null lets litellm "
        "use the provider's usual one.",
    )
    temperature: float = Field(
        default=0.0,
        ge=0,
        description="Sampling temperature; zero where supported (TRACE §3.1, §4).",
    )
    max_tokens: int = Field(default=4096, ge=1, description="Completion token limit per call.")
    json_mode: bool = Field(
        default=True, description="Request JSON output from every call (Lit3R App. A, App. C)."
    )
    timeout_s: float = Field(default=120.0, gt=0, description="Seconds per call before it fails.")
    max_retries: int = Field(default=3, ge=0, description="Retries of a failed or invalid call.")
    concurrency: int = Field(default=4, ge=1, description="Calls in flight at once.")
    cache: bool = Field(
        default=True,
        description="Cache replies keyed by the full request; a reply is stored only once it "
        "parsed (or with the repair that fixed it).",
    )
    cache_mode: Literal["use", "refresh"] = Field(
        default="use",
        description="Engineering: 'use' replays a cached reply; 'refresh' asks every request "
        "again and overwrites its entry with the new reply once it parsed (a provider's model "
        "changed under the same name, say). Part of the candidates and answers keys, so a "
        "refresh run answers anew instead of finding answers made from cached replies.",
    )
    cache_dir: Path = Field(
        default=Path("llm_cache"),
        description="Call cache; a relative path is under runtime.artifact_root.",
    )


class EvaluateSettings(Section):
    recall_k: list[PositiveInt] = Field(
        default_factory=lambda: [1, 5, 10, 20, 50, 100],
        description="Cut-offs of candidate recall@k (Lit3R §3, Table 1; 100 = Ranking B size).",
    )
    html_report: bool = Field(default=True, description="Write the HTML report after evaluation.")


class SplitSettings(Section):
    questions: Path = Field(
        description="Engineering: the split's question (input) JSONL; a relative path is under "
        "the project home (the source checkout)."
    )
    gold: Path | None = Field(
        default=None,
        description="Engineering: the split's gold JSONL, scored after answering; null: not "
        "scored.",
    )


class SplitsSettings(Section):
    test: SplitSettings = Field(
        default_factory=lambda: SplitSettings(
            questions=Path("../shared/data/littraceqa/test.jsonl")
        ),
        description="Engineering: the test split, answered by the answer/test deployment.",
    )
    validation: SplitSettings = Field(
        default_factory=lambda: SplitSettings(
            questions=Path("../shared/data/littraceqa/validation_inputs.jsonl"),
            gold=Path("../shared/data/littraceqa/validation.jsonl"),
        ),
        description="Engineering: the validation split, answered and scored by answer/validation.",
    )


def _pinned(stage: str) -> Any:
    return Field(
        default=None,
        min_length=1,
        description=f"Engineering: the {stage} code version; null: the hash of its source.",
    )


class CodeVersionSettings(Section):
    convert: str | None = _pinned("convert stage's")
    corpus: str | None = _pinned("corpus stage's")
    index: str | None = _pinned("six index stages'")
    candidates: str | None = _pinned("candidates stage's")
    answers: str | None = _pinned("answers stage's")
    evaluation: str | None = _pinned("evaluation stage's")


class RuntimeSettings(Section):
    artifact_root: Path = Field(
        default=Path("artifacts"), description="Artifact root (CLI --artifacts)."
    )
    task_runner: Literal["thread", "process", "dask"] = Field(
        default="thread", description="Prefect task runner for per-paper and per-question tasks."
    )
    dask_address: str | None = Field(
        default=None,
        description="Dask scheduler address (task_runner 'dask'); null starts a local one.",
    )
    workers: int = Field(
        default=2, ge=1, description="Parallel workers (the target machines have 2 cores)."
    )
    run_id: str | None = Field(default=None, description="Run id in the catalog; null derives one.")
    seed: int = Field(default=0, description="Random seed for anything stochastic.")
    record_timeout_s: float = Field(
        default=600.0,
        gt=0,
        description="Deadline per question from the start of retrieval (TRACE §4 per-record "
        "deadlines); cooperative: it bounds every LLM call, and once past it unread papers are "
        "skipped (before reading: the conservative record).",
    )
    index_rebuild_cron: str = Field(
        default="0 3 * * *",
        description="Engineering: cron (UTC) of the index/rebuild deployment `littrace serve` "
        "schedules.",
    )
    pool: Path | None = Field(
        default=None,
        description="Engineering: pool JSONL that ingest/default and index/rebuild ingest; null: "
        "index/rebuild indexes the latest corpus.",
    )
    pdfs: Path | None = Field(default=None, description="Engineering: PDF folder of runtime.pool.")
    splits: SplitsSettings = Field(
        default_factory=SplitsSettings,
        description="Engineering: question and gold files of each split the answer flow takes "
        "by name.",
    )
    fail_closed: bool = Field(
        default=True,
        description="Write outputs only after preflight, closure and validation checks pass "
        "(TRACE §3.4).",
    )
    code_versions: CodeVersionSettings = Field(
        default_factory=CodeVersionSettings,
        description="Engineering: stage code versions pinned in place of the hash of their "
        "source (littrace.codeversion), to keep artifacts across a change known not to alter "
        "them: pin the code_version their _manifest.json records.",
    )
