"""What a question asks for, read by retrieval and reading alike."""

from __future__ import annotations

from littrace.asks import answer_spec, question_modalities
from littrace.littraceqa import Question, TableColumn


def test_answer_spec_names_types_and_table_columns() -> None:
    question = Question(
        query_id="q",
        benchmark="LitTraceQA",
        question="What NDCG@10 does Stella-400M reach on SciFact and HotpotQA?",
        answer_types=["table"],
        table_schema=[
            TableColumn(name="dataset", type="string", is_row_key=True),
            TableColumn(name="ndcg_at_10", type="number", is_row_key=False),
        ],
    )
    assert answer_spec(question) == "table; table columns: dataset (row key), ndcg_at_10"


def test_the_kinds_of_evidence_a_question_names() -> None:
    assert question_modalities("How many subfigures are in Figure 4?") == ["figure"]
    assert question_modalities("What does equation 6 in Table 2's setting define?") == [
        "table",
        "equation",
    ]
    assert question_modalities("Which hardware did S-RAG use?") == ["text"]
