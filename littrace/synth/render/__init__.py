"""Lay out a synthetic paper on US-Letter pages and draw it as a PDF with PyMuPDF.

The layout is done here, not by PyMuPDF's text boxes, so that every line, object and
reference has a known page and position: those become the gold. Pages have a running
header (the venue line), a centred page number as footer, a title block on page 1, and
one or two text columns. Tables, figures and the algorithm are floats: placed after the
paragraph that mentions them if they fit, otherwise at the top of the next column (so some
land on a later page than their mention); a table whose caption fits at the bottom of a
page but whose grid does not may be split, caption here and grid on the next page.
Display equations stay in the text flow with their number ``(n)`` at the right margin.

Only the PDF standard fonts are used (Times for text, Helvetica for tables and figure
labels), so rendering needs no font files, and the document metadata is fixed so the same
plan gives byte-identical PDFs.

Example:
    >>> import random
    >>> from littrace.synth.plan import plan_corpus
    >>> from littrace.synth.prose import paper_body
    >>> plan = plan_corpus(random.Random(0), 3).papers[0]
    >>> paper = render_paper(plan, paper_body(plan, random.Random(1), verbosity=3))
    >>> paper.pdf[:5], 1 <= paper.objects[0].page <= paper.n_pages
    (b'%PDF-', True)
"""

from littrace.synth.render.pdf import render_paper
from littrace.synth.render.placed import PlacedSentence, RenderedPaper

__all__ = ["PlacedSentence", "RenderedPaper", "render_paper"]
