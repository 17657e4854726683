"""Values a paper states in prose: "a batch size of 32", "we use the SGD optimizer".

Training details and corpus statistics are often written out rather than tabulated. A table
answer's column that no table of the paper holds is read from the body sentence that names
the column (every word of its name before a parenthesis, "Batch size" of "Batch size
(sequences)"): a number column takes the number printed closest to the name, a string
column the closest name-like word (capitals or digits inside it: "AdamW", "SGD", "GPT-4";
a capitalised word right before the name: "Adam optimizer"), neither more than a few words
away, nor inside a parenthesis (a citation), nor past a comma. Only a paragraph naming the
row's entity states its value, unless the entity is what the paper introduces (a paper
states its own settings without its name): a sentence naming it beats the others; then a
paragraph naming it, the closer value, the earlier sentence.

Example:
    >>> from littrace.read.stated import sentence_value
    >>> sentence_value("In all cases, we use AdamW (Loshchilov and Hutter 2019) as the optimizer.",
    ...                "Optimizer", "string")
    ('AdamW', 2)
    >>> sentence_value("We train for 200 epochs of 256 batch size.", "Batch size", "number")
    ('256', 0)
"""

from __future__ import annotations

import re

from littrace.littraceqa import TableColumn
from littrace.numbers import numbers
from littrace.read.records import Fact, PaperContext
from littrace.read.text import STOPWORDS, contains_phrase, sentences, terms
from littrace.read.units import terms_match

# Words between a column's name and its value: "a batch size of 32", "AdamW as the optimizer".
MAX_GAP = 3
_WORD = re.compile(r"\S+")
_PARENTHESIS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
# A name as papers print one: a capital or digit past its first letter ("AdamW", "SGD",
# "GPT-4", "LLaMA"), not a capitalised ordinary word.
_NAME = re.compile(r"[A-Za-z][\w.+-]*(?:[A-Z]|\d)[\w.+-]*")
# A capitalised word, a name only right before the column's name ("Adam optimizer").
_CAPITALISED = re.compile(r"[A-Z][a-z]{2,}")


def _name_terms(column: str) -> list[str]:
    """The words naming a column, its parenthesised note aside ("Max length (tokens)")."""
    return terms(column.split("(")[0])


def _names_part(word: str, wanted: frozenset[str]) -> bool:
    return any(terms_match(term, wanted) for term in terms(word))


def names_column(text: str, column: str) -> bool:
    """Whether ``text`` holds every word naming the column ``column`` (its parenthesised
    note aside), as the word or a form of it: "batch sizes" names "Batch size"."""
    said = frozenset(terms(text))
    return bool(_name_terms(column)) and all(
        any(terms_match(term, frozenset({word})) for term in said) for word in _name_terms(column)
    )


def sentence_value(sentence: str, column: str, column_type: str) -> tuple[str, int] | None:
    """The value ``sentence`` states for the column named ``column`` and how many words lie
    between it and the name, or None when the sentence does not name the column or prints
    no value near it."""
    wanted = frozenset(_name_terms(column))
    if not wanted:
        return None
    # A parenthesis (nested ones too) is blanked, its words kept apart from the distances.
    bare, previous = sentence, ""
    while bare != previous:
        previous, bare = bare, _PARENTHESIS.sub(lambda m: " " * len(m[0]), bare)
    words = [(m.start(), m.end(), m[0]) for m in _WORD.finditer(bare)]
    named = [i for i, (_, _, word) in enumerate(words) if _names_part(word, wanted)]
    if not named or not names_column(" ".join(words[i][2] for i in named), column):
        return None
    first, last = min(named), max(named)
    # The name's words stand together ("batch size", "size of each batch"), not apart.
    if last - first > len(wanted) + 1:
        return None
    candidates: list[tuple[int, bool, str]] = []
    for i, (_, _, word) in enumerate(words):
        if first <= i <= last:
            continue
        if column_type == "number":
            found = numbers(word)
            if not found:
                continue
            value = found[0].text
        else:
            bare = word.strip(",.;:")
            match = _NAME.fullmatch(bare)
            # A capitalised word just before the name, not a stop word ("Our optimizer"),
            # is the name's own ("we adopt Adam optimizer").
            if match is None and i == first - 1 and bare.lower() not in STOPWORDS:
                match = _CAPITALISED.fullmatch(bare)
            if match is None or _names_part(word, wanted):
                continue
            value = match[0]
        between = words[i:first] if i < first else words[last:i]
        # A clause mark between them ("a maximum of 1, a batch size of 32") parts them.
        if any(text.endswith((",", ";", ":")) for _, _, text in between):
            continue
        gap = len(between) - 1
        if gap <= MAX_GAP:
            candidates.append((gap, i < first, value))
    if not candidates:
        return None
    # Equally close, the value after the name ("a batch size of 32") is the one it states.
    gap, _, value = min(candidates)
    return value, gap


def stated_value(
    context: PaperContext, entity: str, column: TableColumn, own: bool = False
) -> tuple[str, Fact] | None:
    """The value the paper's body states for ``column`` of the row ``entity``
    (:func:`sentence_value`) in a paragraph naming the entity, the sentence naming it first;
    or None. With ``own`` (the entity is what the paper itself introduces) any paragraph
    states it, after those naming it: a paper writes its own settings without its name
    ("We set the batch size to 32")."""
    best: tuple[tuple[int, int, int], str, str, str] | None = None
    for chunk in context.chunks:
        # A value stated in a paragraph that names no such row ("a batch size of 64" of an
        # ablation, a "method" of another work's) is no reading of this row's.
        named = contains_phrase(chunk.text, entity)
        if chunk.type != "body" or not (named or own):
            continue
        for sentence in sentences(chunk.text):
            found = sentence_value(sentence, column.name, column.type)
            if found is None:
                continue
            rank = (-contains_phrase(sentence, entity), -named, found[1])
            if best is None or rank < best[0]:
                best = (rank, found[0], sentence, chunk.chunk_id)
    if best is None:
        return None
    _, raw, sentence, chunk_id = best
    value = numbers(raw)[0].value if column.type == "number" else None
    return raw, Fact(context.paper_id, chunk_id, sentence, value, "", entity, column.name)
