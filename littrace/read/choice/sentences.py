"""Choices by sentence windows: the option printed in the sentences that name most of the
question, and the options' numbers the evidence prints."""

from __future__ import annotations

import math
import operator
import re
from collections import Counter
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from functools import reduce
from itertools import pairwise, product

from littrace.corpus.document import PaperRecord
from littrace.littraceqa import Question
from littrace.numbers import Number, numbers, same_number, spelled_as_digits, without_numbers
from littrace.read.choice.counts import (
    COORDINATING,
    MODIFIED_WEIGHT,
    UNCOUNTED_WEIGHT,
    Quantities,
    count_share,
    counted_terms,
    quantities,
    stated,
    states,
)
from littrace.read.choice.units import Choice, contenders, prints_option, table_units, winner
from littrace.read.footnotes import PARAGRAPH_BREAK, footnotes
from littrace.read.records import Fact, SynthesisInput
from littrace.read.text import contains_phrase, norm, sentences, stem, terms
from littrace.read.units import blends, without_contrast

# Chunk kinds whose sentences are prose a question can be aligned with.
_PROSE = ("title_abstract", "body")
# The sentences around the one printing an option count this much of what they name.
_NEIGHBOUR_WEIGHT = 0.5
# Sentence windows must separate options more clearly than table cells do.
_SENTENCE_MARGIN = 0.15
# A question word the paper's title or abstract says counts this much in a sentence window.
_DESCRIBING_WEIGHT = 0.5
# A paragraph's heading printed at its start, a few words closed by a full stop, before a
# sentence: "Authors.", "Entity mentions." (not "Fig. 3", not a full sentence).
_RUN_IN_HEADING = re.compile(r"([A-Z][A-Za-z-]{3,}(?: [A-Za-z-]+){0,2})\.\s+(?=[A-Z])")


@dataclass(frozen=True)
class Window:
    paper_id: str
    chunk_id: str
    text: str
    own: frozenset[str]
    around: frozenset[str]


# A hyphenated name: words joined by hyphens, one of them capitalised ("Sentence-BERT").
_HYPHENATED_NAME = re.compile(r"\b(?=[\w-]*[A-Z])\w+(?:-\w+)+\b")
# A sentence opening with a pronoun or demonstrative that refers to the sentence before.
_POINTING_BACK = re.compile(r"^(?:these|this|those|such|it|they)\b", re.IGNORECASE)


def sentence_windows(data: SynthesisInput) -> list[Window]:
    """Each prose sentence of the selected papers with the sentences beside it in its
    paragraph (a sentence pointing back, "These experiments ...", names what the one before
    it names); a paragraph's run-in heading ("Authors. Each node of this type ...") is named
    by every sentence of the paragraph, since it says what they are about; a name running
    two of the question's neighbouring words together names both ("SCIVOCAB" for
    "scientific vocabulary")."""
    said = terms(data.question.question)
    blended = {name: pair for name, pair in blends(said).items() if name not in said}
    # A hyphenated name the question prints (capitals in it: a name, not a description such
    # as "scientific-domain") is named by its words printed apart ("Sentence BERT" for
    # "Sentence-BERT").
    spaced = {
        f" {' '.join(stem(part) for part in term.split('-'))} ": term
        for name in _HYPHENATED_NAME.findall(data.question.question)
        for term in terms(name)
        if "-" in term.strip("-")
    }

    def named(text: str) -> frozenset[str]:
        own = terms(text)
        joined = f" {' '.join(own)} "
        apart = {term for words, term in spaced.items() if words in joined}
        return frozenset(own).union(apart, *(blended[term] for term in own if term in blended))

    windows = []
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None:
            continue
        # A footnote says what the sentence marking it says: "⁴For LED training, we use 3e-5".
        noted = {(note.chunk_id, note.mark + note.text): note for note in footnotes(context.chunks)}
        for chunk in context.chunks:
            if chunk.type not in _PROSE:
                continue
            for paragraph in _paragraphs(chunk.text):
                note = noted.get((chunk.chunk_id, paragraph.strip()))
                parts = sentences(note.text if note else paragraph)
                heading = _RUN_IN_HEADING.match(paragraph)
                topic = frozenset(terms(heading.group(1))) if heading else frozenset()
                if note:
                    topic = topic | named(note.anchor)
                held = [named(part) | topic for part in parts]
                # A sentence whose subject points back ("These experiments were carried out
                # on 24 GPUs") says what the one before it names.
                for i in range(1, len(parts)):
                    if _POINTING_BACK.match(parts[i]):
                        held[i] = held[i] | held[i - 1]
                for i, part in enumerate(parts):
                    around = frozenset().union(*held[max(0, i - 1) : i], *held[i + 1 : i + 2])
                    windows.append(Window(paper_id, chunk.chunk_id, part, held[i], around))
    return windows


# A paragraph break the extractor put inside a sentence: the text before it ends without a
# sentence's end, the text after it starts as no sentence does ("an effective batch size
# of" | "32. Each training epoch ...").
# A footnote opening with its mark ("4For LED ...") is no such continuation.
_BROKEN_SENTENCE = re.compile(r"(?<=[a-z,])\s*\n\s*\n\s*(?=[a-z0-9])(?!\d{1,2}[A-Z][a-z])")


def _paragraphs(text: str) -> list[str]:
    """The paragraphs of a chunk's text, a sentence broken over two of them mended."""
    return PARAGRAPH_BREAK.split(_BROKEN_SENTENCE.sub(" ", text))


def rarity(asked: Iterable[str], units: Sequence[Container[str]]) -> dict[str, float]:
    """Each asked term's weight: its rarity (IDF) among what the units (a window's own
    terms, a table row's) name."""
    frequency = {t: sum(t in unit for unit in units) for t in asked}
    return {t: math.log((len(units) + 1) / (n + 0.5)) for t, n in frequency.items()}


def window_score(window: Window, weight: dict[str, float]) -> float:
    """The weight of the terms ``window`` names, those only its neighbours name at half."""
    named = sum(w for t, w in weight.items() if t in window.own)
    nearby = sum(w for t, w in weight.items() if t in window.around - window.own)
    return named + _NEIGHBOUR_WEIGHT * nearby


# A cross-reference printed without its space ("Eq.9", "Fig.3") is the one an option prints
# spaced ("Eq. 9").
_UNGLUED_REFERENCE = re.compile(r"\b(Eqs?|Figs?|Secs?|Tabs?|Refs?|Algs?)\.(?=\d)", re.IGNORECASE)


def _printed(option: str) -> list[Number]:
    """The numbers an option is ("12M", "About 684K"); [] when it is words ("GloVe")."""
    printed = numbers(option)
    return printed if printed and len(terms(option)) <= len(printed) else []


def _counting(said: Quantities, option: str, counted: Sequence[str]) -> float:
    """How much of a window's support an option keeps when the question counts something
    (``counted``): all where the sentence counts it with the option's number
    (:func:`count_share`), half where the number counts something else."""
    tokens = [word for word in option.split() if word[:1].isdigit()]
    share = max((count_share(said.text, token, counted) for token in tokens), default=0.0)
    return share or UNCOUNTED_WEIGHT


def describing_terms(question: str, paper: PaperRecord) -> frozenset[str]:
    """The question's terms that describe ``paper``: those of a pair of terms the question
    and the paper's title or abstract both print one after the other ("scientific
    literature"), since a question describes its paper in the abstract's words.

    Example:
        >>> paper = PaperRecord("p", "Graphs", (), "We organize scientific literature.", "", 2018, True)
        >>> sorted(describing_terms("How many nodes has the scientific literature graph?", paper))
        ['literatur', 'scientific']
    """
    said = terms(f"{paper.title}\n{paper.abstract}")
    pairs = set(pairwise(said))
    asked = terms(question)
    return frozenset(t for pair in pairwise(asked) if pair in pairs for t in pair)


def described_in_papers(question: str, data: SynthesisInput) -> dict[str, frozenset[str]]:
    """Each selected paper's id -> the question's terms that describe it
    (:func:`describing_terms`: "the paper on organizing the scientific literature")."""
    return {
        paper_id: describing_terms(question, context.paper)
        if (context := data.contexts.get(paper_id))
        else frozenset()
        for paper_id in data.papers
    }


def weights_in_papers(
    weight: dict[str, float], described: dict[str, frozenset[str]]
) -> dict[str, dict[str, float]]:
    """Each paper's id -> the question terms' ``weight`` there, the terms that describe the
    paper (``described``, :func:`described_in_papers`) at a fraction, since they find the
    paper, not the sentence in it."""
    return {
        paper_id: {t: w * (_DESCRIBING_WEIGHT if t in own else 1.0) for t, w in weight.items()}
        for paper_id, own in described.items()
    }


@dataclass(frozen=True)
class WindowWeights:
    """The question's terms that no option prints, weighted by their rarity among the
    sentence windows (``terms``), and per paper with the terms describing it at a fraction
    (``by_paper``, :func:`weights_in_papers`)."""

    terms: dict[str, float]
    by_paper: dict[str, dict[str, float]]
    total: float

    def share(self, window: Window) -> float:
        """The share of the question's weight ``window`` names
        (:func:`window_score` over the total)."""
        return window_score(window, self.by_paper[window.paper_id]) / self.total


def window_weights(
    question: Question, data: SynthesisInput, windows: Sequence[Window]
) -> WindowWeights | None:
    """The question's term weights over ``windows`` (see :class:`WindowWeights`); None when
    no term weighs anything."""
    told = frozenset(t for o in question.multiple_choice_options or [] for t in terms(o.text))
    asked = [t for t in dict.fromkeys(terms(question.question)) if t not in told]
    weight = rarity(asked, [window.own for window in windows])
    total = sum(weight.values())
    if total <= 0:
        return None
    described = described_in_papers(question.question, data)
    return WindowWeights(weight, weights_in_papers(weight, described), total)


def sentence_choice(
    question: Question, data: SynthesisInput, among: Sequence[str] | None = None
) -> Choice | None:
    """The option (of the labels ``among``, default all) printed in the sentence window that
    names most of the question."""
    every = question.multiple_choice_options or []
    options = [o for o in every if among is None or o.label in among]
    windows = sentence_windows(data)
    if not options or not windows:
        return None
    weights = window_weights(question, data, windows)
    if weights is None:
        return None
    counted = counted_terms(question.question)
    counting = {o.label: any(w[:1].isdigit() for w in o.text.split()) for o in options}
    printed = {o.label: _printed(o.text) for o in options}
    support = {o.label: 0.0 for o in options}
    grounds: dict[str, Window] = {}
    counts: dict[str, bool] = {}
    # Windows are read as quantities only when an option is a number to find in them.
    numeric = any(printed.values()) or (bool(counted) and any(counting.values()))
    blank = Quantities([], [], "")
    for window in windows:
        said = quantities(window.text) if numeric else blank
        for option in options:
            # An option that is numbers is printed as quantities, one of words as a phrase.
            if printed[option.label]:
                if not all(said.holds(p) for p in printed[option.label]):
                    continue
            # A sentence printing an option only as the contrast of what it says ("a fifth
            # grade reading level rather than second grade") does not say it.
            elif not contains_phrase(
                _UNGLUED_REFERENCE.sub(r"\1. ", without_contrast(window.text)), option.text
            ):
                continue
            score = weights.share(window)
            share = 1.0
            if counted and counting[option.label]:
                share = _counting(said, option.text, counted)
            score = round(score * share, 4)
            if score > support[option.label]:
                support[option.label], grounds[option.label] = score, window
                counts[option.label] = share > UNCOUNTED_WEIGHT
    label = winner(support, _SENTENCE_MARGIN)
    how = "sentence"
    if label is None and not counted:
        label = _named_beside(question, support, grounds, printed)
        how = "sentence, the number the question's words stand beside"
    # A number no sentence prints counting what the question counts is no count of it.
    if label is None or (counted and counting[label] and not counts[label]):
        return None
    window = grounds[label]
    fact = Fact(window.paper_id, window.chunk_id, window.text, None, "", "", "sentence")
    return Choice(label, support, f"{how}: {window.text[:120]}", [fact])


# How many words before and after a number its own phrase reaches ("an effective batch
# size of 32", "3,451 high-quality tools").
_BESIDE_BEFORE = 4
_BESIDE_AFTER = 3


def _named_beside(
    question: Question,
    support: dict[str, float],
    grounds: dict[str, Window],
    printed: dict[str, list[Number]],
) -> str | None:
    """Of numeric options tied on one sentence window, the one whose own phrase there (the
    few words of its clause around it) holds the most question terms: "batch size of 4 ...
    an effective batch size of 32" answers "what effective batch size" with 32."""
    if max(support.values(), default=0.0) <= 0:
        return None
    tied = contenders(support, _SENTENCE_MARGIN)
    if len(tied) < 2 or not all(printed[label] for label in tied):
        return None
    if len({id(grounds[label]) for label in tied}) != 1:
        return None
    wanted = frozenset(terms(question.question))
    text = stated(grounds[tied[0]].text)
    said = numbers(text)
    named = {label: _beside_terms(text, said, printed[label], wanted) for label in tied}
    top = max(named.values())
    leaders = [label for label, n in named.items() if n == top]
    return leaders[0] if top > 0 and len(leaders) == 1 else None


def _beside_terms(
    text: str, said: list[Number], option: list[Number], wanted: frozenset[str]
) -> int:
    """The most question terms the clause words around one printing of the option hold."""
    best = 0
    for number in said:
        if not any(states(number, claimed) for claimed in option):
            continue
        before = _CLAUSE.split(text[: number.start])[-1].split()[-_BESIDE_BEFORE:]
        after = _CLAUSE.split(text[number.end :])[0].split()[:_BESIDE_AFTER]
        best = max(best, len(wanted.intersection(terms(" ".join(before + after)))))
    return best


# Where a clause ends around a number: punctuation, brackets, and the conjunctions that join
# clauses.
_CLAUSE = re.compile(rf"[,;:()\[\]]|\.\s|\s(?:{'|'.join(sorted(COORDINATING))})\s", re.I)


def printed_support(
    question: Question, passages: Sequence[str], among: Sequence[str] | None = None
) -> dict[str, float]:
    """Each option's (of the labels ``among``, default all) share of its telling numbers that
    ``passages`` print at the option's precision; empty when no option prints one.

    A number every option prints tells nothing, as many times as each prints it: "33
    subtypes; 33 bins" tells its second 33 apart from "33 subtypes; 32 bins". Options that
    state several numbers ("36.4 -> 44.4 (up 8.0)") differ from their distractors in one of
    them, so the option whose numbers the evidence holds is the one read there; a number
    that is the difference of two of the option's own numbers the evidence holds counts as
    held (the "up 8.0").
    """
    options = [
        o for o in question.multiple_choice_options or [] if among is None or o.label in among
    ]
    printed = {o.label: numbers(o.text) for o in options}
    texts = {label: Counter(n.text for n in found) for label, found in printed.items()}
    common = reduce(operator.and_, texts.values()) if texts else Counter()
    tellings = {label: list((found - common).elements()) for label, found in texts.items()}
    if not any(tellings.values()):
        return {}
    values = {n.value for passage in passages for n in numbers(passage)}

    def held(text: str) -> bool:
        return any(same_number(value, text) for value in values)

    support = {}
    for label, option_numbers in printed.items():
        found = [n for n in option_numbers if held(n.text)]
        telling = tellings[label]
        held_here = {n.text for n in found} | {
            text
            for text in telling
            if any(
                same_number(abs(a - b), text)
                for a, b in product([n.value for n in found if n.text != text], repeat=2)
            )
        }
        support[label] = (
            round(sum(text in held_here for text in telling) / len(telling), 4) if telling else 0.0
        )
    return support


def counting_sentence(question: Question, data: SynthesisInput) -> tuple[str, Fact] | None:
    """For "how many X": the number a sentence prints counting X ("100 LATEX parses" for
    "how many LaTeX parses"), from the window that names most of the question, a count of
    X without every word the question puts before it ("8 questions" for "how many key
    questions") at a fraction (:func:`count_share`); None when no sentence counts X, or two
    windows naming it alike print different counts."""
    counted = counted_terms(question.question)
    windows = sentence_windows(data) if counted else []
    weights = window_weights(question, data, windows) if windows else None
    if weights is None:
        return None
    # The question's own numbers are what it counts within ("of the nine tasks"), no answer.
    given = {n.text for n in numbers(spelled_as_digits(question.question))}
    found: list[tuple[float, str, Window]] = []
    for window in windows:
        text = stated(window.text)
        for word in dict.fromkeys(w.strip(",;:()").rstrip(".") for w in text.split()):
            if word in given:
                continue
            # A count is a whole number ("100 LATEX parses"; not "6.8 entries" on average).
            share = count_share(text, word, counted) if word.isdigit() else 0.0
            if share >= MODIFIED_WEIGHT:
                found.append((share * weights.share(window), word, window))
    if not found:
        return None
    best = max(score for score, _, _ in found)
    counts = {word for score, word, _ in found if score == best}
    if len(counts) == 2:
        # Both ends of a range one window prints count alike: "a list of 4 to 8 products".
        window = next(item[2] for item in found if item[0] == best)
        low, high = sorted(counts, key=int)
        printed = re.search(rf"\b{low}(\s*(?:to|-|–)\s*){high}\b", stated(window.text))
        if printed is not None:
            fact = Fact(window.paper_id, window.chunk_id, window.text, None, "", "", "sentence")
            return printed.group(0), fact
    if len(counts) != 1:
        return None
    _, word, window = next(item for item in found if item[0] == best)
    fact = Fact(window.paper_id, window.chunk_id, window.text, float(word), "", "", "sentence")
    return word, fact


def row_sentence_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """For options that are numbers printed in distinct rows of one table (the "#heads" of
    "variant 1" ... "variant 6"), the option whose row a prose sentence of that paper names
    alone, among them, with most of the question: the question names the row only by what
    the paper says of it ("the configuration it finally selects" for "we ultimately chose
    variant 3 as the final InternViT-6B")."""
    options = question.multiple_choice_options or []
    printed = {o.label: numbers(o.text) for o in options}
    if not options or any(
        len(found) != 1 or terms(without_numbers(o.text))
        for o, found in zip(options, printed.values(), strict=True)
    ):
        return None
    windows = sentence_windows(data)
    weights = window_weights(question, data, windows) if windows else None
    if weights is None:
        return None
    best: tuple[float, Choice] | None = None
    for table in table_units(question, data):
        rows = {
            label: {
                cell.row_path[-1]
                for cell in table.cells
                if cell.row_path and prints_option(cell, found[0].text)
            }
            for label, found in printed.items()
        }
        labels = [row for found in rows.values() for row in found]
        if not all(rows.values()) or len({norm(row) for row in labels}) != len(labels):
            continue
        support = dict.fromkeys(rows, 0.0)
        grounds: dict[str, Window] = {}
        for window in windows:
            if window.paper_id != table.context.paper_id:
                continue
            naming = [
                label
                for label, found in rows.items()
                for row in found
                if contains_phrase(window.text, row)
            ]
            if len(naming) != 1:
                continue
            score = round(weights.share(window), 4)
            if score > support[naming[0]]:
                support[naming[0]], grounds[naming[0]] = score, window
        label = winner(support, _SENTENCE_MARGIN)
        if label is None or (best is not None and support[label] <= best[0]):
            continue
        window = grounds[label]
        fact = Fact(window.paper_id, window.chunk_id, window.text, None, "", "", "sentence")
        how = f"{table.obj.scorer_id}: the row a sentence names: {window.text[:120]}"
        best = (support[label], Choice(label, support, how, [fact]))
    return best[1] if best else None
