"""What a symbol stands for: multiple choice by the clause that defines it.

A question about an equation often asks what one of its symbols is ("What does E denote in
this formulation?", "What does p_e stand for?"). Papers define a symbol in the clause that
prints it: "let E denote an LLM responsible for evaluating each Mi", "and the expected
agreement pe = ..., computed based on the marginal probabilities ...". The options paraphrase
that clause, so an option is supported by the share of its words (formulas left out) said
around a place the symbol is printed, in its clause from a few words before it (the name it
is given) to some after it (what it is said to be); the option said best is chosen. Symbols are read from the clause that asks, printed as the paper prints them
("p_e" as "pe" or "p e").

Example:
    >>> clause_support("E", ["an LLM that evaluates models", "the search space"],
    ...                ["Then, let E denote an LLM responsible for evaluating each model."])
    [1.0, 0.0]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from littrace.corpus.document import Chunk
from littrace.littraceqa import Question
from littrace.read.records import Fact, SynthesisInput
from littrace.read.text import asking_clause, sentences, terms

__all__ = ["asked_symbols", "clause_support", "symbol_choice"]

# A symbol in running text: one letter, Latin or Greek, maybe with a subscript or a star
# ("E", "p_e", "M*", "α"), standing alone.
_SYMBOL = re.compile(r"(?<![\w.*/-])([A-Za-zα-ωΑ-Ω](?:_\{?[A-Za-z0-9]{1,6}\}?|\*)?)(?![\w*(-])")
# Single letters that are words, or names of a numbered thing ("Table A", "Appendix B").
_NOT_SYMBOLS = frozenset("aAI")
_NAMED_BEFORE = re.compile(
    r"\b(?:table|figure|fig\.|section|appendix|option|equation|eq\.|type|class|group)\s*$",
    re.IGNORECASE,
)
# Where a defining clause ends: a semicolon or colon, ", and", ", where", or the sentence.
_CLAUSE_BREAK = re.compile(r"[;:]|,\s+(?:and|where|while|whereas)\s|\bwhere\s")
# A word, not a number.
_WORD = re.compile(r"[a-z][a-z-]*")
# A token of a formula, which says nothing of what a clause says ("(TP+TN)/(TP+FP)"): it
# holds an operator.
_FORMULA = re.compile(r"[+=/^_<>]|\w\(")
# The words before a symbol that may name it, and after it that may say what it is.
_BEFORE, _AFTER = 6, 15
# The option whose words the defining clause says best must say at least this share of them.
_FLOOR = 0.5
_MARGIN = 0.15


def asked_symbols(question: str) -> list[str]:
    """The symbols the asking clause of ``question`` names ("What does p_e stand for?")."""
    clause = asking_clause(question)
    found = []
    for m in _SYMBOL.finditer(clause):
        if m.group(1) in _NOT_SYMBOLS or _NAMED_BEFORE.search(clause[: m.start()]):
            continue
        found.append(m.group(1))
    return list(dict.fromkeys(found))


def _printed_forms(symbol: str) -> list[re.Pattern[str]]:
    """The ways a PDF's text prints ``symbol``: "p_e" as "p_e", "pe", "p e", "p_{e}";
    "M*" as "M*", "M⋆", "M∗"."""
    letter, _, subscript = symbol.partition("_")
    subscript = subscript.strip("{}")
    if symbol.endswith("*"):
        spelled = [re.escape(symbol[:-1]) + "[*⋆∗]"]
    elif subscript:
        spelled = [re.escape(letter) + sep + re.escape(subscript) for sep in ("_\\{?", "", " ")]
    else:
        spelled = [re.escape(symbol)]
    return [re.compile(rf"(?<![\w]){form}(?![\w])") for form in spelled]


def _defining_clauses(symbol: str, sentence: str) -> list[str]:
    """Around each place ``symbol`` is printed in ``sentence``: the words of its clause from
    a few before it (the name it is given, "the expected agreement pe") to some after it
    (what it is said to be, "denote an LLM responsible for ...")."""
    forms = _printed_forms(symbol)
    found = []
    for clause in _CLAUSE_BREAK.split(sentence):
        tokens = clause.split()
        for i in range(len(tokens)):
            # "p e" is printed over two tokens.
            here = " ".join(tokens[i : i + 2])
            if any(form.match(here) for form in forms):
                found.append(" ".join(tokens[max(0, i - _BEFORE) : i + 1 + _AFTER]))
    return found


def _words(text: str) -> set[str]:
    """The words of ``text``, its formulas ("(TP+TN)/(TP+FP)", "=TP+TN") left out."""
    prose = " ".join(token for token in text.split() if not _FORMULA.search(token))
    return {t for t in terms(prose) if _WORD.fullmatch(t)}


def clause_support(symbol: str, options: Sequence[str], texts: Sequence[str]) -> list[float]:
    """Each option's best share of its words that a clause of ``texts`` printing ``symbol``
    says."""
    clauses = [said for text in texts for said in _clauses_of(symbol, text)]
    return [_share(_words(option), clauses) for option in options]


def _clauses_of(symbol: str, text: str) -> list[set[str]]:
    return [
        _words(clause)
        for sentence in sentences(text)
        for clause in _defining_clauses(symbol, sentence)
    ]


def _share(words: set[str], clauses: Sequence[set[str]]) -> float:
    if not words:
        return 0.0
    return round(max((len(words & said) / len(words) for said in clauses), default=0.0), 4)


def symbol_choice(question: Question, data: SynthesisInput) -> tuple[str, str, Fact] | None:
    """The option the clause defining the asked symbol says best, with the grounds for the
    trace and the defining chunk as a fact; None without one asked symbol or a clear
    winner."""
    options = question.multiple_choice_options or []
    symbols = asked_symbols(question.question)
    if not options or len(symbols) != 1:
        return None
    symbol = symbols[0]
    defining = [
        (chunk, clauses)
        for paper_id in data.papers
        if (context := data.contexts.get(paper_id)) is not None
        for chunk in context.chunks
        if chunk.type == "body" and (clauses := _clauses_of(symbol, chunk.text))
    ]
    # Words the question already prints tell no option apart.
    asked = _words(question.question)
    support: dict[str, float] = {}
    grounds: dict[str, Chunk] = {}
    for option in options:
        words = _words(option.text) - asked
        for chunk, clauses in defining:
            score = _share(words, clauses)
            if score > support.get(option.label, 0.0):
                support[option.label], grounds[option.label] = score, chunk
    ranked = sorted(support.items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] < _FLOOR:
        return None
    (label, score), runner_up = ranked[0], (ranked[1][1] if len(ranked) > 1 else 0.0)
    if score - runner_up < _MARGIN * score:
        return None
    chunk = grounds[label]
    fact = Fact(chunk.paper_id, chunk.chunk_id, chunk.text, None, "", symbol, "definition")
    return label, f"clause defining {symbol}: {score:.2f} of option {label}'s words", fact
