"""Options cut into the claims they make, each supported by the paper it is about."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from littrace.littraceqa import Question
from littrace.numbers import Number, decimals, numbers, same_number, spelled_as_digits
from littrace.read.choice.sentences import (
    Window,
    rarity,
    sentence_windows,
    weights_in_papers,
    window_score,
)
from littrace.read.choice.units import TableUnits, printed_numbers, table_units, without_numbers
from littrace.read.records import PaperContext, SynthesisInput
from littrace.read.text import norm, terms
from littrace.read.units import CITATION, terms_match
from littrace.read.views import ENUMERATION_ITEM, paper_views, question_parts

# An enumeration marker that says which of several things a claim is about: "(i)", "(b)".
_MARKER = re.compile(rf"{ENUMERATION_ITEM}\s*")
# A claim part ends at a semicolon or where the next marked one begins.
_CLAIM_END = re.compile(rf";\s*|\s*(?={ENUMERATION_ITEM}\s)")
# A claim said of every paper at once.
_EVERY = re.compile(r"\b(?:both|each|all|same)\b", re.IGNORECASE)
# What follows "so" is inferred from the claims, not printed anywhere.
_CONSEQUENCE = re.compile(r",?\s+(?:so|hence|thus|therefore)\s+")
_CONJUNCTION = re.compile(r",?\s+(?:and|while|whereas|but)\s+")
# Two claims listed with a comma, each led by its count: "one in the extractor, two in the
# detector".
_COUNTS_LISTED = re.compile(r"^\d[^,]*,\s+\d[^,]*$")
# A number that points at a part of the paper, not a quantity: "Figure 1", "Table 3",
# "Section 4.2", "Eq. (5)".
_CROSS_REFERENCE = re.compile(
    r"\b(?:Fig(?:ure)?s?|Tables?|Sec(?:tion)?s?|Eq(?:uation)?s?|Appendix|§)\.?\s*\(?[A-Z]?\d+"
    r"(?:\.\d+)*\)?",
    re.IGNORECASE,
)
# A list item's number: "(1) Parameter-balanced ...", "we set 1) SemEAGAT, 2) -BiLSTM".
_LIST_MARKER = re.compile(r"(?:(?<=\s)|^)\(?\d\)(?=\s)")
# What a count question counts: the noun closing the words after "how many" ("How many
# BiLSTM layers does each use?" counts layers).
_COUNTED = re.compile(
    r"\bhow\s+many\s+((?:[\w-]+\s+){0,3}?[\w-]+?)(?=\s+(?:does|do|did|is|are|was"
    r"|were|has|have|had|can|could|will|would|in|of|on|for|at|per|than|make|made|more|fewer|less|larger|smaller|higher|lower)\b|[?,])",
    re.IGNORECASE,
)
# A window that prints a claim's number without the noun the question counts supports it
# this much.
_UNCOUNTED_WEIGHT = 0.5


@dataclass(frozen=True)
class Claim:
    """One part of an option ("(ii) GloVe", "the embedding paper uses 5 × 10−5"): what it
    says (its numbers, else its words) and the question text it answers."""

    text: str
    marker: str


def option_claims(text: str) -> list[Claim]:
    """An option cut into the claims it makes, at semicolons and enumeration markers.

    Example:
        >>> [(c.marker, c.text) for c in option_claims("(i) GloVe; (ii) Skip-gram on NYT")]
        [('(i)', 'GloVe'), ('(ii)', 'Skip-gram on NYT')]
    """
    claims = []
    for piece in _CLAIM_END.split(text):
        marker = _MARKER.match(piece.strip())
        body = piece.strip()[marker.end() :] if marker else piece.strip()
        body = _CONSEQUENCE.split(body, maxsplit=1)[0]
        # "A uses 1e-5 and B uses 5 × 10−5": two claims, each with its value.
        halves = _CONJUNCTION.split(body, maxsplit=1)
        if _COUNTS_LISTED.match(spelled_as_digits(body)):
            said = body.split(",", 1)
        elif len(halves) == 2 and all(printed_numbers(CITATION.sub("", h)) for h in halves):
            said = halves
        else:
            said = [body]
        for claim in said:
            if terms(claim) or printed_numbers(claim):
                claims.append(Claim(claim.strip(" ,."), marker.group(0).strip() if marker else ""))
    return claims


# A count as one word prints it: "3", "2-5", "2.5".
_COUNT = re.compile(r"\d+(?:\.\d+)?(?:[-–]\d+(?:\.\d+)?)?")
# How far after its number a counted word may be printed ("3 APIs", "3 distinct APIs").
_COUNT_REACH = 3


def _counts(text: str) -> list[tuple[str, str]]:
    """The numbers ``text`` prints with the word they count: "2-5 tools; at most 3 APIs"
    gives ("2-5", "tools") and ("3", "apis")."""
    words = text.split()
    found = []
    for word, after in pairwise(words):
        if _COUNT.fullmatch(word) and after[:1].isalpha():
            noun = terms(after)
            if noun:
                found.append((word, noun[0]))
    return found


def _prints_count(sentence: str, count: str, noun: str) -> bool:
    """Whether ``sentence`` prints ``count`` (a number or a range, read as printed) with
    ``noun`` a few words after it ("24 A800 GPUs", "a 2-layer BiLSTM")."""
    words = sentence.replace(f"{count}-", f"{count} ").split()
    for i, word in enumerate(words):
        if word.strip(",;:()") != count:
            continue
        for after in words[i + 1 : i + 1 + _COUNT_REACH]:
            said = terms(after)
            if said and terms_match(said[0], frozenset([noun])):
                return True
    return False


def counted_noun(question: str) -> str:
    """The term a count question counts ("" when it asks no count).

    Example:
        >>> counted_noun("How many BiLSTM layers does each of them use?")
        'layer'
    """
    found = _COUNTED.search(question)
    said = terms(found.group(1)) if found else []
    return said[-1] if said else ""


def stated(text: str) -> str:
    """``text`` without the numbers that state no quantity: citation markers,
    cross-references and list markers ("[32]", "Figure 1", "(2)", "3)")."""
    return _LIST_MARKER.sub(" ", _CROSS_REFERENCE.sub(" ", CITATION.sub(" ", text)))


def whole(number: Number) -> bool:
    """Whether ``number`` is printed as a whole number ("2", not "2.0")."""
    return decimals(number.text) == 0


def _states(printed: Number, claimed: Number) -> bool:
    """Whether a passage's ``printed`` number is the ``claimed`` one, printed at least as
    precisely (a "1" in a passage is no temperature "1.0")."""
    return same_number(printed.value, claimed.text) and decimals(printed.text) >= decimals(
        claimed.text
    )


def _marked_segment(question: str, marker: str) -> str:
    """The question's text after ``marker`` up to the next marker ("" when not printed)."""
    start = question.find(marker)
    if not marker or start < 0:
        return ""
    rest = question[start + len(marker) :]
    following = _MARKER.search(rest)
    return rest[: following.start()] if following else rest


def _claim_papers(
    claim: Claim, question: str, contexts: Sequence[PaperContext], views: dict[str, str]
) -> tuple[list[str], str]:
    """The selected papers a claim is about, and the question text it answers: the paper
    the question mentions after the claim's marker, else the papers whose view of the
    question (``views``, :mod:`littrace.read.views`) shares most of the claim's words, else
    all."""
    segment = _marked_segment(question, claim.marker)
    if segment:
        works = {
            w for part in question_parts(segment, [c.paper for c in contexts]) for w in part.works
        }
        about = [c.paper_id for c in contexts if norm(c.paper.title) in works]
        if about:
            return about, segment
    held = {paper_id: set(terms(view)) for paper_id, view in views.items()}
    shared = set.intersection(*held.values()) if held else set()
    said = set(terms(without_numbers(claim.text))) - shared
    overlap = {paper_id: len(said & (words - shared)) for paper_id, words in held.items()}
    best = max(overlap.values(), default=0)
    about = [paper_id for paper_id, value in overlap.items() if value == best]
    if best > 0 and len(about) < len(overlap):
        return about, views[about[0]]
    return list(views), question


def _cell_windows(tables: list[TableUnits]) -> list[Window]:
    """Each cell of the selected papers' tables as a window: its header paths are what it
    names, the caption what is around it."""
    found = []
    for table in tables:
        around = frozenset(terms(table.obj.caption))
        chunk = table.fact(table.cells[0]).chunk_id
        for cell in table.cells:
            own = frozenset(terms(" ".join(cell.row_path + cell.column_path)))
            found.append(Window(table.context.paper_id, chunk, cell.text, own, around))
    return found


def claim_support(
    question: Question, data: SynthesisInput, among: Sequence[str] | None = None
) -> dict[str, float]:
    """Each option's (of the labels ``among``, default all) mean support over the claims it
    makes (:func:`option_claims`): a claim is supported by the sentence window or table cell
    of the paper it is about that prints it (its numbers, else most of its words) and names
    most of the question text it answers, each term weighted by its rarity (IDF) as in
    :func:`sentence_choice`. Options that say the same things of different papers ("(i)
    GloVe; (ii) Skip-gram" against "(i) Skip-gram; (ii) GloVe") differ here, where a bag of
    their words cannot; empty when no option makes two claims or none is found."""
    options = [
        o for o in question.multiple_choice_options or [] if among is None or o.label in among
    ]
    claims = {o.label: option_claims(o.text) for o in options}
    if not options or all(len(found) < 2 for found in claims.values()):
        return {}
    windows = sentence_windows(data) + _cell_windows(table_units(question, data))
    texts = [stated(window.text) for window in windows]
    values = [numbers(text) for text in texts]
    # A count written as a word ("a two-layer BiLSTM") states a whole number, not "1.0".
    spelled_texts = [spelled_as_digits(text) for text in texts]
    counts = [numbers(text) for text in spelled_texts]
    noun = counted_noun(question.question)
    contexts = [data.contexts[p] for p in data.papers if p in data.contexts]
    views = paper_views(question.question, [c.paper for c in contexts])
    told = frozenset(t for o in options for t in terms(o.text))
    owns = [window.own for window in windows]
    given = numbers(question.question)
    given_values, given_texts = {n.value for n in given}, {n.text for n in given}
    support = {}
    for option in options:
        scores = []
        for claim in claims[option.label]:
            papers, asked_text = _claim_papers(claim, question.question, contexts, views)
            asked = [t for t in dict.fromkeys(terms(asked_text)) if t not in told]
            weight = rarity(asked, owns)
            total = sum(weight.values())
            weight_in = weights_in_papers(question.question, data, weight)
            # A number the question prints ("ACL 2024") says which claim, not what it claims.
            claimed = spelled_as_digits(claim.text)
            printed = [n for n in printed_numbers(claimed) if n.value not in given_values]
            counted = [(n, w) for n, w in _counts(claimed) if n not in given_texts]
            words = set(terms(_EVERY.sub("", without_numbers(claim.text)))) - set(asked)
            best = dict.fromkeys(papers, 0.0)
            for window, spelled, held, counted_too in zip(
                windows, spelled_texts, values, counts, strict=True
            ):
                if window.paper_id not in best or total <= 0:
                    continue
                share = 1.0
                # "3 APIs" is read where the sentence counts APIs, not wherever a 3 is.
                if counted:
                    if not all(_prints_count(spelled, n, w) for n, w in counted):
                        continue
                elif printed:
                    if not all(
                        any(_states(v, p) for v in (counted_too if whole(p) else held))
                        for p in printed
                    ):
                        continue
                    # "How many GPUs": a 24 is read where GPUs are counted.
                    if noun and not (
                        noun in window.own
                        or all(_prints_count(spelled, p.text, noun) for p in printed)
                    ):
                        share = _UNCOUNTED_WEIGHT
                elif not words or len(words & (window.own | window.around)) < 0.5 * len(words):
                    continue
                score = share * window_score(window, weight_in[window.paper_id]) / total
                best[window.paper_id] = max(best[window.paper_id], score)
            # "Both use GloVe" must hold in each paper, not in one of them.
            every = len(best) > 1 and _EVERY.search(claim.text)
            scores.append(sum(best.values()) / len(best) if every else max(best.values()))
        support[option.label] = round(sum(scores) / len(scores), 4) if scores else 0.0
    return support if any(support.values()) else {}
