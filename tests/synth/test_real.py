import json
from pathlib import Path

from littrace.synth import generate_corpus
from littrace.synth.real import add_real_papers, real_paper_id

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "pdfs"


def test_ids_are_short_and_safe() -> None:
    long = Path("index-list-out-of-range-7f4e18385a30ccb00dc637d5123f894f1f862964.pdf")
    assert real_paper_id(long) == "real_index_list_out_of_range_7f4e18385a3"
    assert real_paper_id(Path("N18-3011.pdf")) == "real_n18_3011"


def test_real_papers_join_the_pool_without_questions(tmp_path: Path) -> None:
    corpus = generate_corpus(tmp_path, n_papers=3, seed=0, n_questions=2)
    questions = corpus.questions.read_bytes()
    added = add_real_papers(corpus, FIXTURES)
    assert len(added) == len(list(FIXTURES.glob("*.pdf"))) == 15
    pool = [json.loads(line) for line in corpus.pool.read_text(encoding="utf-8").splitlines()]
    ids = [record["paper_id"] for record in pool]
    assert len(set(ids)) == len(ids) and set(added) <= set(ids)
    for paper_id in added:
        assert (corpus.pdf_dir / f"{paper_id}.pdf").stat().st_size > 0
    assert corpus.questions.read_bytes() == questions


def test_regenerating_gives_the_same_pool_bytes(tmp_path: Path) -> None:
    first = generate_corpus(tmp_path, n_papers=3, seed=0, n_questions=2)
    add_real_papers(first, FIXTURES)
    before = first.pool.read_bytes()
    again = generate_corpus(tmp_path, n_papers=3, seed=0, n_questions=2)
    add_real_papers(again, FIXTURES)
    assert again.pool.read_bytes() == before
