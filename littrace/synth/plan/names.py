"""Names that must stay unique across the corpus: methods, people and cited concepts."""

from __future__ import annotations

import random

from littrace.synth.plan.objects import CitedWork
from littrace.synth.plan.text import surname, title_case
from littrace.synth.vocabulary import (
    CONCEPT_ADJECTIVES,
    CONCEPT_NOUNS,
    FIRST_NAMES,
    METHOD_PREFIXES,
    METHOD_SUFFIXES,
    REFERENCE_VENUES,
    SURNAMES,
    TITLE_TAILS,
    TOPICS,
)


class Names:
    """Draws names that must stay unique across the corpus (methods, titles, concepts)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.methods: set[str] = {b for topic in TOPICS for b in topic.baselines}
        self.titles: set[str] = set()

    def method(self) -> str:
        while True:
            name = self.rng.choice(METHOD_PREFIXES) + self.rng.choice(METHOD_SUFFIXES)
            if name not in self.methods:
                self.methods.add(name)
                return name

    def people(self, low: int, high: int) -> tuple[str, ...]:
        chosen: list[str] = []
        count = self.rng.randint(low, high)
        while len(chosen) < count:
            name = f"{self.rng.choice(FIRST_NAMES)} {self.rng.choice(SURNAMES)}"
            if surname(name) not in {surname(other) for other in chosen}:
                chosen.append(name)
        return tuple(chosen)

    def concept_reference(self, key: str, years: tuple[int, int], avoid: set[str]) -> CitedWork:
        """A prior work named after a concept not in ``avoid``, with a corpus-unique title."""
        while True:
            concept = f"{self.rng.choice(CONCEPT_ADJECTIVES)} {self.rng.choice(CONCEPT_NOUNS)}"
            title = f"{title_case(concept)} {self.rng.choice(TITLE_TAILS)}"
            if concept in avoid or title in self.titles:
                continue
            self.titles.add(title)
            year = self.rng.randint(*years)
            venue = (
                f"arXiv preprint arXiv:{year % 100:02d}{self.rng.randint(1, 12):02d}."
                f"{self.rng.randint(1000, 19999):05d}"
                if self.rng.random() < 0.2
                else self.rng.choice(REFERENCE_VENUES)
            )
            return CitedWork(key, self.people(1, 4), title, venue, year, concept=concept)
