"""What a multiple-choice option claims: options cut into their claims at semicolons,
enumeration markers and conjoined values ("(i) GloVe; (ii) Skip-gram on NYT"), read by the
claim reader (:mod:`littrace.read.choice.claims`) and the localizer alike.

Example:
    >>> [(c.marker, c.text) for c in option_claims("(i) GloVe; (ii) Skip-gram on NYT")]
    [('(i)', 'GloVe'), ('(ii)', 'Skip-gram on NYT')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from littrace.numbers import printed_numbers, spelled_as_digits
from littrace.read.text import SPACED_SLASH, terms
from littrace.read.units import CITATION
from littrace.read.views import ENUMERATION_ITEM

__all__ = ["MARKER", "Claim", "option_claims"]

# An enumeration marker that says which of several things a claim is about: "(i)", "(b)".
MARKER = re.compile(rf"{ENUMERATION_ITEM}\s*")
# A claim part ends at a semicolon or where the next marked one begins.
_CLAIM_END = re.compile(rf";\s*|\s*(?={ENUMERATION_ITEM}\s)")
# What follows "so" is inferred from the claims, not printed anywhere.
_CONSEQUENCE = re.compile(r",?\s+(?:so|hence|thus|therefore)\s+")
# Two values of one quantity joined: "A uses 1e-5 and B uses 5 × 10−5".
_CONJUNCTION = re.compile(r",?\s+(?:and|while|whereas|but)\s+")
# Two claims listed with a comma, each led by its count: "one in the extractor, two in the
# detector".
_COUNTS_LISTED = re.compile(r"^\d[^,]*,\s+\d[^,]*$")


@dataclass(frozen=True)
class Claim:
    """One part of an option ("(ii) GloVe", "the embedding paper uses 5 × 10−5"): what it
    says (its numbers, else its words) and the question text it answers."""

    text: str
    marker: str
    per_work: bool = False


def option_claims(text: str) -> list[Claim]:
    """An option cut into the claims it makes, at semicolons and enumeration markers."""
    claims = []
    for piece in _CLAIM_END.split(text):
        marker = MARKER.match(piece.strip())
        body = piece.strip()[marker.end() :] if marker else piece.strip()
        body = _CONSEQUENCE.split(body, maxsplit=1)[0]
        # "A uses 1e-5 and B uses 5 × 10−5": two claims, each with its value.
        halves = _CONJUNCTION.split(body, maxsplit=1)
        # One per work in the order the question names the works: "8,192 / 16,384",
        # "bert-base-wikipedia-sections-mean-tokens / paraphrase-mpnet-base-v2".
        listed = SPACED_SLASH.split(body)
        if _COUNTS_LISTED.match(spelled_as_digits(body)):
            said = body.split(",", 1)
        elif len(listed) > 1:
            said = listed
        elif len(halves) == 2 and all(printed_numbers(CITATION.sub("", h)) for h in halves):
            said = halves
        else:
            said = [body]
        for claim in said:
            if terms(claim) or printed_numbers(claim):
                claims.append(
                    Claim(
                        claim.strip(" ,."),
                        marker.group(0).strip() if marker else "",
                        per_work=len(listed) > 1,
                    )
                )
    return claims
