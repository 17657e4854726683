"""Drawing the laid-out pages as a PDF, and :func:`render_paper`, which lays a paper out and
draws it."""

from __future__ import annotations

from typing import Any

import pymupdf

from littrace.synth.plan import PaperPlan
from littrace.synth.prose import Block, Heading, Paragraph
from littrace.synth.render.flow import Layout
from littrace.synth.render.page import PAGE_HEIGHT, PAGE_WIDTH, PDF_DATE, LineOp, Op, RectOp, TextOp
from littrace.synth.render.placed import RenderedPaper
from littrace.synth.vocabulary import VENUE_HEADERS


def write_pdf(pages: list[list[Op]], plan: PaperPlan) -> bytes:
    doc: Any = pymupdf.open()  # type: ignore[no-untyped-call]
    for ops in pages:
        page = doc.new_page(width=PAGE_WIDTH, height=PAGE_HEIGHT)
        shape = page.new_shape()
        for op in ops:
            if isinstance(op, TextOp):
                shape.insert_text(
                    (op.x, op.baseline),
                    op.text,
                    fontname=op.font,
                    fontsize=op.size,
                    color=op.color,
                    rotate=op.rotate,
                )
            elif isinstance(op, LineOp):
                shape.draw_line((op.x0, op.y0), (op.x1, op.y1))
                shape.finish(color=op.color, width=op.width)
            elif isinstance(op, RectOp):
                shape.draw_rect(op.bbox)
                shape.finish(color=op.stroke, fill=op.fill, width=op.width)
            else:
                shape.draw_polyline(op.points)
                shape.finish(
                    color=op.color, fill=op.fill, width=op.width, closePath=op.fill is not None
                )
        shape.commit()
    doc.set_metadata(
        {
            "title": plan.title,
            "author": ", ".join(plan.authors),
            "subject": f"{plan.venue} {plan.year}",
            "keywords": plan.topic.task,
            "creator": "littrace.synth",
            "producer": "littrace.synth",
            "creationDate": PDF_DATE,
            "modDate": PDF_DATE,
        }
    )
    data: bytes = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def render_paper(plan: PaperPlan, blocks: list[Block]) -> RenderedPaper:
    """Lay out ``blocks`` (from :func:`~littrace.synth.prose.paper_body`) and draw the PDF."""
    header = VENUE_HEADERS[plan.venue].format(year=plan.year)
    layout = Layout(plan, header)
    layout.title_block()
    layout.abstract()
    for block in blocks:
        if isinstance(block, Heading):
            layout.heading(block)
        elif isinstance(block, Paragraph):
            layout.paragraph(block)
        else:
            layout.equation(block)
    # Floats still waiting go before the reference list, as LaTeX's \clearpage would put them.
    layout.flush_all()
    layout.reference_list()
    layout.footers()
    order = {"table": 0, "figure": 1, "equation": 2, "algorithm": 3}
    objects = sorted(layout.objects, key=lambda o: (order[o.kind], int(o.number)))
    return RenderedPaper(
        plan=plan,
        pdf=write_pdf(layout.pages, plan),
        n_pages=len(layout.pages),
        header=header,
        objects=tuple(objects),
        sentences=tuple(layout.sentences),
        references=tuple(layout.references),
        sections=tuple(layout.sections),
    )
