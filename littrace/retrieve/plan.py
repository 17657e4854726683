"""The question plan (TRACE §3.1): constraints, modalities, paper count and role-typed targets.

:func:`plan_question` returns a :class:`~littrace.llm.replies.Plan` from one of two backends:

- ``heuristic`` (:func:`heuristic_plan`): rules over the question text. A venue (ACL, ICCV,
  "Findings of EMNLP", ...) and a year 2000–2030 become constraints; acronyms, CamelCase,
  digit- or hyphen-bearing names ("500xCompressor", "S-RAG", "RTDETRv2"), capitalised
  multi-word names and quoted names become named anchors. An anchor used as a criterion ("on
  the NaturalQ benchmark", "in terms of F1") is an ``evidence_anchor``; any other is an
  ``answer_target``. "these two papers", "each of the three methods" set the paper count
  (number words too; 1 by default, at most 5); a table question's listed row entities become
  ``rows``; multiple-choice options that name entities add anchors.
- ``llm``: the ``plan`` prompt through :class:`~littrace.llm.LlmClient`. A reply that stays
  invalid after the client's repair round gives the heuristic plan, and ``fallback_reason``
  says why (a visible conservative fallback, never a silent drop).

Example:
    >>> from littrace.config import PlannerSettings
    >>> from littrace.littraceqa import Question
    >>> question = Question(query_id="q", benchmark="LitTraceQA", answer_types=["freeform"],
    ...     question="For these two ICCV 2025 papers, how fast is FocalPETR on the "
    ...     "nuScenes benchmark?")
    >>> outcome = plan_question(question, PlannerSettings(), None)
    >>> plan = outcome.plan
    >>> plan.venue, plan.year, plan.desired_papers, outcome.backend
    ('ICCV', 2025, 2, 'heuristic')
    >>> [(group.name, group.role) for group in plan.target_groups]
    [('FocalPETR', 'answer_target'), ('nuScenes', 'evidence_anchor'), ('ICCV 2025', 'constraint')]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from littrace.asks import answer_spec, question_modalities
from littrace.config import PlannerSettings
from littrace.littraceqa import Question
from littrace.llm import CallRecord, LlmClient, render
from littrace.llm.replies import Plan, TargetGroup
from littrace.read.units import counted_list, label_share, question_terms, stated_counts

__all__ = [
    "MAX_PAPERS",
    "PlanError",
    "PlanOutcome",
    "heuristic_plan",
    "key_phrases",
    "name_pattern",
    "plan_question",
    "years",
]

MAX_PAPERS = 5  # TRACE §3.1: a hard cap bounds PDF and vision work

# fmt: off
_VENUES = {name.lower(): name for name in (
    "ACL", "EMNLP", "NAACL", "EACL", "AACL", "COLING", "CoNLL", "LREC", "TACL", "NeurIPS",
    "ICLR", "ICML", "CVPR", "ICCV", "ECCV", "WACV", "AAAI", "IJCAI", "KDD", "WWW", "SIGIR",
    "CIKM", "WSDM", "COLM", "UAI", "AISTATS", "MICCAI",
)} | {"nips": "NeurIPS"}
# fmt: on
_VENUE = re.compile(
    r"\b(?:Findings\s+of\s+(?:the\s+)?)?("
    + "|".join(_VENUES)
    + r")(?:[\s'’-]*(20[0-2]\d|2030))?\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?<![\w.])(20[0-2]\d|2030)(?![\w.])")

_NUMBERS = {"one": 1, "single": 1, "two": 2, "both": 2, "three": 3, "four": 4, "five": 5}
_NUMBERS |= {word: 6 for word in ["six", "seven", "eight", "nine", "ten"]}  # capped below
# "models" is left out: "three base models" are evaluated models, not papers.
_WORKS = (
    r"(?:papers?|works?|studies|study|methods?|approaches|approach|frameworks?|systems?|articles?)"
)
_COUNT = re.compile(
    r"(?<![\w.-])([1-9]|"
    + "|".join(_NUMBERS)
    + r")\b(?:\s+(?!of\b|in\b)[\w./&'’-]+){0,5}?\s+"
    + _WORKS
    + r"\b",
    re.IGNORECASE,
)
# Works counted as what a paper cites or compares with ("against two earlier studies",
# "one cited work in common") are in its bibliography, not papers of the pool to answer from.
_CITED_WORKS = re.compile(r"\b(?:earlier|prior|previous|existing|literature|cited)\b", re.I)
_PLURAL = re.compile(
    r"\b(?:these|those|their respective|respective|which|both|several|all|among|across)\b"
    r"(?:\s+[\w./&'’-]+){0,5}?\s+(?:papers|works|studies|articles)\b",
    re.IGNORECASE,
)
# "each of A, B and C", "among A, B and C", "their respective papers": one paper per listed name.
# Not "each dataset's": what a paper's table lists is no paper.
_EACH = re.compile(
    r"\b(?:each|respective|respectively|among)\b(?!\s+(?:dataset|benchmark|language|split|task"
    r"|categor(?:y|ie)|setting)s?\b)",
    re.IGNORECASE,
)
_SINGULAR = re.compile(r"\bthe\s+(?:[\w./&'’-]+\s+){0,5}?(?:paper|study|work)\b", re.IGNORECASE)

# A token, with inner hyphens, dots, slashes and a few symbols kept ("ECM-XL", "D²PO", "v0.1").
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9²³+]*(?:[-./][A-Za-z0-9²³+]+)*")
_QUOTED = re.compile(r"[\"“‘']([^\"”’']{3,120})[\"”’']")
_UNIT = re.compile(r"^\d+(?:\.\d+)?(?:[A-Za-z]{0,2}|%)$")  # "7B", "100K", "2D": sizes, not names
# Words that are capitalised for grammar or that point at a paper part, never names.
# fmt: off
_STOP = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "both", "by", "can", "compare", "comparing",
    "consider", "considering", "does", "do", "for", "from", "give", "how", "in", "is", "it",
    "its", "of", "on", "or", "report", "the", "their", "these", "this", "those", "to", "under",
    "versus", "vs", "what", "when", "where", "which", "while", "who", "whose", "why", "with",
    "across", "among", "according", "after", "all", "also", "between", "each", "into", "same",
    "than", "that", "then", "they", "through", "per", "table", "figure", "fig", "section",
    "equation", "eq", "appendix", "algorithm", "yes", "no", "none", "above", "many", "much",
    "gpu", "gb", "llm", "llms", "vlm", "vlms", "mllm", "mllms", "lmm", "lmms", "ai", "sota",
    "mlp",
))
# fmt: on
# Metrics are criteria the answer is measured by, never the papers it comes from.
# fmt: off
_METRICS = frozenset((
    "fid", "map", "ap", "f1", "bleu", "rouge", "wer", "cer", "ndcg", "iou", "miou", "psnr",
    "ssim", "lpips", "comet", "chrf", "mc3", "nrmse", "ate", "rpe", "mae", "mse", "rmse",
    "auc", "top-1", "top-5", "accuracy", "macro-f1", "em",
))
# fmt: on
# "and" is left out: "FocalPETR and StreamPETR" are two names, not one.
_CONNECTORS = {"of", "for", "in", "on", "a", "an", "the", "to", "via", "with", "&"}
_CRITERION_BEFORE = re.compile(
    # "on" after "paper"/"work" names the topic ("the paper on S-RAG"), not a criterion.
    r"(?:(?<!paper )(?<!papers )(?<!work )(?<!study )\bon|\bin terms of|\bevaluated on|"
    r"\bmeasured (?:by|with|in|on)|\bunder|\bacross|\bagainst|\bover|\bdataset|\bbenchmark|"
    r"\bmetric)\s+(?:the\s+)?(?:[\w-]+\s+)?$",
    re.IGNORECASE,
)
_CRITERION_AFTER = re.compile(
    r"^[\s-]*(?:benchmarks?|datasets?|scores?|metrics?|splits?|corpus|validation|test set|"
    r"accuracy|dev set)\b",
    re.IGNORECASE,
)
_ENUM_GAP = re.compile(r"^\s*(?:\([^)]*\))?\s*(?:,\s*(?:and\s+|or\s+)?|,?\s*(?:and|or)\s+)$")
# A list of this many capitalised words lists rows even without a name among them.
_LISTED_WORDS = 3
# The first item of a list of names, when it is no name: "for the random baseline, SQuALITY
# and PubMed".
_LIST_HEAD = re.compile(
    r"\b(?i:for|of|on|in|across|between|from)\s+(?:the\s+)?"
    r"((?:[A-Za-z][A-Za-z-]*\s+){0,2}[A-Za-z][A-Za-z-]*),\s*$"
)
_PAPER_COLUMN = re.compile(r"paper|title|work|publication", re.IGNORECASE)
_PHRASE_SPLIT = re.compile(r"[,;:?!()]|\s(?:and|or|while|versus|vs\.|whereas|but)\s", re.I)
_PHRASE_WORDS = 12  # long enough for a descriptor, short enough to stay a focused query
_OPTION_WORDS = 8  # longer options are statements, not entity names


class PlanError(RuntimeError):
    """The LLM plan was unusable and ``retrieve.planner.fallback_on_invalid`` is off."""


@dataclass(frozen=True)
class PlanOutcome:
    """A plan, the backend that made it, its LLM call record and why a fallback was used."""

    plan: Plan
    backend: str
    record: CallRecord | None
    fallback_reason: str | None


@dataclass(frozen=True)
class _Span:
    text: str
    start: int
    end: int
    strong: bool  # False: a lone capitalised word, kept only inside an enumeration


def plan_question(
    question: Question, settings: PlannerSettings, client: LlmClient | None
) -> PlanOutcome:
    """The plan of ``question`` from the configured backend; see the module docstring."""
    fallback = heuristic_plan(question)
    if settings.backend == "heuristic":
        return PlanOutcome(fallback, "heuristic", None, None)
    if client is None:
        return PlanOutcome(fallback, "heuristic", None, "no LLM client")
    messages = render("plan", question=question.question, answer_spec=answer_spec(question))
    result = client.complete_json("plan", messages, Plan, fallback=lambda: fallback)
    if not result.fallback:
        return PlanOutcome(result.value, "llm", result.record, None)
    if not settings.fallback_on_invalid:
        raise PlanError(f"planner output unusable: {result.record.reason}")
    return PlanOutcome(result.value, "heuristic", result.record, result.record.reason)


def heuristic_plan(question: Question) -> Plan:
    """The model-free plan of ``question`` (rules in the module docstring)."""
    text = question.question
    venue, year = _venue_year(text)
    spans = _name_spans(text)
    enumerations = _enumerations(spans, text)
    enumerated = {span for run in enumerations for span in run}
    names = [span for span in spans if span.strong or span in enumerated]

    answer_targets: list[str] = []
    evidence_anchors: list[str] = []
    for span in names:
        bucket = evidence_anchors if _is_criterion(span, text) else answer_targets
        if not _contains(answer_targets + evidence_anchors, span.text):
            bucket.append(span.text)
    option_names = _option_names(question)
    anchors = _unique([*answer_targets, *evidence_anchors, *option_names])

    groups = [_group(name, "answer_target") for name in answer_targets]
    groups += [_group(name, "evidence_anchor") for name in evidence_anchors]
    if option_names:
        groups.append(
            TargetGroup(
                name="multiple-choice options",
                role="evidence_anchor",
                query=" ".join(option_names),
                anchors=option_names,
            )
        )
    if venue or year:
        label = " ".join(str(part) for part in (venue, year) if part)
        groups.append(TargetGroup(name=label, role="constraint", query=label, anchors=[label]))

    return Plan(
        venue=venue,
        year=year,
        modalities=question_modalities(text),
        desired_papers=_desired_papers(text, answer_targets, enumerations),
        named_anchors=anchors,
        target_groups=groups,
        rows=_rows(question, _enumerations(spans, text, weak=_LISTED_WORDS)),
    )


def key_phrases(text: str) -> list[str]:
    """Content-word phrases of ``text`` (clauses less question words), in order, unique."""
    phrases = []
    for clause in _PHRASE_SPLIT.split(text):
        words = [word for word in clause.split() if word.strip(".'\"“”").lower() not in _STOP]
        if len(words) >= 2:
            phrases.append(" ".join(words[:_PHRASE_WORDS]).strip(".'\"“” "))
    return _unique(phrases)


def years(text: str) -> set[int]:
    """The years (2000–2030) that ``text`` names as words."""
    return {int(year) for year in _YEAR.findall(text)}


def name_pattern(name: str) -> re.Pattern[str]:
    """A case- and hyphen-insensitive pattern of ``name`` as a whole word.

    "RTDETRv2" finds "RT-DETRv2" and "S-RAG" finds "S RAG": any single separator may appear
    between two characters, and any separators where the name has one.
    """
    pieces: list[str] = []
    for index, char in enumerate(name):
        if not char.isalnum():
            continue
        if pieces:
            pieces.append(r"[\W_]*" if not name[index - 1].isalnum() else r"[\s\-‐–_]?")
        pieces.append(re.escape(char))
    return re.compile(r"(?<![^\W_])" + "".join(pieces) + r"(?![^\W_])", re.IGNORECASE)


# --------------------------------------------------------------------------- constraints


def _venue_year(text: str) -> tuple[str | None, int | None]:
    # The first venue is the answer's: later ones tend to describe cited work ("CVPR2023").
    match = _VENUE.search(text)
    venue = _VENUES[match.group(1).lower()] if match else None
    if match and match.group(2):
        return venue, int(match.group(2))
    year = _YEAR.search(text)
    return venue, int(year.group(1)) if year else None


def _desired_papers(text: str, targets: list[str], enumerations: list[list[_Span]]) -> int:
    """Explicit number, else names listed "each", else a plural, else "the X paper" mentions."""
    counts = [
        _count(match.group(1))
        for match in _COUNT.finditer(text)
        if not _CITED_WORKS.search(match.group(0))
    ]
    if counts:
        return min(MAX_PAPERS, max(counts))
    listed = max((sum(span.text in targets for span in run) for run in enumerations), default=0)
    if listed >= 2 and _EACH.search(text):
        return min(MAX_PAPERS, listed)
    if _PLURAL.search(text):
        # A plural without a number: at least two, and one per requested target.
        return min(MAX_PAPERS, max(2, len(targets)))
    # "the X paper ... the Y paper": one per mention, but mentions of one paper repeat, so no
    # more than the named targets.
    mentions = len(_SINGULAR.findall(text))
    return min(MAX_PAPERS, mentions, max(2, len(targets))) if mentions >= 2 else 1


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


# --------------------------------------------------------------------------- names


def _name_spans(text: str) -> list[_Span]:
    """Quoted names, capitalised multi-word names and name-like tokens, in text order."""
    spans = [
        _Span(match.group(1).strip(), match.start(1), match.end(1), True)
        for match in _QUOTED.finditer(text)
        if match.group(1).strip()[:1].isupper()
    ]
    tokens = [match for match in _TOKEN.finditer(text) if not _VENUE.fullmatch(match.group())]
    index = 0
    while index < len(tokens):
        run_end = _capitalised_run(tokens, index, text)
        if run_end > index + 1:
            spans.append(
                _Span(
                    text[tokens[index].start() : tokens[run_end - 1].end()],
                    tokens[index].start(),
                    tokens[run_end - 1].end(),
                    True,
                )
            )
            index = run_end
            continue
        token = tokens[index]
        kind = _token_kind(token.group(), sentence_start=_sentence_start(text, token.start()))
        if kind is not None:
            spans.append(_Span(token.group(), token.start(), token.end(), kind == "strong"))
        index += 1
    spans.sort(key=lambda span: span.start)
    # A quoted name wins over the tokens inside it; names set apart by a spaced slash are one
    # ("CNN / Daily Mail").
    kept: list[_Span] = []
    for span in spans:
        if kept and span.start < kept[-1].end:
            continue
        if kept and text[kept[-1].end : span.start] == " / ":
            last = kept.pop()
            span = _Span(
                text[last.start : span.end], last.start, span.end, last.strong or span.strong
            )
        # A size printed after a name is part of it: "QQP 50K", "LLaMA 7B".
        sized = _SIZE_AFTER.match(text, span.end)
        if sized:
            span = _Span(text[span.start : sized.end()], span.start, sized.end(), span.strong)
        kept.append(span)
    return kept


_SIZE_AFTER = re.compile(r"\s+\d+(?:\.\d+)?[KMBT]\b")


# Lower-case words after a hyphen that name a variant rather than describe ("LAION-multi",
# "mE5-large", "GPT-3.5-turbo"); any other of five letters or more makes a descriptor
# ("VLM-based", "Gaussian-splatting").
_VARIANT_WORDS = frozenset({"multi", "large", "small", "medium", "turbo", "instruct", "giant"})


def _token_kind(token: str, *, sentence_start: bool) -> str | None:
    """'strong' for a name-like token, 'weak' for a lone capitalised word, else None."""
    if _YEAR.fullmatch(token) or _UNIT.fullmatch(token) or token.lower() in _STOP:
        return None
    last = token.split("-")[-1]
    if (
        "-" in token
        and last.isalpha()
        and last.islower()
        and len(last) >= 5
        and last not in _VARIANT_WORDS
    ):
        return None  # a descriptor ("VLM-based", "Gaussian-splatting"), not a name
    letters = [char for char in token if char.isalpha()]
    if not letters:
        return None
    has_digit = any(char.isdigit() for char in token)
    inner_upper = any(char.isupper() for char in token[1:])
    hyphen_cap = "-" in token and any(part[:1].isupper() for part in token.split("-"))
    if inner_upper or hyphen_cap or (has_digit and len(letters) >= 1 and token[0].isalpha()):
        return "strong"
    if has_digit and any(char.isupper() for char in token):  # "500xCompressor"-like
        return "strong"
    if token[0].isupper() and not sentence_start:
        return "weak"
    return None


def _capitalised_run(tokens: list[re.Match[str]], index: int, text: str) -> int:
    """End (exclusive) of a capitalised multi-word name starting at ``tokens[index]``."""
    if not _title_word(tokens[index].group()) or _sentence_start(text, tokens[index].start()):
        return index
    end = index + 1
    capitalised_end = end
    while end < len(tokens):
        gap = text[tokens[end - 1].end() : tokens[end].start()]
        if gap.strip() not in ("", ":"):
            break
        word = tokens[end].group()
        if _title_word(word) and (capitalised_end == end or _plain(word)):
            capitalised_end = end + 1
        elif word.lower() not in _CONNECTORS or not _plain(tokens[end - 1].group()):
            # A connector joins plain title words ("Learning Chaos in a Leaner Way") but not
            # names ("DetAny3D on Omni3D" are two names).
            break
        end += 1
    return capitalised_end


def _title_word(word: str) -> bool:
    return word[:1].isupper() and word.lower() not in _STOP and not _UNIT.fullmatch(word)


def _plain(word: str) -> bool:
    """A capitalised or connector word with no digits or inner capitals."""
    return word.isalpha() and word[1:].islower()


def _sentence_start(text: str, position: int) -> bool:
    before = text[:position].rstrip()
    return not before or before[-1] in ".?!:;"


def _enumerations(spans: list[_Span], text: str, weak: int = 0) -> list[list[_Span]]:
    """Runs of names listed as "A, B, and C" that hold at least one strong name (or, with
    ``weak``, that many capitalised words: "the Figure, Footer, Footnote and List
    categories")."""
    runs: list[list[_Span]] = []
    for span in spans:
        if runs and _ENUM_GAP.match(text[runs[-1][-1].end : span.start]):
            runs[-1].append(span)
        else:
            runs.append([span])
    return [
        _told_apart(run, text)
        for run in runs
        if len(run) >= 2 and (any(span.strong for span in run) or 0 < weak <= len(run))
    ]


# A name in parentheses right after a listed name: "Dense-w.o.long (MCLS)".
_PARENTHESIZED_NAME = re.compile(r"\s*\(([A-Z][\w.+-]*)\)")
# A capitalised word naming a variant: "High" of "NC-RAPT (High)".
_VARIANT_WORD = re.compile(r"[A-Z][a-z]+")


def _told_apart(run: list[_Span], text: str) -> list[_Span]:
    """The listed names with the parenthesized name printed after one that is listed twice,
    which tells the two apart ("Dense-w.o.long and Dense-w.o.long (MCLS)"), or with the
    variant a capitalised word in parentheses names ("NC-RAPT (High)" of "(Med)" and
    "(Low)")."""
    seen = Counter(span.text for span in run)
    told: list[_Span] = []
    for span in run:
        after = _PARENTHESIZED_NAME.match(text, span.end)
        if after and (seen[span.text] > 1 or _VARIANT_WORD.fullmatch(after[1])):
            span = _Span(f"{span.text} ({after[1]})", span.start, after.end(), span.strong)
        told.append(span)
    return told


def _is_criterion(span: _Span, text: str) -> bool:
    if span.text.lower() in _METRICS:
        return True
    before = text[max(0, span.start - 40) : span.start]
    return bool(_CRITERION_BEFORE.search(before) or _CRITERION_AFTER.match(text[span.end :]))


def _option_names(question: Question) -> list[str]:
    """Names of entities that multiple-choice options consist of (not numbers or sentences)."""
    names = []
    for option in question.multiple_choice_options or []:
        head = option.text.split(":")[0].strip()
        # Values ("120 GPU hours; 2.8 AP", "x = 3") and sentences are answers, not entities.
        if len(head.split()) > _OPTION_WORDS or head[:1].isdigit() or any(c in head for c in ";="):
            continue
        if any(span.strong for span in _name_spans(f"- {head}")) or _title_word(head):
            names.append(head)
    return names


def _rows(question: Question, enumerations: list[list[_Span]]) -> list[str]:
    """The row entities a table question lists: its longest enumeration that does not list
    the schema's value columns ("what BLEU and self-BLEU do ..."), with an unnamed first item
    ("for the random baseline, SQuALITY and PubMed"); all such enumerations when together
    they list as many rows as the question counts; before them, the list printed after that
    count."""
    schema = question.table_schema or []
    keys = [column.name for column in schema if column.is_row_key]
    # Rows keyed by paper or title are papers, which the question describes but cannot list.
    if not keys or any(_PAPER_COLUMN.search(key) for key in keys):
        return []
    # The list after a count of what the key column holds is its rows, names or not ("in
    # three settings: linear probing, head tuning and full-parameter tuning").
    counted_items = counted_list(question.question, keys)
    if counted_items:
        return counted_items
    columns = [column.name for column in schema if not column.is_row_key]
    listed = [
        run
        for run in enumerations
        if 2 * sum(any(_names_column(span.text, column) for column in columns) for span in run)
        < len(run)
    ]
    if not listed:
        return []
    # Lists that together hold as many rows as the question counts are its rows ("its RAPT
    # and NC-RAPT models and its MLP-Overlap and AE-Overlap models. For each of these four
    # models ...").
    counted = stated_counts(question.question, keys)
    if len(listed) > 1 and sum(map(len, listed)) in counted:
        return [span.text for run in listed for span in run]
    longest = max(listed, key=len)
    head = _LIST_HEAD.search(question.question[: longest[0].start])
    return ([head.group(1)] if head else []) + [span.text for span in longest]


def _names_column(item: str, column: str) -> bool:
    """Whether a listed item is the value column ``column``: its words among the column's,
    or the column's name abbreviating it ("R-2" for "Rouge-2 F1")."""
    return _words(item) <= _words(column) or label_share(column, question_terms(item)) >= 1.0


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _group(name: str, role: Literal["answer_target", "evidence_anchor"]) -> TargetGroup:
    return TargetGroup(name=name, role=role, query=name, anchors=[name])


def _contains(names: Iterable[str], name: str) -> bool:
    return name.lower() in (known.lower() for known in names)


def _unique(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    kept = []
    for item in items:
        if item and item.lower() not in seen:
            seen.add(item.lower())
            kept.append(item)
    return kept
