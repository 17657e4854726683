"""Reference keys, title resolution against the pool, and bibliographic coupling."""

from __future__ import annotations

from fractions import Fraction

import pytest

from littrace.corpus.document import PaperRecord, Reference
from littrace.index.citations import (
    CouplingGraph,
    Neighbor,
    compact_title,
    normalise_title,
    reference_key,
    resolve_references,
)


def ref(paper_id: str, label: str, title: str = "", arxiv_id: str = "", doi: str = "") -> Reference:
    return Reference(paper_id, label, raw=title, page=9, title=title, arxiv_id=arxiv_id, doi=doi)


def paper(paper_id: str, title: str) -> PaperRecord:
    return PaperRecord(paper_id, title, (), "", "ACL", 2025, True)


# --------------------------------------------------------------------------- keys


@pytest.mark.parametrize(
    ("arxiv_id", "expected"),
    [
        ("2310.06201", "arxiv:2310.06201"),
        ("2310.06201v3", "arxiv:2310.06201"),
        ("arXiv:2310.06201v12", "arxiv:2310.06201"),
        ("arXiv: 1706.03762", "arxiv:1706.03762"),
        ("https://arxiv.org/abs/2310.06201v2", "arxiv:2310.06201"),
        ("arxiv.org/pdf/2310.06201v1.pdf", "arxiv:2310.06201"),
        ("cs/0112017v1", "arxiv:cs/0112017"),
        ("math.GT/0309136", "arxiv:math.gt/0309136"),
    ],
)
def test_arxiv_keys_drop_prefix_and_version(arxiv_id: str, expected: str) -> None:
    assert reference_key(ref("p", "1", "Some Long Title Here", arxiv_id=arxiv_id)) == expected


def test_doi_keys_are_lowercase_without_resolver() -> None:
    upper = ref("p", "1", doi="10.18653/V1/2023.ACL-LONG.1")
    url = ref("p", "2", doi="https://doi.org/10.18653/v1/2023.acl-long.1.")
    prefixed = ref("p", "3", doi="DOI: 10.18653/v1/2023.acl-long.1")
    assert {reference_key(r) for r in (upper, url, prefixed)} == {"doi:10.18653/v1/2023.acl-long.1"}


def test_key_precedence_arxiv_then_doi_then_title() -> None:
    title = "Attention Is All You Need"
    assert reference_key(ref("p", "1", title, "1706.03762", "10.5555/1")) == "arxiv:1706.03762"
    assert reference_key(ref("p", "1", title, doi="10.5555/1")) == "doi:10.5555/1"
    assert reference_key(ref("p", "1", title)) == "title:attentionisallyouneed"
    # An arXiv DOI names the arXiv paper; junk ids fall through to the next field.
    assert reference_key(ref("p", "1", doi="10.48550/arXiv.1706.03762")) == "arxiv:1706.03762"
    assert reference_key(ref("p", "1", title, arxiv_id="preprint")) == "title:attentionisallyouneed"
    assert reference_key(ref("p", "1", title, doi="n/a")) == "title:attentionisallyouneed"


def test_title_keys_survive_case_accents_punctuation_and_space_mangling() -> None:
    forms = [
        "500xCompressor: Generalized Prompt Compression for LLMs",
        "500x C ompressor: generalized prompt compression for LLMs.",
        "500x-Compressor — Generalized   Prompt Compression for LLMs",
        "500xCompressor:  Generalized Prompt Com pression for LLMs",
    ]
    assert len({reference_key(ref("p", "1", form)) for form in forms}) == 1
    assert normalise_title("Café: Naïve Pre-training, Ｆｕｌｌ-width!") == (
        "cafe naive pre training full width"
    )
    assert compact_title("ﬁne-Tuning") == "finetuning"  # ligature from a PDF


def test_unusable_references_have_no_key() -> None:
    assert reference_key(ref("p", "1")) == ""
    assert reference_key(ref("p", "1", "In ACL")) == ""  # too short to name a work


# --------------------------------------------------------------------------- resolution

POOL = [
    paper("acl_001", "500xCompressor: Generalized Prompt Compression for Large Language Models"),
    paper("acl_002", "Dense Passage Retrieval for Open-Domain Question Answering"),
    paper("acl_003", "Llama 2: Open Foundation and Fine-Tuned Chat Models"),
    paper("acl_004", "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks"),
    paper("acl_005", "Short"),
]


def test_exact_resolution_ignores_case_punctuation_and_mangling() -> None:
    refs = [
        ref("x", "1", "500x C ompressor: generalized prompt compression for large language models"),
        ref("x", "2", "DENSE PASSAGE RETRIEVAL FOR OPEN DOMAIN QUESTION ANSWERING."),
        ref("x", "3", "A paper that is not in the pool at all"),
    ]
    assert resolve_references(refs, POOL) == {("x", "1"): "acl_001", ("x", "2"): "acl_002"}


def test_fuzzy_resolution_accepts_small_damage_and_respects_the_threshold() -> None:
    typo = "Dense Pasage Retrieval for Open-Domian Question Answering"  # two typos
    truncated = "Retrieval-Augmented Generation for Knowledge-Intensive NLP"  # lost "Tasks"
    refs = [ref("x", "1", typo), ref("x", "2", truncated)]
    assert resolve_references(refs, POOL, min_similarity=0.9) == {
        ("x", "1"): "acl_002",
        ("x", "2"): "acl_004",
    }
    # "Tasks" is 5 of 57 characters: similarity 104/109 ≈ 0.954, under a 0.96 threshold.
    assert resolve_references(refs, POOL, min_similarity=0.96) == {("x", "1"): "acl_002"}
    assert resolve_references(refs, POOL, min_similarity=1.0) == {}


def test_fuzzy_resolution_never_crosses_version_numbers() -> None:
    refs = [ref("x", "1", "Llama 3: Open Foundation and Fine-Tuned Chat Models")]
    assert resolve_references(refs, POOL, min_similarity=0.5) == {}


def test_resolution_skips_self_matches_and_prefers_lower_ids_on_ties() -> None:
    pool = [*POOL, paper("acl_000", POOL[1].title)]  # the same title twice in the pool
    refs = [ref("acl_000", "4", POOL[1].title), ref("y", "1", POOL[1].title)]
    assert resolve_references(refs, pool) == {("acl_000", "4"): "acl_002", ("y", "1"): "acl_000"}
    # Citing your own title is citing your preprint, not another pool paper.
    assert resolve_references([ref("acl_003", "1", POOL[2].title)], POOL) == {}


def test_short_titles_are_never_resolved() -> None:
    assert resolve_references([ref("x", "1", "Short")], POOL) == {}


def test_threshold_must_be_a_similarity() -> None:
    with pytest.raises(ValueError):
        resolve_references([], POOL, min_similarity=1.5)


# --------------------------------------------------------------------------- coupling


def _jaccard(a: set[str], b: set[str]) -> float:
    fraction = Fraction(len(a & b), len(a | b))
    return fraction.numerator / fraction.denominator


SETS = {
    "a": {"w1", "w2", "w3", "w4"},
    "b": {"w1", "w2", "w3", "w4", "w5", "w6"},  # 4 shared with a, J = 4/6
    "c": {"w1", "w2"},  # 2 shared with a, J = 2/4
    "d": {"w1", "w2", "w9", "w10"},  # 2 shared with a, J = 2/6
    "e": {"w3", "w7"},  # 1 shared with a: not coupled
    "f": {"w1", "w3", "w4", "w8", "w11", "w12", "w13", "w14"},  # 3 shared, J = 3/9
    "g": {"w9", "w10", "w11"},
}


def test_neighbors_have_exact_jaccard_and_at_least_two_shared_works() -> None:
    graph = CouplingGraph(SETS)
    neighbors = graph.neighbors("a")
    assert neighbors == [
        Neighbor("b", _jaccard(SETS["a"], SETS["b"]), 4),
        Neighbor("c", _jaccard(SETS["a"], SETS["c"]), 2),
        Neighbor("f", _jaccard(SETS["a"], SETS["f"]), 3),  # J = 1/3, more shared than d
        Neighbor("d", _jaccard(SETS["a"], SETS["d"]), 2),  # J = 1/3
    ]
    assert neighbors[0].jaccard == 4 / 6
    assert "a" not in {neighbor.paper_id for neighbor in neighbors}
    assert "e" not in {neighbor.paper_id for neighbor in neighbors}
    assert [neighbor.paper_id for neighbor in graph.neighbors("a", min_shared=1)][-1] == "e"
    assert graph.neighbors("a", k=2) == neighbors[:2]


def test_equal_jaccard_and_shared_count_fall_back_to_paper_id() -> None:
    graph = CouplingGraph({"s": {"x", "y"}, "n2": {"x", "y"}, "n1": {"x", "y"}})
    assert [neighbor.paper_id for neighbor in graph.neighbors("s")] == ["n1", "n2"]


def test_unknown_or_reference_less_papers_have_no_neighbors() -> None:
    graph = CouplingGraph({"a": {"x", "y"}, "b": set()})
    assert graph.neighbors("zzz") == []
    assert graph.neighbors("b") == []
    assert graph.papers == ["a"]
    with pytest.raises(ValueError):
        graph.neighbors("a", min_shared=0)


def test_build_uses_resolved_ids_then_keys_and_skips_unusable_and_self_references() -> None:
    dpr = "Dense Passage Retrieval for Open-Domain Question Answering"
    refs = [
        # p1 and p2 cite DPR under different spellings, resolved to the same pool paper...
        ref("p1", "1", dpr),
        ref("p2", "7", "Dense passage retrieval for open domain QA (arXiv version)"),
        # ...and a non-pool work, by arXiv id with different versions.
        ref("p1", "2", "Whatever", arxiv_id="2005.11401v1"),
        ref("p2", "8", "Something else", arxiv_id="arXiv:2005.11401v4"),
        ref("p1", "3"),  # unusable
        ref("p2", "9", "Our own earlier preprint title"),  # resolved to p2 itself below
        ref("p3", "1", dpr),
    ]
    resolved = {("p1", "1"): "acl_002", ("p2", "7"): "acl_002", ("p2", "9"): "p2"}
    graph = CouplingGraph.build(refs, resolved)
    assert graph.works("p1") == {"paper:acl_002", "arxiv:2005.11401"}
    assert graph.works("p2") == {"paper:acl_002", "arxiv:2005.11401"}
    # p3's DPR reference is unresolved here, so it stays a title key and shares nothing.
    assert graph.works("p3") == {f"title:{compact_title(dpr)}"}
    assert graph.neighbors("p1") == [Neighbor("p2", 1.0, 2)]


def test_table_round_trip() -> None:
    graph = CouplingGraph(SETS)
    table = graph.to_table()
    assert table.column_names == ["paper_id", "key"]
    assert table.num_rows == sum(len(works) for works in SETS.values())
    restored = CouplingGraph.from_table(table)
    assert restored.papers == graph.papers
    for paper_id in SETS:
        assert restored.works(paper_id) == SETS[paper_id]
        assert restored.neighbors(paper_id) == graph.neighbors(paper_id)
