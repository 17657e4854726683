"""The synthetic corpus: deterministic, valid records, and gold that the PDFs really contain."""

from __future__ import annotations

import json
import re
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from littrace.evaluate.official import evaluate_records
from littrace.evaluate.validate import validate_submission
from littrace.littraceqa import GoldRecord, PoolPaper, Question, schema_errors
from littrace.synth import SynthCorpus, generate_corpus
from littrace.synth.questions import SCHEDULE

Record = dict[str, Any]


def read(path: Path) -> list[Record]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class PageText:
    """Page texts of the corpus PDFs, whitespace-collapsed, opened once each."""

    def __init__(self, pdf_dir: Path) -> None:
        self.pdf_dir = pdf_dir
        self.cache: dict[str, list[str]] = {}

    def pages(self, paper_id: str) -> list[str]:
        if paper_id not in self.cache:
            with pymupdf.open(self.pdf_dir / f"{paper_id}.pdf") as doc:  # type: ignore[no-untyped-call]
                self.cache[paper_id] = [flat(page.get_text()) for page in doc]
        return self.cache[paper_id]

    def page(self, paper_id: str, page: int) -> str:
        return self.pages(paper_id)[page - 1]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> SynthCorpus:
    return generate_corpus(tmp_path_factory.mktemp("synth"), n_papers=50, seed=0, n_questions=30)


@pytest.fixture(scope="module")
def text(corpus: SynthCorpus) -> PageText:
    return PageText(corpus.pdf_dir)


@pytest.fixture(scope="module")
def gold(corpus: SynthCorpus) -> list[Record]:
    return read(corpus.gold)


@pytest.fixture(scope="module")
def objects(corpus: SynthCorpus) -> dict[str, Record]:
    return {record["paper_id"]: record for record in read(corpus.objects_gold)}


def test_same_seed_writes_identical_files_and_another_seed_does_not(tmp_path: Path) -> None:
    first = generate_corpus(tmp_path / "a", n_papers=7, seed=3, n_questions=10)
    second = generate_corpus(tmp_path / "b", n_papers=7, seed=3, n_questions=10)
    other = generate_corpus(tmp_path / "c", n_papers=7, seed=4, n_questions=10)

    def files(c: SynthCorpus) -> dict[str, bytes]:
        paths = [c.pool, c.questions, c.gold, c.objects_gold, *sorted(c.pdf_dir.glob("*.pdf"))]
        return {path.name: path.read_bytes() for path in paths}

    assert files(first) == files(second)
    assert files(first)["gold.jsonl"] != files(other)["gold.jsonl"]
    assert first.counts == second.counts and first.counts["questions"] == 10


def test_regenerating_into_the_same_folder_removes_stale_pdfs(tmp_path: Path) -> None:
    big = generate_corpus(tmp_path, n_papers=8, seed=1, n_questions=3)
    small = generate_corpus(tmp_path, n_papers=4, seed=2, n_questions=3)
    assert big.counts["papers"] == 8
    pool_pdfs = {r["pdf"] for r in read(small.pool) if "pdf" in r}
    assert {path.name for path in small.pdf_dir.glob("*.pdf")} == pool_pdfs


def test_counts_and_the_question_mix(corpus: SynthCorpus, gold: list[Record]) -> None:
    assert corpus.counts["papers"] == 50
    assert corpus.counts["distractors"] == 10
    assert corpus.question_kinds == dict(sorted(Counter(SCHEDULE).items()))
    families = Counter(record["task_family"] for record in gold)
    assert families == {"hidden_source_single_paper": 18, "multi_paper": 12}
    primary = Counter(record["primary_evidence_type"] for record in gold)
    assert set(primary) == {
        "table",
        "figure",
        "text_span",
        "equation_algorithm",
        "citation_context",
    }
    assert [record["query_id"] for record in gold] == [f"synth_q_{i:03d}" for i in range(1, 31)]


def test_questions_are_valid_inputs(corpus: SynthCorpus) -> None:
    questions = read(corpus.questions)
    assert len(questions) == 30
    for record in questions:
        assert schema_errors(record, "input") == []
        Question.model_validate(record)


def test_gold_records_are_valid_and_match_their_questions(
    corpus: SynthCorpus, gold: list[Record]
) -> None:
    questions = {q["query_id"]: q for q in read(corpus.questions)}
    for record in gold:
        assert schema_errors(record, "littraceqa") == []
        model = GoldRecord.model_validate(record)
        question = questions[model.query_id]
        assert question["question"] == model.question
        assert question["answer_types"] == model.answer_types
        if model.answer.multiple_choice:
            options = {o["label"]: o["text"] for o in question["multiple_choice_options"]}
            assert options == model.answer.multiple_choice.options
            assert model.answer.multiple_choice.gold in options
            if model.answer.freeform:
                assert model.answer.freeform.text == options[model.answer.multiple_choice.gold]
        if model.answer.table:
            assert question["table_schema"] == record["answer"]["table"]["schema"]


def test_a_submission_built_from_gold_is_valid_and_scores_full_marks(
    corpus: SynthCorpus, gold: list[Record], tmp_path: Path
) -> None:
    submission = [
        {
            "query_id": g["query_id"],
            "gold_papers": [{"paper_id": p["paper_id"]} for p in g["gold_papers"]],
            "evidence": [
                {
                    "paper_id": e["paper_id"],
                    "source_type": e["source_type"],
                    "locator": {
                        k: v
                        for k, v in e["locator"].items()
                        if k not in ("row", "column", "cited_paper")
                    },
                }
                for e in g["evidence"]
            ],
            "answer": {
                kind: {"rows": value["rows"]}
                if kind == "table"
                else {"gold": value["gold"]}
                if kind == "multiple_choice"
                else value
                for kind, value in g["answer"].items()
            },
        }
        for g in gold
    ]
    for record in submission:
        assert schema_errors(record, "submission") == []
    pred = tmp_path / "submission.jsonl"
    pred.write_text("".join(json.dumps(r) + "\n" for r in submission), encoding="utf-8")
    result = validate_submission(corpus.questions, pred, pool_path=corpus.pool)
    assert (result.errors, result.fatal) == ([], None)

    scores = evaluate_records(list(enumerate(gold, 1)), list(enumerate(submission, 1)))
    assert all(value == 1.0 for value in scores["metrics"].values())
    assert scores["composite_score"] == 1.0


def test_evidence_pages_contain_the_evidence(
    gold: list[Record], text: PageText, objects: dict[str, Record]
) -> None:
    checked = Counter[str]()
    for record in gold:
        for evidence in record["evidence"]:
            paper_id, locator = evidence["paper_id"], evidence["locator"]
            page = text.page(paper_id, locator["page"])
            value = str(evidence["evidence_text_or_value"])
            kind = evidence["source_type"]
            if kind == "table":
                table = next(
                    o for o in objects[paper_id]["objects"] if o["object_id"] == locator["table_id"]
                )
                caption_page = text.page(paper_id, table["caption_page"])
                assert locator["page"] == table["page"]
                assert flat(table["caption"]) in caption_page
                for cell in (*table["cells"][0], *(row[0] for row in table["cells"][1:])):
                    assert cell in page
                assert value in page
            elif kind == "figure":
                assert f"{locator['figure_id']}:" in page
            elif kind == "equation_algorithm" and "equation_id" in locator:
                number = locator["equation_id"].removeprefix("Equation ")
                assert f"({number})" in page and value in page
            elif kind == "equation_algorithm":
                assert f"{locator['algorithm_id']}:" in page and value in page
            elif kind == "citation_context" and locator["section"] == "References":
                assert value in page
                assert value.startswith(f"[{locator['citation_id']}] ")
            elif kind == "citation_context":
                assert value in page and f"{locator['citation_id']}]" in value
            else:
                assert value in page
            checked[kind] += 1
    assert set(checked) == {
        "table",
        "figure",
        "text_span",
        "equation_algorithm",
        "citation_context",
    }


def test_freeform_and_table_answers_appear_on_the_cited_pages(
    gold: list[Record], text: PageText
) -> None:
    for record in gold:
        evidence = record["evidence"]
        page_text = " ".join(text.page(e["paper_id"], e["locator"]["page"]) for e in evidence)
        answer = record["answer"].get("freeform", {}).get("text")
        if answer is None or "by how many points" in record["question"]:
            pass  # a gap between two cells is computed, not printed (see the next test)
        elif answer.startswith("Equation "):
            assert f"({answer.removeprefix('Equation ')})" in page_text
        elif (
            record["primary_evidence_type"] == "citation_context"
            and "cite for" in record["question"]
        ):
            # The citing sentence has the label; the cited title is in that paper's references.
            label = evidence[0]["locator"]["citation_id"]
            paper = text.pages(evidence[0]["paper_id"])
            assert any(f"[{label}] " in page and answer in page for page in paper)
        else:
            assert answer in page_text, record["query_id"]
        table = record["answer"].get("table")
        if table and record["primary_evidence_type"] == "table":
            numbers = [c["name"] for c in table["schema"] if c["type"] == "number"]
            for row in table["rows"]:
                # A row's number is printed on the page of the evidence for that method's row.
                pages = [
                    text.page(e["paper_id"], e["locator"]["page"])
                    for e in evidence
                    if e["locator"].get("row", row["Method"]) == row["Method"]
                ]
                for column in numbers:
                    value = row[column]
                    assert any(str(value) in page or f"{value:.1f}" in page for page in pages)


def test_gaps_are_the_difference_of_the_two_cited_cells(gold: list[Record]) -> None:
    gaps = [r for r in gold if "by how many points" in r["question"]]
    assert gaps
    for record in gaps:
        own, best = (float(e["evidence_text_or_value"]) for e in record["evidence"])
        assert float(record["answer"]["freeform"]["text"]) == pytest.approx(abs(own - best))


def test_single_paper_questions_hide_the_title(gold: list[Record]) -> None:
    singles = [r for r in gold if r["task_family"] == "hidden_source_single_paper"]
    for record in singles:
        (paper,) = record["gold_papers"]
        assert paper["title"].lower() not in record["question"].lower()
        assert all(e["paper_id"] == paper["paper_id"] for e in record["evidence"])


def test_multi_paper_questions_span_three_to_five_papers_of_one_line(
    corpus: SynthCorpus, gold: list[Record]
) -> None:
    line_of = {pid: i for i, line in enumerate(corpus.lines_of_work) for pid in line}
    multis = [r for r in gold if r["task_family"] == "multi_paper"]
    assert len(multis) == 12
    for record in multis:
        ids = [p["paper_id"] for p in record["gold_papers"]]
        assert 3 <= len(set(ids)) == len(ids) <= 5
        assert len({line_of[pid] for pid in ids}) == 1
        assert {e["paper_id"] for e in record["evidence"]} == set(ids)


def test_followup_questions_name_one_paper_and_want_exactly_the_papers_citing_it(
    corpus: SynthCorpus, gold: list[Record], objects: dict[str, Record]
) -> None:
    followups = [r for r in gold if "the papers that cite" in r["question"]]
    assert len(followups) == Counter(SCHEDULE)["multi_followup"]
    cited_by = {
        title: {
            pid for pid, o in objects.items() for ref in o["references"] if ref["title"] == title
        }
        for title in {o["title"] for o in objects.values()}
    }
    for record in followups:
        ids = {p["paper_id"] for p in record["gold_papers"]}
        named = [pid for pid in ids if objects[pid]["title"].split(":")[0] in record["question"]]
        assert len(named) == 1  # only the cited paper's method is named
        assert ids == {named[0]} | cited_by[objects[named[0]]["title"]]
        methods = {row["Method"] for row in record["answer"]["table"]["rows"]}
        assert methods == {objects[pid]["title"].split(":")[0] for pid in ids}


def test_lines_of_work_are_coupled_by_references(
    corpus: SynthCorpus, objects: dict[str, Record]
) -> None:
    refs = {pid: {r["title"] for r in o["references"]} for pid, o in objects.items()}
    lines = corpus.lines_of_work
    assert sum(len(line) for line in lines) == 50
    assert all(3 <= len(line) <= 6 for line in lines)
    for line in lines:
        for a, b in combinations(line, 2):
            assert len(refs[a] & refs[b]) >= 2
    for line_a, line_b in combinations(lines, 2):
        for a in line_a:
            for b in line_b:
                assert len(refs[a] & refs[b]) <= 1
    # Later papers of a line cite earlier ones by their exact title.
    titles = {o["paper_id"]: o["title"] for o in objects.values()}
    for line in lines:
        cited = set().union(*(refs[pid] for pid in line))
        assert sum(titles[pid] in cited for pid in line) >= len(line) - 1


def test_pool_has_metadata_only_distractors(corpus: SynthCorpus) -> None:
    pool = read(corpus.pool)
    models = [PoolPaper.model_validate(record) for record in pool]
    with_pdf = [p for p in models if p.pdf]
    without = [p for p in models if not p.pdf]
    assert len(with_pdf) == 50 and len(without) == 10
    assert {path.name for path in corpus.pdf_dir.glob("*.pdf")} == {p.pdf for p in with_pdf}
    for paper in without:
        assert "pdf" not in next(r for r in pool if r["paper_id"] == paper.paper_id)
        assert not (corpus.pdf_dir / f"{paper.paper_id}.pdf").exists()
    for paper in models:
        assert re.fullmatch(r"synth202[45]_\d{5}", paper.paper_id)
        assert paper.venue in {"ACL", "EMNLP", "NeurIPS", "ICLR", "CVPR", "ICCV"}
        assert paper.year in (2024, 2025) and paper.paper_id[5:9] == str(paper.year)
        assert paper.title and paper.abstract and paper.authors
    assert len({p.paper_id for p in models}) == len(models)


def test_objects_gold_matches_the_pdfs(objects: dict[str, Record], text: PageText) -> None:
    kinds = Counter[str]()
    for paper_id, record in objects.items():
        pages = text.pages(paper_id)
        assert 4 <= record["n_pages"] == len(pages) <= 8
        for number, page in enumerate(pages, start=1):
            assert page.startswith(record["header"])
            assert page.endswith(f" {number}")
        tables = [o for o in record["objects"] if o["kind"] == "table"]
        figures = [o for o in record["objects"] if o["kind"] == "figure"]
        assert 2 <= len(tables) <= 4 and 1 <= len(figures) <= 3
        for obj in record["objects"]:
            kinds[obj["kind"]] += 1
            body, caption = pages[obj["page"] - 1], pages[obj["caption_page"] - 1]
            if obj["kind"] == "equation":
                assert obj["object_id"] == f"({obj['number']})"
                assert obj["text"] in body and obj["object_id"] in body
            else:
                assert obj["caption"].startswith(f"{obj['object_id']}: ")
                assert flat(obj["caption"]) in caption
            assert obj["split"] == (obj["page"] == obj["caption_page"] + 1)
            assert obj["split"] or obj["page"] == obj["caption_page"]
        for section in record["sections"]:
            label = f"{section['number']} {section['title']}".strip()
            assert label in pages[section["page"] - 1]
        for ref in record["references"]:
            assert flat(ref["raw"]) in pages[ref["page"] - 1]
            assert ref["raw"].startswith(f"[{ref['label']}] ")
            authors = ref["raw"][: ref["raw"].index(ref["title"])]
            assert ref["first_author"] in authors.split(",")[0]
            assert f", {ref['year']}." in ref["raw"]
        for citation in record["citations"]:
            groups = re.findall(r"\[([\d, ]+)\]", citation["sentence"])
            printed = {label.strip() for group in groups for label in group.split(",")}
            assert printed == set(citation["labels"])
            if citation["contiguous"]:
                assert flat(citation["sentence"]) in pages[citation["page"] - 1]
    assert set(kinds) == {"table", "figure", "equation", "algorithm"}


def test_some_objects_land_away_from_their_mention_and_some_tables_split(
    objects: dict[str, Record], text: PageText
) -> None:
    away = split = 0
    for paper_id, record in objects.items():
        pages = text.pages(paper_id)
        for obj in record["objects"]:
            if obj["kind"] in ("table", "figure"):
                mention = f"{obj['object_id']} "
                first = next(i for i, page in enumerate(pages, 1) if mention in page)
                away += first < obj["page"]
                split += obj["split"]
    assert away >= 10
    assert split >= 1


def test_one_and_two_column_layouts_are_both_present(
    objects: dict[str, Record], corpus: SynthCorpus
) -> None:
    layouts = Counter(record["layout"] for record in objects.values())
    assert layouts["one_column"] >= 10 and layouts["two_column"] >= 10
    for paper_id, record in objects.items():
        with pymupdf.open(corpus.pdf_dir / f"{paper_id}.pdf") as doc:  # type: ignore[no-untyped-call]
            lines = [
                (line["bbox"][0], line["bbox"][2])
                for block in doc[1].get_text("dict")["blocks"]
                for line in block.get("lines", [])
                if line["bbox"][2] - line["bbox"][0] > 150
            ]
        right_column = [x0 for x0, x1 in lines if x0 > 306]
        wide = [x0 for x0, x1 in lines if x1 - x0 > 300]
        if record["layout"] == "two_column":
            assert len(right_column) >= 10 and not wide
        else:
            assert len(wide) >= 10 and not right_column


def test_tiny_corpora_fall_back_to_single_paper_questions(tmp_path: Path) -> None:
    corpus = generate_corpus(tmp_path, n_papers=2, seed=0, n_questions=6)
    gold = read(corpus.gold)
    assert len(gold) == 6
    assert {record["task_family"] for record in gold} == {"hidden_source_single_paper"}
    assert all(schema_errors(record, "littraceqa") == [] for record in gold)


@pytest.mark.parametrize("n_papers", [0, 301])
def test_paper_count_must_fit_the_vocabularies(tmp_path: Path, n_papers: int) -> None:
    with pytest.raises(ValueError, match="n_papers must be between 1 and 300"):
        generate_corpus(tmp_path, n_papers=n_papers)
