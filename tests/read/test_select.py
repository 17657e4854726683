"""Paper selection: how many papers as much as which."""

from __future__ import annotations

from littrace.config import SelectSettings
from littrace.llm.replies import Plan, TargetGroup
from littrace.read.records import PaperReading
from littrace.read.select import select_papers


def reading(
    paper: str, score: float, covers: tuple[str, ...] = (), sufficient: bool = True
) -> PaperReading:
    return PaperReading(paper, True, sufficient, score, covers=list(covers))


def group(name: str) -> TargetGroup:
    return TargetGroup(name=name, role="answer_target", query=name, anchors=[name])


def test_a_single_paper_question_gets_one_paper_even_with_close_runners_up() -> None:
    readings = [reading("p1", 0.8), reading("p2", 0.79), reading("p3", 0.78)]
    assert select_papers(Plan(desired_papers=1), readings, SelectSettings()).papers == ["p1"]


def test_each_target_group_gets_its_own_subject_paper_in_candidate_order() -> None:
    plan = Plan(desired_papers=3, target_groups=[group("A"), group("B"), group("C")])
    readings = [
        reading("x", 0.9),  # the best score, but the subject of no group
        reading("pc", 0.5, ("C",)),
        reading("pa", 0.6, ("A",)),
        reading("pa2", 0.4, ("A",)),  # a weaker second paper about A
        reading("pb", 0.55, ("B",)),
    ]
    selection = select_papers(plan, readings, SelectSettings(score_gap=1.0))
    assert selection.papers == ["pc", "pa", "pb"]
    assert "target group 'A'" in selection.reasons["pa"]


def test_groups_first_can_be_turned_off() -> None:
    plan = Plan(desired_papers=1, target_groups=[group("A")])
    readings = [reading("x", 0.9), reading("pa", 0.6, ("A",))]
    assert select_papers(plan, readings, SelectSettings(cover_groups_first=False)).papers == ["x"]


def test_unnamed_papers_join_by_sufficiency_and_score_gap() -> None:
    plan = Plan(desired_papers=3)
    readings = [
        reading("p1", 0.60),
        reading("p2", 0.58),
        reading("p3", 0.40),  # too far below the best
        reading("p4", 0.59, sufficient=False),
        reading("p5", 0.57),
    ]
    assert select_papers(plan, readings, SelectSettings(score_gap=0.9)).papers == ["p1", "p2", "p5"]


def test_the_cap_and_the_fallback_to_the_top_candidate() -> None:
    plan = Plan(desired_papers=5)
    many = [reading(f"p{i}", 0.9) for i in range(8)]
    assert len(select_papers(plan, many, SelectSettings(max_papers=4)).papers) == 4
    nothing = [PaperReading("q1", False, False, 0.1), PaperReading("q2", False, False, 0.2)]
    assert select_papers(plan, nothing, SelectSettings()).papers == ["q1"]


def test_papers_citing_a_named_subject_join_it() -> None:
    from littrace.corpus.document import Reference
    from littrace.littraceqa import Question
    from tests.read.helpers import context

    subject = context("ps", "FuseSieve")
    citing = context("pc", "FlowRelay")
    citing = type(citing)(
        citing.paper,
        citing.chunks,
        citing.objects,
        {},
        2,
        (
            Reference(
                "pc",
                "3",
                "[3] A. B. FuseSieve: Sparse Retrieval.",
                5,
                "B",
                "FuseSieve: Sparse Retrieval",
            ),
        ),
    )
    other = context("po", "LexiScope", rank=3)
    contexts = {c.paper_id: c for c in (subject, citing, other)}
    plan = Plan(desired_papers=2, target_groups=[group("FuseSieve")])
    readings = [reading("ps", 0.7, ("FuseSieve",)), reading("pc", 0.3), reading("po", 0.6)]
    question = Question(
        query_id="q",
        benchmark="LitTraceQA",
        question="What does FuseSieve reach, and the papers that cite the FuseSieve paper?",
        answer_types=["freeform"],
    )
    selection = select_papers(plan, readings, SelectSettings(), question, contexts)
    assert selection.papers == ["ps", "pc"]
    assert selection.reasons["pc"].startswith("cites")
    # Without a question about citing papers, a named subject stands alone.
    assert select_papers(plan, readings, SelectSettings()).papers == ["ps"]
    cites_for = question.model_copy(update={"question": "Which work does FuseSieve cite for X?"})
    assert select_papers(plan, readings, SelectSettings(), cites_for, contexts).papers == ["ps"]


def _with_record(paper_id: str, title: str, venue: str, year: int):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from tests.read.helpers import context

    made = context(paper_id, title.split(":")[0])
    return replace(made, paper=replace(made.paper, title=title, venue=venue, year=year))


def test_each_paper_the_question_describes_by_venue_and_year_is_selected() -> None:
    from littrace.littraceqa import Question
    from littrace.read.select import Description, paper_descriptions

    venues = ["ACL", "NAACL", "Immunology", "Findings of EMNLP", "EMNLP"]
    text = "The ACL 2020 paper builds a corpus with a tool from the NAACL 2018 paper it cites."
    assert paper_descriptions(text, venues) == [
        Description(2020, "ACL"),
        Description(2018, "NAACL"),
    ]
    assert paper_descriptions("a 2022 Immunology editorial", venues) == [
        Description(2022, "Immunology")
    ]
    assert paper_descriptions("a Findings of EMNLP 2025 paper", venues) == [
        Description(2025, "Findings of EMNLP")
    ]
    assert paper_descriptions("the 2019 paper that pretrains BERT", venues) == [
        Description(2019, None)
    ]
    papers = [
        _with_record("corpus", "OpenCorpus: papers", "ACL", 2020),
        _with_record("graph", "LitGraph: a literature graph", "NAACL", 2018),
        _with_record("other", "Other: a 2020 NAACL paper", "NAACL", 2020),
    ]
    contexts = {c.paper_id: c for c in papers}
    readings = [
        reading("corpus", 0.5),
        reading("other", 0.45),
        reading("graph", 0.3, sufficient=False),
    ]
    question = Question(
        query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"]
    )
    selection = select_papers(Plan(), readings, SelectSettings(), question, contexts)
    assert selection.papers == ["corpus", "graph"]
    assert selection.reasons["graph"] == "fits the description 'NAACL 2018'"


def test_another_record_of_a_selected_work_joins_it() -> None:
    from littrace.littraceqa import Question

    papers = [
        _with_record("proc", "SciBERT: A Pretrained Language Model", "EMNLP", 2019),
        _with_record("arxiv", "SciBERT: a pretrained language model", "arXiv", 2019),
        _with_record("else", "Other: a model", "EMNLP", 2019),
    ]
    contexts = {c.paper_id: c for c in papers}
    readings = [reading("proc", 0.6), reading("else", 0.5), reading("arxiv", 0.4)]
    question = Question(
        query_id="q",
        benchmark="LitTraceQA",
        question="What does it score?",
        answer_types=["freeform"],
    )
    selection = select_papers(
        Plan(desired_papers=1), readings, SelectSettings(), question, contexts
    )
    assert selection.papers == ["proc", "arxiv"]
    assert selection.reasons["arxiv"] == "another record of proc"


def test_the_work_at_the_asked_reference_position_joins_the_citing_paper() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Reference
    from littrace.littraceqa import Question

    citing = _with_record("cite", "CiteTool: a reader", "arXiv", 2023)
    entry = Reference(
        "cite", "5", "[5] I. B. 2019. SciModel: a model. In EMNLP.", 9, "B", "SciModel"
    )
    citing = replace(citing, references=(entry,))
    cited = _with_record("sci", "SciModel: A Pretrained Model", "EMNLP", 2019)
    other = _with_record("other", "Other: a model", "EMNLP", 2021)
    contexts = {c.paper_id: c for c in (citing, cited, other)}
    readings = [reading("cite", 0.6), reading("other", 0.5), reading("sci", 0.4, sufficient=False)]
    text = "A 2023 arXiv paper lists a model as its reference [5]. What does that model reach?"
    question = Question(
        query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"]
    )
    selection = select_papers(Plan(), readings, SelectSettings(), question, contexts)
    assert selection.papers == ["cite", "sci"]
    assert selection.reasons["sci"] == "is entry 5 of cite's references"


def test_a_described_paper_is_the_one_the_words_around_it_name_then_the_one_cited() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Reference
    from littrace.littraceqa import Question
    from littrace.read.select import paper_descriptions

    entry = Reference(
        "emb", "Lo et al., 2020", "Lo, K. 2020. OpenCorpus: papers. In ACL.", 9, "Lo", "OpenCorpus"
    )
    embedder = _with_record("emb", "Embedder: many languages", "ACL", 2024)
    embedder = replace(embedder, references=(entry,))
    corpus = _with_record("corpus", "OpenCorpus: an open research corpus", "ACL", 2020)
    other = _with_record("other", "DocEmbed: citation-informed embeddings", "ACL", 2020)
    contexts = {c.paper_id: c for c in (embedder, corpus, other)}
    readings = [
        reading("emb", 0.6),
        reading("other", 0.5),
        reading("corpus", 0.2, sufficient=False),
    ]

    def selected(text: str, among: dict = contexts) -> list[str]:  # type: ignore[type-arg]
        question = Question(
            query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"]
        )
        return select_papers(Plan(), readings, SelectSettings(), question, among).papers

    # What the question says of a paper runs to the end of its clause (dev4 s1_02: "academic
    # corpus" tells the corpus paper from the other ACL 2020 one), ten words at least.
    long_clause = (
        "The ACL 2020 paper that pretrains a BERT model from scratch on the full text of its "
        "own academic corpus compares that model, task by task, with others."
    )
    assert paper_descriptions(long_clause, ["ACL"])[0].words.endswith("compares that model,")
    # A coordination starts what the question says of another paper (dev3 r2_03).
    coordinated = (
        "An ACL 2020 corpus paper pretrains a BERT-Base model on its own full-text corpus and "
        "compares it with the scientific BERT model released in an EMNLP 2019 paper."
    )
    assert paper_descriptions(coordinated, ["ACL", "EMNLP"])[0].words.endswith("corpus")
    assert paper_descriptions("In an ACL 2020 paper, what is it?", ["ACL"])[0].words == (
        "In an ACL 2020 paper, what is it?"
    )
    # What the question says of the ACL 2020 paper names it, whatever the scores.
    said = "An ACL 2024 embedder trains on the research corpus of an ACL 2020 paper."
    assert "the research corpus of" in paper_descriptions(said, ["ACL"])[1].words
    assert selected(said) == ["emb", "corpus"]
    assert selected("An ACL 2024 embedder builds on an ACL 2020 work's embeddings.") == [
        "emb",
        "other",
    ]
    # Where the words name neither, the paper the ACL 2024 one cites is the one meant; a year
    # ending the sentence describes a paper too.
    assert selected("An ACL 2024 embedder builds on a work from 2020.") == ["emb", "corpus"]
    unlinked = {**contexts, "emb": replace(embedder, references=())}
    assert selected("An ACL 2024 embedder builds on a work from 2020.", unlinked) == [
        "emb",
        "other",
    ]
    # A citation's year describes no paper; the citation names its entry, whatever year the
    # record has.
    assert paper_descriptions("a corpus it cites as Lo et al., 2020.", ["ACL"]) == []
    preprint = _with_record("corpus", "OpenCorpus: an open research corpus", "arXiv", 2019)
    question = Question(
        query_id="q",
        benchmark="LitTraceQA",
        question="An ACL 2024 embedder uses a corpus it cites as Lo et al., 2020.",
        answer_types=["freeform"],
    )
    quoted = select_papers(
        Plan(), readings, SelectSettings(), question, {**contexts, "corpus": preprint}
    )
    assert quoted.papers == ["emb", "corpus"]
    assert quoted.reasons["corpus"] == "is entry Lo et al., 2020 of emb's references"
    # A name hyphenated at a line break in the bibliography is still the entry's work.
    hyphenated = replace(entry, title="Open-Corpus: an open research corpus")
    cited_hyphenated = {**contexts, "emb": replace(embedder, references=(hyphenated,))}
    assert select_papers(Plan(), readings, SelectSettings(), question, cited_hyphenated).papers == [
        "emb",
        "corpus",
    ]


def test_a_work_named_by_its_first_author_and_a_year_printed_apart_joins_the_citing_paper() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Reference
    from littrace.littraceqa import Question

    def entry(label: str, author: str, year: int, title: str) -> Reference:
        return Reference("tool", label, f"{author}. {year}. {title}.", 8, author, title, year)

    citesee = entry("6", "Chang", 2023, "CiteSee: augmenting citations")
    revolt = entry("5", "Chang", 2017, "Revolt: collaborative crowdsourcing")
    tool = replace(
        _with_record("tool", "PaperKit: a toolkit for papers", "EMNLP", 2023),
        references=(revolt, citesee),
    )
    reader = _with_record("reader", "CiteSee: augmenting citations", "arXiv", 2023)
    contexts = {c.paper_id: c for c in (tool, reader)}
    # Both papers are from 2023, so the year alone names no second paper; the first author with
    # "et al." and the entry's year do.
    readings = [reading("tool", 0.6), reading("reader", 0.2, sufficient=False)]
    text = "An EMNLP 2023 toolkit cites a 2023 reading tool by Chang et al. Who used it?"
    question = Question(
        query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"]
    )
    selection = select_papers(Plan(), readings, SelectSettings(), question, contexts)
    assert selection.papers == ["tool", "reader"]
    assert selection.reasons["reader"] == "is entry 6 of tool's references"
    # Two entries by that author in that year: the question names neither of them.
    twin = entry("7", "Chang", 2023, "Another 2023 tool")
    ambiguous = {**contexts, "tool": replace(tool, references=(revolt, citesee, twin))}
    assert select_papers(Plan(), readings, SelectSettings(), question, ambiguous).papers == ["tool"]


def test_the_cited_work_a_question_goes_on_to_ask_about_joins_the_citing_paper() -> None:
    from dataclasses import replace

    from littrace.corpus.document import Citation, Reference
    from littrace.littraceqa import Question

    # dev4 s3_02: "citing a dataset paper for it. According to the abstract of that cited
    # dataset paper, ..." names no position and no author: the work the sentence the
    # question describes cites is the one meant.
    entries = (
        Reference("pos", "29", "[29] A. B. 2021. StoryBank: tales.", 4, "B", "StoryBank: tales"),
        Reference("pos", "30", "[30] C. D. 2022. LexSum: legal summaries.", 4, "D", "LexSum"),
    )
    said = Citation(
        "pos", 2, "Describing key events in lawsuits requires legal experts [30].", ("30",), ()
    )
    other = Citation("pos", 2, "Stories are written by novelists [29].", ("29",), ())
    position = _with_record("pos", "WriteAid: AI support for expository writing", "arXiv", 2023)
    position = replace(position, references=entries, citations=(said, other))
    contexts = {
        c.paper_id: c
        for c in (
            position,
            _with_record("lex", "LexSum: legal summaries", "arXiv", 2022),
            _with_record("story", "StoryBank: tales", "arXiv", 2021),
        )
    }
    readings = [
        reading("pos", 0.6),
        reading("story", 0.5, sufficient=False),
        reading("lex", 0.3, sufficient=False),
    ]

    def selected(text: str) -> list[str]:
        question = Question(
            query_id="q", benchmark="LitTraceQA", question=text, answer_types=["freeform"]
        )
        return select_papers(Plan(), readings, SelectSettings(), question, contexts).papers

    asked = (
        "A 2023 arXiv position paper lists 'describing key events in lawsuits' as an expert "
        "writing task, citing a dataset paper for it. How many summaries does {} hold?"
    )
    assert selected(asked.format("that cited dataset paper")) == ["pos", "lex"]
    # dev7 w2_04: "that cited dataset" is the cited work too.
    assert selected(asked.format("that cited dataset")) == ["pos", "lex"]
    # Asking about the citing paper alone, the cited one stays out.
    assert selected(asked.format("the position paper's own list")) == ["pos"]
