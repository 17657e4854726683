"""Choices by the bibliography: the option printed in the entry asked about, or the number
under which a paper lists the work the question names."""

from __future__ import annotations

from littrace.littraceqa import Question
from littrace.read.choice.units import Choice, winner
from littrace.read.heuristic import question_query
from littrace.read.records import Fact, SynthesisInput
from littrace.read.references import (
    authored_entries,
    citation_ids,
    cited_for,
    cited_in_group,
    entry_at,
    entry_support,
    group_position,
    mentions_references,
    named_authors,
    reference_position,
)

# Entries cited by the best-matching sentences that can support an option.
_CITED_ENTRIES = 5


def reference_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """The option printed in the bibliography entry the question asks about."""
    options = question.multiple_choice_options or []
    named = all(any(ch.isalpha() for ch in option.text) for option in options)
    if not options or not named or not mentions_references(question.question):
        return None
    position = reference_position(question.question)
    member = group_position(question.question) if position is None else None
    query = question_query(question, data.plan, 1.0)
    support = {o.label: 0.0 for o in options}
    grounds: dict[str, tuple[str, Fact]] = {}
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None or not context.references:
            continue
        if position is not None:
            entry = entry_at(context.references, position)
            scored = [(entry, 1.0, f"entry {position} of the references")] if entry else []
        elif member is not None:
            cited = cited_in_group(query, context, member)
            scored = (
                [
                    (
                        cited.reference,
                        1.0,
                        f"work {member} cited on p.{cited.page}: {cited.sentence[:80]}",
                    )
                ]
                if cited
                else []
            )
        else:
            scored = [
                (cited.reference, cited.score, f"cited on p.{cited.page}: {cited.sentence[:80]}")
                for cited in cited_for(query, context)[:_CITED_ENTRIES]
            ]
        for entry, weight, why in scored:
            for option in options:
                value = weight * entry_support(option.text, entry.raw)
                if value > support[option.label]:
                    support[option.label] = round(value, 4)
                    fact = Fact(paper_id, "", entry.raw, None, "", entry.label, "reference")
                    grounds[option.label] = (f"{why} [{entry.label}] {entry.raw[:80]}", fact)
    label = winner(support)
    if label is None:
        return None
    why, fact = grounds[label]
    return Choice(label, support, why, [fact])


def reference_number_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """The reference number under which a selected paper lists the work the question names by
    its authors ("Rein et al."), when the options are numbers."""
    options = question.multiple_choice_options or []
    authors = named_authors(question.question)
    if not options or not authors or not all(o.text.strip().isdigit() for o in options):
        return None
    by_number = {o.text.strip(): o.label for o in options}
    support = {o.label: 0.0 for o in options}
    grounds: dict[str, tuple[str, Fact]] = {}
    for paper_id in data.papers:
        context = data.contexts.get(paper_id)
        if context is None:
            continue
        ids = citation_ids(context.references)
        for entry in authored_entries(question.question, context.references):
            label = by_number.get(ids[entry.label])
            if label is None:
                continue
            support[label] += 1.0
            fact = Fact(paper_id, "", entry.raw, None, "", entry.label, "reference")
            grounds[label] = (f"{paper_id} lists [{ids[entry.label]}] {entry.raw[:80]}", fact)
    label = winner(support)
    if label is None:
        return None
    why, fact = grounds[label]
    return Choice(label, support, why, [fact])
