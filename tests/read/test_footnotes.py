"""Footnotes tied to the sentence whose mark points at them."""

from __future__ import annotations

from littrace.littraceqa import Question
from littrace.llm.replies import Plan
from littrace.read.choice import sentence_choice
from littrace.read.footnotes import footnotes
from littrace.read.records import SynthesisInput
from tests.read.test_choice import _prose_paper

# Multi-LexSum (arxiv2022_10883) p. 7: the LED learning rate is a footnote to the sentence
# giving every model's, printed at the foot of the page in the next section's chunk.
SETUP = (
    "Implementation For each task, the models are trained for 6 epochs on two RTX A6000 "
    "GPUs, with a learning rate of 5e-5.4 Following previous work, we use beam search."
)
NOTE = "4For LED training, we use 3e-5 following authors' recommendations."


def test_a_footnote_is_tied_to_the_one_sentence_printing_its_mark() -> None:
    paper = _prose_paper(SETUP, "Table 3 lists the results.\n\n" + NOTE)
    (note,) = footnotes(paper.chunks)
    assert (note.mark, note.anchor_chunk, note.chunk_id) == ("4", "p1#1000", "p1#1001")
    assert note.text.startswith("For LED training") and note.anchor.endswith("beam search.")
    # A footnote no sentence marks, or two sentences mark, is tied to none; nor is a
    # paragraph opening with a number a footnote unless a mark points at it.
    assert footnotes(_prose_paper("The models are trained for 6 epochs.", NOTE).chunks) == ()
    twice = _prose_paper(SETUP, "Scores are averaged.4 Others follow.", NOTE)
    assert footnotes(twice.chunks) == ()


def test_a_footnote_says_what_the_sentence_marking_it_says() -> None:
    question = Question.model_validate(
        {
            "query_id": "q",
            "benchmark": "LitTraceQA",
            "question": "When the paper fine-tunes its LED baselines, which learning rate is used?",
            "answer_types": ["multiple_choice"],
            "multiple_choice_options": [
                {"label": "A", "text": "5e-5"},
                {"label": "B", "text": "3e-5"},
                {"label": "C", "text": "1e-4"},
                {"label": "D", "text": "2e-5"},
            ],
        }
    )
    paper = _prose_paper(SETUP, NOTE)
    data = SynthesisInput(question, Plan(), ["p1"], {"p1": paper}, {}, [])
    picked = sentence_choice(question, data)
    assert picked is not None and picked.label == "B"
    # Unmarked, the note names no learning rate and the setup sentence wins.
    unmarked = _prose_paper(SETUP.replace("5e-5.4", "5e-5."), NOTE)
    data = SynthesisInput(question, Plan(), ["p1"], {"p1": unmarked}, {}, [])
    picked = sentence_choice(question, data)
    assert picked is None or picked.label == "A"
