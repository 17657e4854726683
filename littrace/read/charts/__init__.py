"""Read vector bar and line charts from a paper's PDF, and answer "which is best" from them.

A figure's graphic is read back from the drawing commands and words PyMuPDF reports inside its
box (:mod:`~littrace.read.charts.page`), by geometry alone (values printed on the chart are
not needed; :mod:`~littrace.read.charts.scaled`):

* the **y scale** from numeric tick labels right-aligned in a column left of the plot:
  ``value = a * y + b`` fitted through them (each label snapped to its tick mark when one is
  drawn), rejected unless every tick lies on the fitted line;
* **bars**: filled, non-white rectangles standing on a common baseline; a bar's value is its
  top edge through the scale; it is named by a legend entry of its fill colour (grouped bars,
  the group then named by the text under it) or else by the text centred under it;
* **lines**: chains of stroked segments of one colour; values at their vertices, each vertex
  named by the x tick label under it, the series by its legend entry (a short line or swatch
  of the same colour next to a text); a continuous curve (a training curve, a sweep: more
  vertices than ticks) has unnamed points, read from the panel the y scale is printed beside
  when side-by-side panels repeat it.

:func:`read_charts` returns the line and the bar chart of a figure (one panel may plot each).

:func:`chart_answer` then answers a multiple-choice question that asks for an extreme from the
located figure's chart: the extreme bar or series when the options name them, else the x tick
of the extreme point of the series the question names (or the only series); for a question
about where curves level off, each curve's last point.

Charts that print their values need no scale (:mod:`~littrace.read.charts.printed`):
:func:`printed_values` pairs each number printed at a bar's end (above it, or below a bar
hanging from the axis) with the names the chart gives that bar (the x label under it, upright
or slanted; its colour's legend entry; the panel title above it), :func:`coloured_values`
names each number printed in the colour of a legend entry by that entry (a curve labelled
with its fitted coefficient, wherever it sits), and :func:`printed_reading` takes the value
whose names the question says most of, the sentence that asks counting twice;
:func:`inside_values` names each number printed inside a filled shape (a stacked bar's
segment, a heatmap's cell) by its colour's legend entry and the label of its row (bars lying
down, with a label set on end beside a group of rows) or of its column (bars standing).
:func:`attached_label` answers which of a figure's labels tags the words a question quotes
from it (a diagram tagging spans of an example paragraph): the label printed nearest them.
:func:`labelled_values` reads a figure that prints each value under or after its own label
(the categories around a ring chart with their sizes) as a small table of label and value.

Example:
    >>> chart = read_chart("paper.pdf", 4, (186.0, 248.5, 426.0, 368.5))  # doctest: +SKIP
    >>> [(s.name, s.points[0].value) for s in chart.series]  # doctest: +SKIP
    [('IPO-S', 34.6), ('KTO-Lite', 34.4), ('ScaleRouter', 15.2), ('FlowMixer', 13.7)]
"""

from littrace.read.charts.answer import chart_answer, extreme_option
from littrace.read.charts.labels import attached_label
from littrace.read.charts.printed import (
    coloured_values,
    inside_values,
    labelled_values,
    printed_reading,
    printed_values,
)
from littrace.read.charts.scaled import Chart, Point, Series, read_chart, read_charts

__all__ = [
    "Chart",
    "Point",
    "Series",
    "attached_label",
    "chart_answer",
    "coloured_values",
    "extreme_option",
    "inside_values",
    "labelled_values",
    "printed_reading",
    "printed_values",
    "read_chart",
    "read_charts",
]
