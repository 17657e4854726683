"""Which numbered display a question describes, when its options are display ids
("Equation 2", "Eq. 8", "Table 3", "Algorithm 1").

Each named display is described by what the paper prints around it: the end of the text
that introduces it, its own text and caption, the start of the text after it ("where h is
the bandwidth") and the sentences that cite it by its id. An option is supported by the
question terms its display's description prints, each weighted by how few of the options'
descriptions print it (a term every option's description prints tells none apart); the
paper's title terms say which paper, not which display, and count for nothing.

Example:
    >>> choice = display_choice(question, data)  # doctest: +SKIP
    >>> choice.label, choice.how  # doctest: +SKIP
    ('B', 'display described: Equation 2 prints 4.17 of the question, Equation 3 1.67')
"""

from __future__ import annotations

import re
from collections import Counter

from littrace.corpus.document import PaperObject
from littrace.littraceqa import Question
from littrace.read.choice.units import Choice
from littrace.read.localize import follow_on, lead_in
from littrace.read.records import Fact, PaperContext, SynthesisInput
from littrace.read.text import sentences, terms

__all__ = ["display_choice", "display_named"]

# How a display of each kind is named before its id, in full or cut short ("Eq.", "Tab.").
_CITED_AS = {
    "equation": r"eq(?:uation)?s?",
    "algorithm": r"alg(?:orithm)?s?",
    "table": r"tab(?:le)?s?",
    "figure": r"fig(?:ure)?s?",
}
# A display's printed id as an option prints it: "Equation (A.6)", "Eq. 8", "Tab. 3".
_DISPLAY_ID = re.compile(
    rf"(?P<kind>{'|'.join(_CITED_AS.values())})\.?\s*\(?(?P<number>[A-Z]?\.?\d+[a-z]?)\)?",
    re.IGNORECASE,
)
_KINDS = {kind[:2]: kind for kind in _CITED_AS}


def display_named(text: str, context: PaperContext) -> PaperObject | None:
    """The display of ``context``'s paper that ``text`` names by its id and nothing else;
    None when it names none the paper has."""
    match = _DISPLAY_ID.fullmatch(text.strip())
    if match is None:
        return None
    kind = _KINDS[match["kind"][:2].lower()]
    return next(
        (o for o in context.objects if o.kind == kind and o.number == match["number"]),
        None,
    )


def _citing(context: PaperContext, obj: PaperObject) -> list[str]:
    """The body sentences that cite ``obj`` by its id ("as formulated in Eq.7")."""
    cited = re.compile(
        rf"\b{_CITED_AS[obj.kind]}\.?\s*\(?{re.escape(obj.number)}(?![\w.]*\d)", re.IGNORECASE
    )
    return [
        sentence
        for chunk in context.chunks
        if chunk.type == "body"
        for sentence in sentences(chunk.text)
        if cited.search(sentence)
    ]


def _description(context: PaperContext, obj: PaperObject) -> str:
    return "\n".join(
        [
            lead_in(context, obj),
            obj.text,
            obj.caption,
            follow_on(context, obj),
            *_citing(context, obj),
        ]
    )


def display_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """The option naming the display whose description prints most of the question, in the
    first selected paper holding two or more of the options' displays; None without such a
    paper or a clear winner."""
    options = question.multiple_choice_options or []
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None:
            continue
        named = {o.label: obj for o in options if (obj := display_named(o.text, context))}
        if len(named) < 2:
            continue
        asked = set(terms(question.question)) - set(terms(context.paper.title))
        printed = {
            label: set(terms(_description(context, obj))) & asked for label, obj in named.items()
        }
        spread = Counter(term for said in printed.values() for term in said)
        support = {
            label: round(sum(1 / spread[term] for term in said), 4)
            for label, said in printed.items()
        }
        ranked = sorted(support.items(), key=lambda item: -item[1])
        (label, best), runner_up = ranked[0], ranked[1][1]
        if best <= runner_up:
            return None
        obj = named[label]
        chunk_id = next((c.chunk_id for c in context.chunks if c.object_id == obj.object_id), "")
        fact = Fact(paper_id, chunk_id, obj.text or obj.caption, entity=obj.scorer_id)
        others = ", ".join(f"{named[other].scorer_id} {score:.2f}" for other, score in ranked[1:])
        how = f"display described: {obj.scorer_id} prints {best:.2f} of the question, {others}"
        return Choice(label, support, how, [fact])
    return None
