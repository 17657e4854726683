"""Paper plans (everything a paper states, training facts included), the pool's metadata-only
distractors, and the corpus plan that holds them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from littrace.synth.plan.objects import (
    AlgorithmSpec,
    CitedWork,
    EquationRole,
    EquationSpec,
    FigureSpec,
    TableRole,
    TableSpec,
)
from littrace.synth.plan.text import PRESENT
from littrace.synth.vocabulary import Topic

LayoutKind = Literal["one_column", "two_column"]


@dataclass(frozen=True, slots=True)
class Facts:
    """Training details stated once in the paper's setup section."""

    hardware: str
    optimizer: str
    learning_rate: str
    batch_size: int
    epochs: int
    momentum: str
    align_weight: str
    reg_weight: str


@dataclass(slots=True)
class PaperPlan:
    """Everything a paper states, before prose and layout."""

    index: int
    paper_id: str
    line: int
    topic: Topic
    method: str
    phrase: str
    title: str
    authors: tuple[str, ...]
    affiliation: str
    venue: str
    year: int
    layout: LayoutKind
    datasets: tuple[str, ...]
    components: tuple[str, str, str]
    facts: Facts
    decimals: int
    abstract: str = ""
    pool_title: str = ""
    prior: tuple[PaperPlan, ...] = ()
    references: tuple[CitedWork, ...] = ()
    tables: tuple[TableSpec, ...] = ()
    figures: tuple[FigureSpec, ...] = ()
    equations: tuple[EquationSpec, ...] = ()
    algorithm: AlgorithmSpec | None = None
    full_name_references: bool = False
    own_scores: dict[str, float] = field(default_factory=dict)

    @property
    def present_phrase(self) -> str:
        verb, rest = self.phrase.split(" ", 1)
        return f"{PRESENT[verb]} {rest.lower()}"

    def label_of(self, key: str) -> int:
        """The printed label of the reference with ``key`` (labels follow list order)."""
        return next(i for i, ref in enumerate(self.references, start=1) if ref.key == key)

    def table(self, role: TableRole) -> TableSpec | None:
        return next((table for table in self.tables if table.role == role), None)

    def equation(self, role: EquationRole) -> EquationSpec | None:
        return next((eq for eq in self.equations if eq.role == role), None)


@dataclass(frozen=True, slots=True)
class MetadataOnlyPaper:
    """A pool distractor: metadata but no PDF."""

    paper_id: str
    title: str
    authors: tuple[str, ...]
    abstract: str
    venue: str
    year: int


@dataclass(frozen=True, slots=True)
class CorpusPlan:
    papers: tuple[PaperPlan, ...]
    lines: tuple[tuple[PaperPlan, ...], ...]
    distractors: tuple[MetadataOnlyPaper, ...]
