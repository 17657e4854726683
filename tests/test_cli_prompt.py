"""``littrace prompt``: the exact prompts of an LLM step, rendered by the real pipeline code."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from littrace.cli import app
from littrace.synth import SynthCorpus, generate_corpus

runner = CliRunner()


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[SynthCorpus, list[str]]:
    corpus = generate_corpus(tmp_path_factory.mktemp("synth"), n_papers=2, seed=3, n_questions=1)
    root = ["--artifacts", str(tmp_path_factory.mktemp("artifacts")), "--profile", "test"]
    for command in (
        ["ingest", "--pool", str(corpus.pool), "--pdfs", str(corpus.pdf_dir)],
        ["index"],
    ):
        result = runner.invoke(app, [*root, *command])
        assert result.exit_code == 0, result.output
    return corpus, root


def first_question(corpus: SynthCorpus) -> dict[str, object]:
    line = corpus.questions.read_text(encoding="utf-8").splitlines()[0]
    return dict(json.loads(line))


def prompt(indexed: tuple[SynthCorpus, list[str]], *args: str) -> tuple[int, str]:
    corpus, root = indexed
    query_id = str(first_question(corpus)["query_id"])
    result = runner.invoke(
        app, [*root, "prompt", query_id, "--questions", str(corpus.questions), *args]
    )
    return result.exit_code, result.output


def test_plan_and_retrieval_prompts(indexed: tuple[SynthCorpus, list[str]]) -> None:
    question = str(first_question(indexed[0])["question"])
    code, output = prompt(indexed, "--step", "plan")
    assert code == 0, output
    assert output.startswith("===== plan 1/1 =====\n[system]\nYou are a planner")
    assert question in output

    code, output = prompt(indexed, "--step", "decompose_first")
    assert code == 0 and "===== decompose 1/1 =====" in output and question in output

    code, output = prompt(indexed, "--step", "verify")
    assert code == 0 and "Candidate papers retrieved so far" in output
    assert "[p" in output or "Chunk 1 (id:" in output  # a listing of retrieved papers


def test_paper_local_prompts_show_the_papers_chunks(
    indexed: tuple[SynthCorpus, list[str]],
) -> None:
    corpus = indexed[0]
    paper = json.loads(corpus.pool.read_text(encoding="utf-8").splitlines()[1])
    code, output = prompt(indexed, "--step", "read_paper", "--paper", paper["paper_id"])
    assert code == 0, output
    assert output.count("===== read_paper") == 1
    assert f"[{paper['paper_id']}] {paper['title']}" in output
    assert f"[{paper['paper_id']}#" in output  # its chunks, by identifier

    code, output = prompt(indexed, "--step", "rank_sections", "--paper", paper["paper_id"])
    assert code == 0 and "Sections of the paper (number, title and opening):\n- 1. " in output

    code, output = prompt(indexed, "--step", "extract_detail", "--paper", paper["paper_id"])
    assert (
        code == 0 and "===== extract_detail 1/" in output and "Knowledge Chunk (section" in output
    )


def test_synthesis_and_localizer_prompts(indexed: tuple[SynthCorpus, list[str]]) -> None:
    code, output = prompt(indexed, "--step", "synthesize")
    assert code == 0, output
    assert "===== synthesize 1/1 =====" in output and "First-stage judgement" in output
    code, output = prompt(indexed, "--step", "localize")
    assert code == 0, output
    assert "===== localize 1/" in output and "=== Page 1 ===" in output


def test_bad_requests_are_one_line_errors(indexed: tuple[SynthCorpus, list[str]]) -> None:
    code, output = prompt(indexed, "--step", "guess")
    assert code == 1 and "unknown step 'guess'; choose one of plan," in output
    code, output = prompt(indexed, "--step", "read_paper", "--paper", "nope")
    assert code == 1 and "unknown paper 'nope'" in output
    corpus, root = indexed
    missing = runner.invoke(
        app, [*root, "prompt", "q_none", "--questions", str(corpus.questions), "--step", "plan"]
    )
    assert missing.exit_code == 1 and "no question with query_id 'q_none'" in missing.output
