"""Options cut into the claims they make, each supported by the paper it is about."""

from __future__ import annotations

import re
from collections.abc import Sequence

from littrace.littraceqa import Question
from littrace.numbers import numbers, printed_numbers, spelled_as_digits, without_numbers
from littrace.read.choice.counts import (
    UNCOUNTED_WEIGHT,
    count_share,
    counted_terms,
    counts_in,
    quantities,
)
from littrace.read.choice.sentences import (
    Window,
    described_in_papers,
    rarity,
    sentence_windows,
    weights_in_papers,
    window_score,
)
from littrace.read.choice.units import TableUnits, table_units
from littrace.read.options import MARKER, Claim, option_claims
from littrace.read.records import PaperContext, SynthesisInput
from littrace.read.text import norm, terms
from littrace.read.views import paper_views, question_parts, work_of

# A claim said of every paper at once.
_EVERY = re.compile(r"\b(?:both|each|all|same)\b", re.IGNORECASE)


def _marked_segment(question: str, marker: str) -> str:
    """The question's text after ``marker`` up to the next marker ("" when not printed)."""
    start = question.find(marker)
    if not marker or start < 0:
        return ""
    rest = question[start + len(marker) :]
    following = MARKER.search(rest)
    return rest[: following.start()] if following else rest


def _claim_papers(
    claim: Claim,
    question: str,
    contexts: Sequence[PaperContext],
    views: dict[str, str],
    placed: str | None,
) -> tuple[list[str], str]:
    """The selected papers a claim is about, and the question text it answers: the paper
    the question mentions after the claim's marker (the text it answers: the question's
    stem before the first marker, and what follows the claim's), else for a bare value the
    work at its place (``placed``: the work the question names at the claim's place among
    the option's, when it names one per claim), else the papers whose view of the question
    (``views``, :mod:`littrace.read.views`) shares most of the claim's words, else all."""
    segment = _marked_segment(question, claim.marker)
    if segment:
        works = {
            w for part in question_parts(segment, [c.paper for c in contexts]) for w in part.works
        }
        about = [c.paper_id for c in contexts if norm(c.paper.title) in works]
        if about:
            # What the claim answers is the question's stem asked of that item: "Which
            # embeddings initialize the word representations in (i) ...".
            first = MARKER.search(question)
            stem = question[: first.start()] if first else ""
            return about, f"{stem} {segment}"
    if placed is not None and (claim.per_work or not terms(without_numbers(claim.text))):
        # Bare values, or things listed one per work, follow the order the question names
        # the works in ("the ICLR 2024 paper ... and the 2025 paper ...": "8,192 / 16,384").
        return [c.paper_id for c in contexts if work_of(c.paper) == placed], question
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
    of the paper it is about that prints it (its numbers, else most of its words' weight,
    rarer words weighing more) and names most of the question text it answers, each term
    weighted by its rarity (IDF) as in :func:`sentence_choice`; a claim of every paper
    ("both use GloVe") by its least support among them. Options that say the same things
    of different papers ("(i) GloVe; (ii) Skip-gram" against "(i) Skip-gram; (ii) GloVe")
    differ here, where a bag of their words cannot; empty when no option makes two claims
    or none is found."""
    options = [
        o for o in question.multiple_choice_options or [] if among is None or o.label in among
    ]
    claims = {o.label: option_claims(o.text) for o in options}
    if not options or all(len(found) < 2 for found in claims.values()):
        return {}
    windows = sentence_windows(data) + _cell_windows(table_units(question, data))
    said = [quantities(window.text) for window in windows]
    described = described_in_papers(question.question, data)
    asks_count = counted_terms(question.question)
    contexts = [data.contexts[p] for p in data.papers if p in data.contexts]
    views = paper_views(question.question, [c.paper for c in contexts])
    told = frozenset(t for o in options for t in terms(o.text))
    owns = [window.own for window in windows]
    given = numbers(question.question)
    given_values, given_texts = {n.value for n in given}, {n.text for n in given}
    support = {}
    order = list(
        dict.fromkeys(
            work
            for part in question_parts(question.question, [c.paper for c in contexts])
            for work in sorted(part.works)
            if len(part.works) == 1
        )
    )
    for option in options:
        scores = []
        made = claims[option.label]
        for index, claim in enumerate(made):
            placed = order[index] if len(order) == len(made) else None
            papers, asked_text = _claim_papers(claim, question.question, contexts, views, placed)
            asked = [t for t in dict.fromkeys(terms(asked_text)) if t not in told]
            weight = rarity(asked, owns)
            total = sum(weight.values())
            weight_in = weights_in_papers(weight, described)
            # A number the question prints ("ACL 2024") says which claim, not what it claims.
            claimed = spelled_as_digits(claim.text)
            printed = [n for n in printed_numbers(claimed) if n.value not in given_values]
            counted = [(n, w) for n, w in counts_in(claimed) if n not in given_texts]
            words = set(terms(_EVERY.sub("", without_numbers(claim.text)))) - set(asked)
            # A claim is printed where most of its weight is, its rarer words weighing more:
            # "use" is no sign of "use GloVe".
            word_weight = rarity(words, owns)
            word_total = sum(word_weight.values())
            best = dict.fromkeys(papers, 0.0)
            for window, stating in zip(windows, said, strict=True):
                if window.paper_id not in best or total <= 0:
                    continue
                share = 1.0
                # "3 APIs" is read where the sentence counts APIs, not wherever a 3 is.
                if counted:
                    if not all(count_share(stating.text, n, [w]) for n, w in counted):
                        continue
                elif printed:
                    if not all(stating.holds(p) for p in printed):
                        continue
                    # "How many GPUs": a 24 is read where GPUs are counted (a cell where
                    # its headers name them).
                    if asks_count and asks_count[-1] not in window.own:
                        share = min(count_share(stating.text, p.text, asks_count) for p in printed)
                        share = share or UNCOUNTED_WEIGHT
                elif (
                    word_total <= 0
                    or sum(w for t, w in word_weight.items() if t in window.own) < 0.5 * word_total
                ):
                    continue
                score = share * window_score(window, weight_in[window.paper_id]) / total
                best[window.paper_id] = max(best[window.paper_id], score)
            # "Both use GloVe" must hold in each paper, not in one of them.
            every = len(best) > 1 and _EVERY.search(claim.text)
            scores.append(min(best.values()) if every else max(best.values()))
        support[option.label] = round(sum(scores) / len(scores), 4) if scores else 0.0
    return support if any(support.values()) else {}
