"""The terms a question is aligned by, and how one term matches the terms wanted."""

from __future__ import annotations

import functools
import itertools
import re

from littrace.numbers import spelled_as_digits
from littrace.read.text import STOPWORDS, norm, stem, terms

# Header shorthand read as the words a question uses: "w/o", and the metric letters of
# results tables ("P | R | F1", "Acc.").
SYNONYMS = {
    short: stem(word)
    for short, word in {
        "w/o": "without",
        "w/": "with",
        "p": "precision",
        "r": "recall",
        "acc": "accuracy",
        "avg": "average",
    }.items()
}
# Languages by the ISO 639-1 codes multilingual results print as column labels ("ar | bn |
# en | ..."); only a label that is the lower-case code alone is read as its language.
LANGUAGES = {
    "af": "Afrikaans",
    "ar": "Arabic",
    "bg": "Bulgarian",
    "bn": "Bengali",
    "ca": "Catalan",
    "cs": "Czech",
    "da": "Danish",
    "de": "German",
    "el": "Greek",
    "en": "English",
    "es": "Spanish",
    "et": "Estonian",
    "fa": "Persian",
    "fi": "Finnish",
    "fr": "French",
    "gu": "Gujarati",
    "he": "Hebrew",
    "hi": "Hindi",
    "hr": "Croatian",
    "hu": "Hungarian",
    "id": "Indonesian",
    "it": "Italian",
    "ja": "Japanese",
    "km": "Khmer",
    "kn": "Kannada",
    "ko": "Korean",
    "lt": "Lithuanian",
    "lv": "Latvian",
    "ml": "Malayalam",
    "mr": "Marathi",
    "ms": "Malay",
    "nl": "Dutch",
    "no": "Norwegian",
    "pa": "Punjabi",
    "pl": "Polish",
    "pt": "Portuguese",
    "ro": "Romanian",
    "ru": "Russian",
    "sk": "Slovak",
    "sl": "Slovenian",
    "sv": "Swedish",
    "sw": "Swahili",
    "ta": "Tamil",
    "te": "Telugu",
    "th": "Thai",
    "tl": "Tagalog",
    "tr": "Turkish",
    "uk": "Ukrainian",
    "ur": "Urdu",
    "vi": "Vietnamese",
    "yo": "Yoruba",
    "zh": "Chinese",
}
# Two different tokens meet when they share a prefix this long and the term is the shorter
# one (a stem or a cut: "finetun" ~ "finetune", "multivec" ~ "multivector") or adds only an
# inflection or derivation ("pretraining" ~ "pretrain"), not another word ("GROBIDCRF" is
# not "GROBID").
_STEM_PREFIX = 5
# Words this long may be misspelt in print and still be named (see _transposed).
_TYPO_LETTERS = 7
_SUFFIX = re.compile(
    r"|e|d|s|es|ed|er|ers|ing|ings|ion|ions|ation|ations|al|ally|ly|ment|ments|ity|ive|ness"
    r"|ize|ized|ise|ised|ization|isation"
)


# A Greek letter leading a run of Latin letters: a symbol with its subscript ("βsd").
GREEK_LEAD = re.compile(r"^[\u03b1-\u03c9](?=[a-z0-9]*[a-z])[a-z0-9]+$")


# Where a phrase ends inside a label or a sentence.
_PHRASE_BREAK = re.compile(r"[,;:()\[\]]")


def _tokens(text: str) -> set[str]:
    # Two words printed as one in a header ("GROBID_NN" read as "GROBIDNN"; "Multi Vec").
    words = norm(text).split()
    found: set[str] = {a + b for a, b in itertools.pairwise(words) if (a + b).isalnum()}
    # A label the question quotes is named whole, stop words and all ("the 'All' score").
    found.update(QUOTED_MARK + norm(quoted) for quoted in _QUOTED.findall(text))
    # The initials of consecutive words of one phrase, for a label printed as an initialism
    # ("CS" for "computer science", "MLP" for "multi-layer perceptron"); a comma or a colon
    # ends the phrase ("BART, Single-task" abbreviates to no "BS").
    for phrase in _PHRASE_BREAK.split(text):
        content = [
            p
            for w in norm(phrase).split()
            for p in w.split("-")
            if p.isalpha() and p not in STOPWORDS
        ]
        found.update(
            INITIALS_MARK + "".join(w[0] for w in content[i : i + n])
            for n in (2, 3, 4)
            for i in range(len(content) - n + 1)
        )
    # Some initialisms keep the words between ("SOTA" for "state of the art"); they spell
    # out words, not names ("score of the ACL" is no SOTA).
    spelled = [w.lower() if not w.isupper() else "" for w in re.findall(r"[A-Za-z]+", text)]
    found.update(
        INITIALS_MARK + "".join(w[0] for w in run)
        for n in (3, 4, 5)
        for i in range(len(spelled) - n + 1)
        if all(run := spelled[i : i + n])
        and run[0] not in STOPWORDS
        and run[-1] not in STOPWORDS
        and any(w in STOPWORDS for w in run[1:-1])
    )
    # An ordinal names the number a label prints ("the second dataset": "...Consumption2").
    found.update(str(_ORDINALS.index(w) + 1) for w in words if w in _ORDINALS)
    # A number standing alone, not the part of a name ("8 frames", not "top-1").
    found.update(NUMBER_MARK + w for w in words if w.isdigit())
    found.update(_orders(words))
    found.update(f"{ARROW_MARK}{a.lower()}>{b.lower()}" for a, b in _ARROWED.findall(text))
    # "With no hints", "without augmentation": the question names a row of nothing ("None").
    if _ABSENT.search(text):
        found.add(ABSENT_MARK)
    for term in terms(text):
        term = SYNONYMS.get(term, term)
        found.add(term)
        # "β+" still names the letter: a label printing "β R" or "β" alone.
        found.add(term.rstrip("+\u2212"))
        # A symbol's subscript run into it names what it stands for: "βSD" the SD term.
        if GREEK_LEAD.match(term):
            found.add(term[1:])
        # A metric at a cutoff ("NDCG@3") is also printed with its cutoff run on ("NDCG3").
        if "-" in term or "/" in term or "@" in term:
            parts = [p for p in re.split(r"[-/@]", term) if p]
            # A compound led by a number is a quantity ("6-billion-parameter", "12-layer"):
            # its number names no row ("variant 6"), unlike the number ending a name ("GPT-4").
            named = parts[1:] if parts[0].isdigit() else parts
            found.update(named)
            # Parts are words too: stemmed, "text-to-image" names "Text → Image".
            found.update(stem(p) for p in named)
            found.add("".join(parts))
    return found


def _orders(words: list[str]) -> set[str]:
    """Which of two terms comes first where they stand close, for labels whose order says
    what they mean ("Text → Video" is not "Video → Text"): "text-to-video" and "text →
    video" both mark "text" before "video"."""
    parts = _parts(words)
    named = [_term_of(p) if p.isalnum() and p not in STOPWORDS else None for p in parts]
    return {
        f"{ORDER_MARK}{first}>{then}"
        for i, first in enumerate(named)
        for then in named[i + 1 : i + 1 + _ORDER_WINDOW]
        if first and then and first != then
    }


def _parts(words: list[str]) -> list[str]:
    """The words with their hyphen and slash parts apart ("text-to-video": text, to, video)."""
    return [p for w in words for p in re.split(r"[-/]", w) if p]


def _term_of(word: str) -> str:
    term = stem(word)
    return SYNONYMS.get(term, term)


def in_order(first: str, then: str, wanted: frozenset[str]) -> bool:
    """Whether the question (``wanted``) prints the term ``first`` close before ``then``."""
    return f"{ORDER_MARK}{first}>{then}" in wanted


def said_after(word: str, wanted: frozenset[str]) -> set[str]:
    """The terms the question (``wanted``) prints close after ``word`` ("highest" ->
    "flickr30k", "score" for "the highest Flickr30K score")."""
    return close_after(wanted).get(_term_of(word), set())


def close_after(wanted: frozenset[str]) -> dict[str, set[str]]:
    """Each term the question (``wanted``) prints -> the terms it prints close after it."""
    found: dict[str, set[str]] = {}
    for mark in wanted:
        if mark.startswith(ORDER_MARK):
            first, then = mark[len(ORDER_MARK) :].split(">", 1)
            found.setdefault(first, set()).add(then)
    return found


def named_together(parts: list[str], wanted: frozenset[str]) -> bool:
    """Whether the question (``wanted``) names ``parts`` (of one compound label) close
    together and in order, as "BERT base" names "BERT-Base"; parts it names otherwise (by
    initials, by a longer word, a number by an ordinal) cannot tell."""
    named = [term for p in parts if p.isalpha() and (term := _term_of(p)) in wanted]
    return all(in_order(a, b, wanted) for a, b in itertools.pairwise(named) if a != b)


def reversed_order(first: str, then: str, wanted: frozenset[str]) -> bool:
    """Whether the question (``wanted``) names the words of ``then`` before those of
    ``first`` where it names them close together, and never the other way round."""
    before = [_term_of(p) for p in _parts(norm(first).split())]
    after = [_term_of(p) for p in _parts(norm(then).split())]
    pairs = [(a, b) for a in before for b in after if a != b]
    return any(in_order(b, a, wanted) for a, b in pairs) and not any(
        in_order(a, b, wanted) for a, b in pairs
    )


# What the question says is left out: "with no hints", "without any augmentation".
_ABSENT = re.compile(r"\b(?:with\s+no|without(?:\s+any)?)\s+[A-Za-z]", re.I)
# An arrow as papers and questions print one: "D → L", "text -> video".
ARROW = r"(?:→|⟶|⇒|->)"
# The words either side of an arrow the question prints ("documents → long summary").
_ARROWED = re.compile(rf"([A-Za-z][\w-]*)\s*{ARROW}\s*([A-Za-z][\w-]*)")


def arrow_named(first: str, then: str, wanted: frozenset[str]) -> bool:
    """Whether the question (``wanted``) prints an arrow between words that ``first`` and
    ``then`` begin, as a header names a mapping by its ends' initials ("D → L" for "documents
    → long summary", "En → De" not for "English → German").

    Example:
        >>> wanted = question_terms("the task (documents → long summary)")
        >>> arrow_named("D", "L", wanted), arrow_named("D", "S", wanted)
        (True, False)
    """
    start, end = first.lower(), then.lower()
    return any(
        mark.startswith(ARROW_MARK)
        and (ends := mark[len(ARROW_MARK) :].split(">", 1))
        and ends[0].startswith(start)
        and ends[1].startswith(end)
        for mark in wanted
    )


# Two terms this close (one word between them: "text-to-video") stand in order.
_ORDER_WINDOW = 2
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def question_terms(text: str) -> frozenset[str]:
    """The terms a question is aligned by (hyphenated terms also as their parts)."""
    return frozenset(_tokens(text))


# The words that set what is said against its contrast: "a 5th grader rather than a 2nd".
CONTRAST_MARKERS = ("rather than", "instead of", "as opposed to")
# A contrast names what is not asked: "when frozen rather than finetuned", "its own method
# (not SFT)", "PubMed (without n-gram blocking)".
_CONTRAST = re.compile(
    rf"(?:\b(?:{'|'.join(CONTRAST_MARKERS)})|(?<=\()(?:not|without))\s+((?:[\w@.+-]+\s*){{1,4}}?)"
    r"(?=[,;:?.)]|$|\s+(?:and|or|but|in|on|for|of)\b)",
    re.IGNORECASE,
)


def _contrasts(text: str) -> str:
    """What ``text`` names as the contrast of what it says, the phrases joined."""
    return " ".join(m.group(1) for m in _CONTRAST.finditer(text))


def without_contrast(text: str) -> str:
    """``text`` without what it names as the contrast of what it says ("a fifth grade
    reading level rather than second grade" says nothing of second grade).

    Example:
        >>> without_contrast("We suggest a fifth grade level rather than second grade")
        'We suggest a fifth grade level  '
    """
    return _CONTRAST.sub(" ", text)


# A paper described by where and when it appeared: "the arXiv 2022 paper", "a 2022 arXiv
# dataset paper", "an EACL 2023 study".
_PAPER_NOUN = r"(?:[\w-]+\s+){0,2}(?:paper|preprint|study|work|article)s?\b"
_PAPER_PLACE = re.compile(
    rf"\b(?!(?:a|an|the|its|their|this|that)\b)[A-Za-z][\w&.-]*(?=\s+(?:19|20)\d\d\s+{_PAPER_NOUN})"
    rf"|(?<=\b(?:19|20)\d\d\s)[A-Za-z][\w&.-]*(?=\s+{_PAPER_NOUN})"
)


def without_paper_places(text: str) -> str:
    """``text`` without the venues that describe papers: "the arXiv 2022 paper" names no
    "arXiv" dataset.

    Example:
        >>> without_paper_places("In the arXiv 2022 paper, how long are arXiv documents?")
        'In the  2022 paper, how long are arXiv documents?'
        >>> without_paper_places("a 2022 arXiv dataset paper")
        'a 2022  dataset paper'
    """
    return _PAPER_PLACE.sub("", text)


def asked_terms(question: str) -> frozenset[str]:
    """The question's terms without those it names only as the contrast of what it asks."""
    contrasted = _tokens(_contrasts(question))
    rest = _tokens(without_contrast(question))
    return frozenset(_tokens(question) - (contrasted - rest))


def contrasted_terms(question: str) -> frozenset[str]:
    """The content terms the question names only as the contrast of what it asks ("bleu",
    "exact", "match" for "scored with a non-matching rate rather than BLEU or exact match").

    Example:
        >>> sorted(contrasted_terms("Which is scored with a rate rather than BLEU?"))
        ['bleu']
    """
    return frozenset(set(terms(_contrasts(question))) - set(terms(without_contrast(question))))


@functools.lru_cache(maxsize=65536)
def terms_match(term: str, wanted: frozenset[str]) -> bool:
    """Whether ``term`` is among ``wanted``, exactly, as a stem or cut of a wanted word, or
    as an inflection of one."""
    if term in wanted:
        return True
    # Stems are of words: "ReACT@N" is another method than "ReACT", not a form of it.
    if len(term) < _STEM_PREFIX or not term.isalpha():
        return False
    return any(
        len(other) >= _STEM_PREFIX
        # A marked term ("initials:cs", "quoted:all") is no word to stem into.
        and not other.startswith(MARKS)
        and (
            other.startswith(term)
            or (term.startswith(other) and _SUFFIX.fullmatch(term[len(other) :]) is not None)
            or _transposed(term, other)
        )
        for other in wanted
    )


# A count before a plural within a few words: "the five retrieval settings", "4 models".
_STATED_COUNT = re.compile(r"\b([2-9]|1\d)\s+(?:[\w-]+\s+){0,3}?([^\W\d_][\w-]*s)\b")
# What the question enumerates in parentheses after saying it wants each one ("each source
# (familiar citations, reencountered citations, search/external)"): as many as it lists.
_ENUMERATED = re.compile(r"\b(?:each|every)\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s*\(([^()]+)\)", re.I)


def stated_counts(question: str, names: list[str]) -> set[int]:
    """The counts ``question`` states of what columns named ``names`` hold ("the five
    retrieval settings" for "Setting", or as many as it enumerates of each); a count of
    anything else ("6 billion parameters" for "Model") is none.

    Example:
        >>> sorted(stated_counts("For each of these four models, give ...", ["Model"]))
        [4]
        >>> sorted(stated_counts("the share from each source (familiar, search/external)", ["Source"]))
        [2]
    """
    named = frozenset(terms(" ".join(names)))
    counted = {
        int(m[1])
        for m in _STATED_COUNT.finditer(spelled_as_digits(question))
        if any(terms_match(term, named) for term in terms(" ".join(_singulars(m[2]))))
    }
    for m in _ENUMERATED.finditer(question):
        items = [item for item in _LIST_SPLIT.split(m[2]) if item.strip()]
        if (
            len(items) >= 2
            and all(len(item.split()) <= _ITEM_WORDS for item in items)
            and any(terms_match(term, named) for term in terms(m[1]))
        ):
            counted.add(len(items))
    return counted


# What stands between a count's noun and the list naming what it counts; a list in
# parentheses describes them ("(with resistor, full-transistor ...)") rather than names them.
_LIST_OPENING = re.compile(r"^\s*(?::|,?\s*namely\b|,?\s*i\.e\.,?)\s*")
_LIST_END = re.compile(r"[.?!;)](?:\s|$)")
_LIST_SPLIT = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
# A listed item is a short phrase; a longer run is a clause.
_ITEM_WORDS = 4


def counted_list(question: str, names: list[str]) -> list[str]:
    """The items of a list printed right after a count the question states of what columns
    named ``names`` hold, when there are exactly that many ("in three settings: linear
    probing, head tuning and full-parameter tuning" for "Setting"); [] when none is.

    Example:
        >>> counted_list("It is compared in three settings: linear probing, head tuning and "
        ...              "full-parameter tuning. Give the mIoU.", ["Setting"])
        ['linear probing', 'head tuning', 'full-parameter tuning']
    """
    named = frozenset(terms(" ".join(names)))
    text = spelled_as_digits(question)
    for m in _STATED_COUNT.finditer(text):
        if not any(terms_match(term, named) for term in terms(" ".join(_singulars(m[2])))):
            continue
        rest = text[m.end() :]
        opening = _LIST_OPENING.match(rest)
        if opening is None or not opening.group(0).strip():
            continue
        rest = rest[opening.end() :]
        end = _LIST_END.search(rest)
        items = [item.strip() for item in _LIST_SPLIT.split(rest[: end.start() if end else None])]
        items = [item.removeprefix("the ").strip() for item in items if item]
        if len(items) == int(m[1]) and all(len(item.split()) <= _ITEM_WORDS for item in items):
            return items
    return []


def _singulars(plural: str) -> list[str]:
    """The singulars a plural may be of: "categories", "classes", "settings"."""
    word = plural.lower()
    return [word[:-3] + "y", word[:-2]] if word.endswith("ies") else [word[:-1], word[:-2]]


def _transposed(a: str, b: str) -> bool:
    """Whether two long words differ by two neighbouring letters swapped, the commonest typo
    ("Wikipeida" for "Wikipedia")."""
    if len(a) != len(b) or len(a) < _TYPO_LETTERS or a == b:
        return False
    apart = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(apart) != 2 or apart[1] != apart[0] + 1:
        return False
    first, second = apart
    return a[first] == b[second] and a[second] == b[first]


_QUOTED = re.compile(r"""(?:(?<=\s)|^)['‘"“]([^'’"”]{1,40})['’"”](?!\w)""")
QUOTED_MARK = "quoted:"
NUMBER_MARK = "number:"
INITIALS_MARK = "initials:"
ORDER_MARK = "order:"
ARROW_MARK = "arrow:"
ABSENT_MARK = "absent:"
MARKS = (QUOTED_MARK, NUMBER_MARK, INITIALS_MARK, ORDER_MARK, ARROW_MARK, ABSENT_MARK)
