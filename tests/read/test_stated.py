from __future__ import annotations

from dataclasses import replace

import pytest

from littrace.corpus.document import Chunk
from littrace.littraceqa import TableColumn
from littrace.read.stated import names_column, sentence_value, stated_value
from tests.read.helpers import context


@pytest.mark.parametrize(
    ("sentence", "column", "kind", "value"),
    [
        ("We use the SGD optimizer with 0.001 learning rate.", "Optimizer", "string", "SGD"),
        # A citation in parentheses is no value and no distance.
        (
            "We use AdamW (Loshchilov and Hutter 2019) as the optimizer.",
            "Optimizer",
            "string",
            "AdamW",
        ),
        ("We train for 200 epochs of 256 batch size.", "Batch size", "number", "256"),
        # A capitalised word right before the name is the name's; not the sentence's first.
        ("We adopt Adam optimizer with a learning rate of 1e-3.", "Optimizer", "string", "Adam"),
        ("Adam optimizer was used.", "Optimizer", "string", "Adam"),
        # Past a comma is another clause's number; equally close, the one after the name.
        (
            "Clipping at a maximum of 1, a batch size of 32, and 100 steps.",
            "Batch size",
            "number",
            "32",
        ),
        ("The learning rate is 0.001 and batch size 64.", "Batch size", "number", "64"),
        ("The size of each batch is 12.", "Batch size (sequences)", "number", "12"),
    ],
)
def test_a_sentence_states_the_value_next_to_the_columns_name(
    sentence: str, column: str, kind: str, value: str
) -> None:
    found = sentence_value(sentence, column, kind)
    assert found is not None and found[0] == value


@pytest.mark.parametrize(
    ("sentence", "column", "kind"),
    [
        ("The batch is small and the model size is 7B.", "Batch size", "number"),  # words apart
        ("We tune the optimizer carefully.", "Optimizer", "string"),  # no name near it
        # A capitalised stop word before the name is a sentence's first word, no name.
        ("Our optimizer follows Smith and Jones.", "Optimizer", "string"),
        ("A batch size that is rather large for 512 GPUs in total.", "Batch size", "number"),
        ("The warmup takes 100 steps.", "Batch size", "number"),  # the column is not named
    ],
)
def test_a_sentence_without_the_name_or_a_value_near_it_states_nothing(
    sentence: str, column: str, kind: str
) -> None:
    assert sentence_value(sentence, column, kind) is None


def test_a_column_is_named_by_every_word_of_its_name_in_some_form() -> None:
    assert names_column("Training batch size per GPU", "Batch size (sequences)")
    assert names_column("Optimizers used", "Optimizer")
    assert not names_column("Number of Parameters / GPT2 Medium", "Batch size")


def test_the_sentence_naming_the_rows_entity_wins_over_its_paragraphs_others() -> None:
    paper = context()
    rows = Chunk(
        "p1#0009",
        "p1",
        "body",
        5,
        "For the ablations we use a batch size of 64. DenseX is trained with a batch size of "
        "128. SparseSieve reads 5 passages.",
        section="4.3 Ablations",
    )
    paper = replace(paper, chunks=(*paper.chunks, rows))
    column = TableColumn(name="Batch size", type="number", is_row_key=False)

    named = stated_value(paper, "DenseX", column)
    unnamed = stated_value(paper, "SparseSieve", column)

    assert named is not None and named[0] == "128" and named[1].chunk_id == "p1#0009"
    assert named[1].value == 128
    # No sentence names SparseSieve's batch size: its paragraph's first statement, not "The
    # batch size is 256." of a paragraph that names no row.
    assert unnamed is not None and unnamed[0] == "64"
    assert stated_value(paper, "BM25", column) is None


def test_a_papers_own_method_has_its_settings_stated_in_paragraphs_not_naming_it() -> None:
    # "The batch size is 256." names no method: no row's reading, unless the row is what the
    # paper itself introduces (its title's "SparseSieve").
    paper = context()
    column = TableColumn(name="Batch size", type="number", is_row_key=False)

    assert stated_value(paper, "SparseSieve", column) is None
    own = stated_value(paper, "SparseSieve", column, own=True)
    assert own is not None and own[0] == "256" and own[1].chunk_id == "p1#0001"
    # A paragraph naming it still wins over those that do not.
    named = Chunk("p1#0009", "p1", "body", 5, "SparseSieve uses a batch size of 128.")
    paper = replace(paper, chunks=(*paper.chunks, named))
    assert stated_value(paper, "SparseSieve", column, own=True)[0] == "128"  # type: ignore[index]
