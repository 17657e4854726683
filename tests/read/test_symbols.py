"""What a symbol stands for, read from the clause that defines it."""

from __future__ import annotations

from dataclasses import replace

from littrace.corpus.document import Chunk
from littrace.llm.replies import Plan
from littrace.read.records import PaperContext, SynthesisInput
from littrace.read.symbols import asked_symbols, clause_support, symbol_choice
from tests.read.helpers import context
from tests.read.test_synthesize import ask, run

# QFFT's Equation (1) and MONAQ's problem statement, as their PDFs' text prints them.
KAPPA = (
    "where the observed agreement po = TP+FP+FN+TN, and the expected agreement pe =TP+TN "
    "(TP+FP)(TP+FN)+(FN+TN)(FP+TN)(TP+FP+FN+TN)2 , computed based on the marginal "
    "probabilities of the predicted and actual classes."
)
SEARCH = (
    "Let S be a search space designed by an LLM and M = {Mi}Ci=1 denote a set of C candidate "
    "models sampled from S. Then, let E denote an LLM responsible for evaluating each Mi. "
    "Finally, given a time series X and user task description with constraints T , we aim to "
    "find the model that satisfies the constraints in T on task performance using the LLM E."
)


def _with_body(text: str) -> PaperContext:
    paper = context()
    body = Chunk("p1#0100", "p1", "body", 3, text, section="3.1 Problem Formulation")
    return replace(paper, chunks=(*paper.chunks, body))


def test_the_asked_symbol_is_read_from_the_clause_that_asks() -> None:
    assert asked_symbols(
        "Equation (1) defines (p_o − p_e)/(1 − p_e). What does p_e stand for?"
    ) == ["p_e"]
    assert asked_symbols("It uses M* = argmax E(T, X). What does E denote here?") == ["E"]
    # Articles, pronouns and the names of numbered things are no symbols.
    assert asked_symbols("Which value does Table A give for a model?") == []


def test_an_option_is_supported_by_the_clause_around_the_symbol_not_the_sentence() -> None:
    options = [
        "The observed agreement (TP+TN)/(TP+FP+FN+TN)",
        "The expected (chance) agreement, computed from the marginal probabilities of "
        "predicted and actual classes",
    ]
    # The formula's letters are no words; "observed" belongs to po's clause.
    observed, expected = clause_support("p_e", options, [KAPPA])
    assert expected > 0.8 and observed == 0.5
    # Printed at the end of a long sentence, E is not what that sentence's start says.
    described, evaluating = clause_support(
        "E",
        ["The user task description with constraints", "An LLM evaluating each candidate"],
        [SEARCH],
    )
    assert evaluating > described


def test_the_option_the_defining_clause_says_is_chosen() -> None:
    question = ask(
        "A paper formalizes querying as M* = argmax over M in the candidate set of "
        "E(T, X_train, y_train) (Equation 1). What does E denote in this formulation?",
        [
            "An LLM responsible for evaluating each candidate model",
            "The search space designed by an LLM",
            "The set of C candidate models sampled from the search space",
            "The user task description with constraints",
        ],
        freeform=False,
    )
    paper = _with_body(SEARCH)
    data = SynthesisInput(question, Plan(), ["p1"], {"p1": paper}, {}, [])
    chosen = symbol_choice(question, data)
    assert chosen is not None and chosen[0] == "A"
    assert chosen[2].chunk_id == "p1#0100"
    assert run(question, [paper])["multiple_choice"] == {"gold": "A"}
    # A paper that never defines the symbol leaves the choice to other evidence.
    assert symbol_choice(question, replace(data, contexts={"p1": context()})) is None
