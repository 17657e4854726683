"""The page flow: a cursor over pages and columns that draws every block and float and
records where each one landed."""

from __future__ import annotations

from collections import deque

from littrace.synth.plan import (
    AlgorithmSpec,
    EquationSpec,
    FigureSpec,
    PaperPlan,
    TableSpec,
    format_value,
)
from littrace.synth.prose import Heading, Paragraph
from littrace.synth.render.floats import Float, TableLayout, figure_height, table_layout
from littrace.synth.render.page import (
    BLACK,
    BODY_LEADING,
    BODY_SIZE,
    BOTTOM,
    COLUMNS,
    FLOAT_GAP,
    FOOTER_BASELINE,
    GREY,
    HEADER_BASELINE,
    PALETTE,
    SMALL_LEADING,
    SMALL_SIZE,
    TOP,
    BBox,
    Color,
    LineOp,
    Op,
    PolylineOp,
    RectOp,
    TextOp,
    text_width,
    wrap,
)
from littrace.synth.render.placed import (
    PlacedObject,
    PlacedReference,
    PlacedSection,
    PlacedSentence,
)


class Layout:
    """The page flow: a cursor (page, column, y), the drawing ops per page, and the gold."""

    def __init__(self, plan: PaperPlan, header: str) -> None:
        self.plan = plan
        self.header = header
        self.columns = COLUMNS[plan.layout]
        self.pages: list[list[Op]] = []
        self.column_tops: list[float] = []
        self.col = 0
        self.y = TOP
        self.section = ""
        self.pending: deque[Float] = deque()
        self.objects: list[PlacedObject] = []
        self.sentences: list[PlacedSentence] = []
        self.references: list[PlacedReference] = []
        self.sections: list[PlacedSection] = []
        self.split_captions: dict[str, tuple[int, str]] = {}
        self._new_page()

    # -- pages and columns
    @property
    def page(self) -> int:
        return len(self.pages)

    @property
    def ops(self) -> list[Op]:
        return self.pages[-1]

    @property
    def x0(self) -> float:
        return self.columns[self.col][0]

    @property
    def x1(self) -> float:
        return self.columns[self.col][1]

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    def _new_page(self) -> None:
        self.pages.append([])
        left, right = self.columns[0][0], self.columns[-1][1]
        self._centered(self.header, left, right, HEADER_BASELINE, "helv", 8.0, GREY)
        self.ops.append(LineOp(left, HEADER_BASELINE + 5, right, HEADER_BASELINE + 5, 0.4, GREY))
        self.col = 0
        self.y = TOP
        self.column_tops = [TOP] * len(self.columns)

    def _centered(
        self,
        text: str,
        x0: float,
        x1: float,
        baseline: float,
        font: str,
        size: float,
        color: Color = BLACK,
    ) -> None:
        w = text_width(text, font, size)
        self.ops.append(TextOp(x0 + (x1 - x0 - w) / 2, baseline, text, font, size, color))

    def footers(self) -> None:
        """Page numbers, drawn last so that they end each page's text as in LaTeX output."""
        left, right = self.columns[0][0], self.columns[-1][1]
        for number, ops in enumerate(self.pages, start=1):
            w = text_width(str(number), "helv", 9.0)
            ops.append(
                TextOp(left + (right - left - w) / 2, FOOTER_BASELINE, str(number), "helv", 9.0)
            )

    def next_column(self) -> None:
        if self.col + 1 < len(self.columns):
            self.col += 1
            self.y = self.column_tops[self.col]
        else:
            self._new_page()
        # Deferred floats go to the top of the new column, in their original order.
        while self.pending and self.pending[0].height(self.width) <= BOTTOM - self.y:
            self._place(self.pending.popleft())

    def _at_column_top(self) -> bool:
        return self.y <= self.column_tops[self.col] + 0.1

    def ensure(self, height: float) -> None:
        if self.y + height > BOTTOM and not self._at_column_top():
            self.next_column()

    def text_line(
        self,
        text: str,
        font: str,
        size: float,
        leading: float,
        indent: float = 0.0,
        center: bool = False,
    ) -> BBox:
        self.ensure(leading)
        w = text_width(text, font, size)
        x = self.x0 + (self.width - w) / 2 if center else self.x0 + indent
        self.ops.append(TextOp(x, self.y + size, text, font, size))
        box = (x, self.y, x + w, self.y + leading)
        self.y += leading
        return box

    # -- title page
    def title_block(self) -> None:
        plan = self.plan
        left, right = self.columns[0][0], self.columns[-1][1]
        y = 78.0
        for line in wrap(plan.title, right - left - 40, "tibo", 16.0):
            self._centered(line, left, right, y + 16, "tibo", 16.0)
            y += 20
        y += 6
        for line in wrap(", ".join(plan.authors), right - left - 60, "tiro", 11.0):
            self._centered(line, left, right, y + 11, "tiro", 11.0)
            y += 14
        self._centered(plan.affiliation, left, right, y + 10, "tiit", 10.0)
        y += 30
        self.column_tops = [y] * len(self.columns)
        self.y = y

    def abstract(self) -> None:
        self.sections.append(PlacedSection("", "Abstract", self.page, 1))
        self.text_line("Abstract", "tibo", 12.0, 16.0, center=True)
        inset = 36.0 if len(self.columns) == 1 else 0.0
        for line in wrap(self.plan.abstract, self.width - 2 * inset, "tiro", BODY_SIZE):
            self.text_line(line, "tiro", BODY_SIZE, BODY_LEADING, indent=inset)
        self.y += 6

    # -- body blocks
    def heading(self, heading: Heading) -> None:
        size, leading, before = (12.0, 16.0, 8.0) if heading.level == 1 else (10.5, 14.0, 4.0)
        # Keep a heading with the first lines of its section.
        self.ensure(before + leading + 3 * BODY_LEADING)
        if not self._at_column_top():
            self.y += before
        self.text_line(heading.label, "tibo", size, leading)
        self.section = heading.label
        self.sections.append(PlacedSection(heading.number, heading.title, self.page, heading.level))

    def paragraph(self, paragraph: Paragraph) -> None:
        words: list[tuple[str, int]] = [
            (word, i)
            for i, sentence in enumerate(paragraph.sentences)
            for word in sentence.text.split()
        ]
        indent = 10.0 if paragraph.indent else 0.0
        lines = wrap(" ".join(word for word, _ in words), self.width, "tiro", BODY_SIZE, indent)
        spans: dict[int, list[tuple[int, int]]] = {}
        start_section = self.section
        position = 0
        for n, line in enumerate(lines):
            self.text_line(line, "tiro", BODY_SIZE, BODY_LEADING, indent=indent if n == 0 else 0.0)
            count = len(line.split())
            for _, sentence_no in words[position : position + count]:
                spans.setdefault(sentence_no, []).append((self.page, self.col))
            position += count
        self.y += 3.0
        for i, sentence in enumerate(paragraph.sentences):
            where = spans[i]
            self.sentences.append(
                PlacedSentence(
                    sentence.text,
                    sentence.key,
                    sentence.labels,
                    where[0][0],
                    tuple(sorted({page for page, _ in where})),
                    len(set(where)) == 1,
                    start_section,
                )
            )
        self.pending.extend(Float(spec) for spec in paragraph.floats)
        self.flush()

    def equation(self, spec: EquationSpec) -> None:
        number = spec.object_id
        size = BODY_SIZE
        room = self.width - text_width(number, "tiro", BODY_SIZE) - 16
        while text_width(spec.text, "tiit", size) > room and size > 7.0:
            size -= 0.5
        height = BODY_LEADING + 8
        self.ensure(height)
        w = text_width(spec.text, "tiit", size)
        x = self.x0 + (room - w) / 2 + 4
        baseline = self.y + 4 + BODY_SIZE
        self.ops.append(TextOp(x, baseline, spec.text, "tiit", size))
        number_x = self.x1 - text_width(number, "tiro", BODY_SIZE)
        self.ops.append(TextOp(number_x, baseline, number, "tiro", BODY_SIZE))
        self.objects.append(
            PlacedObject(
                "equation",
                number,
                str(spec.number),
                self.page,
                self.page,
                "",
                (round(x, 2), round(self.y + 2, 2), self.x1, round(self.y + height - 2, 2)),
                text=spec.text,
            )
        )
        self.y += height

    # -- floats
    def flush(self) -> None:
        while self.pending:
            head = self.pending[0]
            room = BOTTOM - self.y
            if head.height(self.width) <= room:
                self._place(self.pending.popleft())
                continue
            spec = head.spec
            last_column = self.col == len(self.columns) - 1
            if (
                isinstance(spec, TableSpec)
                and spec.may_split
                and last_column
                and not self._at_column_top()
                and head.caption_height(self.width) + 4 <= room
            ):
                # Caption at the foot of this page, grid at the top of the next one; the
                # page break comes first so no other float can slip in between.
                self._draw_caption(head, self.y)
                self.split_captions[spec.object_id] = (self.page, spec.caption)
                self.pending.popleft()
                self._new_page()
                self._place(head, body_only=True)
                continue
            break

    def flush_all(self) -> None:
        while self.pending:
            if self.pending[0].height(self.width) <= BOTTOM - self.y:
                self._place(self.pending.popleft())
            else:
                self.next_column()

    def _draw_caption(self, item: Float, y: float) -> float:
        width = self.width
        lines = item.caption_lines(width)
        for i, line in enumerate(lines):
            self.ops.append(
                TextOp(self.x0, y + i * SMALL_LEADING + SMALL_SIZE, line, "tiro", SMALL_SIZE)
            )
        return len(lines) * SMALL_LEADING

    def _place(self, item: Float, body_only: bool = False) -> None:
        spec, width, y = item.spec, self.width, self.y
        if isinstance(spec, TableSpec):
            if not body_only:
                y += self._draw_caption(item, y) + 4
            layout = table_layout(spec, width)
            bbox = self._draw_table(spec, layout, y)
            caption_page = self.split_captions.get(spec.object_id, (self.page, ""))[0]
            cells = (spec.header, *spec.rows)
            self.objects.append(
                PlacedObject(
                    "table",
                    spec.object_id,
                    str(spec.number),
                    self.page,
                    caption_page,
                    spec.caption,
                    bbox,
                    split=body_only,
                    text="\n".join("\t".join(row) for row in cells),
                    cells=cells,
                )
            )
            y += layout.height
        elif isinstance(spec, FigureSpec):
            height = figure_height(spec)
            bbox = self._draw_figure(spec, y, height)
            y += height + 4
            y += self._draw_caption(item, y)
            self.objects.append(
                PlacedObject(
                    "figure",
                    spec.object_id,
                    str(spec.number),
                    self.page,
                    self.page,
                    spec.caption,
                    bbox,
                )
            )
        else:
            bbox = self._draw_algorithm(spec, y)
            y = bbox[3]
            self.objects.append(
                PlacedObject(
                    "algorithm",
                    spec.object_id,
                    str(spec.number),
                    self.page,
                    self.page,
                    spec.caption,
                    bbox,
                    text="\n".join(f"{i}: {step}" for i, (_, step) in enumerate(spec.steps, 1)),
                )
            )
        self.y = y + FLOAT_GAP

    # -- object drawing
    def _draw_table(self, spec: TableSpec, layout: TableLayout, y: float) -> BBox:
        x = self.x0 + (self.width - layout.total_width) / 2
        right = x + layout.total_width
        size, row_h = layout.font_size, layout.row_height
        rows = (spec.header, *spec.rows)
        top = y
        self.ops.append(LineOp(x, top, right, top, 0.8))
        for r, row in enumerate(rows):
            cy = top + r * row_h
            cx = x
            bold = r == 0 or r - 1 == spec.bold_row
            font = "hebo" if bold else "helv"
            for c, cell in enumerate(row):
                cw = layout.widths[c]
                w = text_width(cell, font, size)
                tx = cx + 4 if c == 0 else cx + (cw - w) / 2
                self.ops.append(TextOp(tx, cy + row_h - 3, cell, font, size))
                cx += cw
            if r == 0 or spec.grid_lines:
                self.ops.append(LineOp(x, cy + row_h, right, cy + row_h, 0.5))
        bottom = top + len(rows) * row_h
        self.ops.append(LineOp(x, bottom, right, bottom, 0.8))
        if spec.grid_lines:
            cx = x
            for cw in (0.0, *layout.widths):
                cx += cw
                self.ops.append(LineOp(cx, top, cx, bottom, 0.5))
        return (round(x, 2), round(top, 2), round(right, 2), round(bottom, 2))

    def _draw_algorithm(self, spec: AlgorithmSpec, y: float) -> BBox:
        x0, x1 = self.x0, self.x1
        size = SMALL_SIZE - 0.5
        lines = [(indent, f"{i}: {step}") for i, (indent, step) in enumerate(spec.steps, 1)]
        while (
            max(text_width(t, "tiro", size) + 12 * d for d, t in lines) > x1 - x0 - 8 and size > 6.5
        ):
            size -= 0.5
        top = y + 4
        self.ops.append(LineOp(x0, top, x1, top, 0.9))
        self.ops.append(TextOp(x0 + 2, top + 2 + 9.0, spec.caption, "tibo", 9.0))
        rule = top + 15
        self.ops.append(LineOp(x0, rule, x1, rule, 0.5))
        ly = rule + 2
        for indent, text in lines:
            self.ops.append(TextOp(x0 + 4 + 12 * indent, ly + size, text, "tiro", size))
            ly += SMALL_LEADING
        bottom = ly + 4
        self.ops.append(LineOp(x0, bottom, x1, bottom, 0.9))
        return (x0, round(top, 2), x1, round(bottom, 2))

    def _draw_figure(self, spec: FigureSpec, y: float, height: float) -> BBox:
        width = min(self.width, 240.0)
        x0 = self.x0 + (self.width - width) / 2
        box = (x0, y, x0 + width, y + height)
        if spec.role == "diagram":
            self._diagram(spec, box)
        elif spec.role == "line":
            self._line_chart(spec, box)
        elif spec.role == "bar":
            self._bar_chart(spec, box)
        else:
            self._panels(spec, box)
        return (round(box[0], 2), round(box[1], 2), round(box[2], 2), round(box[3], 2))

    def _diagram(self, spec: FigureSpec, box: BBox) -> None:
        x0, y0, x1, _ = box
        bw, bh, gap = 130.0, 16.0, 10.0
        bx = x0 + (x1 - x0 - bw) / 2
        for i, module in enumerate(spec.modules):
            top = y0 + 4 + i * (bh + gap)
            self.ops.append(
                RectOp(
                    (bx, top, bx + bw, top + bh),
                    PALETTE[i % len(PALETTE)]
                    if 0 < i < len(spec.modules) - 1
                    else (0.92, 0.92, 0.92),
                )
            )
            w = text_width(module, "helv", 7.5)
            self.ops.append(TextOp(bx + (bw - w) / 2, top + 11, module, "helv", 7.5))
            if i + 1 < len(spec.modules):
                cx = bx + bw / 2
                self.ops.append(LineOp(cx, top + bh, cx, top + bh + gap - 3, 0.8))
                tip = top + bh + gap
                self.ops.append(
                    PolylineOp(
                        ((cx - 2.5, tip - 3), (cx + 2.5, tip - 3), (cx, tip), (cx - 2.5, tip - 3)),
                        BLACK,
                        0.5,
                        BLACK,
                    )
                )

    def _axes(self, plot: BBox, low: float, high: float, decimals: int, y_label: str) -> None:
        px0, py0, px1, py1 = plot
        self.ops.append(LineOp(px0, py0, px0, py1, 0.6))
        self.ops.append(LineOp(px0, py1, px1, py1, 0.6))
        for k in range(3):
            value = low + (high - low) * k / 2
            ty = py1 - (py1 - py0) * k / 2
            label = format_value(value, decimals)
            lw = text_width(label, "helv", 5.5)
            self.ops.append(LineOp(px0 - 2, ty, px0, ty, 0.5))
            self.ops.append(TextOp(px0 - 3 - lw, ty + 2, label, "helv", 5.5, GREY))
        lw = text_width(y_label, "helv", 6.0)
        middle = (py0 + py1) / 2 + lw / 2
        self.ops.append(TextOp(px0 - 22, middle, y_label, "helv", 6.0, GREY, rotate=90))

    def _bars(
        self,
        plot: BBox,
        labels: tuple[str, ...],
        values: tuple[float, ...],
        decimals: int,
        low: float,
        high: float,
    ) -> None:
        """Bars with their values printed on top and, if ``labels``, names underneath."""
        px0, py0, px1, py1 = plot
        self.ops.append(LineOp(px0, py1, px1, py1, 0.6))
        slot = (px1 - px0) / len(values)
        for i, value in enumerate(values):
            bx0 = px0 + i * slot + slot * 0.2
            bx1 = bx0 + slot * 0.6
            top = py1 - (py1 - py0) * (value - low) / (high - low)
            self.ops.append(RectOp((bx0, top, bx1, py1), PALETTE[i % len(PALETTE)], None))
            text = format_value(value, decimals)
            tw = text_width(text, "helv", 5.5)
            self.ops.append(TextOp((bx0 + bx1 - tw) / 2, top - 2, text, "helv", 5.5))
            if labels:
                lw = text_width(labels[i], "helv", 6.0)
                self.ops.append(TextOp((bx0 + bx1 - lw) / 2, py1 + 9, labels[i], "helv", 6.0))

    def _bar_chart(self, spec: FigureSpec, box: BBox) -> None:
        x0, y0, x1, y1 = box
        plot = (x0 + 32, y0 + 10, x1 - 4, y1 - 14)
        values = tuple(series.values[0] for series in spec.series)
        low, high = min(values) * 0.8, max(values) * 1.05
        self._axes(plot, low, high, spec.decimals, spec.y_label)
        names = tuple(series.name for series in spec.series)
        self._bars(plot, names, values, spec.decimals, low, high)

    def _panels(self, spec: FigureSpec, box: BBox) -> None:
        """Side-by-side bar charts under one legend; panels have no tick labels (no room)."""
        x0, y0, x1, y1 = box
        lx = x0 + 6
        for i, series in enumerate(spec.series):
            self.ops.append(RectOp((lx, y0 + 2, lx + 6, y0 + 8), PALETTE[i], None))
            self.ops.append(TextOp(lx + 8, y0 + 8, series.name, "helv", 6.0))
            lx += 14 + text_width(series.name, "helv", 6.0)
        values = [v for series in spec.series for v in series.values]
        low, high = min(values) * 0.8, max(values) * 1.05
        pw = (x1 - x0) / len(spec.panel_titles)
        for p, title in enumerate(spec.panel_titles):
            plot = (x0 + p * pw + 6, y0 + 22, x0 + (p + 1) * pw - 4, y1 - 14)
            self.ops.append(LineOp(plot[0], plot[1], plot[0], plot[3], 0.6))
            panel_values = tuple(series.values[p] for series in spec.series)
            self._bars(plot, (), panel_values, spec.decimals, low, high)
            tw = text_width(title, "helv", 6.5)
            self.ops.append(TextOp((plot[0] + plot[2] - tw) / 2, y1 - 3, title, "helv", 6.5))

    def _line_chart(self, spec: FigureSpec, box: BBox) -> None:
        x0, y0, x1, y1 = box
        plot = (x0 + 30, y0 + 14, x1 - 6, y1 - 20)
        values = [v for series in spec.series for v in series.values]
        span = max(values) - min(values) or 1.0
        low, high = min(values) - 0.15 * span, max(values) + 0.2 * span
        self._axes(plot, low, high, spec.decimals, spec.y_label)
        n = len(spec.x_ticks)
        xs = [plot[0] + (plot[2] - plot[0]) * (i + 0.5) / n for i in range(n)]

        def y_of(v: float) -> float:
            return plot[3] - (plot[3] - plot[1]) * (v - low) / (high - low)

        for tick, x in zip(spec.x_ticks, xs, strict=True):
            tw = text_width(tick, "helv", 6.0)
            self.ops.append(TextOp(x - tw / 2, plot[3] + 8, tick, "helv", 6.0))
        lw = text_width(spec.x_label, "helv", 6.5)
        self.ops.append(
            TextOp((plot[0] + plot[2] - lw) / 2, y1 - 2, spec.x_label, "helv", 6.5, GREY)
        )
        for s, series in enumerate(spec.series):
            color = PALETTE[s]
            points = tuple((x, y_of(v)) for x, v in zip(xs, series.values, strict=True))
            self.ops.append(PolylineOp(points, color, 1.0))
            for px, py in points:
                self.ops.append(RectOp((px - 1.5, py - 1.5, px + 1.5, py + 1.5), color, None))
            legend_x = plot[0] + 6 + s * (plot[2] - plot[0]) / 2
            self.ops.append(LineOp(legend_x, y0 + 5, legend_x + 10, y0 + 5, 1.2, color))
            self.ops.append(TextOp(legend_x + 13, y0 + 7, series.name, "helv", 6.0))
        # Value labels: the higher point of each tick is labelled above, the lower below,
        # so labels of two series never overlap.
        for i, x in enumerate(xs):
            ranked = sorted(range(len(spec.series)), key=lambda k: -spec.series[k].values[i])
            for rank, k in enumerate(ranked):
                value = spec.series[k].values[i]
                text = format_value(value, spec.decimals)
                tw = text_width(text, "helv", 5.0)
                dy = -3.0 if rank == 0 else 8.0
                self.ops.append(TextOp(x - tw / 2, y_of(value) + dy, text, "helv", 5.0, PALETTE[k]))

    # -- references
    def reference_list(self) -> None:
        self.heading(Heading("", "References", 1))
        plan = self.plan
        hang = 14.0
        for label, ref in enumerate(plan.references, start=1):
            raw = ref.entry(label, plan.full_name_references)
            lines = wrap(raw, self.width - hang, "tiro", SMALL_SIZE)
            # An entry is never split across columns, so its page is unambiguous.
            self.ensure(len(lines) * SMALL_LEADING + 3)
            page = self.page
            for i, line in enumerate(lines):
                self.text_line(line, "tiro", SMALL_SIZE, SMALL_LEADING, indent=hang if i else 0.0)
            self.y += 3
            self.references.append(
                PlacedReference(
                    label, page, raw, ref.first_author_surname, ref.title, ref.year, ref.key
                )
            )
