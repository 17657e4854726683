"""The one sentence splitter."""

from __future__ import annotations

import pytest

from littrace.corpus import sentences as sentences_module
from littrace.corpus.sentences import sentences, split_sentences
from tests.corpus.examples import run_source_examples


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "As Smith et al. (2020) show in Fig. 2, it works. It is fast.",
            ["As Smith et al. (2020) show in Fig. 2, it works.", "It is fast."],
        ),
        (
            "We gain 3.5 points, i.e. more. (See Sec. 4.) Done.",
            ["We gain 3.5 points, i.e. more.", "(See Sec. 4.)", "Done."],
        ),
        (
            "Models, e.g. BERT, help. J. Smith agrees.",
            ["Models, e.g. BERT, help.", "J. Smith agrees."],
        ),
        ("Ends with a citation [3]. Next one.", ["Ends with a citation [3].", "Next one."]),
    ],
)
def test_split_sentences_keeps_abbreviations(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in split_sentences(text)] == expected


def test_sentences_are_the_split_texts() -> None:
    text = "Smith et al. report 3.5 points. See Fig. 2 for details. It works (e.g. on QA)! Done."
    assert sentences(text) == [
        "Smith et al. report 3.5 points.",
        "See Fig. 2 for details.",
        "It works (e.g. on QA)!",
        "Done.",
    ]


def test_module_examples_run() -> None:
    result = run_source_examples(sentences_module)
    assert result.failed == 0 and result.attempted > 0
