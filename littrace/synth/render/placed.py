"""What the layout reports: where each object, sentence, reference and section landed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from littrace.synth.plan import PaperPlan
from littrace.synth.render.page import BBox


@dataclass(frozen=True, slots=True)
class PlacedObject:
    """A rendered table, figure, equation or algorithm, as the gold describes it."""

    kind: Literal["table", "figure", "equation", "algorithm"]
    object_id: str
    number: str
    page: int
    caption_page: int
    caption: str
    bbox: BBox
    split: bool = False
    text: str = ""
    cells: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class PlacedSentence:
    """A body sentence with the pages it spans; ``one_block`` if it sits in one column run."""

    text: str
    key: str
    labels: tuple[int, ...]
    page: int
    pages: tuple[int, ...]
    one_block: bool
    section: str


@dataclass(frozen=True, slots=True)
class PlacedReference:
    label: int
    page: int
    raw: str
    first_author: str
    title: str
    year: int
    key: str


@dataclass(frozen=True, slots=True)
class PlacedSection:
    number: str
    title: str
    page: int
    level: int


@dataclass(frozen=True, slots=True)
class RenderedPaper:
    plan: PaperPlan
    pdf: bytes
    n_pages: int
    header: str
    objects: tuple[PlacedObject, ...]
    sentences: tuple[PlacedSentence, ...]
    references: tuple[PlacedReference, ...]
    sections: tuple[PlacedSection, ...]

    def placed(self, object_id: str) -> PlacedObject:
        return next(obj for obj in self.objects if obj.object_id == object_id)

    def sentence(self, key: str) -> PlacedSentence:
        return next(s for s in self.sentences if s.key == key)

    def reference(self, key: str) -> PlacedReference:
        return next(ref for ref in self.references if ref.key == key)
