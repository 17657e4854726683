"""How much of a table label a question names: citations, compounds, abbreviations,
shortened words and symbols."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence

from littrace.read.text import norm, terms
from littrace.read.units.own import OWN_TERM, marks_own
from littrace.read.units.terms import (
    ABSENT_MARK,
    ARROW,
    GREEK_LEAD,
    INITIALS_MARK,
    LANGUAGES,
    QUOTED_MARK,
    SYNONYMS,
    arrow_named,
    close_after,
    in_order,
    named_together,
    question_terms,
    reversed_order,
    terms_match,
)

# A citation printed inside or after a label: "ChemProt (Kringelum et al., 2016)", "ViT-22B [37]".
CITATION = re.compile(r"\s*\([^()]*\b(?:19|20)\d\d[a-z]?\)|\s*\[\d+(?:\s*[,–-]\s*\d+)*\]")
# The first author and year of the citation printed in a label: "(Li et al., 2016)",
# "(Jurgens et al. (2018))", "(Dogan and Lu, 2014)".
_CITED_WORK = re.compile(
    r"\(([A-Z][\w'’-]+)(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w'’-]+)?,?\s*\(?((?:19|20)\d\d)[a-z]?\)"
)

# Footnote and significance marks printed after a label or a value ("RoBERTa**", "6.8†").
_TRAILING_MARKS = re.compile(r"[\s*∗⋆†‡§¶]+$")


def without_marks(text: str) -> str:
    """``text`` without the footnote or significance marks printed after it ("RoBERTa**",
    "6.8†"); a text that is nothing but marks is kept.

    Example:
        >>> without_marks("SciBERT †"), without_marks("C++"), without_marks("*")
        ('SciBERT', 'C++', '*')
    """
    return _TRAILING_MARKS.sub("", text) or text


# A compound term named in some of its parts (of three letters or more) counts this much;
# one named in all its parts, but not together, this much.
_PART_WEIGHT = 0.5
_SCATTERED = 0.9
_PART_LETTERS = 3


# An initialism as a header or label prints it: two to five capitals ("CS", "MLP", "NER"),
# or a few consonants in lower case, which spell no word ("zs" for zero-shot, "lr" for
# learning rate).
_INITIALISM = re.compile(r"\b(?:[A-Z]{2,5}|[b-df-hj-np-tv-xz]{2,4})\b")
# A name printed in capitals, long enough to run a word and an initialism together.
_CAPITALS = re.compile(r"\b[A-Z]{5,}\b")


def label_share(label: str, wanted: frozenset[str]) -> float:
    """The share of ``label``'s own terms (not their hyphen parts, not a citation printed in
    it) that ``wanted`` names."""
    hits, total = label_hits(label, wanted)
    return hits / total if total else 0.0


def named_terms(label: str, wanted: frozenset[str]) -> float:
    """How many of the question's terms ``label`` prints, its compounds' parts counted: of
    two labels a question names alike, the one naming more of it is the more specific
    reading ("NC-RAPT" over "RAPT" for "the NC-RAPT variant")."""
    printed: set[str] = set()
    for term in terms(CITATION.sub("", label)):
        printed.update((term, *_COMPOUND.split(term)))
    # An initialism the question spells out names as many of its words as it has letters
    # ("NC-RAPT" six, "RAPT" four, for "novelty-conditioned retrieval-augmented prompt
    # tuning").
    spelled = sum(len(p) for p in printed if p.isalpha() and INITIALS_MARK + p in wanted)
    return max(float(len(printed & wanted)), label_hits(label, wanted)[0], float(spelled))


@functools.lru_cache(maxsize=65536)
def label_hits(label: str, wanted: frozenset[str]) -> tuple[float, int]:
    """How many of ``label``'s own terms ``wanted`` names, and how many it has."""
    # A question pointing at the paper's own method names the row the paper marks as its own.
    if QUOTED_MARK + norm(label) in wanted or (OWN_TERM in wanted and marks_own(label)):
        return 1, 1
    # A row of nothing ("None" under "Hints") is what "with no hints" names.
    if norm(label) in _NOTHING and ABSENT_MARK in wanted:
        return 1, 1
    # A language printed by its ISO 639-1 code, as multilingual results print them ("ja"),
    # is named by its name or by the code itself (options that print codes). In capitals
    # ("EN", "ID") the code may abbreviate something else, so only its language's name
    # names it.
    code = label.strip()
    if code in LANGUAGES and code in wanted:
        return 1, 1
    spoken = LANGUAGES.get(code.lower()) if code.isupper() else None
    if spoken and set(terms(spoken)) <= wanted:
        return 1, 1
    label = LANGUAGES.get(code, label)
    own = {SYNONYMS.get(t, t) for t in terms(CITATION.sub("", label))}
    if not own:
        return 0, 0
    # "Text → Video" is not named by a question asking for text from video.
    arrow = _ARROW.split(label)
    if len(arrow) == 2 and reversed_order(arrow[0], arrow[1], wanted):
        return 0, len(own)
    # "D → L" is named by the words either side of an arrow the question prints.
    if (
        len(arrow) == 2
        and all(_ARROW_END.fullmatch(end.strip()) for end in arrow)
        and arrow_named(arrow[0].strip(), arrow[1].strip(), wanted)
    ):
        return len(own), len(own)
    # A question may name a dataset or method only by the work its label cites ("a
    # chemical/disease dataset by Li et al. (2016)" for "BC5CDR (Li et al., 2016)").
    cited = _CITED_WORK.search(label)
    if cited and {cited.group(1).casefold(), cited.group(2)} <= wanted:
        return len(own), len(own)
    shortened = {word.lower() for word in _SHORTENED.findall(label)}
    symbols = {f"{letter}{rest}".lower() for letter, rest in _SUBSCRIPTED.findall(label)}
    initialisms = {word.lower() for word in _INITIALISM.findall(label)}
    capitals = {word.lower() for word in _CAPITALS.findall(label)}
    camel = {
        word.lower(): [part.lower() for part in _CAMEL_PART.findall(word)]
        for word in _CAMEL.findall(label)
    }
    blended = _blended(label, wanted)
    hits, total = 0.0, len(own)
    for printed in own:
        # A symbol is named by what its subscript stands for ("βSD" by "the SD term").
        if printed in blended or (GREEK_LEAD.match(printed) and printed[1:] in wanted):
            hits += 1
            continue
        # A subscript run into a compound ("R-2f1" for R-2 with subscript f1) is its own term.
        whole = _term_hits(printed, wanted, camel, shortened, symbols, initialisms, capitals)
        run_in = _RUN_IN.fullmatch(printed)
        if run_in is None or whole == 1.0:
            hits += whole
            continue
        total += 1
        for term in (run_in.group("base"), run_in.group("subscript")):
            hits += _term_hits(term, wanted, camel, shortened, symbols, initialisms, capitals)
    return hits, total


def run_in_bases(
    printed: frozenset[str], subscripts: frozenset[str] = frozenset()
) -> frozenset[str]:
    """``printed`` header terms with the base and the subscript of each subscript run into
    one ("r-2" and "f1" of "r-2f1"), so that the header names the column "R-2 F1"; and the
    base of a name that one of the table's run-in ``subscripts`` (:func:`run_in_subscripts`)
    ends, with that subscript ("bs" and "f1" of "bsf1" beside "r-2f1": BS with subscript
    f1)."""
    parts = {
        part
        for term in printed
        if (run_in := _RUN_IN.fullmatch(term))
        for part in (run_in["base"], run_in["subscript"])
    }
    parts |= {
        part
        for term in printed
        for subscript in subscripts
        if term.endswith(subscript)
        and term[: -len(subscript)].isalpha()
        and len(term) - len(subscript) >= 2
        for part in (term[: -len(subscript)], subscript)
    }
    return printed | parts


def run_in_subscripts(printed: frozenset[str]) -> frozenset[str]:
    """The subscripts a table's header terms ``printed`` run into a compound ("f1" of
    "r-2f1")."""
    return frozenset(run_in["subscript"] for term in printed if (run_in := _RUN_IN.fullmatch(term)))


def _word_and_initials(term: str, wanted: frozenset[str]) -> bool:
    """Whether a name printed in capitals runs a wanted word together with the initials of
    wanted words: "UCIHAR" for "the UCI human activity recognition dataset"."""
    return any(
        terms_match(term[:cut], wanted) and INITIALS_MARK + term[cut:] in wanted
        for cut in range(_PART_LETTERS, len(term) - 1)
    )


def _blended(label: str, wanted: frozenset[str]) -> set[str]:
    """Pairs of ``label``'s words that a wanted term runs together, the first cut to its
    start (at most half of it): "Scientific BERT" printed as "SciBERT"."""
    words = terms(CITATION.sub("", label))
    blended: set[str] = set()
    for first, then in itertools.pairwise(words):
        for term in wanted:
            cut = len(term) - len(then)
            if (
                cut >= _PART_LETTERS
                and term.isalpha()
                and term.endswith(then)
                and first.startswith(term[:cut])
                # Cut to at most half: "with" of "without" + "LM" is no blend of "withlm".
                and len(first) >= 2 * cut
            ):
                blended.update((first, then))
    return blended


def _runs_together(term: str, wanted: frozenset[str]) -> bool:
    """Whether a printed name runs together two words the question names in order, the
    first cut to its start (at most half of it): "SciBERT" for "scientific-text BERT"."""
    if not term.isalpha():
        return False
    for cut in range(_PART_LETTERS, len(term) - _PART_LETTERS + 1):
        start, then = term[:cut], term[cut:]
        if then in wanted and any(
            word.isalpha()
            and word.startswith(start)
            and len(word) >= 2 * cut
            and in_order(word, then, wanted)
            for word in wanted
        ):
            return True
    return False


def blends(said: Sequence[str]) -> dict[str, tuple[str, str]]:
    """The names that run two neighbouring words of ``said`` (a question's terms, in order)
    together, each cut to its start, the first to at most half of it, with the words they
    stand for: "scivocab" for "scientific vocabulary", "scibert" for "scientific BERT"."""
    found: dict[str, tuple[str, str]] = {}
    for first, then in itertools.pairwise(said):
        if not (first.isalpha() and then.isalpha()):
            continue
        for cut in range(_PART_LETTERS, len(first) // 2 + 1):
            for kept in range(_PART_LETTERS, len(then) + 1):
                found.setdefault(first[:cut] + then[:kept], (first, then))
    return found


def _term_hits(
    term: str,
    wanted: frozenset[str],
    camel: dict[str, list[str]],
    shortened: set[str],
    symbols: set[str],
    initialisms: set[str],
    capitals: set[str],
) -> float:
    """How much of one label term ``wanted`` names (see :func:`label_hits`)."""
    parts = camel.get(term) or [p for p in term.replace("/", "-").split("-") if p]
    joined = "".join(parts) if len(parts) > 1 else term
    if (
        terms_match(term, wanted)
        or _abbreviates(term, wanted)
        or _cuts_words(term, wanted)
        or (term in shortened and _shortens(term, wanted))
        or (term in symbols and _names_symbol(term, wanted))
        or (term in initialisms and INITIALS_MARK + term in wanted)
        or (term in capitals and _word_and_initials(term, wanted))
        or (len(parts) > 1 and terms_match(joined, wanted))
        or _runs_together(term, wanted)
    ):
        return 1.0
    if len(parts) > 1 and all(
        terms_match(p, wanted) or (p in initialisms and INITIALS_MARK + p in wanted) for p in parts
    ):
        # Every part named, but apart ("ChatGPT-DFSDT" by "ChatGPT-annotated ...
        # ToolLLaMA-DFSDT"): less than the compound named whole.
        return 1.0 if named_together(parts, wanted) else _SCATTERED
    if len(parts) > 1:
        # A compound naming the question's words in some of its parts ("ToolLLaMA-DFSDT"
        # for "... with DFSDT") is named in part, at half weight, unless the question
        # prints a sibling of it ("Overlap-Combined" is not "Overlap-Ranking") or a
        # number tells it from its siblings ("HouseholdPowerConsumption1").
        named = [p for p in parts if len(p) >= _PART_LETTERS and terms_match(p, wanted)]
        unnamed = [p for p in parts if p not in named]
        if not any(_sibling(p, term, wanted) for p in named) and all(p.isalpha() for p in unnamed):
            return _PART_WEIGHT * len(named) / len(parts)
    return 0.0


def _sibling(part: str, term: str, wanted: frozenset[str]) -> bool:
    """Whether ``wanted`` holds another compound with ``part`` among its parts."""
    return any(other != term and part in _COMPOUND.split(other) for other in wanted if "-" in other)


def _abbreviates(term: str, wanted: frozenset[str]) -> bool:
    """Whether a compound header term abbreviates a wanted one part by part, a letter for a
    word, the rest alike: "R-2" for "ROUGE-2", "B-4" for "BLEU-4", "R@5" for "recall@5"."""
    # A letter run into the number it abbreviates with: "K700" for "Kinetics-700".
    parts = _COMPOUND.split(term) if _COMPOUND.search(term) else _LETTER_NUMBER.split(term)
    if len(parts) < 2 or not any(len(part) == 1 and part.isalpha() for part in parts):
        return False
    for other in wanted:
        full = _COMPOUND.split(other)
        if (
            len(full) == len(parts)
            and all(
                part == word or (len(part) == 1 and part.isalpha() and word.startswith(part))
                for part, word in zip(parts, full, strict=True)
            )
            and any(part == word for part, word in zip(parts, full, strict=True))
        ):
            return True
    return False


def _cuts_words(term: str, wanted: frozenset[str]) -> bool:
    """Whether a compound label cuts words the question prints close together in its order,
    each part the start of one, the last two letters or more: "p-Si" for "p-type silicon"
    (not for "n-type silicon")."""
    parts = term.split("-")
    if not 1 < len(parts) <= 3 or not all(p.isalpha() for p in parts) or len(parts[-1]) < 2:
        return False
    after = close_after(wanted)
    chains = [[word] for word in after if word.startswith(parts[0])]
    for part in parts[1:]:
        chains = [[*c, w] for c in chains for w in after.get(c[-1], ()) if w.startswith(part)]
    # A cut, not the words whole (those the parts themselves name).
    return any(any(len(w) > len(p) for w, p in zip(chain, parts, strict=True)) for chain in chains)


_COMPOUND = re.compile(r"[-/@]")
_LETTER_NUMBER = re.compile(r"(?<=^[a-z])(?=\d+$)")
# Words run together in a name, each capitalised ("HouseholdPowerConsumption2",
# "AtrialFibrillation"): named by its words, as a hyphenated term is by its parts.
_CAMEL = re.compile(r"\b[A-Z]?[a-z]+(?:[A-Z][a-z]+)+[A-Z0-9]*\b")
_CAMEL_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# A word a header prints shortened, with a full stop: "Avg.", "Len.", "Max.", "Prec.".
_SHORTENED = re.compile(r"\b([A-Za-z]{2,5})\.(?!\w)")
# A subscript run into a one-letter abbreviation: "R-2f1", "R-Lf1" (ROUGE-2 with f1 below),
# not the letters of a name ("GPT-4o", "BERT-Base").
_RUN_IN = re.compile(r"(?P<base>[a-z]-(?:\d+|[a-z]))(?P<subscript>[a-z]{1,3}\d?)")
_ARROW = re.compile(rf"\s*{ARROW}\s*")
# Labels of a row that has none of what its column varies: "None" under "Hints".
_NOTHING = frozenset({"none", "nothing"})
# One end of a mapping a header prints by initial: "D", "L", "En".
_ARROW_END = re.compile(r"[A-Z][a-z]?")


# A symbol printed with its subscript run in ("A_eval" as "Aeval", "L_task" as "Ltask").
_SUBSCRIPTED = re.compile(r"\b([A-Z])([a-z]{3,})\b")


def _names_symbol(term: str, wanted: frozenset[str]) -> bool:
    """Whether a symbol with its subscript ("aeval") is what the question names in words:
    the subscript a wanted word or its start ("evaluation"), the letter the initial of
    another ("agent")."""
    letter, subscript = term[0], term[1:]
    said = any(
        word.startswith(subscript) and word.isalpha() and len(word) > len(subscript)
        for word in wanted
    ) or terms_match(subscript, wanted)
    return said and any(word[0] == letter and word.isalpha() for word in wanted)


def _shortens(term: str, wanted: frozenset[str]) -> bool:
    """Whether ``term`` (printed with a full stop) is a wanted word shortened: its first
    letter, then some of its letters in order ("avg" of "average", "len" of "length")."""
    return any(
        len(word) > len(term) and word[0] == term[0] and _in_order(term, word)
        for word in wanted
        if word.isalpha()
    )


def _in_order(letters: str, word: str) -> bool:
    rest = iter(word)
    return all(letter in rest for letter in letters)


def printed_as(label: str, name: str) -> bool:
    """Whether ``label`` prints ``name`` exactly (a citation after it aside), marks and
    all: "EVA-02-CLIP-E+ [130]" prints "EVA-02-CLIP-E+", not "EVA-02-CLIP-E"."""
    return " ".join(CITATION.sub("", label).split()).casefold() == " ".join(name.split()).casefold()


def prints_own(path: tuple[str, ...], subject: str) -> bool:
    """Whether a header ``path`` is the paper's own method's: marked so ("(ours)") or
    printing the name of what the paper introduces ("S2ORC-SciBERT" for "S2ORC")."""
    named = question_terms(subject) if subject else frozenset()
    return any(
        marks_own(level) or (bool(named) and label_share(subject, question_terms(level)) >= 1.0)
        for level in path
    )
