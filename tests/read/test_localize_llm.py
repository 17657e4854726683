"""The LLM evidence localizer: proposals checked against the paper's structure, ranked, closed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from littrace.config import ReadSettings, Settings
from littrace.corpus.document import Chunk, Citation, PaperObject, PaperRecord, Reference
from littrace.llm.replies import Plan
from littrace.read.backends import evidence_localizer
from littrace.read.localize_llm import localize_llm
from littrace.read.records import EvidenceItem, PaperContext
from tests.read.llm_script import (
    make_client,
    provider_fixture,  # noqa: F401  (the provider fixture)
    question,
)
from tests.scripted_llm import ScriptedLlm

QUESTION = question("What F1 does Lanternfish reach on Quarry?")
PAGES = {
    2: "Parsers [12] differ.",
    4: "Setup.",
    5: "Lanternfish reaches 91.4 F1 on Quarry, beating Heron.",
    6: "Table 2: Results on Quarry.",
}


def paper(paper_id: str, pages: dict[int, str] = PAGES) -> PaperContext:
    table = PaperObject(
        paper_id, "table", "Tab. 2", "2", 6, 6, "Table 2: Results on Quarry.\nF1", (1, 2, 3, 4)
    )
    chunk = Chunk(f"{paper_id}#0009", paper_id, "table", 6, "Lanternfish 91.4", "", "Tab. 2")
    return PaperContext(
        PaperRecord(paper_id, "Lanternfish", (), "", "ACL", 2023, True, pages=6),
        (chunk,),
        (table,),
        {},
        1,
        references=(Reference(paper_id, "[12]", "Heron parser.", 7),),
        citations=(Citation(paper_id, 2, "Parsers [12] differ.", ("12",), ("Heron",)),),
        pages=pages,
    )


CONTEXTS = {"p1": paper("p1"), "p2": paper("p2")}
SETTINGS = ReadSettings.model_validate({"evidence": {"backend": "llm", "max_items": 5}})


def locus(source_type: str, page: int, **fields: Any) -> dict[str, Any]:
    return {"source_type": source_type, "page": page, "confidence": 0.5} | fields


def reply(*loci: dict[str, Any]) -> str:
    return json.dumps({"evidence": list(loci)})


class ModelFree:
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, papers: list[str]) -> list[EvidenceItem]:
        self.calls.append(papers)
        return [
            EvidenceItem(p, "text_span", {"page": 4}, 0.2, reasons=["model-free"]) for p in papers
        ]


def run(tmp_path: Path, papers: list[str], settings: ReadSettings = SETTINGS, **kw: Any) -> Any:
    return localize_llm(QUESTION, papers, CONTEXTS, settings, make_client(tmp_path), **kw)


def test_proposals_are_checked_against_the_paper(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["localize"] = [
        reply(
            locus("text_span", 4, quote="Lanternfish reaches 91.4 F1", section="4 Results"),
            locus("figure", 99, object_id="Figure 9"),  # no such figure, no such page: dropped
            locus("text_span", 4, quote="never printed", confidence=0.9),
            locus("table", 3, object_id="Table 2", confidence=0.8),
            locus("citation_context", 2, citation_id="[12]"),
        )
    ]
    fallback = ModelFree()
    localized = run(tmp_path, ["p1"], fallback=fallback)

    prompt = provider.calls[0].prompt
    assert QUESTION.question in prompt and "Paper: [p1] Lanternfish (ACL 2023)" in prompt
    assert "Table 2 (page 6): Table 2: Results on Quarry." in prompt
    assert "=== Page 5 ===\nLanternfish reaches 91.4 F1 on Quarry, beating Heron." in prompt
    assert [item.submission()["locator"] for item in localized.items] == [
        {"page": 6, "table_id": "Table 2"},  # matched by number; the object's page
        {"page": 5, "section": "4 Results"},  # the page that prints the quote
        {"page": 2, "citation_id": "12"},
        {"page": 4},  # unverified: after every verified one despite its confidence
    ]
    assert localized.items[0].chunk_id == "p1#0009"
    assert localized.items[3].reasons == ["llm", "quote not found"]
    step = localized.steps[0]
    assert (step["backend"], step["paper"], fallback.calls) == ("llm", "p1", [])
    assert "no detected object 'Figure 9' and no page 99" in step["checks"]


def test_each_paper_gets_a_place_before_the_cap(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["localize"] = [
        reply(
            locus("table", 6, object_id="2", confidence=0.9),
            locus("text_span", 5, quote="beating Heron"),
        )
    ]
    settings = ReadSettings.model_validate({"evidence": {"max_items": 3}})
    localized = run(tmp_path, ["p1", "p2"], settings, fallback=ModelFree())
    assert [(i.paper_id, i.source_type) for i in localized.items] == [
        ("p1", "table"),
        ("p2", "table"),
        ("p1", "text_span"),
    ]


def test_relevance_breaks_ties(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["localize"] = [
        reply(locus("text_span", 4, quote="Setup."), locus("text_span", 5, quote="beating Heron"))
    ]
    relevance = {("p1", "text_span", "5", ""): 0.7}
    localized = run(tmp_path, ["p1"], fallback=ModelFree(), relevance=lambda _: relevance)
    assert [item.locator["page"] for item in localized.items] == [5, 4]


def test_unusable_or_empty_replies_fall_back_per_paper(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script["localize"] = ["not json"]
    fallback = ModelFree()
    localized = run(tmp_path, ["p1"], fallback=fallback)
    assert fallback.calls == [["p1"]] and localized.items[0].reasons == ["model-free"]
    assert localized.steps[0]["backend"] == "heuristic"
    assert localized.steps[0]["fallback_reason"].startswith("invalid output after repair")

    provider.script["localize"] = [reply(locus("figure", 40, object_id="Figure 1"))]
    localized = run(tmp_path / "b", ["p1"], fallback=fallback)
    assert localized.steps[0]["fallback_reason"] == "no valid locator"
    assert fallback.calls == [["p1"], ["p1"]]


def test_text_is_bounded(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script["localize"] = [reply()]
    settings = ReadSettings.model_validate({"evidence": {"text_chars": 40}})
    run(tmp_path, ["p1"], settings, fallback=ModelFree())
    text = provider.calls[0].prompt.split("Text:\n")[1].split("\n\nReply with JSON")[0]
    assert text == "=== Page 2 ===\nParsers [12] differ.\n\n==="


def test_backend_dispatch(tmp_path: Path, provider: ScriptedLlm) -> None:
    plan = Plan()
    model_free = evidence_localizer(Settings(), None)
    items, steps = model_free(QUESTION, plan, ["p1"], CONTEXTS)
    assert items and steps == [] and all("llm" not in item.reasons for item in items)

    values = {
        "llm": {"backend": "litellm", "model": "scripted/test"},
        "read": {"evidence": {"backend": "llm"}},
    }
    with_llm = evidence_localizer(Settings.model_validate(values), make_client(tmp_path))
    provider.script["localize"] = [reply(locus("table", 6, object_id="Table 2"))]
    items, steps = with_llm(QUESTION, plan, ["p1"], CONTEXTS)
    assert items[0].reasons == ["llm", "verified"] and steps[0]["backend"] == "llm"
