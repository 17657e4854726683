"""Footnotes tied to the sentence whose mark points at them.

A footnote is read with the sentence it qualifies: "the models are trained for 6 epochs ...
with a learning rate of 5e-5.⁴" and, at the foot of the page, "⁴For LED training, we use
3e-5". The extractor prints the mark glued to the sentence's last character ("5e-5.4",
"embedding.18") and to the footnote's first word ("4For", "18We"); a footnote paragraph is
tied to the one sentence of the paper, on its page or the page before, printing its mark.

Example:
    >>> from littrace.corpus.document import Chunk
    >>> body = Chunk("p#1", "p", "body", 7, "The models use a learning rate of 5e-5.4 We use "
    ...              "beam search.\\n\\n4For LED training, we use 3e-5.")
    >>> [(f.mark, f.text, f.anchor) for f in footnotes((body,))]
    [('4', 'For LED training, we use 3e-5.', 'The models use a learning rate of 5e-5.4 We use beam search.')]
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from littrace.corpus.document import Chunk
from littrace.read.text import sentences

__all__ = ["PARAGRAPH_BREAK", "Footnote", "footnotes"]

PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
# A footnote paragraph opens with its mark glued to a capitalised word: "18We used ...".
_FOOTNOTE = re.compile(r"(\d{1,2})(?=[A-Z][a-z])")
# A mark glued to a sentence's end, before the next sentence or the paragraph's end:
# "embedding.18", "5e-5.4 Following".
_MARK = re.compile(r"(?<=[a-z.)\]%])(\d{1,2})(?=\s+[A-Z]|\s*$)")
# Chunk kinds that print prose (and so footnotes and their marks).
_PROSE = ("title_abstract", "body")


@dataclass(frozen=True)
class Footnote:
    """A footnote (``text``, its mark dropped) and the sentence printing its mark
    (``anchor``, in the chunk ``anchor_chunk``)."""

    mark: str
    text: str
    chunk_id: str
    anchor: str
    anchor_chunk: str


@functools.lru_cache(maxsize=256)
def footnotes(chunks: tuple[Chunk, ...]) -> tuple[Footnote, ...]:
    """The footnotes among one paper's ``chunks`` each tied to the one sentence printing its
    mark on its page or the page before; a footnote no sentence (or more than one) marks is
    left out, as is a paragraph that merely opens with a number. Read once per paper: every
    sentence reader of a question asks for them."""
    notes: list[tuple[Chunk, str, str]] = []
    marked: dict[tuple[int, str], list[tuple[str, str]]] = {}
    for chunk in chunks:
        if chunk.type not in _PROSE:
            continue
        for paragraph in PARAGRAPH_BREAK.split(chunk.text):
            found = _FOOTNOTE.match(paragraph.strip())
            if found:
                notes.append((chunk, found.group(1), paragraph.strip()[found.end() :]))
                continue
            for sentence in sentences(paragraph):
                for mark in _MARK.findall(sentence):
                    marked.setdefault((chunk.page, mark), []).append((sentence, chunk.chunk_id))
    tied = []
    for chunk, mark, text in notes:
        anchors = marked.get((chunk.page, mark)) or marked.get((chunk.page - 1, mark)) or []
        if len(anchors) == 1:
            anchor, anchor_chunk = anchors[0]
            tied.append(Footnote(mark, text, chunk.chunk_id, anchor, anchor_chunk))
    return tuple(tied)
