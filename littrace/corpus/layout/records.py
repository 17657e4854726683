"""Working records of the layout steps: text lines while their pieces are joined
(:class:`Frag`), paragraphs in the making (:class:`Para`) and document statistics
(:class:`DocStats`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SECTION_NUMBER = re.compile(r"(?:\d{1,2}|[A-Z])(?:\.\d{1,2}){0,3}\.?|[IVX]{1,5}\.")


@dataclass(slots=True)
class Frag:
    """A working text line: mutable while pieces of one printed line are joined."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float
    font: str
    chars: int
    bold_chars: int
    italic_chars: int
    soft_end: bool = False
    # Gaps wider than a space between joined pieces (table cells, names side by side), not
    # counting one right after a leading section number ("1" and "Introduction").
    wide_gaps: int = 0
    # The text with superscripts and wide gaps turned into commas, when it has any: author
    # lines separate names that way ("Kyle Lo^α Zejiang Shen^β").
    unmarked: str = ""

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def bold_share(self) -> float:
        return self.bold_chars / self.chars if self.chars else 0.0

    @property
    def italic_share(self) -> float:
        return self.italic_chars / self.chars if self.chars else 0.0

    @property
    def plain(self) -> str:
        return self.unmarked or self.text

    def absorb(self, other: Frag) -> None:
        """Append ``other`` (to the right on the same printed line) to this line."""
        gap = other.x0 - self.x1
        joiner = "" if gap < 0.12 * self.size or self.text.endswith(" ") else " "
        wide = gap > 0.9 * self.size
        if wide and not (self.wide_gaps == 0 and _SECTION_NUMBER.fullmatch(self.text)):
            self.wide_gaps += 1
        if wide or self.unmarked or other.unmarked:
            self.unmarked = f"{self.plain}{', ' if wide else joiner}{other.plain}"
        self.text = f"{self.text}{joiner}{other.text}"
        if other.chars > self.chars:
            self.font = other.font
        if self.chars < 2 <= other.chars:
            self.size = other.size  # a lone mark or superscript came first
        elif other.chars >= 2:
            self.size = max(self.size, other.size)
        self.x0, self.y0 = min(self.x0, other.x0), min(self.y0, other.y0)
        self.x1, self.y1 = max(self.x1, other.x1), max(self.y1, other.y1)
        self.chars += other.chars
        self.bold_chars += other.bold_chars
        self.italic_chars += other.italic_chars
        self.soft_end = other.soft_end


@dataclass(slots=True)
class Para:
    """A paragraph in the making: its lines and what kind of block it is."""

    page: int
    lines: list[Frag]
    kind: str = "text"  # text | heading | caption, later title | authors | abstract
    number: str = ""
    title: str = ""
    level: int = 0


@dataclass(slots=True)
class DocStats:
    body_size: float = 10.0
    gap_ratio: float = 0.15  # usual space between lines of a paragraph, in font sizes
    vocab: set[str] = field(default_factory=set)
