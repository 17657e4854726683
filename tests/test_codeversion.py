"""Stage code versions come from the source: editing a module changes the keys of the stages
that run it and of the stages downstream of them, and no other key; a pin keeps a key.

Each edit is real: the project's packages are copied, bytes of one file in the copy change,
and every stage key of a small pipeline is computed by the stage's own key function with
:mod:`littrace.codeversion` reading the copy."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import littrace.codeversion as codeversion
from littrace.answer import answers_key
from littrace.artifacts import ArtifactStore
from littrace.codeversion import SourceMissingError, source_digest, source_files
from littrace.config import CodeVersionSettings, load_settings
from littrace.corpus.ingest import corpus_artifact_key, plan_ingest
from littrace.index.stage import INDEXES, IndexArtifacts, index_source
from littrace.report.scores import run_metrics_key
from littrace.retrieve.run import candidates_key
from littrace.runtime import PROJECT_ROOT
from littrace.synth import SynthCorpus, generate_corpus
from tasks.evaluate import evaluation_key
from tasks.index import index_keys

# Which keys take which keys as inputs (the run-metrics key takes the answers hash).
INPUTS_OF: dict[str, set[str]] = {
    "corpus": {"convert"},
    **{name: {index_source(name)} for name in INDEXES},
    "candidates": set(INDEXES),
    "answers": set(INDEXES),
    "run-metrics": {"answers"},
    "evaluation": set(),
}
CODE_STAGE = {name: "index" for name in INDEXES}  # the six indexes share one code version


def downstream(stages: set[str]) -> set[str]:
    """The keys of ``stages`` (code stages) and of every key fed by them, transitively."""
    reached = {key for key in ["convert", *INPUTS_OF] if CODE_STAGE.get(key, key) in stages}
    while True:
        more = {key for key, inputs in INPUTS_OF.items() if inputs & reached} - reached
        if not more:
            return reached
        reached |= more


def copy_sources(target: Path) -> Path:
    for package in codeversion.PROJECT_PACKAGES:
        shutil.copytree(
            PROJECT_ROOT / package, target / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return target


def edit(root: Path, relative: str, text: str = "\n# edited\n") -> None:
    path = root / relative
    path.write_bytes(path.read_bytes() + text.encode())


@pytest.fixture(scope="module")
def synth(tmp_path_factory: pytest.TempPathFactory) -> SynthCorpus:
    return generate_corpus(tmp_path_factory.mktemp("synth"), n_papers=3, seed=5, n_questions=2)


def pipeline_keys(
    source_root: Path, synth: SynthCorpus, artifact_root: Path, **pins: str
) -> dict[str, str]:
    """Every stage key of ``synth``'s pipeline, with code versions read from ``source_root``."""
    overrides: dict[str, Any] = {"runtime.artifact_root": str(artifact_root)}
    overrides |= {f"runtime.code_versions.{stage}": version for stage, version in pins.items()}
    settings = load_settings("test", overrides=overrides, environ={})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(codeversion, "PROJECT_ROOT", source_root)
        plan = plan_ingest(synth.pool, synth.pdf_dir, settings)
        keys = {"convert": ",".join(sorted(job.key.hash for job in plan.jobs))}
        corpus = corpus_artifact_key(plan, [], settings)
        keys["corpus"] = corpus.hash
        # Empty artifacts under the index keys stand in for built indexes: keys read hashes.
        store = ArtifactStore(artifact_root, catalog=False)
        indexes = IndexArtifacts({})
        for name, key in index_keys(corpus.hash, settings).items():
            keys[name] = key.hash
            indexes.artifacts[name] = store.get_or_build(key, lambda writer: None)
        keys["candidates"] = candidates_key(synth.questions, settings, indexes).hash
        answers = store.get_or_build(
            answers_key(store, synth.questions, settings, indexes), lambda writer: None
        )
        keys["answers"] = answers.hash
        keys["run-metrics"] = run_metrics_key(answers, synth.gold, [1, 5]).hash
        keys["evaluation"] = evaluation_key(synth.gold, synth.gold, settings).hash
    return keys


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_sources(tmp_path_factory.mktemp("original"))


@pytest.fixture(scope="module")
def original_keys(
    original: Path, synth: SynthCorpus, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    return pipeline_keys(original, synth, tmp_path_factory.mktemp("artifacts"))


@pytest.fixture
def edited(tmp_path: Path) -> Iterator[Path]:
    yield copy_sources(tmp_path / "edited")


def test_the_keys_cover_every_stage(original_keys: dict[str, str]) -> None:
    assert set(original_keys) == {"convert", *INPUTS_OF}
    assert len(set(original_keys.values())) == len(original_keys)


@pytest.mark.parametrize(
    ("relative", "run_by"),
    [
        ("littrace/corpus/layout/document.py", {"convert"}),
        ("littrace/corpus/chunking.py", {"corpus"}),
        ("littrace/index/dense.py", {"index"}),
        ("littrace/fusion.py", {"candidates", "answers"}),
        ("littrace/prompts/verify.txt", {"candidates", "answers"}),
        ("littrace/read/compute.py", {"answers"}),
        # The answers check each record against the official rules before keeping it.
        ("littrace/evaluate/official.py", {"answers", "evaluation"}),
        ("littrace/report/scores.py", {"run-metrics"}),
        ("tasks/evaluate.py", {"evaluation"}),
        # Setting values, not the code that loads them, are part of the keys.
        ("littrace/config/settings.py", set()),
        ("littrace/synth/plan/__init__.py", set()),  # no stage runs the generator
    ],
)
def test_an_edit_changes_the_keys_of_the_stages_running_it_and_downstream_only(
    relative: str,
    run_by: set[str],
    edited: Path,
    synth: SynthCorpus,
    original_keys: dict[str, str],
    tmp_path: Path,
) -> None:
    edit(edited, relative)
    keys = pipeline_keys(edited, synth, tmp_path / "artifacts")
    changed = {stage for stage, key in keys.items() if key != original_keys[stage]}
    assert changed == downstream(run_by)


def test_a_pinned_stage_keeps_its_keys_across_an_edit(
    original: Path, edited: Path, synth: SynthCorpus, tmp_path: Path
) -> None:
    pin = source_digest("index", original)  # what the existing artifacts' manifests record
    edit(edited, "littrace/index/dense.py")
    before = pipeline_keys(original, synth, tmp_path / "before")
    after = pipeline_keys(edited, synth, tmp_path / "after", index=pin)
    changed = {stage for stage, key in after.items() if key != before[stage]}
    # Retrieval searches with dense.py too, so the stages that retrieve still change.
    assert changed == {"candidates", "answers", "run-metrics"}


def test_a_module_imported_inside_a_function_is_covered(tmp_path: Path) -> None:
    first = copy_sources(tmp_path / "first")
    late_import = "\n\ndef _late() -> None:\n    from littrace.synth import plan  # noqa: F401\n"
    edit(first, "littrace/read/compute.py", late_import)
    second = tmp_path / "second"
    shutil.copytree(first, second)
    edit(second, "littrace/synth/plan/__init__.py")
    assert "littrace/synth/plan/__init__.py" in source_files("answers", first)
    assert source_digest("answers", first) != source_digest("answers", second)
    assert source_digest("candidates", first) == source_digest("candidates", second)


def test_an_edited_report_template_changes_the_report_version_only(
    original: Path, edited: Path
) -> None:
    edit(edited, "littrace/report/templates/question.html.j2", "{# edited #}\n")
    assert "littrace/report/templates/question.html.j2" in source_files("report", edited)
    assert source_digest("report", edited) != source_digest("report", original)
    assert source_digest("answers", edited) == source_digest("answers", original)


def test_sources_are_hashed_not_compiled_builds(original: Path, edited: Path) -> None:
    # A mypyc build beside the sources (or a stale one) changes nothing: only .py is read.
    (edited / "littrace/corpus/layout.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    assert all(path.endswith(".py") for path in source_files("convert", edited))
    assert source_digest("convert", edited) == source_digest("convert", original)


def test_a_stage_without_its_source_says_which_module_is_missing(edited: Path) -> None:
    (edited / "littrace/answer/__init__.py").unlink()
    with pytest.raises(SourceMissingError, match=r"no source of littrace\.answer under .*edited"):
        source_digest("answers", edited)


def test_every_pinnable_stage_has_a_setting() -> None:
    pinnable = set(codeversion.STAGE_ENTRIES) - {"run-metrics", "report"}
    assert set(CodeVersionSettings.model_fields) == pinnable


def test_a_parse_that_races_another_thread_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CPython 3.11's spurious "AST constructor recursion depth mismatch" (gh-106905), raised
    # when another thread of a served process builds an AST at the same time.
    first = copy_sources(tmp_path / "first")
    real_parse, calls = codeversion.ast.parse, []

    def racing(source: Any, filename: Any = "<unknown>", *args: Any, **kwargs: Any) -> Any:
        calls.append(filename)
        if len(calls) == 1:
            raise SystemError("AST constructor recursion depth mismatch (before=60, after=72)")
        return real_parse(source, filename, *args, **kwargs)

    monkeypatch.setattr(codeversion.ast, "parse", racing)
    codeversion._imports.cache_clear()
    try:
        assert source_digest("answers", first) == source_digest("answers", PROJECT_ROOT)
    finally:
        codeversion._imports.cache_clear()
    assert calls.count(calls[0]) == 2  # the raced file was parsed again
