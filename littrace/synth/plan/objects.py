"""What a paper cites and shows: bibliography entries and the specs of its tables, figures,
equations and algorithm."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from littrace.synth.plan.text import surname

TableRole = Literal["main", "ablation", "efficiency", "difficulty"]
FigureRole = Literal["diagram", "bar", "line", "panels"]
EquationRole = Literal["score", "align", "total"]


@dataclass(frozen=True, slots=True)
class CitedWork:
    """One bibliography entry; ``concept`` is what the citing paper cites it for.

    ``key`` identifies the work across papers: two papers citing the same key print the
    same authors, title, venue and year, which is what bibliographic coupling looks for.
    """

    key: str
    authors: tuple[str, ...]
    title: str
    venue: str
    year: int
    concept: str = ""
    method: str = ""

    @property
    def first_author_surname(self) -> str:
        return surname(self.authors[0])

    def entry(self, label: int, full_names: bool) -> str:
        """The printed entry: ``[3] J. Smith, K. Lee, and M. Chen. Title. In ICML, 2021.``"""
        names = [name if full_names else f"{name[0]}. {surname(name)}" for name in self.authors]
        if len(names) == 1:
            people = names[0]
        elif len(names) == 2:
            people = f"{names[0]} and {names[1]}"
        else:
            people = ", ".join(names[:-1]) + f", and {names[-1]}"
        where = self.venue if self.venue.startswith("arXiv") else f"In {self.venue}"
        return f"[{label}] {people}. {self.title}. {where}, {self.year}."


# --- objects --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A results table: ``header[0]`` names the row-label column, ``rows`` hold printed cells."""

    number: int
    role: TableRole
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    bold_row: int
    grid_lines: bool
    may_split: bool

    @property
    def object_id(self) -> str:
        return f"Table {self.number}"

    def cell(self, row_label: str, column: str) -> str:
        row = next(row for row in self.rows if row[0] == row_label)
        return row[self.header.index(column)]


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class FigureSpec:
    """A drawn figure. Which fields matter depends on ``role``.

    diagram: ``modules`` top to bottom. bar: one bar per ``series`` entry (its single value).
    line: ``series`` over ``x_ticks``. panels: one bar chart per ``panel_titles`` entry,
    ``series`` giving each method's value in every panel.
    """

    number: int
    role: FigureRole
    caption: str
    decimals: int
    modules: tuple[str, ...] = ()
    series: tuple[Series, ...] = ()
    x_ticks: tuple[str, ...] = ()
    x_label: str = ""
    y_label: str = ""
    panel_titles: tuple[str, ...] = ()

    @property
    def object_id(self) -> str:
        return f"Figure {self.number}"


@dataclass(frozen=True, slots=True)
class EquationSpec:
    number: int
    role: EquationRole
    text: str

    @property
    def object_id(self) -> str:
        return f"({self.number})"


@dataclass(frozen=True, slots=True)
class AlgorithmSpec:
    number: int
    title: str
    steps: tuple[tuple[int, str], ...]  # (indent level, statement)

    @property
    def object_id(self) -> str:
        return f"Algorithm {self.number}"

    @property
    def caption(self) -> str:
        return f"{self.object_id}: {self.title}"
