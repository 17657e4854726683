"""Choices by the bibliography: the option printed in the entry asked about, the number
under which a paper lists the work the question names, or how many entries a list holds."""

from __future__ import annotations

import re

from littrace.corpus.document import Reference
from littrace.littraceqa import MultipleChoiceOption, Question
from littrace.numbers import numbers, without_numbers
from littrace.read.choice.counts import counted_terms
from littrace.read.choice.units import Choice, winner
from littrace.read.heuristic import question_query
from littrace.read.records import Fact, PaperContext, SynthesisInput
from littrace.read.references import (
    authored_entries,
    citation_ids,
    cited_for,
    cited_in_group,
    entry_at,
    entry_support,
    first_author_surname,
    group_position,
    lists_work,
    mentions_references,
    named_authors,
    reference_position,
    same_title,
    same_work,
)
from littrace.read.text import stem, terms
from littrace.read.views import paper_views, work_of

# An option naming a work by its authors and year: "et al.", "(2021)".
_NAMES_WORK = re.compile(r"\bet al\b|\((?:19|20)\d\d\)")
# The least share of an option's terms a sentence citing the named work must print.
_CITING_SHARE = 0.5
# Entries cited by the best-matching sentences that can support an option.
_CITED_ENTRIES = 5
# What the selected papers' lists share: "appears in the reference lists of both".
_EVERY = re.compile(r"\b(?:both|every|in common|shared)\b", re.IGNORECASE)
# An option names a work with at least this many words ("Mistral 7B (Jiang et al., 2023)").
_WORK_TERMS = 3
# Which of several lists a count question asks about.
_LONGER = re.compile(r"\b(?:longer|longest|larger|largest|more|most)\b", re.IGNORECASE)
_SHORTER = re.compile(r"\b(?:shorter|shortest|smaller|smallest|fewer|fewest)\b", re.IGNORECASE)
# An option that is a reference number: "26", "[26]".
_REFERENCE_NUMBER = re.compile(r"\[?(\d+)\]?")
# Where one claim of an option ends and the next begins: "...; ...", "... and ...".
_CLAIM_SEPARATOR = re.compile(r"\s*;\s*|,?\s+and\s+|,\s+")
# An option that is a year.
_YEAR = re.compile(r"(?:19|20)\d\d")
# A title the question quotes ("Radford et al.'s 'Language models are unsupervised ...'"):
# opened after a space, closed before anything but a letter.
_QUOTED = re.compile(r"(?:(?<=\s)|^)[‘'\"“]([^‘’'\"“”]{12,}?)[’'\"”](?!\w)")


def reference_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """The option printed in the bibliography entry the question asks about."""
    options = question.multiple_choice_options or []
    named = all(any(ch.isalpha() for ch in option.text) for option in options)
    # Options that are each a work by its authors ("Kojima et al. (2022), ...") ask which
    # work is cited, whether or not the question says so.
    works = all(_NAMES_WORK.search(option.text) for option in options)
    if not options or not named or not (works or mentions_references(question.question)):
        return None
    position = reference_position(question.question)
    member = group_position(question.question) if position is None else None
    # An entry named to reach the selected paper it cites ("cites as [30] ...; in that
    # cited paper, ...") is asked about only where an option names that paper.
    if position is not None and _reached(position, data, options):
        return None
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


def citing_sentence_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """For "for which problem does the paper cite Bhagavatula et al. (2018)": the option the
    sentences citing the work the question names by its authors say most of (the share of
    the option's terms a citing sentence prints), when the options are phrases, not works."""
    options = question.multiple_choice_options or []
    # Options naming works ("Li and Liang (2021), Prefix-tuning") or numbers are entries to
    # find, and a position the question asks for is read in the list.
    if (
        not options
        or reference_position(question.question) is not None
        or any(_NAMES_WORK.search(o.text) or not terms(without_numbers(o.text)) for o in options)
    ):
        return None
    wanted = {o.label: set(terms(o.text)) for o in options}
    support = {o.label: 0.0 for o in options}
    grounds: dict[str, tuple[PaperContext, str]] = {}
    for context in _with_references(data):
        cited = {ref.label for ref in authored_entries(question.question, context.references)}
        for citation in context.citations:
            if not cited & set(citation.labels):
                continue
            said = set(terms(citation.sentence))
            for label, words in wanted.items():
                share = len(words & said) / len(words) if words else 0.0
                if share > support[label]:
                    support[label], grounds[label] = round(share, 4), (context, citation.sentence)
    chosen = winner(support)
    if chosen is None or support[chosen] < _CITING_SHARE:
        return None
    context, sentence = grounds[chosen]
    chunk_id = next((c.chunk_id for c in context.chunks if sentence[:60] in c.text), "")
    fact = Fact(context.paper_id, chunk_id, sentence, None, "", "", "citation")
    return Choice(chosen, support, f"sentence citing the named work: {sentence[:100]}", [fact])


def _reached(position: int, data: SynthesisInput, options: list[MultipleChoiceOption]) -> bool:
    """Whether a selected paper's entry at ``position`` lists another selected paper that no
    option names by its title: the question names the entry to reach that paper, and asks
    about its content."""
    contexts = [data.contexts[p] for p in data.papers if p in data.contexts]
    for citing in contexts:
        entry = entry_at(citing.references, position)
        if entry is None:
            continue
        for cited in contexts:
            title = cited.paper.title
            if (
                cited is not citing
                and lists_work(entry, title)
                and not any(same_title(title, o.text) for o in options)
            ):
                return True
    return False


def shared_reference_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """For "which of these works appears in the reference lists of both papers": the
    option listed by the most selected papers' bibliographies."""
    options = question.multiple_choice_options or []
    contexts = _with_references(data)
    asks = mentions_references(question.question) and _EVERY.search(question.question)
    works = all(len(set(terms(without_numbers(o.text)))) >= _WORK_TERMS for o in options)
    if not options or not works or len({work_of(c.paper) for c in contexts}) < 2 or not asks:
        return None
    support = {o.label: 0.0 for o in options}
    facts: dict[str, list[Fact]] = {o.label: [] for o in options}
    for context in contexts:
        for option in options:
            entry = next((e for e in context.references if lists_work(e, option.text)), None)
            if entry is not None:
                support[option.label] += 1 / len(contexts)
                facts[option.label].append(
                    Fact(context.paper_id, "", entry.raw, None, "", entry.label, "reference")
                )
    label = winner({key: round(value, 4) for key, value in support.items()})
    if label is None:
        return None
    listed = ", ".join(f.paper_id for f in facts[label])
    return Choice(label, support, f"listed in the references of {listed}", facts[label])


def reference_number_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """The reference number under which a selected paper lists the work the question names,
    when the options are numbers ("26", "[26]"): the work named by its authors ("Rein et
    al."), or the work another selected paper lists where the question points at it (the
    entry "[16]" the question prints, the works cited by the sentences that best match the
    question), found in this paper's list by its title. A count question's options are
    counts ("how many entries include that author"), not reference numbers."""
    options = question.multiple_choice_options or []
    if counted_terms(question.question):
        return None
    by_number: dict[str, str] = {}
    for option in options:
        printed = _REFERENCE_NUMBER.fullmatch(option.text.strip())
        if printed is None:
            return numbers_per_paper_choice(question, data)
        by_number[printed.group(1)] = option.label
    if not options:
        return None
    contexts = _with_references(data)
    # Without the bibliography in question, numbers are no reference numbers to look up.
    pointed = (
        _pointed_works(question, data, contexts) if mentions_references(question.question) else []
    )
    authors = named_authors(question.question)
    support = {o.label: 0.0 for o in options}
    grounds: dict[str, tuple[str, Fact]] = {}
    for context in contexts:
        ids = citation_ids(context.references)
        for entry in context.references:
            label = by_number.get(ids[entry.label])
            if label is None:
                continue
            found = (
                [(1.0, "named by its authors")] if first_author_surname(entry) in authors else []
            )
            found += [
                (weight, why)
                for paper_id, work, weight, why in pointed
                if paper_id != context.paper_id and same_work(entry, work)
            ]
            weight, why = max(found, default=(0.0, ""))
            if weight > support[label]:
                support[label] = round(weight, 4)
                fact = Fact(context.paper_id, "", entry.raw, None, "", entry.label, "reference")
                lists = f"{context.paper_id} lists [{ids[entry.label]}] {entry.raw[:80]}"
                grounds[label] = (f"{lists} ({why})", fact)
    label = winner(support)
    if label is None:
        return None
    why, fact = grounds[label]
    return Choice(label, support, why, [fact])


def numbers_per_paper_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """For options giving a reference number per paper ("[67] in the medical-paper reader
    and [36] in the citation reader"), the option whose every number is the one the paper
    its words describe gives the work the question names: by its author, else by its title's
    words (every number one work, most of whose title the question says: "the CHI 2021
    paper on just-in-time, position-sensitive definitions of terms and symbols"). Each
    claim is read in the paper whose title, abstract and share of the question hold most
    of the words beside its number that the other papers lack."""
    options = question.multiple_choice_options or []
    claims = {o.label: _numbered_claims(o.text) for o in options}
    contexts = _with_references(data)
    authors = named_authors(question.question)
    if not options or len(contexts) < 2 or not all(len(c) >= 2 for c in claims.values()):
        return None
    asked = set(terms(question.question))
    # What the question says of each paper alone, where it says each its own part.
    views = paper_views(question.question, [c.paper for c in contexts])
    own = {p: view for p, view in views.items() if view != question.question}
    said = {
        c.paper_id: set(terms(f"{c.paper.title} {c.paper.abstract} {own.get(c.paper_id, '')}"))
        for c in contexts
    }
    support = {o.label: 0.0 for o in options}
    grounds: dict[str, tuple[str, list[Fact]]] = {}
    for option_label, numbered in claims.items():
        held = []
        for number, words in numbered:
            context = _described(words, contexts, said)
            entry = _listed_as(context, number) if context else None
            if context is None or entry is None:
                break
            if authors and first_author_surname(entry) not in authors:
                break
            held.append((context, entry))
        if held and len(held) == len(numbered):
            support[option_label] = 1.0 if authors else _titled_by(held, asked)
            grounds[option_label] = (
                "; ".join(f"{c.paper_id} lists [{e.label}] {e.raw[:60]}" for c, e in held),
                [Fact(c.paper_id, "", e.raw, None, "", e.label, "reference") for c, e in held],
            )
    label = winner(support)
    if label is None:
        return None
    why, facts = grounds[label]
    return Choice(label, support, why, facts)


def _titled_by(held: list[tuple[PaperContext, Reference]], asked: set[str]) -> float:
    """The share of the title of the one work all ``held`` entries list that the question's
    terms ``asked`` hold, when at least half; 0 for entries of different works."""
    first = held[0][1]
    if not all(same_work(first, entry) for _, entry in held[1:]):
        return 0.0
    title = set(terms(first.title or first.raw))
    share = len(title & asked) / len(title) if title else 0.0
    return round(share, 4) if share >= 0.5 else 0.0


def _listed_as(context: PaperContext, number: str) -> Reference | None:
    """The entry ``context``'s bibliography lists under the citation id ``number``."""
    ids = citation_ids(context.references)
    return next((e for e in context.references if ids[e.label] == number), None)


def _numbered_claims(text: str) -> list[tuple[str, str]]:
    """(reference number, the words beside it) for each part of an option that gives one
    number ("[67] in the medical-paper reader"); empty unless every part does."""
    found = []
    for part in _CLAIM_SEPARATOR.split(text):
        printed = [m for m in _REFERENCE_NUMBER.finditer(part) if m.group(0).startswith("[")]
        if len(printed) != 1 or not terms(_REFERENCE_NUMBER.sub(" ", part)):
            return []
        found.append((printed[0].group(1), _REFERENCE_NUMBER.sub(" ", part)))
    return found


def _described(
    words: str, contexts: list[PaperContext], said: dict[str, set[str]]
) -> PaperContext | None:
    """The paper of ``contexts`` that ``words`` describe: the one holding most of their terms
    that no other paper holds; None when none or two hold as many."""
    # "medical-paper reader" says "medical" too.
    wanted = {stem(part) for term in terms(words) for part in (term, *term.split("-")) if part}
    counts = []
    for context in contexts:
        others = set().union(*(said[c.paper_id] for c in contexts if c is not context))
        counts.append((len(wanted & said[context.paper_id] - others), context))
    counts.sort(key=lambda item: -item[0])
    if not counts or counts[0][0] == 0 or (len(counts) > 1 and counts[1][0] == counts[0][0]):
        return None
    return counts[0][1]


def entry_year_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """For options that are years and a question naming a work by its quoted title, else by
    its first author ("Radford et al."): the year a selected paper's entry for that work
    prints, of those the question does not print itself ("the 2022 paper dates it 2019"
    says which year is not asked); no choice unless one option is such a year."""
    options = question.multiple_choice_options or []
    if not options or not all(_YEAR.fullmatch(o.text.strip()) for o in options):
        return None
    titles = _QUOTED.findall(question.question)
    authors = named_authors(question.question)
    if not titles and not authors:
        return None
    given = {n.value for n in numbers(question.question)}
    listed: dict[float, list[Fact]] = {}
    for context in _with_references(data):
        for entry in context.references:
            named = (
                any(same_title(title, entry.title or entry.raw) for title in titles)
                if titles
                else first_author_surname(entry) in authors
            )
            if named and entry.year is not None and entry.year not in given:
                fact = Fact(context.paper_id, "", entry.raw, None, "", entry.label, "reference")
                listed.setdefault(float(entry.year), []).append(fact)
    years = {o.label: float(o.text) for o in options}
    support = {label: float(year in listed) for label, year in years.items()}
    label = winner(support)
    if label is None:
        return None
    facts = listed[years[label]]
    where = ", ".join(f"{f.paper_id} [{f.entity}]" for f in facts)
    return Choice(label, support, f"the year {where} lists the work under", facts)


def list_length_choice(question: Question, data: SynthesisInput) -> Choice | None:
    """For "how many entries does ... reference list contain" with options that are
    numbers: the option that is the number of entries a selected paper lists; among several
    papers' lengths that are options, the longer or the shorter list as the question asks
    (one option per length, or no choice)."""
    options = question.multiple_choice_options or []
    text = question.question
    if not options or not counted_terms(text) or not mentions_references(text):
        return None
    by_value: dict[int, str] = {}
    for option in options:
        printed = _REFERENCE_NUMBER.fullmatch(option.text.strip())
        if printed is None:
            return None
        by_value[int(printed.group(1))] = option.label
    works = {work_of(c.paper): c for c in _with_references(data)}
    lengths = {len(c.references): c for c in works.values() if len(c.references) in by_value}
    if len(lengths) > 1:
        longer, shorter = bool(_LONGER.search(text)), bool(_SHORTER.search(text))
        if longer == shorter:
            return None
        kept = max(lengths) if longer else min(lengths)
        lengths = {kept: lengths[kept]}
    if len(lengths) != 1:
        return None
    ((count, context),) = lengths.items()
    label = by_value[count]
    last = context.references[-1]
    fact = Fact(context.paper_id, "", last.raw, None, "", last.label, "reference")
    why = f"{context.paper_id} lists {count} references"
    return Choice(label, {o.label: float(o.label == label) for o in options}, why, [fact])


def _with_references(data: SynthesisInput) -> list[PaperContext]:
    """The selected papers whose reference lists were parsed."""
    return [
        context
        for paper_id in data.papers
        if (context := data.contexts.get(paper_id)) is not None and context.references
    ]


def _pointed_works(
    question: Question, data: SynthesisInput, contexts: list[PaperContext]
) -> list[tuple[str, Reference, float, str]]:
    """(paper id, entry, weight, why) for each entry of a selected paper's list the question
    points at: by the number it prints (weight 1), or as a work cited by a sentence that
    matches the question (weight: the match)."""
    position = reference_position(question.question)
    query = question_query(question, data.plan, 1.0)
    pointed = []
    for context in contexts:
        entry = entry_at(context.references, position) if position and position > 0 else None
        if entry is not None:
            pointed.append((context.paper_id, entry, 1.0, f"{context.paper_id} [{position}]"))
        pointed += [
            (
                context.paper_id,
                cited.reference,
                cited.score,
                f"cited by {context.paper_id} p.{cited.page}: {cited.sentence[:60]}",
            )
            for cited in cited_for(query, context)[:_CITED_ENTRIES]
        ]
    return pointed
